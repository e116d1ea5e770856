// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AuthenticateRequest as _campaign_v1_AuthenticateRequest, AuthenticateRequest__Output as _campaign_v1_AuthenticateRequest__Output } from '../../campaign/v1/AuthenticateRequest';
import type { AuthenticateResponse as _campaign_v1_AuthenticateResponse, AuthenticateResponse__Output as _campaign_v1_AuthenticateResponse__Output } from '../../campaign/v1/AuthenticateResponse';
import type { Automation as _campaign_v1_Automation, Automation__Output as _campaign_v1_Automation__Output } from '../../campaign/v1/Automation';
import type { AutomationRequest as _campaign_v1_AutomationRequest, AutomationRequest__Output as _campaign_v1_AutomationRequest__Output } from '../../campaign/v1/AutomationRequest';
import type { CreateCampaignRequest as _campaign_v1_CreateCampaignRequest, CreateCampaignRequest__Output as _campaign_v1_CreateCampaignRequest__Output } from '../../campaign/v1/CreateCampaignRequest';
import type { CreateCampaignResponse as _campaign_v1_CreateCampaignResponse, CreateCampaignResponse__Output as _campaign_v1_CreateCampaignResponse__Output } from '../../campaign/v1/CreateCampaignResponse';
import type { CreateNotificationRequest as _campaign_v1_CreateNotificationRequest, CreateNotificationRequest__Output as _campaign_v1_CreateNotificationRequest__Output } from '../../campaign/v1/CreateNotificationRequest';
import type { CreateNotificationResponse as _campaign_v1_CreateNotificationResponse, CreateNotificationResponse__Output as _campaign_v1_CreateNotificationResponse__Output } from '../../campaign/v1/CreateNotificationResponse';
import type { DeleteAutomationResponse as _campaign_v1_DeleteAutomationResponse, DeleteAutomationResponse__Output as _campaign_v1_DeleteAutomationResponse__Output } from '../../campaign/v1/DeleteAutomationResponse';
import type { DeleteCampaignRequest as _campaign_v1_DeleteCampaignRequest, DeleteCampaignRequest__Output as _campaign_v1_DeleteCampaignRequest__Output } from '../../campaign/v1/DeleteCampaignRequest';
import type { DeleteCampaignResponse as _campaign_v1_DeleteCampaignResponse, DeleteCampaignResponse__Output as _campaign_v1_DeleteCampaignResponse__Output } from '../../campaign/v1/DeleteCampaignResponse';
import type { DeleteFeedResponse as _campaign_v1_DeleteFeedResponse, DeleteFeedResponse__Output as _campaign_v1_DeleteFeedResponse__Output } from '../../campaign/v1/DeleteFeedResponse';
import type { DeleteTemplateResponse as _campaign_v1_DeleteTemplateResponse, DeleteTemplateResponse__Output as _campaign_v1_DeleteTemplateResponse__Output } from '../../campaign/v1/DeleteTemplateResponse';
import type { ExportCampaignsChunk as _campaign_v1_ExportCampaignsChunk, ExportCampaignsChunk__Output as _campaign_v1_ExportCampaignsChunk__Output } from '../../campaign/v1/ExportCampaignsChunk';
import type { ExportCampaignsRequest as _campaign_v1_ExportCampaignsRequest, ExportCampaignsRequest__Output as _campaign_v1_ExportCampaignsRequest__Output } from '../../campaign/v1/ExportCampaignsRequest';
import type { Feed as _campaign_v1_Feed, Feed__Output as _campaign_v1_Feed__Output } from '../../campaign/v1/Feed';
import type { FeedRequest as _campaign_v1_FeedRequest, FeedRequest__Output as _campaign_v1_FeedRequest__Output } from '../../campaign/v1/FeedRequest';
import type { GetCampaignRequest as _campaign_v1_GetCampaignRequest, GetCampaignRequest__Output as _campaign_v1_GetCampaignRequest__Output } from '../../campaign/v1/GetCampaignRequest';
import type { GetCampaignResponse as _campaign_v1_GetCampaignResponse, GetCampaignResponse__Output as _campaign_v1_GetCampaignResponse__Output } from '../../campaign/v1/GetCampaignResponse';
import type { GetNotificationRequest as _campaign_v1_GetNotificationRequest, GetNotificationRequest__Output as _campaign_v1_GetNotificationRequest__Output } from '../../campaign/v1/GetNotificationRequest';
import type { ListAutomationsResponse as _campaign_v1_ListAutomationsResponse, ListAutomationsResponse__Output as _campaign_v1_ListAutomationsResponse__Output } from '../../campaign/v1/ListAutomationsResponse';
import type { ListCampaignsRequest as _campaign_v1_ListCampaignsRequest, ListCampaignsRequest__Output as _campaign_v1_ListCampaignsRequest__Output } from '../../campaign/v1/ListCampaignsRequest';
import type { ListCampaignsResponse as _campaign_v1_ListCampaignsResponse, ListCampaignsResponse__Output as _campaign_v1_ListCampaignsResponse__Output } from '../../campaign/v1/ListCampaignsResponse';
import type { ListFeedsResponse as _campaign_v1_ListFeedsResponse, ListFeedsResponse__Output as _campaign_v1_ListFeedsResponse__Output } from '../../campaign/v1/ListFeedsResponse';
import type { ListNotificationsRequest as _campaign_v1_ListNotificationsRequest, ListNotificationsRequest__Output as _campaign_v1_ListNotificationsRequest__Output } from '../../campaign/v1/ListNotificationsRequest';
import type { ListNotificationsResponse as _campaign_v1_ListNotificationsResponse, ListNotificationsResponse__Output as _campaign_v1_ListNotificationsResponse__Output } from '../../campaign/v1/ListNotificationsResponse';
import type { ListTemplatesResponse as _campaign_v1_ListTemplatesResponse, ListTemplatesResponse__Output as _campaign_v1_ListTemplatesResponse__Output } from '../../campaign/v1/ListTemplatesResponse';
import type { Notification as _campaign_v1_Notification, Notification__Output as _campaign_v1_Notification__Output } from '../../campaign/v1/Notification';
import type { PickWinnerRequest as _campaign_v1_PickWinnerRequest, PickWinnerRequest__Output as _campaign_v1_PickWinnerRequest__Output } from '../../campaign/v1/PickWinnerRequest';
import type { PickWinnerResponse as _campaign_v1_PickWinnerResponse, PickWinnerResponse__Output as _campaign_v1_PickWinnerResponse__Output } from '../../campaign/v1/PickWinnerResponse';
import type { PlanPreviewRequest as _campaign_v1_PlanPreviewRequest, PlanPreviewRequest__Output as _campaign_v1_PlanPreviewRequest__Output } from '../../campaign/v1/PlanPreviewRequest';
import type { PlanPreviewResponse as _campaign_v1_PlanPreviewResponse, PlanPreviewResponse__Output as _campaign_v1_PlanPreviewResponse__Output } from '../../campaign/v1/PlanPreviewResponse';
import type { RecordEventResponse as _campaign_v1_RecordEventResponse, RecordEventResponse__Output as _campaign_v1_RecordEventResponse__Output } from '../../campaign/v1/RecordEventResponse';
import type { RenderTemplateResponse as _campaign_v1_RenderTemplateResponse, RenderTemplateResponse__Output as _campaign_v1_RenderTemplateResponse__Output } from '../../campaign/v1/RenderTemplateResponse';
import type { ReviseCampaignRequest as _campaign_v1_ReviseCampaignRequest, ReviseCampaignRequest__Output as _campaign_v1_ReviseCampaignRequest__Output } from '../../campaign/v1/ReviseCampaignRequest';
import type { ReviseCampaignResponse as _campaign_v1_ReviseCampaignResponse, ReviseCampaignResponse__Output as _campaign_v1_ReviseCampaignResponse__Output } from '../../campaign/v1/ReviseCampaignResponse';
import type { Template as _campaign_v1_Template, Template__Output as _campaign_v1_Template__Output } from '../../campaign/v1/Template';
import type { TemplateRequest as _campaign_v1_TemplateRequest, TemplateRequest__Output as _campaign_v1_TemplateRequest__Output } from '../../campaign/v1/TemplateRequest';
import type { UpdateDraftRequest as _campaign_v1_UpdateDraftRequest, UpdateDraftRequest__Output as _campaign_v1_UpdateDraftRequest__Output } from '../../campaign/v1/UpdateDraftRequest';

