// Original file: packages/contracts/protos/delivery/v1/console_data.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AudienceBrowsersRequest as _delivery_v1_AudienceBrowsersRequest, AudienceBrowsersRequest__Output as _delivery_v1_AudienceBrowsersRequest__Output } from '../../delivery/v1/AudienceBrowsersRequest';
import type { AudienceBrowsersResponse as _delivery_v1_AudienceBrowsersResponse, AudienceBrowsersResponse__Output as _delivery_v1_AudienceBrowsersResponse__Output } from '../../delivery/v1/AudienceBrowsersResponse';
import type { AudienceDailyRequest as _delivery_v1_AudienceDailyRequest, AudienceDailyRequest__Output as _delivery_v1_AudienceDailyRequest__Output } from '../../delivery/v1/AudienceDailyRequest';
import type { AudienceDailyResponse as _delivery_v1_AudienceDailyResponse, AudienceDailyResponse__Output as _delivery_v1_AudienceDailyResponse__Output } from '../../delivery/v1/AudienceDailyResponse';
import type { CampaignSeriesRequest as _delivery_v1_CampaignSeriesRequest, CampaignSeriesRequest__Output as _delivery_v1_CampaignSeriesRequest__Output } from '../../delivery/v1/CampaignSeriesRequest';
import type { CampaignSeriesResponse as _delivery_v1_CampaignSeriesResponse, CampaignSeriesResponse__Output as _delivery_v1_CampaignSeriesResponse__Output } from '../../delivery/v1/CampaignSeriesResponse';
import type { DeleteTopicRequest as _delivery_v1_DeleteTopicRequest, DeleteTopicRequest__Output as _delivery_v1_DeleteTopicRequest__Output } from '../../delivery/v1/DeleteTopicRequest';
import type { MergeTopicsRequest as _delivery_v1_MergeTopicsRequest, MergeTopicsRequest__Output as _delivery_v1_MergeTopicsRequest__Output } from '../../delivery/v1/MergeTopicsRequest';
import type { OptInPromptsResponse as _delivery_v1_OptInPromptsResponse, OptInPromptsResponse__Output as _delivery_v1_OptInPromptsResponse__Output } from '../../delivery/v1/OptInPromptsResponse';
import type { RenameTopicRequest as _delivery_v1_RenameTopicRequest, RenameTopicRequest__Output as _delivery_v1_RenameTopicRequest__Output } from '../../delivery/v1/RenameTopicRequest';
import type { SendTestPushRequest as _delivery_v1_SendTestPushRequest, SendTestPushRequest__Output as _delivery_v1_SendTestPushRequest__Output } from '../../delivery/v1/SendTestPushRequest';
import type { SendTestPushResponse as _delivery_v1_SendTestPushResponse, SendTestPushResponse__Output as _delivery_v1_SendTestPushResponse__Output } from '../../delivery/v1/SendTestPushResponse';
import type { SiteSettingsRequest as _delivery_v1_SiteSettingsRequest, SiteSettingsRequest__Output as _delivery_v1_SiteSettingsRequest__Output } from '../../delivery/v1/SiteSettingsRequest';
import type { SiteSettingsResponse as _delivery_v1_SiteSettingsResponse, SiteSettingsResponse__Output as _delivery_v1_SiteSettingsResponse__Output } from '../../delivery/v1/SiteSettingsResponse';
import type { TopicChange as _delivery_v1_TopicChange, TopicChange__Output as _delivery_v1_TopicChange__Output } from '../../delivery/v1/TopicChange';
import type { UpdateOptInPromptsRequest as _delivery_v1_UpdateOptInPromptsRequest, UpdateOptInPromptsRequest__Output as _delivery_v1_UpdateOptInPromptsRequest__Output } from '../../delivery/v1/UpdateOptInPromptsRequest';
import type { UpdateSendingSettingsRequest as _delivery_v1_UpdateSendingSettingsRequest, UpdateSendingSettingsRequest__Output as _delivery_v1_UpdateSendingSettingsRequest__Output } from '../../delivery/v1/UpdateSendingSettingsRequest';

