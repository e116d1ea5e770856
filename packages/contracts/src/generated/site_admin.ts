import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { AbTest as _campaign_v1_AbTest, AbTest__Output as _campaign_v1_AbTest__Output } from './campaign/v1/AbTest';
import type { AbWinner as _campaign_v1_AbWinner, AbWinner__Output as _campaign_v1_AbWinner__Output } from './campaign/v1/AbWinner';
import type { AdminInvite as _campaign_v1_AdminInvite, AdminInvite__Output as _campaign_v1_AdminInvite__Output } from './campaign/v1/AdminInvite';
import type { AdminIssuedKey as _campaign_v1_AdminIssuedKey, AdminIssuedKey__Output as _campaign_v1_AdminIssuedKey__Output } from './campaign/v1/AdminIssuedKey';
import type { AdminKey as _campaign_v1_AdminKey, AdminKey__Output as _campaign_v1_AdminKey__Output } from './campaign/v1/AdminKey';
import type { AdminKeyList as _campaign_v1_AdminKeyList, AdminKeyList__Output as _campaign_v1_AdminKeyList__Output } from './campaign/v1/AdminKeyList';
import type { AdminPasswordReset as _campaign_v1_AdminPasswordReset, AdminPasswordReset__Output as _campaign_v1_AdminPasswordReset__Output } from './campaign/v1/AdminPasswordReset';
import type { AdminPlan as _campaign_v1_AdminPlan, AdminPlan__Output as _campaign_v1_AdminPlan__Output } from './campaign/v1/AdminPlan';
import type { AdminPlanList as _campaign_v1_AdminPlanList, AdminPlanList__Output as _campaign_v1_AdminPlanList__Output } from './campaign/v1/AdminPlanList';
import type { AdminSite as _campaign_v1_AdminSite, AdminSite__Output as _campaign_v1_AdminSite__Output } from './campaign/v1/AdminSite';
import type { AdminSiteList as _campaign_v1_AdminSiteList, AdminSiteList__Output as _campaign_v1_AdminSiteList__Output } from './campaign/v1/AdminSiteList';
import type { AdminSiteRequest as _campaign_v1_AdminSiteRequest, AdminSiteRequest__Output as _campaign_v1_AdminSiteRequest__Output } from './campaign/v1/AdminSiteRequest';
import type { AdminUser as _campaign_v1_AdminUser, AdminUser__Output as _campaign_v1_AdminUser__Output } from './campaign/v1/AdminUser';
import type { AdminUserList as _campaign_v1_AdminUserList, AdminUserList__Output as _campaign_v1_AdminUserList__Output } from './campaign/v1/AdminUserList';
import type { Analytics as _campaign_v1_Analytics, Analytics__Output as _campaign_v1_Analytics__Output } from './campaign/v1/Analytics';
import type { AuthenticateRequest as _campaign_v1_AuthenticateRequest, AuthenticateRequest__Output as _campaign_v1_AuthenticateRequest__Output } from './campaign/v1/AuthenticateRequest';
import type { AuthenticateResponse as _campaign_v1_AuthenticateResponse, AuthenticateResponse__Output as _campaign_v1_AuthenticateResponse__Output } from './campaign/v1/AuthenticateResponse';
import type { Automation as _campaign_v1_Automation, Automation__Output as _campaign_v1_Automation__Output } from './campaign/v1/Automation';
import type { AutomationEnrolments as _campaign_v1_AutomationEnrolments, AutomationEnrolments__Output as _campaign_v1_AutomationEnrolments__Output } from './campaign/v1/AutomationEnrolments';
import type { AutomationRequest as _campaign_v1_AutomationRequest, AutomationRequest__Output as _campaign_v1_AutomationRequest__Output } from './campaign/v1/AutomationRequest';
import type { AutomationStep as _campaign_v1_AutomationStep, AutomationStep__Output as _campaign_v1_AutomationStep__Output } from './campaign/v1/AutomationStep';
import type { AutomationStepResults as _campaign_v1_AutomationStepResults, AutomationStepResults__Output as _campaign_v1_AutomationStepResults__Output } from './campaign/v1/AutomationStepResults';
import type { AutomationTrigger as _campaign_v1_AutomationTrigger, AutomationTrigger__Output as _campaign_v1_AutomationTrigger__Output } from './campaign/v1/AutomationTrigger';
import type { BrowserResult as _campaign_v1_BrowserResult, BrowserResult__Output as _campaign_v1_BrowserResult__Output } from './campaign/v1/BrowserResult';
import type { Campaign as _campaign_v1_Campaign, Campaign__Output as _campaign_v1_Campaign__Output } from './campaign/v1/Campaign';
import type { CampaignServiceClient as _campaign_v1_CampaignServiceClient, CampaignServiceDefinition as _campaign_v1_CampaignServiceDefinition } from './campaign/v1/CampaignService';
import type { ChangePlanRequest as _campaign_v1_ChangePlanRequest, ChangePlanRequest__Output as _campaign_v1_ChangePlanRequest__Output } from './campaign/v1/ChangePlanRequest';
import type { CreateCampaignRequest as _campaign_v1_CreateCampaignRequest, CreateCampaignRequest__Output as _campaign_v1_CreateCampaignRequest__Output } from './campaign/v1/CreateCampaignRequest';
import type { CreateCampaignResponse as _campaign_v1_CreateCampaignResponse, CreateCampaignResponse__Output as _campaign_v1_CreateCampaignResponse__Output } from './campaign/v1/CreateCampaignResponse';
import type { CreateNotificationRequest as _campaign_v1_CreateNotificationRequest, CreateNotificationRequest__Output as _campaign_v1_CreateNotificationRequest__Output } from './campaign/v1/CreateNotificationRequest';
import type { CreateNotificationResponse as _campaign_v1_CreateNotificationResponse, CreateNotificationResponse__Output as _campaign_v1_CreateNotificationResponse__Output } from './campaign/v1/CreateNotificationResponse';
import type { CreatePlanRequest as _campaign_v1_CreatePlanRequest, CreatePlanRequest__Output as _campaign_v1_CreatePlanRequest__Output } from './campaign/v1/CreatePlanRequest';
import type { CreateSiteRequest as _campaign_v1_CreateSiteRequest, CreateSiteRequest__Output as _campaign_v1_CreateSiteRequest__Output } from './campaign/v1/CreateSiteRequest';
import type { CreatedSite as _campaign_v1_CreatedSite, CreatedSite__Output as _campaign_v1_CreatedSite__Output } from './campaign/v1/CreatedSite';
import type { DeleteAutomationResponse as _campaign_v1_DeleteAutomationResponse, DeleteAutomationResponse__Output as _campaign_v1_DeleteAutomationResponse__Output } from './campaign/v1/DeleteAutomationResponse';
import type { DeleteCampaignRequest as _campaign_v1_DeleteCampaignRequest, DeleteCampaignRequest__Output as _campaign_v1_DeleteCampaignRequest__Output } from './campaign/v1/DeleteCampaignRequest';
import type { DeleteCampaignResponse as _campaign_v1_DeleteCampaignResponse, DeleteCampaignResponse__Output as _campaign_v1_DeleteCampaignResponse__Output } from './campaign/v1/DeleteCampaignResponse';
import type { DeleteFeedResponse as _campaign_v1_DeleteFeedResponse, DeleteFeedResponse__Output as _campaign_v1_DeleteFeedResponse__Output } from './campaign/v1/DeleteFeedResponse';
import type { DeleteTemplateResponse as _campaign_v1_DeleteTemplateResponse, DeleteTemplateResponse__Output as _campaign_v1_DeleteTemplateResponse__Output } from './campaign/v1/DeleteTemplateResponse';
import type { Delivery as _campaign_v1_Delivery, Delivery__Output as _campaign_v1_Delivery__Output } from './campaign/v1/Delivery';
import type { ExportCampaignsChunk as _campaign_v1_ExportCampaignsChunk, ExportCampaignsChunk__Output as _campaign_v1_ExportCampaignsChunk__Output } from './campaign/v1/ExportCampaignsChunk';
import type { ExportCampaignsRequest as _campaign_v1_ExportCampaignsRequest, ExportCampaignsRequest__Output as _campaign_v1_ExportCampaignsRequest__Output } from './campaign/v1/ExportCampaignsRequest';
import type { FailedBy as _campaign_v1_FailedBy, FailedBy__Output as _campaign_v1_FailedBy__Output } from './campaign/v1/FailedBy';
import type { Feed as _campaign_v1_Feed, Feed__Output as _campaign_v1_Feed__Output } from './campaign/v1/Feed';
import type { FeedRequest as _campaign_v1_FeedRequest, FeedRequest__Output as _campaign_v1_FeedRequest__Output } from './campaign/v1/FeedRequest';
import type { GetCampaignRequest as _campaign_v1_GetCampaignRequest, GetCampaignRequest__Output as _campaign_v1_GetCampaignRequest__Output } from './campaign/v1/GetCampaignRequest';
import type { GetCampaignResponse as _campaign_v1_GetCampaignResponse, GetCampaignResponse__Output as _campaign_v1_GetCampaignResponse__Output } from './campaign/v1/GetCampaignResponse';
import type { GetNotificationRequest as _campaign_v1_GetNotificationRequest, GetNotificationRequest__Output as _campaign_v1_GetNotificationRequest__Output } from './campaign/v1/GetNotificationRequest';
import type { InviteUserRequest as _campaign_v1_InviteUserRequest, InviteUserRequest__Output as _campaign_v1_InviteUserRequest__Output } from './campaign/v1/InviteUserRequest';
import type { IssueKeyRequest as _campaign_v1_IssueKeyRequest, IssueKeyRequest__Output as _campaign_v1_IssueKeyRequest__Output } from './campaign/v1/IssueKeyRequest';
import type { ListAutomationsResponse as _campaign_v1_ListAutomationsResponse, ListAutomationsResponse__Output as _campaign_v1_ListAutomationsResponse__Output } from './campaign/v1/ListAutomationsResponse';
import type { ListCampaignsRequest as _campaign_v1_ListCampaignsRequest, ListCampaignsRequest__Output as _campaign_v1_ListCampaignsRequest__Output } from './campaign/v1/ListCampaignsRequest';
import type { ListCampaignsResponse as _campaign_v1_ListCampaignsResponse, ListCampaignsResponse__Output as _campaign_v1_ListCampaignsResponse__Output } from './campaign/v1/ListCampaignsResponse';
import type { ListFeedsResponse as _campaign_v1_ListFeedsResponse, ListFeedsResponse__Output as _campaign_v1_ListFeedsResponse__Output } from './campaign/v1/ListFeedsResponse';
import type { ListNotificationsRequest as _campaign_v1_ListNotificationsRequest, ListNotificationsRequest__Output as _campaign_v1_ListNotificationsRequest__Output } from './campaign/v1/ListNotificationsRequest';
import type { ListNotificationsResponse as _campaign_v1_ListNotificationsResponse, ListNotificationsResponse__Output as _campaign_v1_ListNotificationsResponse__Output } from './campaign/v1/ListNotificationsResponse';
import type { ListPlansRequest as _campaign_v1_ListPlansRequest, ListPlansRequest__Output as _campaign_v1_ListPlansRequest__Output } from './campaign/v1/ListPlansRequest';
import type { ListSitesRequest as _campaign_v1_ListSitesRequest, ListSitesRequest__Output as _campaign_v1_ListSitesRequest__Output } from './campaign/v1/ListSitesRequest';
import type { ListTemplatesResponse as _campaign_v1_ListTemplatesResponse, ListTemplatesResponse__Output as _campaign_v1_ListTemplatesResponse__Output } from './campaign/v1/ListTemplatesResponse';
import type { LocalTimePlan as _campaign_v1_LocalTimePlan, LocalTimePlan__Output as _campaign_v1_LocalTimePlan__Output } from './campaign/v1/LocalTimePlan';
import type { Notification as _campaign_v1_Notification, Notification__Output as _campaign_v1_Notification__Output } from './campaign/v1/Notification';
import type { NotificationAction as _campaign_v1_NotificationAction, NotificationAction__Output as _campaign_v1_NotificationAction__Output } from './campaign/v1/NotificationAction';
import type { NotificationCounts as _campaign_v1_NotificationCounts, NotificationCounts__Output as _campaign_v1_NotificationCounts__Output } from './campaign/v1/NotificationCounts';
import type { NotificationOptions as _campaign_v1_NotificationOptions, NotificationOptions__Output as _campaign_v1_NotificationOptions__Output } from './campaign/v1/NotificationOptions';
import type { NotificationResult as _campaign_v1_NotificationResult, NotificationResult__Output as _campaign_v1_NotificationResult__Output } from './campaign/v1/NotificationResult';
import type { Permissions as _campaign_v1_Permissions, Permissions__Output as _campaign_v1_Permissions__Output } from './campaign/v1/Permissions';
import type { PickWinnerRequest as _campaign_v1_PickWinnerRequest, PickWinnerRequest__Output as _campaign_v1_PickWinnerRequest__Output } from './campaign/v1/PickWinnerRequest';
import type { PickWinnerResponse as _campaign_v1_PickWinnerResponse, PickWinnerResponse__Output as _campaign_v1_PickWinnerResponse__Output } from './campaign/v1/PickWinnerResponse';
import type { PlanPreviewRequest as _campaign_v1_PlanPreviewRequest, PlanPreviewRequest__Output as _campaign_v1_PlanPreviewRequest__Output } from './campaign/v1/PlanPreviewRequest';
import type { PlanPreviewResponse as _campaign_v1_PlanPreviewResponse, PlanPreviewResponse__Output as _campaign_v1_PlanPreviewResponse__Output } from './campaign/v1/PlanPreviewResponse';
import type { PlannedHour as _campaign_v1_PlannedHour, PlannedHour__Output as _campaign_v1_PlannedHour__Output } from './campaign/v1/PlannedHour';
import type { PlannedSend as _campaign_v1_PlannedSend, PlannedSend__Output as _campaign_v1_PlannedSend__Output } from './campaign/v1/PlannedSend';
import type { RecordEventResponse as _campaign_v1_RecordEventResponse, RecordEventResponse__Output as _campaign_v1_RecordEventResponse__Output } from './campaign/v1/RecordEventResponse';
import type { RenderTemplateResponse as _campaign_v1_RenderTemplateResponse, RenderTemplateResponse__Output as _campaign_v1_RenderTemplateResponse__Output } from './campaign/v1/RenderTemplateResponse';
import type { ResetPasswordLinkRequest as _campaign_v1_ResetPasswordLinkRequest, ResetPasswordLinkRequest__Output as _campaign_v1_ResetPasswordLinkRequest__Output } from './campaign/v1/ResetPasswordLinkRequest';
import type { ReviseCampaignRequest as _campaign_v1_ReviseCampaignRequest, ReviseCampaignRequest__Output as _campaign_v1_ReviseCampaignRequest__Output } from './campaign/v1/ReviseCampaignRequest';
import type { ReviseCampaignResponse as _campaign_v1_ReviseCampaignResponse, ReviseCampaignResponse__Output as _campaign_v1_ReviseCampaignResponse__Output } from './campaign/v1/ReviseCampaignResponse';
import type { RevokeKeysAnswer as _campaign_v1_RevokeKeysAnswer, RevokeKeysAnswer__Output as _campaign_v1_RevokeKeysAnswer__Output } from './campaign/v1/RevokeKeysAnswer';
import type { RevokeKeysRequest as _campaign_v1_RevokeKeysRequest, RevokeKeysRequest__Output as _campaign_v1_RevokeKeysRequest__Output } from './campaign/v1/RevokeKeysRequest';
import type { Segment as _campaign_v1_Segment, Segment__Output as _campaign_v1_Segment__Output } from './campaign/v1/Segment';
import type { SendTime as _campaign_v1_SendTime, SendTime__Output as _campaign_v1_SendTime__Output } from './campaign/v1/SendTime';
import type { SendTimeSlot as _campaign_v1_SendTimeSlot, SendTimeSlot__Output as _campaign_v1_SendTimeSlot__Output } from './campaign/v1/SendTimeSlot';
import type { SetThrottleRequest as _campaign_v1_SetThrottleRequest, SetThrottleRequest__Output as _campaign_v1_SetThrottleRequest__Output } from './campaign/v1/SetThrottleRequest';
import type { SiteAdminClient as _campaign_v1_SiteAdminClient, SiteAdminDefinition as _campaign_v1_SiteAdminDefinition } from './campaign/v1/SiteAdmin';
import type { TagCondition as _campaign_v1_TagCondition, TagCondition__Output as _campaign_v1_TagCondition__Output } from './campaign/v1/TagCondition';
import type { TagValue as _campaign_v1_TagValue, TagValue__Output as _campaign_v1_TagValue__Output } from './campaign/v1/TagValue';
import type { Template as _campaign_v1_Template, Template__Output as _campaign_v1_Template__Output } from './campaign/v1/Template';
import type { TemplateRequest as _campaign_v1_TemplateRequest, TemplateRequest__Output as _campaign_v1_TemplateRequest__Output } from './campaign/v1/TemplateRequest';
import type { TemplateVariable as _campaign_v1_TemplateVariable, TemplateVariable__Output as _campaign_v1_TemplateVariable__Output } from './campaign/v1/TemplateVariable';
import type { ThrottleAnswer as _campaign_v1_ThrottleAnswer, ThrottleAnswer__Output as _campaign_v1_ThrottleAnswer__Output } from './campaign/v1/ThrottleAnswer';
import type { UpdateDraftRequest as _campaign_v1_UpdateDraftRequest, UpdateDraftRequest__Output as _campaign_v1_UpdateDraftRequest__Output } from './campaign/v1/UpdateDraftRequest';
import type { UtcOffset as _campaign_v1_UtcOffset, UtcOffset__Output as _campaign_v1_UtcOffset__Output } from './campaign/v1/UtcOffset';
import type { Variant as _campaign_v1_Variant, Variant__Output as _campaign_v1_Variant__Output } from './campaign/v1/Variant';
import type { VariantResult as _campaign_v1_VariantResult, VariantResult__Output as _campaign_v1_VariantResult__Output } from './campaign/v1/VariantResult';
import type { Page as _common_v1_Page, Page__Output as _common_v1_Page__Output } from './common/v1/Page';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  campaign: {
    v1: {
      AbTest: MessageTypeDefinition<_campaign_v1_AbTest, _campaign_v1_AbTest__Output>
      AbWinner: MessageTypeDefinition<_campaign_v1_AbWinner, _campaign_v1_AbWinner__Output>
      AdminInvite: MessageTypeDefinition<_campaign_v1_AdminInvite, _campaign_v1_AdminInvite__Output>
      AdminIssuedKey: MessageTypeDefinition<_campaign_v1_AdminIssuedKey, _campaign_v1_AdminIssuedKey__Output>
      AdminKey: MessageTypeDefinition<_campaign_v1_AdminKey, _campaign_v1_AdminKey__Output>
      AdminKeyList: MessageTypeDefinition<_campaign_v1_AdminKeyList, _campaign_v1_AdminKeyList__Output>
      AdminPasswordReset: MessageTypeDefinition<_campaign_v1_AdminPasswordReset, _campaign_v1_AdminPasswordReset__Output>
      AdminPlan: MessageTypeDefinition<_campaign_v1_AdminPlan, _campaign_v1_AdminPlan__Output>
      AdminPlanList: MessageTypeDefinition<_campaign_v1_AdminPlanList, _campaign_v1_AdminPlanList__Output>
      AdminSite: MessageTypeDefinition<_campaign_v1_AdminSite, _campaign_v1_AdminSite__Output>
      AdminSiteList: MessageTypeDefinition<_campaign_v1_AdminSiteList, _campaign_v1_AdminSiteList__Output>
      AdminSiteRequest: MessageTypeDefinition<_campaign_v1_AdminSiteRequest, _campaign_v1_AdminSiteRequest__Output>
      AdminUser: MessageTypeDefinition<_campaign_v1_AdminUser, _campaign_v1_AdminUser__Output>
      AdminUserList: MessageTypeDefinition<_campaign_v1_AdminUserList, _campaign_v1_AdminUserList__Output>
      Analytics: MessageTypeDefinition<_campaign_v1_Analytics, _campaign_v1_Analytics__Output>
      AuthenticateRequest: MessageTypeDefinition<_campaign_v1_AuthenticateRequest, _campaign_v1_AuthenticateRequest__Output>
      AuthenticateResponse: MessageTypeDefinition<_campaign_v1_AuthenticateResponse, _campaign_v1_AuthenticateResponse__Output>
      Automation: MessageTypeDefinition<_campaign_v1_Automation, _campaign_v1_Automation__Output>
      AutomationEnrolments: MessageTypeDefinition<_campaign_v1_AutomationEnrolments, _campaign_v1_AutomationEnrolments__Output>
      AutomationRequest: MessageTypeDefinition<_campaign_v1_AutomationRequest, _campaign_v1_AutomationRequest__Output>
      AutomationStep: MessageTypeDefinition<_campaign_v1_AutomationStep, _campaign_v1_AutomationStep__Output>
      AutomationStepResults: MessageTypeDefinition<_campaign_v1_AutomationStepResults, _campaign_v1_AutomationStepResults__Output>
      AutomationTrigger: MessageTypeDefinition<_campaign_v1_AutomationTrigger, _campaign_v1_AutomationTrigger__Output>
      BrowserResult: MessageTypeDefinition<_campaign_v1_BrowserResult, _campaign_v1_BrowserResult__Output>
      Campaign: MessageTypeDefinition<_campaign_v1_Campaign, _campaign_v1_Campaign__Output>
      CampaignService: SubtypeConstructor<typeof grpc.Client, _campaign_v1_CampaignServiceClient> & { service: _campaign_v1_CampaignServiceDefinition }
      ChangePlanRequest: MessageTypeDefinition<_campaign_v1_ChangePlanRequest, _campaign_v1_ChangePlanRequest__Output>
      CreateCampaignRequest: MessageTypeDefinition<_campaign_v1_CreateCampaignRequest, _campaign_v1_CreateCampaignRequest__Output>
      CreateCampaignResponse: MessageTypeDefinition<_campaign_v1_CreateCampaignResponse, _campaign_v1_CreateCampaignResponse__Output>
      CreateNotificationRequest: MessageTypeDefinition<_campaign_v1_CreateNotificationRequest, _campaign_v1_CreateNotificationRequest__Output>
      CreateNotificationResponse: MessageTypeDefinition<_campaign_v1_CreateNotificationResponse, _campaign_v1_CreateNotificationResponse__Output>
      CreatePlanRequest: MessageTypeDefinition<_campaign_v1_CreatePlanRequest, _campaign_v1_CreatePlanRequest__Output>
      CreateSiteRequest: MessageTypeDefinition<_campaign_v1_CreateSiteRequest, _campaign_v1_CreateSiteRequest__Output>
      CreatedSite: MessageTypeDefinition<_campaign_v1_CreatedSite, _campaign_v1_CreatedSite__Output>
      DeleteAutomationResponse: MessageTypeDefinition<_campaign_v1_DeleteAutomationResponse, _campaign_v1_DeleteAutomationResponse__Output>
      DeleteCampaignRequest: MessageTypeDefinition<_campaign_v1_DeleteCampaignRequest, _campaign_v1_DeleteCampaignRequest__Output>
      DeleteCampaignResponse: MessageTypeDefinition<_campaign_v1_DeleteCampaignResponse, _campaign_v1_DeleteCampaignResponse__Output>
      DeleteFeedResponse: MessageTypeDefinition<_campaign_v1_DeleteFeedResponse, _campaign_v1_DeleteFeedResponse__Output>
      DeleteTemplateResponse: MessageTypeDefinition<_campaign_v1_DeleteTemplateResponse, _campaign_v1_DeleteTemplateResponse__Output>
      Delivery: MessageTypeDefinition<_campaign_v1_Delivery, _campaign_v1_Delivery__Output>
      ExportCampaignsChunk: MessageTypeDefinition<_campaign_v1_ExportCampaignsChunk, _campaign_v1_ExportCampaignsChunk__Output>
      ExportCampaignsRequest: MessageTypeDefinition<_campaign_v1_ExportCampaignsRequest, _campaign_v1_ExportCampaignsRequest__Output>
      FailedBy: MessageTypeDefinition<_campaign_v1_FailedBy, _campaign_v1_FailedBy__Output>
      Feed: MessageTypeDefinition<_campaign_v1_Feed, _campaign_v1_Feed__Output>
      FeedRequest: MessageTypeDefinition<_campaign_v1_FeedRequest, _campaign_v1_FeedRequest__Output>
      GetCampaignRequest: MessageTypeDefinition<_campaign_v1_GetCampaignRequest, _campaign_v1_GetCampaignRequest__Output>
      GetCampaignResponse: MessageTypeDefinition<_campaign_v1_GetCampaignResponse, _campaign_v1_GetCampaignResponse__Output>
      GetNotificationRequest: MessageTypeDefinition<_campaign_v1_GetNotificationRequest, _campaign_v1_GetNotificationRequest__Output>
      InviteUserRequest: MessageTypeDefinition<_campaign_v1_InviteUserRequest, _campaign_v1_InviteUserRequest__Output>
      IssueKeyRequest: MessageTypeDefinition<_campaign_v1_IssueKeyRequest, _campaign_v1_IssueKeyRequest__Output>
      ListAutomationsResponse: MessageTypeDefinition<_campaign_v1_ListAutomationsResponse, _campaign_v1_ListAutomationsResponse__Output>
      ListCampaignsRequest: MessageTypeDefinition<_campaign_v1_ListCampaignsRequest, _campaign_v1_ListCampaignsRequest__Output>
      ListCampaignsResponse: MessageTypeDefinition<_campaign_v1_ListCampaignsResponse, _campaign_v1_ListCampaignsResponse__Output>
      ListFeedsResponse: MessageTypeDefinition<_campaign_v1_ListFeedsResponse, _campaign_v1_ListFeedsResponse__Output>
      ListNotificationsRequest: MessageTypeDefinition<_campaign_v1_ListNotificationsRequest, _campaign_v1_ListNotificationsRequest__Output>
      ListNotificationsResponse: MessageTypeDefinition<_campaign_v1_ListNotificationsResponse, _campaign_v1_ListNotificationsResponse__Output>
      ListPlansRequest: MessageTypeDefinition<_campaign_v1_ListPlansRequest, _campaign_v1_ListPlansRequest__Output>
      ListSitesRequest: MessageTypeDefinition<_campaign_v1_ListSitesRequest, _campaign_v1_ListSitesRequest__Output>
      ListTemplatesResponse: MessageTypeDefinition<_campaign_v1_ListTemplatesResponse, _campaign_v1_ListTemplatesResponse__Output>
      LocalTimePlan: MessageTypeDefinition<_campaign_v1_LocalTimePlan, _campaign_v1_LocalTimePlan__Output>
      Notification: MessageTypeDefinition<_campaign_v1_Notification, _campaign_v1_Notification__Output>
      NotificationAction: MessageTypeDefinition<_campaign_v1_NotificationAction, _campaign_v1_NotificationAction__Output>
      NotificationCounts: MessageTypeDefinition<_campaign_v1_NotificationCounts, _campaign_v1_NotificationCounts__Output>
      NotificationOptions: MessageTypeDefinition<_campaign_v1_NotificationOptions, _campaign_v1_NotificationOptions__Output>
      NotificationResult: MessageTypeDefinition<_campaign_v1_NotificationResult, _campaign_v1_NotificationResult__Output>
      Permissions: MessageTypeDefinition<_campaign_v1_Permissions, _campaign_v1_Permissions__Output>
      PickWinnerRequest: MessageTypeDefinition<_campaign_v1_PickWinnerRequest, _campaign_v1_PickWinnerRequest__Output>
      PickWinnerResponse: MessageTypeDefinition<_campaign_v1_PickWinnerResponse, _campaign_v1_PickWinnerResponse__Output>
      PlanPreviewRequest: MessageTypeDefinition<_campaign_v1_PlanPreviewRequest, _campaign_v1_PlanPreviewRequest__Output>
      PlanPreviewResponse: MessageTypeDefinition<_campaign_v1_PlanPreviewResponse, _campaign_v1_PlanPreviewResponse__Output>
      PlannedHour: MessageTypeDefinition<_campaign_v1_PlannedHour, _campaign_v1_PlannedHour__Output>
      PlannedSend: MessageTypeDefinition<_campaign_v1_PlannedSend, _campaign_v1_PlannedSend__Output>
      RecordEventResponse: MessageTypeDefinition<_campaign_v1_RecordEventResponse, _campaign_v1_RecordEventResponse__Output>
      RenderTemplateResponse: MessageTypeDefinition<_campaign_v1_RenderTemplateResponse, _campaign_v1_RenderTemplateResponse__Output>
      ResetPasswordLinkRequest: MessageTypeDefinition<_campaign_v1_ResetPasswordLinkRequest, _campaign_v1_ResetPasswordLinkRequest__Output>
      ReviseCampaignRequest: MessageTypeDefinition<_campaign_v1_ReviseCampaignRequest, _campaign_v1_ReviseCampaignRequest__Output>
      ReviseCampaignResponse: MessageTypeDefinition<_campaign_v1_ReviseCampaignResponse, _campaign_v1_ReviseCampaignResponse__Output>
      RevokeKeysAnswer: MessageTypeDefinition<_campaign_v1_RevokeKeysAnswer, _campaign_v1_RevokeKeysAnswer__Output>
      RevokeKeysRequest: MessageTypeDefinition<_campaign_v1_RevokeKeysRequest, _campaign_v1_RevokeKeysRequest__Output>
      Segment: MessageTypeDefinition<_campaign_v1_Segment, _campaign_v1_Segment__Output>
      SendTime: MessageTypeDefinition<_campaign_v1_SendTime, _campaign_v1_SendTime__Output>
      SendTimeSlot: MessageTypeDefinition<_campaign_v1_SendTimeSlot, _campaign_v1_SendTimeSlot__Output>
      SetThrottleRequest: MessageTypeDefinition<_campaign_v1_SetThrottleRequest, _campaign_v1_SetThrottleRequest__Output>
      SiteAdmin: SubtypeConstructor<typeof grpc.Client, _campaign_v1_SiteAdminClient> & { service: _campaign_v1_SiteAdminDefinition }
      TagCondition: MessageTypeDefinition<_campaign_v1_TagCondition, _campaign_v1_TagCondition__Output>
      TagValue: MessageTypeDefinition<_campaign_v1_TagValue, _campaign_v1_TagValue__Output>
      Template: MessageTypeDefinition<_campaign_v1_Template, _campaign_v1_Template__Output>
      TemplateRequest: MessageTypeDefinition<_campaign_v1_TemplateRequest, _campaign_v1_TemplateRequest__Output>
      TemplateVariable: MessageTypeDefinition<_campaign_v1_TemplateVariable, _campaign_v1_TemplateVariable__Output>
      ThrottleAnswer: MessageTypeDefinition<_campaign_v1_ThrottleAnswer, _campaign_v1_ThrottleAnswer__Output>
      UpdateDraftRequest: MessageTypeDefinition<_campaign_v1_UpdateDraftRequest, _campaign_v1_UpdateDraftRequest__Output>
      UtcOffset: MessageTypeDefinition<_campaign_v1_UtcOffset, _campaign_v1_UtcOffset__Output>
      Variant: MessageTypeDefinition<_campaign_v1_Variant, _campaign_v1_Variant__Output>
      VariantResult: MessageTypeDefinition<_campaign_v1_VariantResult, _campaign_v1_VariantResult__Output>
    }
  }
  common: {
    v1: {
      Page: MessageTypeDefinition<_common_v1_Page, _common_v1_Page__Output>
    }
  }
}