export interface CampaignServiceClient extends grpc.Client {
  Authenticate(argument: _campaign_v1_AuthenticateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AuthenticateResponse__Output>): grpc.ClientUnaryCall;
  Authenticate(argument: _campaign_v1_AuthenticateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_AuthenticateResponse__Output>): grpc.ClientUnaryCall;
  Authenticate(argument: _campaign_v1_AuthenticateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AuthenticateResponse__Output>): grpc.ClientUnaryCall;
  Authenticate(argument: _campaign_v1_AuthenticateRequest, callback: grpc.requestCallback<_campaign_v1_AuthenticateResponse__Output>): grpc.ClientUnaryCall;
  authenticate(argument: _campaign_v1_AuthenticateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AuthenticateResponse__Output>): grpc.ClientUnaryCall;
  authenticate(argument: _campaign_v1_AuthenticateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_AuthenticateResponse__Output>): grpc.ClientUnaryCall;
  authenticate(argument: _campaign_v1_AuthenticateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AuthenticateResponse__Output>): grpc.ClientUnaryCall;
  authenticate(argument: _campaign_v1_AuthenticateRequest, callback: grpc.requestCallback<_campaign_v1_AuthenticateResponse__Output>): grpc.ClientUnaryCall;
  
  CreateAutomation(argument: _campaign_v1_AutomationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Automation__Output>): grpc.ClientUnaryCall;
  CreateAutomation(argument: _campaign_v1_AutomationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_Automation__Output>): grpc.ClientUnaryCall;
  CreateAutomation(argument: _campaign_v1_AutomationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Automation__Output>): grpc.ClientUnaryCall;
  CreateAutomation(argument: _campaign_v1_AutomationRequest, callback: grpc.requestCallback<_campaign_v1_Automation__Output>): grpc.ClientUnaryCall;
  createAutomation(argument: _campaign_v1_AutomationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Automation__Output>): grpc.ClientUnaryCall;
  createAutomation(argument: _campaign_v1_AutomationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_Automation__Output>): grpc.ClientUnaryCall;
  createAutomation(argument: _campaign_v1_AutomationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Automation__Output>): grpc.ClientUnaryCall;
  createAutomation(argument: _campaign_v1_AutomationRequest, callback: grpc.requestCallback<_campaign_v1_Automation__Output>): grpc.ClientUnaryCall;
  
  CreateCampaign(argument: _campaign_v1_CreateCampaignRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_CreateCampaignResponse__Output>): grpc.ClientUnaryCall;
  CreateCampaign(argument: _campaign_v1_CreateCampaignRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_CreateCampaignResponse__Output>): grpc.ClientUnaryCall;
  CreateCampaign(argument: _campaign_v1_CreateCampaignRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_CreateCampaignResponse__Output>): grpc.ClientUnaryCall;
  CreateCampaign(argument: _campaign_v1_CreateCampaignRequest, callback: grpc.requestCallback<_campaign_v1_CreateCampaignResponse__Output>): grpc.ClientUnaryCall;
  createCampaign(argument: _campaign_v1_CreateCampaignRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_CreateCampaignResponse__Output>): grpc.ClientUnaryCall;
  createCampaign(argument: _campaign_v1_CreateCampaignRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_CreateCampaignResponse__Output>): grpc.ClientUnaryCall;
  createCampaign(argument: _campaign_v1_CreateCampaignRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_CreateCampaignResponse__Output>): grpc.ClientUnaryCall;
  createCampaign(argument: _campaign_v1_CreateCampaignRequest, callback: grpc.requestCallback<_campaign_v1_CreateCampaignResponse__Output>): grpc.ClientUnaryCall;
  
  CreateFeed(argument: _campaign_v1_FeedRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Feed__Output>): grpc.ClientUnaryCall;
  CreateFeed(argument: _campaign_v1_FeedRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_Feed__Output>): grpc.ClientUnaryCall;
  CreateFeed(argument: _campaign_v1_FeedRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Feed__Output>): grpc.ClientUnaryCall;
  CreateFeed(argument: _campaign_v1_FeedRequest, callback: grpc.requestCallback<_campaign_v1_Feed__Output>): grpc.ClientUnaryCall;
  createFeed(argument: _campaign_v1_FeedRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Feed__Output>): grpc.ClientUnaryCall;
  createFeed(argument: _campaign_v1_FeedRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_Feed__Output>): grpc.ClientUnaryCall;
  createFeed(argument: _campaign_v1_FeedRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Feed__Output>): grpc.ClientUnaryCall;
  createFeed(argument: _campaign_v1_FeedRequest, callback: grpc.requestCallback<_campaign_v1_Feed__Output>): grpc.ClientUnaryCall;
  
