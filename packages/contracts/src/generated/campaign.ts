import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { AuthenticateRequest as _campaign_v1_AuthenticateRequest, AuthenticateRequest__Output as _campaign_v1_AuthenticateRequest__Output } from './campaign/v1/AuthenticateRequest';
import type { AuthenticateResponse as _campaign_v1_AuthenticateResponse, AuthenticateResponse__Output as _campaign_v1_AuthenticateResponse__Output } from './campaign/v1/AuthenticateResponse';
import type { CampaignServiceClient as _campaign_v1_CampaignServiceClient, CampaignServiceDefinition as _campaign_v1_CampaignServiceDefinition } from './campaign/v1/CampaignService';
import type { CreateCampaignRequest as _campaign_v1_CreateCampaignRequest, CreateCampaignRequest__Output as _campaign_v1_CreateCampaignRequest__Output } from './campaign/v1/CreateCampaignRequest';
import type { CreateCampaignResponse as _campaign_v1_CreateCampaignResponse, CreateCampaignResponse__Output as _campaign_v1_CreateCampaignResponse__Output } from './campaign/v1/CreateCampaignResponse';
import type { DeleteCampaignRequest as _campaign_v1_DeleteCampaignRequest, DeleteCampaignRequest__Output as _campaign_v1_DeleteCampaignRequest__Output } from './campaign/v1/DeleteCampaignRequest';
import type { DeleteCampaignResponse as _campaign_v1_DeleteCampaignResponse, DeleteCampaignResponse__Output as _campaign_v1_DeleteCampaignResponse__Output } from './campaign/v1/DeleteCampaignResponse';
import type { ExportCampaignsChunk as _campaign_v1_ExportCampaignsChunk, ExportCampaignsChunk__Output as _campaign_v1_ExportCampaignsChunk__Output } from './campaign/v1/ExportCampaignsChunk';
import type { ExportCampaignsRequest as _campaign_v1_ExportCampaignsRequest, ExportCampaignsRequest__Output as _campaign_v1_ExportCampaignsRequest__Output } from './campaign/v1/ExportCampaignsRequest';
import type { GetCampaignRequest as _campaign_v1_GetCampaignRequest, GetCampaignRequest__Output as _campaign_v1_GetCampaignRequest__Output } from './campaign/v1/GetCampaignRequest';
import type { GetCampaignResponse as _campaign_v1_GetCampaignResponse, GetCampaignResponse__Output as _campaign_v1_GetCampaignResponse__Output } from './campaign/v1/GetCampaignResponse';
import type { ListCampaignsRequest as _campaign_v1_ListCampaignsRequest, ListCampaignsRequest__Output as _campaign_v1_ListCampaignsRequest__Output } from './campaign/v1/ListCampaignsRequest';
import type { ListCampaignsResponse as _campaign_v1_ListCampaignsResponse, ListCampaignsResponse__Output as _campaign_v1_ListCampaignsResponse__Output } from './campaign/v1/ListCampaignsResponse';
import type { Permissions as _campaign_v1_Permissions, Permissions__Output as _campaign_v1_Permissions__Output } from './campaign/v1/Permissions';
import type { PickWinnerRequest as _campaign_v1_PickWinnerRequest, PickWinnerRequest__Output as _campaign_v1_PickWinnerRequest__Output } from './campaign/v1/PickWinnerRequest';
import type { PickWinnerResponse as _campaign_v1_PickWinnerResponse, PickWinnerResponse__Output as _campaign_v1_PickWinnerResponse__Output } from './campaign/v1/PickWinnerResponse';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  campaign: {
    v1: {
      AuthenticateRequest: MessageTypeDefinition<_campaign_v1_AuthenticateRequest, _campaign_v1_AuthenticateRequest__Output>
      AuthenticateResponse: MessageTypeDefinition<_campaign_v1_AuthenticateResponse, _campaign_v1_AuthenticateResponse__Output>
      CampaignService: SubtypeConstructor<typeof grpc.Client, _campaign_v1_CampaignServiceClient> & { service: _campaign_v1_CampaignServiceDefinition }
      CreateCampaignRequest: MessageTypeDefinition<_campaign_v1_CreateCampaignRequest, _campaign_v1_CreateCampaignRequest__Output>
      CreateCampaignResponse: MessageTypeDefinition<_campaign_v1_CreateCampaignResponse, _campaign_v1_CreateCampaignResponse__Output>
      DeleteCampaignRequest: MessageTypeDefinition<_campaign_v1_DeleteCampaignRequest, _campaign_v1_DeleteCampaignRequest__Output>
      DeleteCampaignResponse: MessageTypeDefinition<_campaign_v1_DeleteCampaignResponse, _campaign_v1_DeleteCampaignResponse__Output>
      ExportCampaignsChunk: MessageTypeDefinition<_campaign_v1_ExportCampaignsChunk, _campaign_v1_ExportCampaignsChunk__Output>
      ExportCampaignsRequest: MessageTypeDefinition<_campaign_v1_ExportCampaignsRequest, _campaign_v1_ExportCampaignsRequest__Output>
      GetCampaignRequest: MessageTypeDefinition<_campaign_v1_GetCampaignRequest, _campaign_v1_GetCampaignRequest__Output>
      GetCampaignResponse: MessageTypeDefinition<_campaign_v1_GetCampaignResponse, _campaign_v1_GetCampaignResponse__Output>
      ListCampaignsRequest: MessageTypeDefinition<_campaign_v1_ListCampaignsRequest, _campaign_v1_ListCampaignsRequest__Output>
      ListCampaignsResponse: MessageTypeDefinition<_campaign_v1_ListCampaignsResponse, _campaign_v1_ListCampaignsResponse__Output>
      Permissions: MessageTypeDefinition<_campaign_v1_Permissions, _campaign_v1_Permissions__Output>
      PickWinnerRequest: MessageTypeDefinition<_campaign_v1_PickWinnerRequest, _campaign_v1_PickWinnerRequest__Output>
      PickWinnerResponse: MessageTypeDefinition<_campaign_v1_PickWinnerResponse, _campaign_v1_PickWinnerResponse__Output>
    }
  }
}

