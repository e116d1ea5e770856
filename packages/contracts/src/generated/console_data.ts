import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { AudienceBrowsersRequest as _delivery_v1_AudienceBrowsersRequest, AudienceBrowsersRequest__Output as _delivery_v1_AudienceBrowsersRequest__Output } from './delivery/v1/AudienceBrowsersRequest';
import type { AudienceBrowsersResponse as _delivery_v1_AudienceBrowsersResponse, AudienceBrowsersResponse__Output as _delivery_v1_AudienceBrowsersResponse__Output } from './delivery/v1/AudienceBrowsersResponse';
import type { AudienceDailyRequest as _delivery_v1_AudienceDailyRequest, AudienceDailyRequest__Output as _delivery_v1_AudienceDailyRequest__Output } from './delivery/v1/AudienceDailyRequest';
import type { AudienceDailyResponse as _delivery_v1_AudienceDailyResponse, AudienceDailyResponse__Output as _delivery_v1_AudienceDailyResponse__Output } from './delivery/v1/AudienceDailyResponse';
import type { BrowserCount as _delivery_v1_BrowserCount, BrowserCount__Output as _delivery_v1_BrowserCount__Output } from './delivery/v1/BrowserCount';
import type { CampaignSeriesRequest as _delivery_v1_CampaignSeriesRequest, CampaignSeriesRequest__Output as _delivery_v1_CampaignSeriesRequest__Output } from './delivery/v1/CampaignSeriesRequest';
import type { CampaignSeriesResponse as _delivery_v1_CampaignSeriesResponse, CampaignSeriesResponse__Output as _delivery_v1_CampaignSeriesResponse__Output } from './delivery/v1/CampaignSeriesResponse';
import type { ConsoleDataClient as _delivery_v1_ConsoleDataClient, ConsoleDataDefinition as _delivery_v1_ConsoleDataDefinition } from './delivery/v1/ConsoleData';
import type { DayCount as _delivery_v1_DayCount, DayCount__Output as _delivery_v1_DayCount__Output } from './delivery/v1/DayCount';
import type { DeleteTopicRequest as _delivery_v1_DeleteTopicRequest, DeleteTopicRequest__Output as _delivery_v1_DeleteTopicRequest__Output } from './delivery/v1/DeleteTopicRequest';
import type { FrequencyCap as _delivery_v1_FrequencyCap, FrequencyCap__Output as _delivery_v1_FrequencyCap__Output } from './delivery/v1/FrequencyCap';
import type { FrequencyCapAnswer as _delivery_v1_FrequencyCapAnswer, FrequencyCapAnswer__Output as _delivery_v1_FrequencyCapAnswer__Output } from './delivery/v1/FrequencyCapAnswer';
import type { FrequencyCapInput as _delivery_v1_FrequencyCapInput, FrequencyCapInput__Output as _delivery_v1_FrequencyCapInput__Output } from './delivery/v1/FrequencyCapInput';
import type { MergeTopicsRequest as _delivery_v1_MergeTopicsRequest, MergeTopicsRequest__Output as _delivery_v1_MergeTopicsRequest__Output } from './delivery/v1/MergeTopicsRequest';
import type { OptInPromptsResponse as _delivery_v1_OptInPromptsResponse, OptInPromptsResponse__Output as _delivery_v1_OptInPromptsResponse__Output } from './delivery/v1/OptInPromptsResponse';
import type { QuietHoursAnswer as _delivery_v1_QuietHoursAnswer, QuietHoursAnswer__Output as _delivery_v1_QuietHoursAnswer__Output } from './delivery/v1/QuietHoursAnswer';
import type { QuietHoursWindow as _delivery_v1_QuietHoursWindow, QuietHoursWindow__Output as _delivery_v1_QuietHoursWindow__Output } from './delivery/v1/QuietHoursWindow';
import type { RegisterSiteRequest as _delivery_v1_RegisterSiteRequest, RegisterSiteRequest__Output as _delivery_v1_RegisterSiteRequest__Output } from './delivery/v1/RegisterSiteRequest';
import type { RegisteredSite as _delivery_v1_RegisteredSite, RegisteredSite__Output as _delivery_v1_RegisteredSite__Output } from './delivery/v1/RegisteredSite';
import type { RenameTopicRequest as _delivery_v1_RenameTopicRequest, RenameTopicRequest__Output as _delivery_v1_RenameTopicRequest__Output } from './delivery/v1/RenameTopicRequest';
import type { SendTestPushRequest as _delivery_v1_SendTestPushRequest, SendTestPushRequest__Output as _delivery_v1_SendTestPushRequest__Output } from './delivery/v1/SendTestPushRequest';
import type { SendTestPushResponse as _delivery_v1_SendTestPushResponse, SendTestPushResponse__Output as _delivery_v1_SendTestPushResponse__Output } from './delivery/v1/SendTestPushResponse';
import type { SeriesPoint as _delivery_v1_SeriesPoint, SeriesPoint__Output as _delivery_v1_SeriesPoint__Output } from './delivery/v1/SeriesPoint';
import type { SetFrequencyCapRequest as _delivery_v1_SetFrequencyCapRequest, SetFrequencyCapRequest__Output as _delivery_v1_SetFrequencyCapRequest__Output } from './delivery/v1/SetFrequencyCapRequest';
import type { SetQuietHoursRequest as _delivery_v1_SetQuietHoursRequest, SetQuietHoursRequest__Output as _delivery_v1_SetQuietHoursRequest__Output } from './delivery/v1/SetQuietHoursRequest';
import type { SetTimeZoneRequest as _delivery_v1_SetTimeZoneRequest, SetTimeZoneRequest__Output as _delivery_v1_SetTimeZoneRequest__Output } from './delivery/v1/SetTimeZoneRequest';
import type { SetVisitorTagsRequest as _delivery_v1_SetVisitorTagsRequest, SetVisitorTagsRequest__Output as _delivery_v1_SetVisitorTagsRequest__Output } from './delivery/v1/SetVisitorTagsRequest';
import type { SiteRegistryClient as _delivery_v1_SiteRegistryClient, SiteRegistryDefinition as _delivery_v1_SiteRegistryDefinition } from './delivery/v1/SiteRegistry';
import type { SiteSettingsRequest as _delivery_v1_SiteSettingsRequest, SiteSettingsRequest__Output as _delivery_v1_SiteSettingsRequest__Output } from './delivery/v1/SiteSettingsRequest';
import type { SiteSettingsResponse as _delivery_v1_SiteSettingsResponse, SiteSettingsResponse__Output as _delivery_v1_SiteSettingsResponse__Output } from './delivery/v1/SiteSettingsResponse';
import type { TimeZoneAnswer as _delivery_v1_TimeZoneAnswer, TimeZoneAnswer__Output as _delivery_v1_TimeZoneAnswer__Output } from './delivery/v1/TimeZoneAnswer';
import type { TopicChange as _delivery_v1_TopicChange, TopicChange__Output as _delivery_v1_TopicChange__Output } from './delivery/v1/TopicChange';
import type { UpdateOptInPromptsRequest as _delivery_v1_UpdateOptInPromptsRequest, UpdateOptInPromptsRequest__Output as _delivery_v1_UpdateOptInPromptsRequest__Output } from './delivery/v1/UpdateOptInPromptsRequest';
import type { UpdateSendingSettingsRequest as _delivery_v1_UpdateSendingSettingsRequest, UpdateSendingSettingsRequest__Output as _delivery_v1_UpdateSendingSettingsRequest__Output } from './delivery/v1/UpdateSendingSettingsRequest';
import type { VisitorTagsAnswer as _delivery_v1_VisitorTagsAnswer, VisitorTagsAnswer__Output as _delivery_v1_VisitorTagsAnswer__Output } from './delivery/v1/VisitorTagsAnswer';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  delivery: {
    v1: {
      AudienceBrowsersRequest: MessageTypeDefinition<_delivery_v1_AudienceBrowsersRequest, _delivery_v1_AudienceBrowsersRequest__Output>
      AudienceBrowsersResponse: MessageTypeDefinition<_delivery_v1_AudienceBrowsersResponse, _delivery_v1_AudienceBrowsersResponse__Output>
      AudienceDailyRequest: MessageTypeDefinition<_delivery_v1_AudienceDailyRequest, _delivery_v1_AudienceDailyRequest__Output>
      AudienceDailyResponse: MessageTypeDefinition<_delivery_v1_AudienceDailyResponse, _delivery_v1_AudienceDailyResponse__Output>
      BrowserCount: MessageTypeDefinition<_delivery_v1_BrowserCount, _delivery_v1_BrowserCount__Output>
      CampaignSeriesRequest: MessageTypeDefinition<_delivery_v1_CampaignSeriesRequest, _delivery_v1_CampaignSeriesRequest__Output>
      CampaignSeriesResponse: MessageTypeDefinition<_delivery_v1_CampaignSeriesResponse, _delivery_v1_CampaignSeriesResponse__Output>
      ConsoleData: SubtypeConstructor<typeof grpc.Client, _delivery_v1_ConsoleDataClient> & { service: _delivery_v1_ConsoleDataDefinition }
      DayCount: MessageTypeDefinition<_delivery_v1_DayCount, _delivery_v1_DayCount__Output>
      DeleteTopicRequest: MessageTypeDefinition<_delivery_v1_DeleteTopicRequest, _delivery_v1_DeleteTopicRequest__Output>
      FrequencyCap: MessageTypeDefinition<_delivery_v1_FrequencyCap, _delivery_v1_FrequencyCap__Output>
      FrequencyCapAnswer: MessageTypeDefinition<_delivery_v1_FrequencyCapAnswer, _delivery_v1_FrequencyCapAnswer__Output>
      FrequencyCapInput: MessageTypeDefinition<_delivery_v1_FrequencyCapInput, _delivery_v1_FrequencyCapInput__Output>
      MergeTopicsRequest: MessageTypeDefinition<_delivery_v1_MergeTopicsRequest, _delivery_v1_MergeTopicsRequest__Output>
      OptInPromptsResponse: MessageTypeDefinition<_delivery_v1_OptInPromptsResponse, _delivery_v1_OptInPromptsResponse__Output>
      QuietHoursAnswer: MessageTypeDefinition<_delivery_v1_QuietHoursAnswer, _delivery_v1_QuietHoursAnswer__Output>
      QuietHoursWindow: MessageTypeDefinition<_delivery_v1_QuietHoursWindow, _delivery_v1_QuietHoursWindow__Output>
      RegisterSiteRequest: MessageTypeDefinition<_delivery_v1_RegisterSiteRequest, _delivery_v1_RegisterSiteRequest__Output>
      RegisteredSite: MessageTypeDefinition<_delivery_v1_RegisteredSite, _delivery_v1_RegisteredSite__Output>
      RenameTopicRequest: MessageTypeDefinition<_delivery_v1_RenameTopicRequest, _delivery_v1_RenameTopicRequest__Output>
      SendTestPushRequest: MessageTypeDefinition<_delivery_v1_SendTestPushRequest, _delivery_v1_SendTestPushRequest__Output>
      SendTestPushResponse: MessageTypeDefinition<_delivery_v1_SendTestPushResponse, _delivery_v1_SendTestPushResponse__Output>
      SeriesPoint: MessageTypeDefinition<_delivery_v1_SeriesPoint, _delivery_v1_SeriesPoint__Output>
      SetFrequencyCapRequest: MessageTypeDefinition<_delivery_v1_SetFrequencyCapRequest, _delivery_v1_SetFrequencyCapRequest__Output>
      SetQuietHoursRequest: MessageTypeDefinition<_delivery_v1_SetQuietHoursRequest, _delivery_v1_SetQuietHoursRequest__Output>
      SetTimeZoneRequest: MessageTypeDefinition<_delivery_v1_SetTimeZoneRequest, _delivery_v1_SetTimeZoneRequest__Output>
      SetVisitorTagsRequest: MessageTypeDefinition<_delivery_v1_SetVisitorTagsRequest, _delivery_v1_SetVisitorTagsRequest__Output>
      SiteRegistry: SubtypeConstructor<typeof grpc.Client, _delivery_v1_SiteRegistryClient> & { service: _delivery_v1_SiteRegistryDefinition }
      SiteSettingsRequest: MessageTypeDefinition<_delivery_v1_SiteSettingsRequest, _delivery_v1_SiteSettingsRequest__Output>
      SiteSettingsResponse: MessageTypeDefinition<_delivery_v1_SiteSettingsResponse, _delivery_v1_SiteSettingsResponse__Output>
      TimeZoneAnswer: MessageTypeDefinition<_delivery_v1_TimeZoneAnswer, _delivery_v1_TimeZoneAnswer__Output>
      TopicChange: MessageTypeDefinition<_delivery_v1_TopicChange, _delivery_v1_TopicChange__Output>
      UpdateOptInPromptsRequest: MessageTypeDefinition<_delivery_v1_UpdateOptInPromptsRequest, _delivery_v1_UpdateOptInPromptsRequest__Output>
      UpdateSendingSettingsRequest: MessageTypeDefinition<_delivery_v1_UpdateSendingSettingsRequest, _delivery_v1_UpdateSendingSettingsRequest__Output>
      VisitorTagsAnswer: MessageTypeDefinition<_delivery_v1_VisitorTagsAnswer, _delivery_v1_VisitorTagsAnswer__Output>
    }
  }
}