export interface ConsoleDataClient extends grpc.Client {
  AudienceBrowsers(argument: _delivery_v1_AudienceBrowsersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_AudienceBrowsersResponse__Output>): grpc.ClientUnaryCall;
  AudienceBrowsers(argument: _delivery_v1_AudienceBrowsersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_AudienceBrowsersResponse__Output>): grpc.ClientUnaryCall;
  AudienceBrowsers(argument: _delivery_v1_AudienceBrowsersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_AudienceBrowsersResponse__Output>): grpc.ClientUnaryCall;
  AudienceBrowsers(argument: _delivery_v1_AudienceBrowsersRequest, callback: grpc.requestCallback<_delivery_v1_AudienceBrowsersResponse__Output>): grpc.ClientUnaryCall;
  audienceBrowsers(argument: _delivery_v1_AudienceBrowsersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_AudienceBrowsersResponse__Output>): grpc.ClientUnaryCall;
  audienceBrowsers(argument: _delivery_v1_AudienceBrowsersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_AudienceBrowsersResponse__Output>): grpc.ClientUnaryCall;
  audienceBrowsers(argument: _delivery_v1_AudienceBrowsersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_AudienceBrowsersResponse__Output>): grpc.ClientUnaryCall;
  audienceBrowsers(argument: _delivery_v1_AudienceBrowsersRequest, callback: grpc.requestCallback<_delivery_v1_AudienceBrowsersResponse__Output>): grpc.ClientUnaryCall;
  
  AudienceDaily(argument: _delivery_v1_AudienceDailyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_AudienceDailyResponse__Output>): grpc.ClientUnaryCall;
  AudienceDaily(argument: _delivery_v1_AudienceDailyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_AudienceDailyResponse__Output>): grpc.ClientUnaryCall;
  AudienceDaily(argument: _delivery_v1_AudienceDailyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_AudienceDailyResponse__Output>): grpc.ClientUnaryCall;
  AudienceDaily(argument: _delivery_v1_AudienceDailyRequest, callback: grpc.requestCallback<_delivery_v1_AudienceDailyResponse__Output>): grpc.ClientUnaryCall;
  audienceDaily(argument: _delivery_v1_AudienceDailyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_AudienceDailyResponse__Output>): grpc.ClientUnaryCall;
  audienceDaily(argument: _delivery_v1_AudienceDailyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_AudienceDailyResponse__Output>): grpc.ClientUnaryCall;
  audienceDaily(argument: _delivery_v1_AudienceDailyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_AudienceDailyResponse__Output>): grpc.ClientUnaryCall;
  audienceDaily(argument: _delivery_v1_AudienceDailyRequest, callback: grpc.requestCallback<_delivery_v1_AudienceDailyResponse__Output>): grpc.ClientUnaryCall;
  