  CreateNotification(argument: _campaign_v1_CreateNotificationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_CreateNotificationResponse__Output>): grpc.ClientUnaryCall;
  CreateNotification(argument: _campaign_v1_CreateNotificationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_CreateNotificationResponse__Output>): grpc.ClientUnaryCall;
  CreateNotification(argument: _campaign_v1_CreateNotificationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_CreateNotificationResponse__Output>): grpc.ClientUnaryCall;
  CreateNotification(argument: _campaign_v1_CreateNotificationRequest, callback: grpc.requestCallback<_campaign_v1_CreateNotificationResponse__Output>): grpc.ClientUnaryCall;
  createNotification(argument: _campaign_v1_CreateNotificationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_CreateNotificationResponse__Output>): grpc.ClientUnaryCall;
  createNotification(argument: _campaign_v1_CreateNotificationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_CreateNotificationResponse__Output>): grpc.ClientUnaryCall;
  createNotification(argument: _campaign_v1_CreateNotificationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_CreateNotificationResponse__Output>): grpc.ClientUnaryCall;
  createNotification(argument: _campaign_v1_CreateNotificationRequest, callback: grpc.requestCallback<_campaign_v1_CreateNotificationResponse__Output>): grpc.ClientUnaryCall;
  
  CreateTemplate(argument: _campaign_v1_TemplateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Template__Output>): grpc.ClientUnaryCall;
  CreateTemplate(argument: _campaign_v1_TemplateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_Template__Output>): grpc.ClientUnaryCall;
  CreateTemplate(argument: _campaign_v1_TemplateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Template__Output>): grpc.ClientUnaryCall;
  CreateTemplate(argument: _campaign_v1_TemplateRequest, callback: grpc.requestCallback<_campaign_v1_Template__Output>): grpc.ClientUnaryCall;
  createTemplate(argument: _campaign_v1_TemplateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Template__Output>): grpc.ClientUnaryCall;
  createTemplate(argument: _campaign_v1_TemplateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_Template__Output>): grpc.ClientUnaryCall;
  createTemplate(argument: _campaign_v1_TemplateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Template__Output>): grpc.ClientUnaryCall;
  createTemplate(argument: _campaign_v1_TemplateRequest, callback: grpc.requestCallback<_campaign_v1_Template__Output>): grpc.ClientUnaryCall;
  
