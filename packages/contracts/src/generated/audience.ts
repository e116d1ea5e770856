import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { AudienceClient as _delivery_v1_AudienceClient, AudienceDefinition as _delivery_v1_AudienceDefinition } from './delivery/v1/Audience';
import type { CountAudienceRequest as _delivery_v1_CountAudienceRequest, CountAudienceRequest__Output as _delivery_v1_CountAudienceRequest__Output } from './delivery/v1/CountAudienceRequest';
import type { CountAudienceResponse as _delivery_v1_CountAudienceResponse, CountAudienceResponse__Output as _delivery_v1_CountAudienceResponse__Output } from './delivery/v1/CountAudienceResponse';
import type { DeletedPerson as _delivery_v1_DeletedPerson, DeletedPerson__Output as _delivery_v1_DeletedPerson__Output } from './delivery/v1/DeletedPerson';
import type { ExportChunk as _delivery_v1_ExportChunk, ExportChunk__Output as _delivery_v1_ExportChunk__Output } from './delivery/v1/ExportChunk';
import type { ExportSubscribersRequest as _delivery_v1_ExportSubscribersRequest, ExportSubscribersRequest__Output as _delivery_v1_ExportSubscribersRequest__Output } from './delivery/v1/ExportSubscribersRequest';
import type { FrequencyCap as _delivery_v1_FrequencyCap, FrequencyCap__Output as _delivery_v1_FrequencyCap__Output } from './delivery/v1/FrequencyCap';
import type { FrequencyCapAnswer as _delivery_v1_FrequencyCapAnswer, FrequencyCapAnswer__Output as _delivery_v1_FrequencyCapAnswer__Output } from './delivery/v1/FrequencyCapAnswer';
import type { GetOptInFunnelRequest as _delivery_v1_GetOptInFunnelRequest, GetOptInFunnelRequest__Output as _delivery_v1_GetOptInFunnelRequest__Output } from './delivery/v1/GetOptInFunnelRequest';
import type { ImportRefusal as _delivery_v1_ImportRefusal, ImportRefusal__Output as _delivery_v1_ImportRefusal__Output } from './delivery/v1/ImportRefusal';
import type { ImportSubscriptionsRequest as _delivery_v1_ImportSubscriptionsRequest, ImportSubscriptionsRequest__Output as _delivery_v1_ImportSubscriptionsRequest__Output } from './delivery/v1/ImportSubscriptionsRequest';
import type { ImportSubscriptionsResponse as _delivery_v1_ImportSubscriptionsResponse, ImportSubscriptionsResponse__Output as _delivery_v1_ImportSubscriptionsResponse__Output } from './delivery/v1/ImportSubscriptionsResponse';
import type { NameCount as _delivery_v1_NameCount, NameCount__Output as _delivery_v1_NameCount__Output } from './delivery/v1/NameCount';
import type { NameCounts as _delivery_v1_NameCounts, NameCounts__Output as _delivery_v1_NameCounts__Output } from './delivery/v1/NameCounts';
import type { OptInCounts as _delivery_v1_OptInCounts, OptInCounts__Output as _delivery_v1_OptInCounts__Output } from './delivery/v1/OptInCounts';
import type { OptInFunnel as _delivery_v1_OptInFunnel, OptInFunnel__Output as _delivery_v1_OptInFunnel__Output } from './delivery/v1/OptInFunnel';
import type { OptInFunnelDay as _delivery_v1_OptInFunnelDay, OptInFunnelDay__Output as _delivery_v1_OptInFunnelDay__Output } from './delivery/v1/OptInFunnelDay';
import type { OptInFunnelPrompt as _delivery_v1_OptInFunnelPrompt, OptInFunnelPrompt__Output as _delivery_v1_OptInFunnelPrompt__Output } from './delivery/v1/OptInFunnelPrompt';
import type { Person as _delivery_v1_Person, Person__Output as _delivery_v1_Person__Output } from './delivery/v1/Person';
import type { PersonExport as _delivery_v1_PersonExport, PersonExport__Output as _delivery_v1_PersonExport__Output } from './delivery/v1/PersonExport';
import type { PersonRequest as _delivery_v1_PersonRequest, PersonRequest__Output as _delivery_v1_PersonRequest__Output } from './delivery/v1/PersonRequest';
import type { PersonSend as _delivery_v1_PersonSend, PersonSend__Output as _delivery_v1_PersonSend__Output } from './delivery/v1/PersonSend';
import type { PersonSends as _delivery_v1_PersonSends, PersonSends__Output as _delivery_v1_PersonSends__Output } from './delivery/v1/PersonSends';
import type { PersonSubscription as _delivery_v1_PersonSubscription, PersonSubscription__Output as _delivery_v1_PersonSubscription__Output } from './delivery/v1/PersonSubscription';
import type { PlanBestTimeRequest as _delivery_v1_PlanBestTimeRequest, PlanBestTimeRequest__Output as _delivery_v1_PlanBestTimeRequest__Output } from './delivery/v1/PlanBestTimeRequest';
import type { PlanBestTimeResponse as _delivery_v1_PlanBestTimeResponse, PlanBestTimeResponse__Output as _delivery_v1_PlanBestTimeResponse__Output } from './delivery/v1/PlanBestTimeResponse';
import type { PlannedSlot as _delivery_v1_PlannedSlot, PlannedSlot__Output as _delivery_v1_PlannedSlot__Output } from './delivery/v1/PlannedSlot';
import type { QuietHoursAnswer as _delivery_v1_QuietHoursAnswer, QuietHoursAnswer__Output as _delivery_v1_QuietHoursAnswer__Output } from './delivery/v1/QuietHoursAnswer';
import type { QuietHoursWindow as _delivery_v1_QuietHoursWindow, QuietHoursWindow__Output as _delivery_v1_QuietHoursWindow__Output } from './delivery/v1/QuietHoursWindow';
import type { RegisterSiteRequest as _delivery_v1_RegisterSiteRequest, RegisterSiteRequest__Output as _delivery_v1_RegisterSiteRequest__Output } from './delivery/v1/RegisterSiteRequest';
import type { RegisteredSite as _delivery_v1_RegisteredSite, RegisteredSite__Output as _delivery_v1_RegisteredSite__Output } from './delivery/v1/RegisteredSite';
import type { SetFrequencyCapRequest as _delivery_v1_SetFrequencyCapRequest, SetFrequencyCapRequest__Output as _delivery_v1_SetFrequencyCapRequest__Output } from './delivery/v1/SetFrequencyCapRequest';
import type { SetQuietHoursRequest as _delivery_v1_SetQuietHoursRequest, SetQuietHoursRequest__Output as _delivery_v1_SetQuietHoursRequest__Output } from './delivery/v1/SetQuietHoursRequest';
import type { SetTimeZoneRequest as _delivery_v1_SetTimeZoneRequest, SetTimeZoneRequest__Output as _delivery_v1_SetTimeZoneRequest__Output } from './delivery/v1/SetTimeZoneRequest';
import type { SetVisitorTagsRequest as _delivery_v1_SetVisitorTagsRequest, SetVisitorTagsRequest__Output as _delivery_v1_SetVisitorTagsRequest__Output } from './delivery/v1/SetVisitorTagsRequest';
import type { SiteRegistryClient as _delivery_v1_SiteRegistryClient, SiteRegistryDefinition as _delivery_v1_SiteRegistryDefinition } from './delivery/v1/SiteRegistry';
import type { SiteRequest as _delivery_v1_SiteRequest, SiteRequest__Output as _delivery_v1_SiteRequest__Output } from './delivery/v1/SiteRequest';
import type { TimeZoneAnswer as _delivery_v1_TimeZoneAnswer, TimeZoneAnswer__Output as _delivery_v1_TimeZoneAnswer__Output } from './delivery/v1/TimeZoneAnswer';
import type { VisitorTagsAnswer as _delivery_v1_VisitorTagsAnswer, VisitorTagsAnswer__Output as _delivery_v1_VisitorTagsAnswer__Output } from './delivery/v1/VisitorTagsAnswer';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  delivery: {
    v1: {
      Audience: SubtypeConstructor<typeof grpc.Client, _delivery_v1_AudienceClient> & { service: _delivery_v1_AudienceDefinition }
      CountAudienceRequest: MessageTypeDefinition<_delivery_v1_CountAudienceRequest, _delivery_v1_CountAudienceRequest__Output>
      CountAudienceResponse: MessageTypeDefinition<_delivery_v1_CountAudienceResponse, _delivery_v1_CountAudienceResponse__Output>
      DeletedPerson: MessageTypeDefinition<_delivery_v1_DeletedPerson, _delivery_v1_DeletedPerson__Output>
      ExportChunk: MessageTypeDefinition<_delivery_v1_ExportChunk, _delivery_v1_ExportChunk__Output>
      ExportSubscribersRequest: MessageTypeDefinition<_delivery_v1_ExportSubscribersRequest, _delivery_v1_ExportSubscribersRequest__Output>
      FrequencyCap: MessageTypeDefinition<_delivery_v1_FrequencyCap, _delivery_v1_FrequencyCap__Output>
      FrequencyCapAnswer: MessageTypeDefinition<_delivery_v1_FrequencyCapAnswer, _delivery_v1_FrequencyCapAnswer__Output>
      GetOptInFunnelRequest: MessageTypeDefinition<_delivery_v1_GetOptInFunnelRequest, _delivery_v1_GetOptInFunnelRequest__Output>
      ImportRefusal: MessageTypeDefinition<_delivery_v1_ImportRefusal, _delivery_v1_ImportRefusal__Output>
      ImportSubscriptionsRequest: MessageTypeDefinition<_delivery_v1_ImportSubscriptionsRequest, _delivery_v1_ImportSubscriptionsRequest__Output>
      ImportSubscriptionsResponse: MessageTypeDefinition<_delivery_v1_ImportSubscriptionsResponse, _delivery_v1_ImportSubscriptionsResponse__Output>
      NameCount: MessageTypeDefinition<_delivery_v1_NameCount, _delivery_v1_NameCount__Output>
      NameCounts: MessageTypeDefinition<_delivery_v1_NameCounts, _delivery_v1_NameCounts__Output>
      OptInCounts: MessageTypeDefinition<_delivery_v1_OptInCounts, _delivery_v1_OptInCounts__Output>
      OptInFunnel: MessageTypeDefinition<_delivery_v1_OptInFunnel, _delivery_v1_OptInFunnel__Output>
      OptInFunnelDay: MessageTypeDefinition<_delivery_v1_OptInFunnelDay, _delivery_v1_OptInFunnelDay__Output>
      OptInFunnelPrompt: MessageTypeDefinition<_delivery_v1_OptInFunnelPrompt, _delivery_v1_OptInFunnelPrompt__Output>
      Person: MessageTypeDefinition<_delivery_v1_Person, _delivery_v1_Person__Output>
      PersonExport: MessageTypeDefinition<_delivery_v1_PersonExport, _delivery_v1_PersonExport__Output>
      PersonRequest: MessageTypeDefinition<_delivery_v1_PersonRequest, _delivery_v1_PersonRequest__Output>
      PersonSend: MessageTypeDefinition<_delivery_v1_PersonSend, _delivery_v1_PersonSend__Output>
      PersonSends: MessageTypeDefinition<_delivery_v1_PersonSends, _delivery_v1_PersonSends__Output>
      PersonSubscription: MessageTypeDefinition<_delivery_v1_PersonSubscription, _delivery_v1_PersonSubscription__Output>
      PlanBestTimeRequest: MessageTypeDefinition<_delivery_v1_PlanBestTimeRequest, _delivery_v1_PlanBestTimeRequest__Output>
      PlanBestTimeResponse: MessageTypeDefinition<_delivery_v1_PlanBestTimeResponse, _delivery_v1_PlanBestTimeResponse__Output>
      PlannedSlot: MessageTypeDefinition<_delivery_v1_PlannedSlot, _delivery_v1_PlannedSlot__Output>
      QuietHoursAnswer: MessageTypeDefinition<_delivery_v1_QuietHoursAnswer, _delivery_v1_QuietHoursAnswer__Output>
      QuietHoursWindow: MessageTypeDefinition<_delivery_v1_QuietHoursWindow, _delivery_v1_QuietHoursWindow__Output>
      RegisterSiteRequest: MessageTypeDefinition<_delivery_v1_RegisterSiteRequest, _delivery_v1_RegisterSiteRequest__Output>
      RegisteredSite: MessageTypeDefinition<_delivery_v1_RegisteredSite, _delivery_v1_RegisteredSite__Output>
      SetFrequencyCapRequest: MessageTypeDefinition<_delivery_v1_SetFrequencyCapRequest, _delivery_v1_SetFrequencyCapRequest__Output>
      SetQuietHoursRequest: MessageTypeDefinition<_delivery_v1_SetQuietHoursRequest, _delivery_v1_SetQuietHoursRequest__Output>
      SetTimeZoneRequest: MessageTypeDefinition<_delivery_v1_SetTimeZoneRequest, _delivery_v1_SetTimeZoneRequest__Output>
      SetVisitorTagsRequest: MessageTypeDefinition<_delivery_v1_SetVisitorTagsRequest, _delivery_v1_SetVisitorTagsRequest__Output>
      SiteRegistry: SubtypeConstructor<typeof grpc.Client, _delivery_v1_SiteRegistryClient> & { service: _delivery_v1_SiteRegistryDefinition }
      SiteRequest: MessageTypeDefinition<_delivery_v1_SiteRequest, _delivery_v1_SiteRequest__Output>
      TimeZoneAnswer: MessageTypeDefinition<_delivery_v1_TimeZoneAnswer, _delivery_v1_TimeZoneAnswer__Output>
      VisitorTagsAnswer: MessageTypeDefinition<_delivery_v1_VisitorTagsAnswer, _delivery_v1_VisitorTagsAnswer__Output>
    }
  }
}