  CampaignSeries(argument: _delivery_v1_CampaignSeriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_CampaignSeriesResponse__Output>): grpc.ClientUnaryCall;
  CampaignSeries(argument: _delivery_v1_CampaignSeriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_CampaignSeriesResponse__Output>): grpc.ClientUnaryCall;
  CampaignSeries(argument: _delivery_v1_CampaignSeriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_CampaignSeriesResponse__Output>): grpc.ClientUnaryCall;
  CampaignSeries(argument: _delivery_v1_CampaignSeriesRequest, callback: grpc.requestCallback<_delivery_v1_CampaignSeriesResponse__Output>): grpc.ClientUnaryCall;
  campaignSeries(argument: _delivery_v1_CampaignSeriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_CampaignSeriesResponse__Output>): grpc.ClientUnaryCall;
  campaignSeries(argument: _delivery_v1_CampaignSeriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_CampaignSeriesResponse__Output>): grpc.ClientUnaryCall;
  campaignSeries(argument: _delivery_v1_CampaignSeriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_CampaignSeriesResponse__Output>): grpc.ClientUnaryCall;
  campaignSeries(argument: _delivery_v1_CampaignSeriesRequest, callback: grpc.requestCallback<_delivery_v1_CampaignSeriesResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteTopic(argument: _delivery_v1_DeleteTopicRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_TopicChange__Output>): grpc.ClientUnaryCall;
  DeleteTopic(argument: _delivery_v1_DeleteTopicRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_TopicChange__Output>): grpc.ClientUnaryCall;
  DeleteTopic(argument: _delivery_v1_DeleteTopicRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_TopicChange__Output>): grpc.ClientUnaryCall;
  DeleteTopic(argument: _delivery_v1_DeleteTopicRequest, callback: grpc.requestCallback<_delivery_v1_TopicChange__Output>): grpc.ClientUnaryCall;
  deleteTopic(argument: _delivery_v1_DeleteTopicRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_TopicChange__Output>): grpc.ClientUnaryCall;
  deleteTopic(argument: _delivery_v1_DeleteTopicRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_TopicChange__Output>): grpc.ClientUnaryCall;
  deleteTopic(argument: _delivery_v1_DeleteTopicRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_TopicChange__Output>): grpc.ClientUnaryCall;
  deleteTopic(argument: _delivery_v1_DeleteTopicRequest, callback: grpc.requestCallback<_delivery_v1_TopicChange__Output>): grpc.ClientUnaryCall;
  
  MergeTopics(argument: _delivery_v1_MergeTopicsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_TopicChange__Output>): grpc.ClientUnaryCall;
  MergeTopics(argument: _delivery_v1_MergeTopicsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_TopicChange__Output>): grpc.ClientUnaryCall;
  MergeTopics(argument: _delivery_v1_MergeTopicsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_TopicChange__Output>): grpc.ClientUnaryCall;
  MergeTopics(argument: _delivery_v1_MergeTopicsRequest, callback: grpc.requestCallback<_delivery_v1_TopicChange__Output>): grpc.ClientUnaryCall;
  mergeTopics(argument: _delivery_v1_MergeTopicsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_TopicChange__Output>): grpc.ClientUnaryCall;
  mergeTopics(argument: _delivery_v1_MergeTopicsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_TopicChange__Output>): grpc.ClientUnaryCall;
  mergeTopics(argument: _delivery_v1_MergeTopicsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_TopicChange__Output>): grpc.ClientUnaryCall;
  mergeTopics(argument: _delivery_v1_MergeTopicsRequest, callback: grpc.requestCallback<_delivery_v1_TopicChange__Output>): grpc.ClientUnaryCall;
  
  OptInPrompts(argument: _delivery_v1_SiteSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_OptInPromptsResponse__Output>): grpc.ClientUnaryCall;
  OptInPrompts(argument: _delivery_v1_SiteSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_OptInPromptsResponse__Output>): grpc.ClientUnaryCall;
  OptInPrompts(argument: _delivery_v1_SiteSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_OptInPromptsResponse__Output>): grpc.ClientUnaryCall;
  OptInPrompts(argument: _delivery_v1_SiteSettingsRequest, callback: grpc.requestCallback<_delivery_v1_OptInPromptsResponse__Output>): grpc.ClientUnaryCall;
  optInPrompts(argument: _delivery_v1_SiteSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_OptInPromptsResponse__Output>): grpc.ClientUnaryCall;
  optInPrompts(argument: _delivery_v1_SiteSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_OptInPromptsResponse__Output>): grpc.ClientUnaryCall;
  optInPrompts(argument: _delivery_v1_SiteSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_OptInPromptsResponse__Output>): grpc.ClientUnaryCall;
  optInPrompts(argument: _delivery_v1_SiteSettingsRequest, callback: grpc.requestCallback<_delivery_v1_OptInPromptsResponse__Output>): grpc.ClientUnaryCall;
  
  RenameTopic(argument: _delivery_v1_RenameTopicRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_TopicChange__Output>): grpc.ClientUnaryCall;
  RenameTopic(argument: _delivery_v1_RenameTopicRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_TopicChange__Output>): grpc.ClientUnaryCall;
  RenameTopic(argument: _delivery_v1_RenameTopicRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_TopicChange__Output>): grpc.ClientUnaryCall;
  RenameTopic(argument: _delivery_v1_RenameTopicRequest, callback: grpc.requestCallback<_delivery_v1_TopicChange__Output>): grpc.ClientUnaryCall;
  renameTopic(argument: _delivery_v1_RenameTopicRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_TopicChange__Output>): grpc.ClientUnaryCall;
  renameTopic(argument: _delivery_v1_RenameTopicRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_TopicChange__Output>): grpc.ClientUnaryCall;
  renameTopic(argument: _delivery_v1_RenameTopicRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_TopicChange__Output>): grpc.ClientUnaryCall;
  renameTopic(argument: _delivery_v1_RenameTopicRequest, callback: grpc.requestCallback<_delivery_v1_TopicChange__Output>): grpc.ClientUnaryCall;
  
  SendTestPush(argument: _delivery_v1_SendTestPushRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_SendTestPushResponse__Output>): grpc.ClientUnaryCall;
  SendTestPush(argument: _delivery_v1_SendTestPushRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_SendTestPushResponse__Output>): grpc.ClientUnaryCall;
  SendTestPush(argument: _delivery_v1_SendTestPushRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_SendTestPushResponse__Output>): grpc.ClientUnaryCall;
  SendTestPush(argument: _delivery_v1_SendTestPushRequest, callback: grpc.requestCallback<_delivery_v1_SendTestPushResponse__Output>): grpc.ClientUnaryCall;
  sendTestPush(argument: _delivery_v1_SendTestPushRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_SendTestPushResponse__Output>): grpc.ClientUnaryCall;
  sendTestPush(argument: _delivery_v1_SendTestPushRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_SendTestPushResponse__Output>): grpc.ClientUnaryCall;
  sendTestPush(argument: _delivery_v1_SendTestPushRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_SendTestPushResponse__Output>): grpc.ClientUnaryCall;
  sendTestPush(argument: _delivery_v1_SendTestPushRequest, callback: grpc.requestCallback<_delivery_v1_SendTestPushResponse__Output>): grpc.ClientUnaryCall;
  
  SiteSettings(argument: _delivery_v1_SiteSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_SiteSettingsResponse__Output>): grpc.ClientUnaryCall;
  SiteSettings(argument: _delivery_v1_SiteSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_SiteSettingsResponse__Output>): grpc.ClientUnaryCall;
  SiteSettings(argument: _delivery_v1_SiteSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_SiteSettingsResponse__Output>): grpc.ClientUnaryCall;
  SiteSettings(argument: _delivery_v1_SiteSettingsRequest, callback: grpc.requestCallback<_delivery_v1_SiteSettingsResponse__Output>): grpc.ClientUnaryCall;
  siteSettings(argument: _delivery_v1_SiteSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_SiteSettingsResponse__Output>): grpc.ClientUnaryCall;
  siteSettings(argument: _delivery_v1_SiteSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_SiteSettingsResponse__Output>): grpc.ClientUnaryCall;
  siteSettings(argument: _delivery_v1_SiteSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_SiteSettingsResponse__Output>): grpc.ClientUnaryCall;
  siteSettings(argument: _delivery_v1_SiteSettingsRequest, callback: grpc.requestCallback<_delivery_v1_SiteSettingsResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateOptInPrompts(argument: _delivery_v1_UpdateOptInPromptsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_OptInPromptsResponse__Output>): grpc.ClientUnaryCall;
  UpdateOptInPrompts(argument: _delivery_v1_UpdateOptInPromptsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_OptInPromptsResponse__Output>): grpc.ClientUnaryCall;
  UpdateOptInPrompts(argument: _delivery_v1_UpdateOptInPromptsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_OptInPromptsResponse__Output>): grpc.ClientUnaryCall;
  UpdateOptInPrompts(argument: _delivery_v1_UpdateOptInPromptsRequest, callback: grpc.requestCallback<_delivery_v1_OptInPromptsResponse__Output>): grpc.ClientUnaryCall;
  updateOptInPrompts(argument: _delivery_v1_UpdateOptInPromptsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_OptInPromptsResponse__Output>): grpc.ClientUnaryCall;
  updateOptInPrompts(argument: _delivery_v1_UpdateOptInPromptsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_OptInPromptsResponse__Output>): grpc.ClientUnaryCall;
  updateOptInPrompts(argument: _delivery_v1_UpdateOptInPromptsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_OptInPromptsResponse__Output>): grpc.ClientUnaryCall;
  updateOptInPrompts(argument: _delivery_v1_UpdateOptInPromptsRequest, callback: grpc.requestCallback<_delivery_v1_OptInPromptsResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateSendingSettings(argument: _delivery_v1_UpdateSendingSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_SiteSettingsResponse__Output>): grpc.ClientUnaryCall;
  UpdateSendingSettings(argument: _delivery_v1_UpdateSendingSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_SiteSettingsResponse__Output>): grpc.ClientUnaryCall;
  UpdateSendingSettings(argument: _delivery_v1_UpdateSendingSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_SiteSettingsResponse__Output>): grpc.ClientUnaryCall;
  UpdateSendingSettings(argument: _delivery_v1_UpdateSendingSettingsRequest, callback: grpc.requestCallback<_delivery_v1_SiteSettingsResponse__Output>): grpc.ClientUnaryCall;
  updateSendingSettings(argument: _delivery_v1_UpdateSendingSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_SiteSettingsResponse__Output>): grpc.ClientUnaryCall;
  updateSendingSettings(argument: _delivery_v1_UpdateSendingSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_SiteSettingsResponse__Output>): grpc.ClientUnaryCall;
  updateSendingSettings(argument: _delivery_v1_UpdateSendingSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_SiteSettingsResponse__Output>): grpc.ClientUnaryCall;
  updateSendingSettings(argument: _delivery_v1_UpdateSendingSettingsRequest, callback: grpc.requestCallback<_delivery_v1_SiteSettingsResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface ConsoleDataHandlers extends grpc.UntypedServiceImplementation {
  AudienceBrowsers: grpc.handleUnaryCall<_delivery_v1_AudienceBrowsersRequest__Output, _delivery_v1_AudienceBrowsersResponse>;
  
  AudienceDaily: grpc.handleUnaryCall<_delivery_v1_AudienceDailyRequest__Output, _delivery_v1_AudienceDailyResponse>;
  
  CampaignSeries: grpc.handleUnaryCall<_delivery_v1_CampaignSeriesRequest__Output, _delivery_v1_CampaignSeriesResponse>;
  
  DeleteTopic: grpc.handleUnaryCall<_delivery_v1_DeleteTopicRequest__Output, _delivery_v1_TopicChange>;
  
  MergeTopics: grpc.handleUnaryCall<_delivery_v1_MergeTopicsRequest__Output, _delivery_v1_TopicChange>;
  
  OptInPrompts: grpc.handleUnaryCall<_delivery_v1_SiteSettingsRequest__Output, _delivery_v1_OptInPromptsResponse>;
  
  RenameTopic: grpc.handleUnaryCall<_delivery_v1_RenameTopicRequest__Output, _delivery_v1_TopicChange>;
  
  SendTestPush: grpc.handleUnaryCall<_delivery_v1_SendTestPushRequest__Output, _delivery_v1_SendTestPushResponse>;
  
  SiteSettings: grpc.handleUnaryCall<_delivery_v1_SiteSettingsRequest__Output, _delivery_v1_SiteSettingsResponse>;
  
  UpdateOptInPrompts: grpc.handleUnaryCall<_delivery_v1_UpdateOptInPromptsRequest__Output, _delivery_v1_OptInPromptsResponse>;
  
  UpdateSendingSettings: grpc.handleUnaryCall<_delivery_v1_UpdateSendingSettingsRequest__Output, _delivery_v1_SiteSettingsResponse>;
  
}

export interface ConsoleDataDefinition extends grpc.ServiceDefinition {
  AudienceBrowsers: MethodDefinition<_delivery_v1_AudienceBrowsersRequest, _delivery_v1_AudienceBrowsersResponse, _delivery_v1_AudienceBrowsersRequest__Output, _delivery_v1_AudienceBrowsersResponse__Output>
  AudienceDaily: MethodDefinition<_delivery_v1_AudienceDailyRequest, _delivery_v1_AudienceDailyResponse, _delivery_v1_AudienceDailyRequest__Output, _delivery_v1_AudienceDailyResponse__Output>
  CampaignSeries: MethodDefinition<_delivery_v1_CampaignSeriesRequest, _delivery_v1_CampaignSeriesResponse, _delivery_v1_CampaignSeriesRequest__Output, _delivery_v1_CampaignSeriesResponse__Output>
  DeleteTopic: MethodDefinition<_delivery_v1_DeleteTopicRequest, _delivery_v1_TopicChange, _delivery_v1_DeleteTopicRequest__Output, _delivery_v1_TopicChange__Output>
  MergeTopics: MethodDefinition<_delivery_v1_MergeTopicsRequest, _delivery_v1_TopicChange, _delivery_v1_MergeTopicsRequest__Output, _delivery_v1_TopicChange__Output>
  OptInPrompts: MethodDefinition<_delivery_v1_SiteSettingsRequest, _delivery_v1_OptInPromptsResponse, _delivery_v1_SiteSettingsRequest__Output, _delivery_v1_OptInPromptsResponse__Output>
  RenameTopic: MethodDefinition<_delivery_v1_RenameTopicRequest, _delivery_v1_TopicChange, _delivery_v1_RenameTopicRequest__Output, _delivery_v1_TopicChange__Output>
  SendTestPush: MethodDefinition<_delivery_v1_SendTestPushRequest, _delivery_v1_SendTestPushResponse, _delivery_v1_SendTestPushRequest__Output, _delivery_v1_SendTestPushResponse__Output>
  SiteSettings: MethodDefinition<_delivery_v1_SiteSettingsRequest, _delivery_v1_SiteSettingsResponse, _delivery_v1_SiteSettingsRequest__Output, _delivery_v1_SiteSettingsResponse__Output>
  UpdateOptInPrompts: MethodDefinition<_delivery_v1_UpdateOptInPromptsRequest, _delivery_v1_OptInPromptsResponse, _delivery_v1_UpdateOptInPromptsRequest__Output, _delivery_v1_OptInPromptsResponse__Output>
  UpdateSendingSettings: MethodDefinition<_delivery_v1_UpdateSendingSettingsRequest, _delivery_v1_SiteSettingsResponse, _delivery_v1_UpdateSendingSettingsRequest__Output, _delivery_v1_SiteSettingsResponse__Output>
}