  DeleteAutomation(argument: _campaign_v1_AutomationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_DeleteAutomationResponse__Output>): grpc.ClientUnaryCall;
  DeleteAutomation(argument: _campaign_v1_AutomationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_DeleteAutomationResponse__Output>): grpc.ClientUnaryCall;
  DeleteAutomation(argument: _campaign_v1_AutomationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_DeleteAutomationResponse__Output>): grpc.ClientUnaryCall;
  DeleteAutomation(argument: _campaign_v1_AutomationRequest, callback: grpc.requestCallback<_campaign_v1_DeleteAutomationResponse__Output>): grpc.ClientUnaryCall;
  deleteAutomation(argument: _campaign_v1_AutomationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_DeleteAutomationResponse__Output>): grpc.ClientUnaryCall;
  deleteAutomation(argument: _campaign_v1_AutomationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_DeleteAutomationResponse__Output>): grpc.ClientUnaryCall;
  deleteAutomation(argument: _campaign_v1_AutomationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_DeleteAutomationResponse__Output>): grpc.ClientUnaryCall;
  deleteAutomation(argument: _campaign_v1_AutomationRequest, callback: grpc.requestCallback<_campaign_v1_DeleteAutomationResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteCampaign(argument: _campaign_v1_DeleteCampaignRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_DeleteCampaignResponse__Output>): grpc.ClientUnaryCall;
  DeleteCampaign(argument: _campaign_v1_DeleteCampaignRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_DeleteCampaignResponse__Output>): grpc.ClientUnaryCall;
  DeleteCampaign(argument: _campaign_v1_DeleteCampaignRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_DeleteCampaignResponse__Output>): grpc.ClientUnaryCall;
  DeleteCampaign(argument: _campaign_v1_DeleteCampaignRequest, callback: grpc.requestCallback<_campaign_v1_DeleteCampaignResponse__Output>): grpc.ClientUnaryCall;
  deleteCampaign(argument: _campaign_v1_DeleteCampaignRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_DeleteCampaignResponse__Output>): grpc.ClientUnaryCall;
  deleteCampaign(argument: _campaign_v1_DeleteCampaignRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_DeleteCampaignResponse__Output>): grpc.ClientUnaryCall;
  deleteCampaign(argument: _campaign_v1_DeleteCampaignRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_DeleteCampaignResponse__Output>): grpc.ClientUnaryCall;
  deleteCampaign(argument: _campaign_v1_DeleteCampaignRequest, callback: grpc.requestCallback<_campaign_v1_DeleteCampaignResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteFeed(argument: _campaign_v1_FeedRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_DeleteFeedResponse__Output>): grpc.ClientUnaryCall;
  DeleteFeed(argument: _campaign_v1_FeedRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_DeleteFeedResponse__Output>): grpc.ClientUnaryCall;
  DeleteFeed(argument: _campaign_v1_FeedRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_DeleteFeedResponse__Output>): grpc.ClientUnaryCall;
  DeleteFeed(argument: _campaign_v1_FeedRequest, callback: grpc.requestCallback<_campaign_v1_DeleteFeedResponse__Output>): grpc.ClientUnaryCall;
  deleteFeed(argument: _campaign_v1_FeedRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_DeleteFeedResponse__Output>): grpc.ClientUnaryCall;
  deleteFeed(argument: _campaign_v1_FeedRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_DeleteFeedResponse__Output>): grpc.ClientUnaryCall;
  deleteFeed(argument: _campaign_v1_FeedRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_DeleteFeedResponse__Output>): grpc.ClientUnaryCall;
  deleteFeed(argument: _campaign_v1_FeedRequest, callback: grpc.requestCallback<_campaign_v1_DeleteFeedResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteTemplate(argument: _campaign_v1_TemplateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_DeleteTemplateResponse__Output>): grpc.ClientUnaryCall;
  DeleteTemplate(argument: _campaign_v1_TemplateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_DeleteTemplateResponse__Output>): grpc.ClientUnaryCall;
  DeleteTemplate(argument: _campaign_v1_TemplateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_DeleteTemplateResponse__Output>): grpc.ClientUnaryCall;
  DeleteTemplate(argument: _campaign_v1_TemplateRequest, callback: grpc.requestCallback<_campaign_v1_DeleteTemplateResponse__Output>): grpc.ClientUnaryCall;
  deleteTemplate(argument: _campaign_v1_TemplateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_DeleteTemplateResponse__Output>): grpc.ClientUnaryCall;
  deleteTemplate(argument: _campaign_v1_TemplateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_DeleteTemplateResponse__Output>): grpc.ClientUnaryCall;
  deleteTemplate(argument: _campaign_v1_TemplateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_DeleteTemplateResponse__Output>): grpc.ClientUnaryCall;
  deleteTemplate(argument: _campaign_v1_TemplateRequest, callback: grpc.requestCallback<_campaign_v1_DeleteTemplateResponse__Output>): grpc.ClientUnaryCall;
  
  ExportCampaigns(argument: _campaign_v1_ExportCampaignsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_campaign_v1_ExportCampaignsChunk__Output>;
  ExportCampaigns(argument: _campaign_v1_ExportCampaignsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_campaign_v1_ExportCampaignsChunk__Output>;
  exportCampaigns(argument: _campaign_v1_ExportCampaignsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_campaign_v1_ExportCampaignsChunk__Output>;
  exportCampaigns(argument: _campaign_v1_ExportCampaignsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_campaign_v1_ExportCampaignsChunk__Output>;
  
  GetAutomation(argument: _campaign_v1_AutomationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Automation__Output>): grpc.ClientUnaryCall;
  GetAutomation(argument: _campaign_v1_AutomationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_Automation__Output>): grpc.ClientUnaryCall;
  GetAutomation(argument: _campaign_v1_AutomationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Automation__Output>): grpc.ClientUnaryCall;
  GetAutomation(argument: _campaign_v1_AutomationRequest, callback: grpc.requestCallback<_campaign_v1_Automation__Output>): grpc.ClientUnaryCall;
  getAutomation(argument: _campaign_v1_AutomationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Automation__Output>): grpc.ClientUnaryCall;
  getAutomation(argument: _campaign_v1_AutomationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_Automation__Output>): grpc.ClientUnaryCall;
  getAutomation(argument: _campaign_v1_AutomationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Automation__Output>): grpc.ClientUnaryCall;
  getAutomation(argument: _campaign_v1_AutomationRequest, callback: grpc.requestCallback<_campaign_v1_Automation__Output>): grpc.ClientUnaryCall;
  
  GetCampaign(argument: _campaign_v1_GetCampaignRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_GetCampaignResponse__Output>): grpc.ClientUnaryCall;
  GetCampaign(argument: _campaign_v1_GetCampaignRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_GetCampaignResponse__Output>): grpc.ClientUnaryCall;
  GetCampaign(argument: _campaign_v1_GetCampaignRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_GetCampaignResponse__Output>): grpc.ClientUnaryCall;
  GetCampaign(argument: _campaign_v1_GetCampaignRequest, callback: grpc.requestCallback<_campaign_v1_GetCampaignResponse__Output>): grpc.ClientUnaryCall;
  getCampaign(argument: _campaign_v1_GetCampaignRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_GetCampaignResponse__Output>): grpc.ClientUnaryCall;
  getCampaign(argument: _campaign_v1_GetCampaignRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_GetCampaignResponse__Output>): grpc.ClientUnaryCall;
  getCampaign(argument: _campaign_v1_GetCampaignRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_GetCampaignResponse__Output>): grpc.ClientUnaryCall;
  getCampaign(argument: _campaign_v1_GetCampaignRequest, callback: grpc.requestCallback<_campaign_v1_GetCampaignResponse__Output>): grpc.ClientUnaryCall;
  
  GetFeed(argument: _campaign_v1_FeedRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Feed__Output>): grpc.ClientUnaryCall;
  GetFeed(argument: _campaign_v1_FeedRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_Feed__Output>): grpc.ClientUnaryCall;
  GetFeed(argument: _campaign_v1_FeedRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Feed__Output>): grpc.ClientUnaryCall;
  GetFeed(argument: _campaign_v1_FeedRequest, callback: grpc.requestCallback<_campaign_v1_Feed__Output>): grpc.ClientUnaryCall;
  getFeed(argument: _campaign_v1_FeedRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Feed__Output>): grpc.ClientUnaryCall;
  getFeed(argument: _campaign_v1_FeedRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_Feed__Output>): grpc.ClientUnaryCall;
  getFeed(argument: _campaign_v1_FeedRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Feed__Output>): grpc.ClientUnaryCall;
  getFeed(argument: _campaign_v1_FeedRequest, callback: grpc.requestCallback<_campaign_v1_Feed__Output>): grpc.ClientUnaryCall;
  
  GetNotification(argument: _campaign_v1_GetNotificationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Notification__Output>): grpc.ClientUnaryCall;
  GetNotification(argument: _campaign_v1_GetNotificationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_Notification__Output>): grpc.ClientUnaryCall;
  GetNotification(argument: _campaign_v1_GetNotificationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Notification__Output>): grpc.ClientUnaryCall;
  GetNotification(argument: _campaign_v1_GetNotificationRequest, callback: grpc.requestCallback<_campaign_v1_Notification__Output>): grpc.ClientUnaryCall;
  getNotification(argument: _campaign_v1_GetNotificationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Notification__Output>): grpc.ClientUnaryCall;
  getNotification(argument: _campaign_v1_GetNotificationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_Notification__Output>): grpc.ClientUnaryCall;
  getNotification(argument: _campaign_v1_GetNotificationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Notification__Output>): grpc.ClientUnaryCall;
  getNotification(argument: _campaign_v1_GetNotificationRequest, callback: grpc.requestCallback<_campaign_v1_Notification__Output>): grpc.ClientUnaryCall;
  
  GetTemplate(argument: _campaign_v1_TemplateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Template__Output>): grpc.ClientUnaryCall;
  GetTemplate(argument: _campaign_v1_TemplateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_Template__Output>): grpc.ClientUnaryCall;
  GetTemplate(argument: _campaign_v1_TemplateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Template__Output>): grpc.ClientUnaryCall;
  GetTemplate(argument: _campaign_v1_TemplateRequest, callback: grpc.requestCallback<_campaign_v1_Template__Output>): grpc.ClientUnaryCall;
  getTemplate(argument: _campaign_v1_TemplateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Template__Output>): grpc.ClientUnaryCall;
  getTemplate(argument: _campaign_v1_TemplateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_Template__Output>): grpc.ClientUnaryCall;
  getTemplate(argument: _campaign_v1_TemplateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Template__Output>): grpc.ClientUnaryCall;
  getTemplate(argument: _campaign_v1_TemplateRequest, callback: grpc.requestCallback<_campaign_v1_Template__Output>): grpc.ClientUnaryCall;
  
  ListAutomations(argument: _campaign_v1_AutomationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ListAutomationsResponse__Output>): grpc.ClientUnaryCall;
  ListAutomations(argument: _campaign_v1_AutomationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_ListAutomationsResponse__Output>): grpc.ClientUnaryCall;
  ListAutomations(argument: _campaign_v1_AutomationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ListAutomationsResponse__Output>): grpc.ClientUnaryCall;
  ListAutomations(argument: _campaign_v1_AutomationRequest, callback: grpc.requestCallback<_campaign_v1_ListAutomationsResponse__Output>): grpc.ClientUnaryCall;
  listAutomations(argument: _campaign_v1_AutomationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ListAutomationsResponse__Output>): grpc.ClientUnaryCall;
  listAutomations(argument: _campaign_v1_AutomationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_ListAutomationsResponse__Output>): grpc.ClientUnaryCall;
  listAutomations(argument: _campaign_v1_AutomationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ListAutomationsResponse__Output>): grpc.ClientUnaryCall;
  listAutomations(argument: _campaign_v1_AutomationRequest, callback: grpc.requestCallback<_campaign_v1_ListAutomationsResponse__Output>): grpc.ClientUnaryCall;
  
  ListCampaigns(argument: _campaign_v1_ListCampaignsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ListCampaignsResponse__Output>): grpc.ClientUnaryCall;
  ListCampaigns(argument: _campaign_v1_ListCampaignsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_ListCampaignsResponse__Output>): grpc.ClientUnaryCall;
  ListCampaigns(argument: _campaign_v1_ListCampaignsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ListCampaignsResponse__Output>): grpc.ClientUnaryCall;
  ListCampaigns(argument: _campaign_v1_ListCampaignsRequest, callback: grpc.requestCallback<_campaign_v1_ListCampaignsResponse__Output>): grpc.ClientUnaryCall;
  listCampaigns(argument: _campaign_v1_ListCampaignsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ListCampaignsResponse__Output>): grpc.ClientUnaryCall;
  listCampaigns(argument: _campaign_v1_ListCampaignsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_ListCampaignsResponse__Output>): grpc.ClientUnaryCall;
  listCampaigns(argument: _campaign_v1_ListCampaignsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ListCampaignsResponse__Output>): grpc.ClientUnaryCall;
  listCampaigns(argument: _campaign_v1_ListCampaignsRequest, callback: grpc.requestCallback<_campaign_v1_ListCampaignsResponse__Output>): grpc.ClientUnaryCall;
  
  ListFeeds(argument: _campaign_v1_FeedRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ListFeedsResponse__Output>): grpc.ClientUnaryCall;
  ListFeeds(argument: _campaign_v1_FeedRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_ListFeedsResponse__Output>): grpc.ClientUnaryCall;
  ListFeeds(argument: _campaign_v1_FeedRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ListFeedsResponse__Output>): grpc.ClientUnaryCall;
  ListFeeds(argument: _campaign_v1_FeedRequest, callback: grpc.requestCallback<_campaign_v1_ListFeedsResponse__Output>): grpc.ClientUnaryCall;
  listFeeds(argument: _campaign_v1_FeedRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ListFeedsResponse__Output>): grpc.ClientUnaryCall;
  listFeeds(argument: _campaign_v1_FeedRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_ListFeedsResponse__Output>): grpc.ClientUnaryCall;
  listFeeds(argument: _campaign_v1_FeedRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ListFeedsResponse__Output>): grpc.ClientUnaryCall;
  listFeeds(argument: _campaign_v1_FeedRequest, callback: grpc.requestCallback<_campaign_v1_ListFeedsResponse__Output>): grpc.ClientUnaryCall;
  
  ListNotifications(argument: _campaign_v1_ListNotificationsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ListNotificationsResponse__Output>): grpc.ClientUnaryCall;
  ListNotifications(argument: _campaign_v1_ListNotificationsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_ListNotificationsResponse__Output>): grpc.ClientUnaryCall;
  ListNotifications(argument: _campaign_v1_ListNotificationsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ListNotificationsResponse__Output>): grpc.ClientUnaryCall;
  ListNotifications(argument: _campaign_v1_ListNotificationsRequest, callback: grpc.requestCallback<_campaign_v1_ListNotificationsResponse__Output>): grpc.ClientUnaryCall;
  listNotifications(argument: _campaign_v1_ListNotificationsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ListNotificationsResponse__Output>): grpc.ClientUnaryCall;
  listNotifications(argument: _campaign_v1_ListNotificationsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_ListNotificationsResponse__Output>): grpc.ClientUnaryCall;
  listNotifications(argument: _campaign_v1_ListNotificationsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ListNotificationsResponse__Output>): grpc.ClientUnaryCall;
  listNotifications(argument: _campaign_v1_ListNotificationsRequest, callback: grpc.requestCallback<_campaign_v1_ListNotificationsResponse__Output>): grpc.ClientUnaryCall;
  
  ListTemplates(argument: _campaign_v1_TemplateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ListTemplatesResponse__Output>): grpc.ClientUnaryCall;
  ListTemplates(argument: _campaign_v1_TemplateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_ListTemplatesResponse__Output>): grpc.ClientUnaryCall;
  ListTemplates(argument: _campaign_v1_TemplateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ListTemplatesResponse__Output>): grpc.ClientUnaryCall;
  ListTemplates(argument: _campaign_v1_TemplateRequest, callback: grpc.requestCallback<_campaign_v1_ListTemplatesResponse__Output>): grpc.ClientUnaryCall;
  listTemplates(argument: _campaign_v1_TemplateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ListTemplatesResponse__Output>): grpc.ClientUnaryCall;
  listTemplates(argument: _campaign_v1_TemplateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_ListTemplatesResponse__Output>): grpc.ClientUnaryCall;
  listTemplates(argument: _campaign_v1_TemplateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ListTemplatesResponse__Output>): grpc.ClientUnaryCall;
  listTemplates(argument: _campaign_v1_TemplateRequest, callback: grpc.requestCallback<_campaign_v1_ListTemplatesResponse__Output>): grpc.ClientUnaryCall;
  
  PickWinner(argument: _campaign_v1_PickWinnerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_PickWinnerResponse__Output>): grpc.ClientUnaryCall;
  PickWinner(argument: _campaign_v1_PickWinnerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_PickWinnerResponse__Output>): grpc.ClientUnaryCall;
  PickWinner(argument: _campaign_v1_PickWinnerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_PickWinnerResponse__Output>): grpc.ClientUnaryCall;
  PickWinner(argument: _campaign_v1_PickWinnerRequest, callback: grpc.requestCallback<_campaign_v1_PickWinnerResponse__Output>): grpc.ClientUnaryCall;
  pickWinner(argument: _campaign_v1_PickWinnerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_PickWinnerResponse__Output>): grpc.ClientUnaryCall;
  pickWinner(argument: _campaign_v1_PickWinnerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_PickWinnerResponse__Output>): grpc.ClientUnaryCall;
  pickWinner(argument: _campaign_v1_PickWinnerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_PickWinnerResponse__Output>): grpc.ClientUnaryCall;
  pickWinner(argument: _campaign_v1_PickWinnerRequest, callback: grpc.requestCallback<_campaign_v1_PickWinnerResponse__Output>): grpc.ClientUnaryCall;
  
  PlanPreview(argument: _campaign_v1_PlanPreviewRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_PlanPreviewResponse__Output>): grpc.ClientUnaryCall;
  PlanPreview(argument: _campaign_v1_PlanPreviewRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_PlanPreviewResponse__Output>): grpc.ClientUnaryCall;
  PlanPreview(argument: _campaign_v1_PlanPreviewRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_PlanPreviewResponse__Output>): grpc.ClientUnaryCall;
  PlanPreview(argument: _campaign_v1_PlanPreviewRequest, callback: grpc.requestCallback<_campaign_v1_PlanPreviewResponse__Output>): grpc.ClientUnaryCall;
  planPreview(argument: _campaign_v1_PlanPreviewRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_PlanPreviewResponse__Output>): grpc.ClientUnaryCall;
  planPreview(argument: _campaign_v1_PlanPreviewRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_PlanPreviewResponse__Output>): grpc.ClientUnaryCall;
  planPreview(argument: _campaign_v1_PlanPreviewRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_PlanPreviewResponse__Output>): grpc.ClientUnaryCall;
  planPreview(argument: _campaign_v1_PlanPreviewRequest, callback: grpc.requestCallback<_campaign_v1_PlanPreviewResponse__Output>): grpc.ClientUnaryCall;
  
  RecordEvent(argument: _campaign_v1_AutomationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_RecordEventResponse__Output>): grpc.ClientUnaryCall;
  RecordEvent(argument: _campaign_v1_AutomationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_RecordEventResponse__Output>): grpc.ClientUnaryCall;
  RecordEvent(argument: _campaign_v1_AutomationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_RecordEventResponse__Output>): grpc.ClientUnaryCall;
  RecordEvent(argument: _campaign_v1_AutomationRequest, callback: grpc.requestCallback<_campaign_v1_RecordEventResponse__Output>): grpc.ClientUnaryCall;
  recordEvent(argument: _campaign_v1_AutomationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_RecordEventResponse__Output>): grpc.ClientUnaryCall;
  recordEvent(argument: _campaign_v1_AutomationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_RecordEventResponse__Output>): grpc.ClientUnaryCall;
  recordEvent(argument: _campaign_v1_AutomationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_RecordEventResponse__Output>): grpc.ClientUnaryCall;
  recordEvent(argument: _campaign_v1_AutomationRequest, callback: grpc.requestCallback<_campaign_v1_RecordEventResponse__Output>): grpc.ClientUnaryCall;
  
  RenderTemplate(argument: _campaign_v1_TemplateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_RenderTemplateResponse__Output>): grpc.ClientUnaryCall;
  RenderTemplate(argument: _campaign_v1_TemplateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_RenderTemplateResponse__Output>): grpc.ClientUnaryCall;
  RenderTemplate(argument: _campaign_v1_TemplateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_RenderTemplateResponse__Output>): grpc.ClientUnaryCall;
  RenderTemplate(argument: _campaign_v1_TemplateRequest, callback: grpc.requestCallback<_campaign_v1_RenderTemplateResponse__Output>): grpc.ClientUnaryCall;
  renderTemplate(argument: _campaign_v1_TemplateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_RenderTemplateResponse__Output>): grpc.ClientUnaryCall;
  renderTemplate(argument: _campaign_v1_TemplateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_RenderTemplateResponse__Output>): grpc.ClientUnaryCall;
  renderTemplate(argument: _campaign_v1_TemplateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_RenderTemplateResponse__Output>): grpc.ClientUnaryCall;
  renderTemplate(argument: _campaign_v1_TemplateRequest, callback: grpc.requestCallback<_campaign_v1_RenderTemplateResponse__Output>): grpc.ClientUnaryCall;
  
  ReviseCampaign(argument: _campaign_v1_ReviseCampaignRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ReviseCampaignResponse__Output>): grpc.ClientUnaryCall;
  ReviseCampaign(argument: _campaign_v1_ReviseCampaignRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_ReviseCampaignResponse__Output>): grpc.ClientUnaryCall;
  ReviseCampaign(argument: _campaign_v1_ReviseCampaignRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ReviseCampaignResponse__Output>): grpc.ClientUnaryCall;
  ReviseCampaign(argument: _campaign_v1_ReviseCampaignRequest, callback: grpc.requestCallback<_campaign_v1_ReviseCampaignResponse__Output>): grpc.ClientUnaryCall;
  reviseCampaign(argument: _campaign_v1_ReviseCampaignRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ReviseCampaignResponse__Output>): grpc.ClientUnaryCall;
  reviseCampaign(argument: _campaign_v1_ReviseCampaignRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_ReviseCampaignResponse__Output>): grpc.ClientUnaryCall;
  reviseCampaign(argument: _campaign_v1_ReviseCampaignRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ReviseCampaignResponse__Output>): grpc.ClientUnaryCall;
  reviseCampaign(argument: _campaign_v1_ReviseCampaignRequest, callback: grpc.requestCallback<_campaign_v1_ReviseCampaignResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateAutomation(argument: _campaign_v1_AutomationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Automation__Output>): grpc.ClientUnaryCall;
  UpdateAutomation(argument: _campaign_v1_AutomationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_Automation__Output>): grpc.ClientUnaryCall;
  UpdateAutomation(argument: _campaign_v1_AutomationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Automation__Output>): grpc.ClientUnaryCall;
  UpdateAutomation(argument: _campaign_v1_AutomationRequest, callback: grpc.requestCallback<_campaign_v1_Automation__Output>): grpc.ClientUnaryCall;
  updateAutomation(argument: _campaign_v1_AutomationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Automation__Output>): grpc.ClientUnaryCall;
  updateAutomation(argument: _campaign_v1_AutomationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_Automation__Output>): grpc.ClientUnaryCall;
  updateAutomation(argument: _campaign_v1_AutomationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Automation__Output>): grpc.ClientUnaryCall;
  updateAutomation(argument: _campaign_v1_AutomationRequest, callback: grpc.requestCallback<_campaign_v1_Automation__Output>): grpc.ClientUnaryCall;
  
  UpdateDraft(argument: _campaign_v1_UpdateDraftRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_CreateCampaignResponse__Output>): grpc.ClientUnaryCall;
  UpdateDraft(argument: _campaign_v1_UpdateDraftRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_CreateCampaignResponse__Output>): grpc.ClientUnaryCall;
  UpdateDraft(argument: _campaign_v1_UpdateDraftRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_CreateCampaignResponse__Output>): grpc.ClientUnaryCall;
  UpdateDraft(argument: _campaign_v1_UpdateDraftRequest, callback: grpc.requestCallback<_campaign_v1_CreateCampaignResponse__Output>): grpc.ClientUnaryCall;
  updateDraft(argument: _campaign_v1_UpdateDraftRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_CreateCampaignResponse__Output>): grpc.ClientUnaryCall;
  updateDraft(argument: _campaign_v1_UpdateDraftRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_CreateCampaignResponse__Output>): grpc.ClientUnaryCall;
  updateDraft(argument: _campaign_v1_UpdateDraftRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_CreateCampaignResponse__Output>): grpc.ClientUnaryCall;
  updateDraft(argument: _campaign_v1_UpdateDraftRequest, callback: grpc.requestCallback<_campaign_v1_CreateCampaignResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateFeed(argument: _campaign_v1_FeedRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Feed__Output>): grpc.ClientUnaryCall;
  UpdateFeed(argument: _campaign_v1_FeedRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_Feed__Output>): grpc.ClientUnaryCall;
  UpdateFeed(argument: _campaign_v1_FeedRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Feed__Output>): grpc.ClientUnaryCall;
  UpdateFeed(argument: _campaign_v1_FeedRequest, callback: grpc.requestCallback<_campaign_v1_Feed__Output>): grpc.ClientUnaryCall;
  updateFeed(argument: _campaign_v1_FeedRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Feed__Output>): grpc.ClientUnaryCall;
  updateFeed(argument: _campaign_v1_FeedRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_Feed__Output>): grpc.ClientUnaryCall;
  updateFeed(argument: _campaign_v1_FeedRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Feed__Output>): grpc.ClientUnaryCall;
  updateFeed(argument: _campaign_v1_FeedRequest, callback: grpc.requestCallback<_campaign_v1_Feed__Output>): grpc.ClientUnaryCall;
  
  UpdateTemplate(argument: _campaign_v1_TemplateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Template__Output>): grpc.ClientUnaryCall;
  UpdateTemplate(argument: _campaign_v1_TemplateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_Template__Output>): grpc.ClientUnaryCall;
  UpdateTemplate(argument: _campaign_v1_TemplateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Template__Output>): grpc.ClientUnaryCall;
  UpdateTemplate(argument: _campaign_v1_TemplateRequest, callback: grpc.requestCallback<_campaign_v1_Template__Output>): grpc.ClientUnaryCall;
  updateTemplate(argument: _campaign_v1_TemplateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Template__Output>): grpc.ClientUnaryCall;
  updateTemplate(argument: _campaign_v1_TemplateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_Template__Output>): grpc.ClientUnaryCall;
  updateTemplate(argument: _campaign_v1_TemplateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Template__Output>): grpc.ClientUnaryCall;
  updateTemplate(argument: _campaign_v1_TemplateRequest, callback: grpc.requestCallback<_campaign_v1_Template__Output>): grpc.ClientUnaryCall;
  
}

export interface CampaignServiceHandlers extends grpc.UntypedServiceImplementation {
  Authenticate: grpc.handleUnaryCall<_campaign_v1_AuthenticateRequest__Output, _campaign_v1_AuthenticateResponse>;
  
  CreateAutomation: grpc.handleUnaryCall<_campaign_v1_AutomationRequest__Output, _campaign_v1_Automation>;
  
  CreateCampaign: grpc.handleUnaryCall<_campaign_v1_CreateCampaignRequest__Output, _campaign_v1_CreateCampaignResponse>;
  
  CreateFeed: grpc.handleUnaryCall<_campaign_v1_FeedRequest__Output, _campaign_v1_Feed>;
  
  CreateNotification: grpc.handleUnaryCall<_campaign_v1_CreateNotificationRequest__Output, _campaign_v1_CreateNotificationResponse>;
  
  CreateTemplate: grpc.handleUnaryCall<_campaign_v1_TemplateRequest__Output, _campaign_v1_Template>;
  
  DeleteAutomation: grpc.handleUnaryCall<_campaign_v1_AutomationRequest__Output, _campaign_v1_DeleteAutomationResponse>;
  
  DeleteCampaign: grpc.handleUnaryCall<_campaign_v1_DeleteCampaignRequest__Output, _campaign_v1_DeleteCampaignResponse>;
  
  DeleteFeed: grpc.handleUnaryCall<_campaign_v1_FeedRequest__Output, _campaign_v1_DeleteFeedResponse>;
  
  DeleteTemplate: grpc.handleUnaryCall<_campaign_v1_TemplateRequest__Output, _campaign_v1_DeleteTemplateResponse>;
  
  ExportCampaigns: grpc.handleServerStreamingCall<_campaign_v1_ExportCampaignsRequest__Output, _campaign_v1_ExportCampaignsChunk>;
  
  GetAutomation: grpc.handleUnaryCall<_campaign_v1_AutomationRequest__Output, _campaign_v1_Automation>;
  
  GetCampaign: grpc.handleUnaryCall<_campaign_v1_GetCampaignRequest__Output, _campaign_v1_GetCampaignResponse>;
  
  GetFeed: grpc.handleUnaryCall<_campaign_v1_FeedRequest__Output, _campaign_v1_Feed>;
  
  GetNotification: grpc.handleUnaryCall<_campaign_v1_GetNotificationRequest__Output, _campaign_v1_Notification>;
  
  GetTemplate: grpc.handleUnaryCall<_campaign_v1_TemplateRequest__Output, _campaign_v1_Template>;
  
  ListAutomations: grpc.handleUnaryCall<_campaign_v1_AutomationRequest__Output, _campaign_v1_ListAutomationsResponse>;
  
  ListCampaigns: grpc.handleUnaryCall<_campaign_v1_ListCampaignsRequest__Output, _campaign_v1_ListCampaignsResponse>;
  
  ListFeeds: grpc.handleUnaryCall<_campaign_v1_FeedRequest__Output, _campaign_v1_ListFeedsResponse>;
  
  ListNotifications: grpc.handleUnaryCall<_campaign_v1_ListNotificationsRequest__Output, _campaign_v1_ListNotificationsResponse>;
  
  ListTemplates: grpc.handleUnaryCall<_campaign_v1_TemplateRequest__Output, _campaign_v1_ListTemplatesResponse>;
  
  PickWinner: grpc.handleUnaryCall<_campaign_v1_PickWinnerRequest__Output, _campaign_v1_PickWinnerResponse>;
  
  PlanPreview: grpc.handleUnaryCall<_campaign_v1_PlanPreviewRequest__Output, _campaign_v1_PlanPreviewResponse>;
  
  RecordEvent: grpc.handleUnaryCall<_campaign_v1_AutomationRequest__Output, _campaign_v1_RecordEventResponse>;
  
  RenderTemplate: grpc.handleUnaryCall<_campaign_v1_TemplateRequest__Output, _campaign_v1_RenderTemplateResponse>;
  
  ReviseCampaign: grpc.handleUnaryCall<_campaign_v1_ReviseCampaignRequest__Output, _campaign_v1_ReviseCampaignResponse>;
  
  UpdateAutomation: grpc.handleUnaryCall<_campaign_v1_AutomationRequest__Output, _campaign_v1_Automation>;
  
  UpdateDraft: grpc.handleUnaryCall<_campaign_v1_UpdateDraftRequest__Output, _campaign_v1_CreateCampaignResponse>;
  
  UpdateFeed: grpc.handleUnaryCall<_campaign_v1_FeedRequest__Output, _campaign_v1_Feed>;
  
  UpdateTemplate: grpc.handleUnaryCall<_campaign_v1_TemplateRequest__Output, _campaign_v1_Template>;
  
}

export interface CampaignServiceDefinition extends grpc.ServiceDefinition {
  Authenticate: MethodDefinition<_campaign_v1_AuthenticateRequest, _campaign_v1_AuthenticateResponse, _campaign_v1_AuthenticateRequest__Output, _campaign_v1_AuthenticateResponse__Output>
  CreateAutomation: MethodDefinition<_campaign_v1_AutomationRequest, _campaign_v1_Automation, _campaign_v1_AutomationRequest__Output, _campaign_v1_Automation__Output>
  CreateCampaign: MethodDefinition<_campaign_v1_CreateCampaignRequest, _campaign_v1_CreateCampaignResponse, _campaign_v1_CreateCampaignRequest__Output, _campaign_v1_CreateCampaignResponse__Output>
  CreateFeed: MethodDefinition<_campaign_v1_FeedRequest, _campaign_v1_Feed, _campaign_v1_FeedRequest__Output, _campaign_v1_Feed__Output>
  CreateNotification: MethodDefinition<_campaign_v1_CreateNotificationRequest, _campaign_v1_CreateNotificationResponse, _campaign_v1_CreateNotificationRequest__Output, _campaign_v1_CreateNotificationResponse__Output>
  CreateTemplate: MethodDefinition<_campaign_v1_TemplateRequest, _campaign_v1_Template, _campaign_v1_TemplateRequest__Output, _campaign_v1_Template__Output>
  DeleteAutomation: MethodDefinition<_campaign_v1_AutomationRequest, _campaign_v1_DeleteAutomationResponse, _campaign_v1_AutomationRequest__Output, _campaign_v1_DeleteAutomationResponse__Output>
  DeleteCampaign: MethodDefinition<_campaign_v1_DeleteCampaignRequest, _campaign_v1_DeleteCampaignResponse, _campaign_v1_DeleteCampaignRequest__Output, _campaign_v1_DeleteCampaignResponse__Output>
  DeleteFeed: MethodDefinition<_campaign_v1_FeedRequest, _campaign_v1_DeleteFeedResponse, _campaign_v1_FeedRequest__Output, _campaign_v1_DeleteFeedResponse__Output>
  DeleteTemplate: MethodDefinition<_campaign_v1_TemplateRequest, _campaign_v1_DeleteTemplateResponse, _campaign_v1_TemplateRequest__Output, _campaign_v1_DeleteTemplateResponse__Output>
  ExportCampaigns: MethodDefinition<_campaign_v1_ExportCampaignsRequest, _campaign_v1_ExportCampaignsChunk, _campaign_v1_ExportCampaignsRequest__Output, _campaign_v1_ExportCampaignsChunk__Output>
  GetAutomation: MethodDefinition<_campaign_v1_AutomationRequest, _campaign_v1_Automation, _campaign_v1_AutomationRequest__Output, _campaign_v1_Automation__Output>
  GetCampaign: MethodDefinition<_campaign_v1_GetCampaignRequest, _campaign_v1_GetCampaignResponse, _campaign_v1_GetCampaignRequest__Output, _campaign_v1_GetCampaignResponse__Output>
  GetFeed: MethodDefinition<_campaign_v1_FeedRequest, _campaign_v1_Feed, _campaign_v1_FeedRequest__Output, _campaign_v1_Feed__Output>
  GetNotification: MethodDefinition<_campaign_v1_GetNotificationRequest, _campaign_v1_Notification, _campaign_v1_GetNotificationRequest__Output, _campaign_v1_Notification__Output>
  GetTemplate: MethodDefinition<_campaign_v1_TemplateRequest, _campaign_v1_Template, _campaign_v1_TemplateRequest__Output, _campaign_v1_Template__Output>
  ListAutomations: MethodDefinition<_campaign_v1_AutomationRequest, _campaign_v1_ListAutomationsResponse, _campaign_v1_AutomationRequest__Output, _campaign_v1_ListAutomationsResponse__Output>
  ListCampaigns: MethodDefinition<_campaign_v1_ListCampaignsRequest, _campaign_v1_ListCampaignsResponse, _campaign_v1_ListCampaignsRequest__Output, _campaign_v1_ListCampaignsResponse__Output>
  ListFeeds: MethodDefinition<_campaign_v1_FeedRequest, _campaign_v1_ListFeedsResponse, _campaign_v1_FeedRequest__Output, _campaign_v1_ListFeedsResponse__Output>
  ListNotifications: MethodDefinition<_campaign_v1_ListNotificationsRequest, _campaign_v1_ListNotificationsResponse, _campaign_v1_ListNotificationsRequest__Output, _campaign_v1_ListNotificationsResponse__Output>
  ListTemplates: MethodDefinition<_campaign_v1_TemplateRequest, _campaign_v1_ListTemplatesResponse, _campaign_v1_TemplateRequest__Output, _campaign_v1_ListTemplatesResponse__Output>
  PickWinner: MethodDefinition<_campaign_v1_PickWinnerRequest, _campaign_v1_PickWinnerResponse, _campaign_v1_PickWinnerRequest__Output, _campaign_v1_PickWinnerResponse__Output>
  PlanPreview: MethodDefinition<_campaign_v1_PlanPreviewRequest, _campaign_v1_PlanPreviewResponse, _campaign_v1_PlanPreviewRequest__Output, _campaign_v1_PlanPreviewResponse__Output>
  RecordEvent: MethodDefinition<_campaign_v1_AutomationRequest, _campaign_v1_RecordEventResponse, _campaign_v1_AutomationRequest__Output, _campaign_v1_RecordEventResponse__Output>
  RenderTemplate: MethodDefinition<_campaign_v1_TemplateRequest, _campaign_v1_RenderTemplateResponse, _campaign_v1_TemplateRequest__Output, _campaign_v1_RenderTemplateResponse__Output>
  ReviseCampaign: MethodDefinition<_campaign_v1_ReviseCampaignRequest, _campaign_v1_ReviseCampaignResponse, _campaign_v1_ReviseCampaignRequest__Output, _campaign_v1_ReviseCampaignResponse__Output>
  UpdateAutomation: MethodDefinition<_campaign_v1_AutomationRequest, _campaign_v1_Automation, _campaign_v1_AutomationRequest__Output, _campaign_v1_Automation__Output>
  UpdateDraft: MethodDefinition<_campaign_v1_UpdateDraftRequest, _campaign_v1_CreateCampaignResponse, _campaign_v1_UpdateDraftRequest__Output, _campaign_v1_CreateCampaignResponse__Output>
  UpdateFeed: MethodDefinition<_campaign_v1_FeedRequest, _campaign_v1_Feed, _campaign_v1_FeedRequest__Output, _campaign_v1_Feed__Output>
  UpdateTemplate: MethodDefinition<_campaign_v1_TemplateRequest, _campaign_v1_Template, _campaign_v1_TemplateRequest__Output, _campaign_v1_Template__Output>
}
