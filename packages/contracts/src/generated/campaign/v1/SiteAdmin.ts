// Original file: packages/contracts/protos/campaign/v1/site_admin.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AdminInvite as _campaign_v1_AdminInvite, AdminInvite__Output as _campaign_v1_AdminInvite__Output } from '../../campaign/v1/AdminInvite';
import type { AdminIssuedKey as _campaign_v1_AdminIssuedKey, AdminIssuedKey__Output as _campaign_v1_AdminIssuedKey__Output } from '../../campaign/v1/AdminIssuedKey';
import type { AdminKeyList as _campaign_v1_AdminKeyList, AdminKeyList__Output as _campaign_v1_AdminKeyList__Output } from '../../campaign/v1/AdminKeyList';
import type { AdminPasswordReset as _campaign_v1_AdminPasswordReset, AdminPasswordReset__Output as _campaign_v1_AdminPasswordReset__Output } from '../../campaign/v1/AdminPasswordReset';
import type { AdminPlan as _campaign_v1_AdminPlan, AdminPlan__Output as _campaign_v1_AdminPlan__Output } from '../../campaign/v1/AdminPlan';
import type { AdminPlanList as _campaign_v1_AdminPlanList, AdminPlanList__Output as _campaign_v1_AdminPlanList__Output } from '../../campaign/v1/AdminPlanList';
import type { AdminSite as _campaign_v1_AdminSite, AdminSite__Output as _campaign_v1_AdminSite__Output } from '../../campaign/v1/AdminSite';
import type { AdminSiteList as _campaign_v1_AdminSiteList, AdminSiteList__Output as _campaign_v1_AdminSiteList__Output } from '../../campaign/v1/AdminSiteList';
import type { AdminSiteRequest as _campaign_v1_AdminSiteRequest, AdminSiteRequest__Output as _campaign_v1_AdminSiteRequest__Output } from '../../campaign/v1/AdminSiteRequest';
import type { AdminUserList as _campaign_v1_AdminUserList, AdminUserList__Output as _campaign_v1_AdminUserList__Output } from '../../campaign/v1/AdminUserList';
import type { ChangePlanRequest as _campaign_v1_ChangePlanRequest, ChangePlanRequest__Output as _campaign_v1_ChangePlanRequest__Output } from '../../campaign/v1/ChangePlanRequest';
import type { CreatePlanRequest as _campaign_v1_CreatePlanRequest, CreatePlanRequest__Output as _campaign_v1_CreatePlanRequest__Output } from '../../campaign/v1/CreatePlanRequest';
import type { CreateSiteRequest as _campaign_v1_CreateSiteRequest, CreateSiteRequest__Output as _campaign_v1_CreateSiteRequest__Output } from '../../campaign/v1/CreateSiteRequest';
import type { CreatedSite as _campaign_v1_CreatedSite, CreatedSite__Output as _campaign_v1_CreatedSite__Output } from '../../campaign/v1/CreatedSite';
import type { InviteUserRequest as _campaign_v1_InviteUserRequest, InviteUserRequest__Output as _campaign_v1_InviteUserRequest__Output } from '../../campaign/v1/InviteUserRequest';
import type { IssueKeyRequest as _campaign_v1_IssueKeyRequest, IssueKeyRequest__Output as _campaign_v1_IssueKeyRequest__Output } from '../../campaign/v1/IssueKeyRequest';
import type { ListPlansRequest as _campaign_v1_ListPlansRequest, ListPlansRequest__Output as _campaign_v1_ListPlansRequest__Output } from '../../campaign/v1/ListPlansRequest';
import type { ListSitesRequest as _campaign_v1_ListSitesRequest, ListSitesRequest__Output as _campaign_v1_ListSitesRequest__Output } from '../../campaign/v1/ListSitesRequest';
import type { ResetPasswordLinkRequest as _campaign_v1_ResetPasswordLinkRequest, ResetPasswordLinkRequest__Output as _campaign_v1_ResetPasswordLinkRequest__Output } from '../../campaign/v1/ResetPasswordLinkRequest';
import type { RevokeKeysAnswer as _campaign_v1_RevokeKeysAnswer, RevokeKeysAnswer__Output as _campaign_v1_RevokeKeysAnswer__Output } from '../../campaign/v1/RevokeKeysAnswer';
import type { RevokeKeysRequest as _campaign_v1_RevokeKeysRequest, RevokeKeysRequest__Output as _campaign_v1_RevokeKeysRequest__Output } from '../../campaign/v1/RevokeKeysRequest';
import type { SetThrottleRequest as _campaign_v1_SetThrottleRequest, SetThrottleRequest__Output as _campaign_v1_SetThrottleRequest__Output } from '../../campaign/v1/SetThrottleRequest';
import type { ThrottleAnswer as _campaign_v1_ThrottleAnswer, ThrottleAnswer__Output as _campaign_v1_ThrottleAnswer__Output } from '../../campaign/v1/ThrottleAnswer';

export interface SiteAdminClient extends grpc.Client {
  ChangePlan(argument: _campaign_v1_ChangePlanRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminSite__Output>): grpc.ClientUnaryCall;
  ChangePlan(argument: _campaign_v1_ChangePlanRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_AdminSite__Output>): grpc.ClientUnaryCall;
  ChangePlan(argument: _campaign_v1_ChangePlanRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminSite__Output>): grpc.ClientUnaryCall;
  ChangePlan(argument: _campaign_v1_ChangePlanRequest, callback: grpc.requestCallback<_campaign_v1_AdminSite__Output>): grpc.ClientUnaryCall;
  changePlan(argument: _campaign_v1_ChangePlanRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminSite__Output>): grpc.ClientUnaryCall;
  changePlan(argument: _campaign_v1_ChangePlanRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_AdminSite__Output>): grpc.ClientUnaryCall;
  changePlan(argument: _campaign_v1_ChangePlanRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminSite__Output>): grpc.ClientUnaryCall;
  changePlan(argument: _campaign_v1_ChangePlanRequest, callback: grpc.requestCallback<_campaign_v1_AdminSite__Output>): grpc.ClientUnaryCall;
  
  CreatePlan(argument: _campaign_v1_CreatePlanRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminPlan__Output>): grpc.ClientUnaryCall;
  CreatePlan(argument: _campaign_v1_CreatePlanRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_AdminPlan__Output>): grpc.ClientUnaryCall;
  CreatePlan(argument: _campaign_v1_CreatePlanRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminPlan__Output>): grpc.ClientUnaryCall;
  CreatePlan(argument: _campaign_v1_CreatePlanRequest, callback: grpc.requestCallback<_campaign_v1_AdminPlan__Output>): grpc.ClientUnaryCall;
  createPlan(argument: _campaign_v1_CreatePlanRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminPlan__Output>): grpc.ClientUnaryCall;
  createPlan(argument: _campaign_v1_CreatePlanRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_AdminPlan__Output>): grpc.ClientUnaryCall;
  createPlan(argument: _campaign_v1_CreatePlanRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminPlan__Output>): grpc.ClientUnaryCall;
  createPlan(argument: _campaign_v1_CreatePlanRequest, callback: grpc.requestCallback<_campaign_v1_AdminPlan__Output>): grpc.ClientUnaryCall;
  
  CreateSite(argument: _campaign_v1_CreateSiteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_CreatedSite__Output>): grpc.ClientUnaryCall;
  CreateSite(argument: _campaign_v1_CreateSiteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_CreatedSite__Output>): grpc.ClientUnaryCall;
  CreateSite(argument: _campaign_v1_CreateSiteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_CreatedSite__Output>): grpc.ClientUnaryCall;
  CreateSite(argument: _campaign_v1_CreateSiteRequest, callback: grpc.requestCallback<_campaign_v1_CreatedSite__Output>): grpc.ClientUnaryCall;
  createSite(argument: _campaign_v1_CreateSiteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_CreatedSite__Output>): grpc.ClientUnaryCall;
  createSite(argument: _campaign_v1_CreateSiteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_CreatedSite__Output>): grpc.ClientUnaryCall;
  createSite(argument: _campaign_v1_CreateSiteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_CreatedSite__Output>): grpc.ClientUnaryCall;
  createSite(argument: _campaign_v1_CreateSiteRequest, callback: grpc.requestCallback<_campaign_v1_CreatedSite__Output>): grpc.ClientUnaryCall;
  
  GetSite(argument: _campaign_v1_AdminSiteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminSite__Output>): grpc.ClientUnaryCall;
  GetSite(argument: _campaign_v1_AdminSiteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_AdminSite__Output>): grpc.ClientUnaryCall;
  GetSite(argument: _campaign_v1_AdminSiteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminSite__Output>): grpc.ClientUnaryCall;
  GetSite(argument: _campaign_v1_AdminSiteRequest, callback: grpc.requestCallback<_campaign_v1_AdminSite__Output>): grpc.ClientUnaryCall;
  getSite(argument: _campaign_v1_AdminSiteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminSite__Output>): grpc.ClientUnaryCall;
  getSite(argument: _campaign_v1_AdminSiteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_AdminSite__Output>): grpc.ClientUnaryCall;
  getSite(argument: _campaign_v1_AdminSiteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminSite__Output>): grpc.ClientUnaryCall;
  getSite(argument: _campaign_v1_AdminSiteRequest, callback: grpc.requestCallback<_campaign_v1_AdminSite__Output>): grpc.ClientUnaryCall;
  
  InviteUser(argument: _campaign_v1_InviteUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminInvite__Output>): grpc.ClientUnaryCall;
  InviteUser(argument: _campaign_v1_InviteUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_AdminInvite__Output>): grpc.ClientUnaryCall;
  InviteUser(argument: _campaign_v1_InviteUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminInvite__Output>): grpc.ClientUnaryCall;
  InviteUser(argument: _campaign_v1_InviteUserRequest, callback: grpc.requestCallback<_campaign_v1_AdminInvite__Output>): grpc.ClientUnaryCall;
  inviteUser(argument: _campaign_v1_InviteUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminInvite__Output>): grpc.ClientUnaryCall;
  inviteUser(argument: _campaign_v1_InviteUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_AdminInvite__Output>): grpc.ClientUnaryCall;
  inviteUser(argument: _campaign_v1_InviteUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminInvite__Output>): grpc.ClientUnaryCall;
  inviteUser(argument: _campaign_v1_InviteUserRequest, callback: grpc.requestCallback<_campaign_v1_AdminInvite__Output>): grpc.ClientUnaryCall;
  
  IssueKey(argument: _campaign_v1_IssueKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminIssuedKey__Output>): grpc.ClientUnaryCall;
  IssueKey(argument: _campaign_v1_IssueKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_AdminIssuedKey__Output>): grpc.ClientUnaryCall;
  IssueKey(argument: _campaign_v1_IssueKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminIssuedKey__Output>): grpc.ClientUnaryCall;
  IssueKey(argument: _campaign_v1_IssueKeyRequest, callback: grpc.requestCallback<_campaign_v1_AdminIssuedKey__Output>): grpc.ClientUnaryCall;
  issueKey(argument: _campaign_v1_IssueKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminIssuedKey__Output>): grpc.ClientUnaryCall;
  issueKey(argument: _campaign_v1_IssueKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_AdminIssuedKey__Output>): grpc.ClientUnaryCall;
  issueKey(argument: _campaign_v1_IssueKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminIssuedKey__Output>): grpc.ClientUnaryCall;
  issueKey(argument: _campaign_v1_IssueKeyRequest, callback: grpc.requestCallback<_campaign_v1_AdminIssuedKey__Output>): grpc.ClientUnaryCall;
  
  ListKeys(argument: _campaign_v1_AdminSiteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminKeyList__Output>): grpc.ClientUnaryCall;
  ListKeys(argument: _campaign_v1_AdminSiteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_AdminKeyList__Output>): grpc.ClientUnaryCall;
  ListKeys(argument: _campaign_v1_AdminSiteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminKeyList__Output>): grpc.ClientUnaryCall;
  ListKeys(argument: _campaign_v1_AdminSiteRequest, callback: grpc.requestCallback<_campaign_v1_AdminKeyList__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _campaign_v1_AdminSiteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminKeyList__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _campaign_v1_AdminSiteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_AdminKeyList__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _campaign_v1_AdminSiteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminKeyList__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _campaign_v1_AdminSiteRequest, callback: grpc.requestCallback<_campaign_v1_AdminKeyList__Output>): grpc.ClientUnaryCall;
  
  ListPlans(argument: _campaign_v1_ListPlansRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminPlanList__Output>): grpc.ClientUnaryCall;
  ListPlans(argument: _campaign_v1_ListPlansRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_AdminPlanList__Output>): grpc.ClientUnaryCall;
  ListPlans(argument: _campaign_v1_ListPlansRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminPlanList__Output>): grpc.ClientUnaryCall;
  ListPlans(argument: _campaign_v1_ListPlansRequest, callback: grpc.requestCallback<_campaign_v1_AdminPlanList__Output>): grpc.ClientUnaryCall;
  listPlans(argument: _campaign_v1_ListPlansRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminPlanList__Output>): grpc.ClientUnaryCall;
  listPlans(argument: _campaign_v1_ListPlansRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_AdminPlanList__Output>): grpc.ClientUnaryCall;
  listPlans(argument: _campaign_v1_ListPlansRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminPlanList__Output>): grpc.ClientUnaryCall;
  listPlans(argument: _campaign_v1_ListPlansRequest, callback: grpc.requestCallback<_campaign_v1_AdminPlanList__Output>): grpc.ClientUnaryCall;
  
  ListSites(argument: _campaign_v1_ListSitesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminSiteList__Output>): grpc.ClientUnaryCall;
  ListSites(argument: _campaign_v1_ListSitesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_AdminSiteList__Output>): grpc.ClientUnaryCall;
  ListSites(argument: _campaign_v1_ListSitesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminSiteList__Output>): grpc.ClientUnaryCall;
  ListSites(argument: _campaign_v1_ListSitesRequest, callback: grpc.requestCallback<_campaign_v1_AdminSiteList__Output>): grpc.ClientUnaryCall;
  listSites(argument: _campaign_v1_ListSitesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminSiteList__Output>): grpc.ClientUnaryCall;
  listSites(argument: _campaign_v1_ListSitesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_AdminSiteList__Output>): grpc.ClientUnaryCall;
  listSites(argument: _campaign_v1_ListSitesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminSiteList__Output>): grpc.ClientUnaryCall;
  listSites(argument: _campaign_v1_ListSitesRequest, callback: grpc.requestCallback<_campaign_v1_AdminSiteList__Output>): grpc.ClientUnaryCall;
  
  ListUsers(argument: _campaign_v1_AdminSiteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminUserList__Output>): grpc.ClientUnaryCall;
  ListUsers(argument: _campaign_v1_AdminSiteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_AdminUserList__Output>): grpc.ClientUnaryCall;
  ListUsers(argument: _campaign_v1_AdminSiteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminUserList__Output>): grpc.ClientUnaryCall;
  ListUsers(argument: _campaign_v1_AdminSiteRequest, callback: grpc.requestCallback<_campaign_v1_AdminUserList__Output>): grpc.ClientUnaryCall;
  listUsers(argument: _campaign_v1_AdminSiteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminUserList__Output>): grpc.ClientUnaryCall;
  listUsers(argument: _campaign_v1_AdminSiteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_AdminUserList__Output>): grpc.ClientUnaryCall;
  listUsers(argument: _campaign_v1_AdminSiteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminUserList__Output>): grpc.ClientUnaryCall;
  listUsers(argument: _campaign_v1_AdminSiteRequest, callback: grpc.requestCallback<_campaign_v1_AdminUserList__Output>): grpc.ClientUnaryCall;
  
  ResetPasswordLink(argument: _campaign_v1_ResetPasswordLinkRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminPasswordReset__Output>): grpc.ClientUnaryCall;
  ResetPasswordLink(argument: _campaign_v1_ResetPasswordLinkRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_AdminPasswordReset__Output>): grpc.ClientUnaryCall;
  ResetPasswordLink(argument: _campaign_v1_ResetPasswordLinkRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminPasswordReset__Output>): grpc.ClientUnaryCall;
  ResetPasswordLink(argument: _campaign_v1_ResetPasswordLinkRequest, callback: grpc.requestCallback<_campaign_v1_AdminPasswordReset__Output>): grpc.ClientUnaryCall;
  resetPasswordLink(argument: _campaign_v1_ResetPasswordLinkRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminPasswordReset__Output>): grpc.ClientUnaryCall;
  resetPasswordLink(argument: _campaign_v1_ResetPasswordLinkRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_AdminPasswordReset__Output>): grpc.ClientUnaryCall;
  resetPasswordLink(argument: _campaign_v1_ResetPasswordLinkRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_AdminPasswordReset__Output>): grpc.ClientUnaryCall;
  resetPasswordLink(argument: _campaign_v1_ResetPasswordLinkRequest, callback: grpc.requestCallback<_campaign_v1_AdminPasswordReset__Output>): grpc.ClientUnaryCall;
  
  RevokeKeys(argument: _campaign_v1_RevokeKeysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_RevokeKeysAnswer__Output>): grpc.ClientUnaryCall;
  RevokeKeys(argument: _campaign_v1_RevokeKeysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_RevokeKeysAnswer__Output>): grpc.ClientUnaryCall;
  RevokeKeys(argument: _campaign_v1_RevokeKeysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_RevokeKeysAnswer__Output>): grpc.ClientUnaryCall;
  RevokeKeys(argument: _campaign_v1_RevokeKeysRequest, callback: grpc.requestCallback<_campaign_v1_RevokeKeysAnswer__Output>): grpc.ClientUnaryCall;
  revokeKeys(argument: _campaign_v1_RevokeKeysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_RevokeKeysAnswer__Output>): grpc.ClientUnaryCall;
  revokeKeys(argument: _campaign_v1_RevokeKeysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_RevokeKeysAnswer__Output>): grpc.ClientUnaryCall;
  revokeKeys(argument: _campaign_v1_RevokeKeysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_RevokeKeysAnswer__Output>): grpc.ClientUnaryCall;
  revokeKeys(argument: _campaign_v1_RevokeKeysRequest, callback: grpc.requestCallback<_campaign_v1_RevokeKeysAnswer__Output>): grpc.ClientUnaryCall;
  
  SetThrottle(argument: _campaign_v1_SetThrottleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ThrottleAnswer__Output>): grpc.ClientUnaryCall;
  SetThrottle(argument: _campaign_v1_SetThrottleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_ThrottleAnswer__Output>): grpc.ClientUnaryCall;
  SetThrottle(argument: _campaign_v1_SetThrottleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ThrottleAnswer__Output>): grpc.ClientUnaryCall;
  SetThrottle(argument: _campaign_v1_SetThrottleRequest, callback: grpc.requestCallback<_campaign_v1_ThrottleAnswer__Output>): grpc.ClientUnaryCall;
  setThrottle(argument: _campaign_v1_SetThrottleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ThrottleAnswer__Output>): grpc.ClientUnaryCall;
  setThrottle(argument: _campaign_v1_SetThrottleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_ThrottleAnswer__Output>): grpc.ClientUnaryCall;
  setThrottle(argument: _campaign_v1_SetThrottleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ThrottleAnswer__Output>): grpc.ClientUnaryCall;
  setThrottle(argument: _campaign_v1_SetThrottleRequest, callback: grpc.requestCallback<_campaign_v1_ThrottleAnswer__Output>): grpc.ClientUnaryCall;
  
}

export interface SiteAdminHandlers extends grpc.UntypedServiceImplementation {
  ChangePlan: grpc.handleUnaryCall<_campaign_v1_ChangePlanRequest__Output, _campaign_v1_AdminSite>;
  
  CreatePlan: grpc.handleUnaryCall<_campaign_v1_CreatePlanRequest__Output, _campaign_v1_AdminPlan>;
  
  CreateSite: grpc.handleUnaryCall<_campaign_v1_CreateSiteRequest__Output, _campaign_v1_CreatedSite>;
  
  GetSite: grpc.handleUnaryCall<_campaign_v1_AdminSiteRequest__Output, _campaign_v1_AdminSite>;
  
  InviteUser: grpc.handleUnaryCall<_campaign_v1_InviteUserRequest__Output, _campaign_v1_AdminInvite>;
  
  IssueKey: grpc.handleUnaryCall<_campaign_v1_IssueKeyRequest__Output, _campaign_v1_AdminIssuedKey>;
  
  ListKeys: grpc.handleUnaryCall<_campaign_v1_AdminSiteRequest__Output, _campaign_v1_AdminKeyList>;
  
  ListPlans: grpc.handleUnaryCall<_campaign_v1_ListPlansRequest__Output, _campaign_v1_AdminPlanList>;
  
  ListSites: grpc.handleUnaryCall<_campaign_v1_ListSitesRequest__Output, _campaign_v1_AdminSiteList>;
  
  ListUsers: grpc.handleUnaryCall<_campaign_v1_AdminSiteRequest__Output, _campaign_v1_AdminUserList>;
  
  ResetPasswordLink: grpc.handleUnaryCall<_campaign_v1_ResetPasswordLinkRequest__Output, _campaign_v1_AdminPasswordReset>;
  
  RevokeKeys: grpc.handleUnaryCall<_campaign_v1_RevokeKeysRequest__Output, _campaign_v1_RevokeKeysAnswer>;
  
  SetThrottle: grpc.handleUnaryCall<_campaign_v1_SetThrottleRequest__Output, _campaign_v1_ThrottleAnswer>;
  
}

export interface SiteAdminDefinition extends grpc.ServiceDefinition {
  ChangePlan: MethodDefinition<_campaign_v1_ChangePlanRequest, _campaign_v1_AdminSite, _campaign_v1_ChangePlanRequest__Output, _campaign_v1_AdminSite__Output>
  CreatePlan: MethodDefinition<_campaign_v1_CreatePlanRequest, _campaign_v1_AdminPlan, _campaign_v1_CreatePlanRequest__Output, _campaign_v1_AdminPlan__Output>
  CreateSite: MethodDefinition<_campaign_v1_CreateSiteRequest, _campaign_v1_CreatedSite, _campaign_v1_CreateSiteRequest__Output, _campaign_v1_CreatedSite__Output>
  GetSite: MethodDefinition<_campaign_v1_AdminSiteRequest, _campaign_v1_AdminSite, _campaign_v1_AdminSiteRequest__Output, _campaign_v1_AdminSite__Output>
  InviteUser: MethodDefinition<_campaign_v1_InviteUserRequest, _campaign_v1_AdminInvite, _campaign_v1_InviteUserRequest__Output, _campaign_v1_AdminInvite__Output>
  IssueKey: MethodDefinition<_campaign_v1_IssueKeyRequest, _campaign_v1_AdminIssuedKey, _campaign_v1_IssueKeyRequest__Output, _campaign_v1_AdminIssuedKey__Output>
  ListKeys: MethodDefinition<_campaign_v1_AdminSiteRequest, _campaign_v1_AdminKeyList, _campaign_v1_AdminSiteRequest__Output, _campaign_v1_AdminKeyList__Output>
  ListPlans: MethodDefinition<_campaign_v1_ListPlansRequest, _campaign_v1_AdminPlanList, _campaign_v1_ListPlansRequest__Output, _campaign_v1_AdminPlanList__Output>
  ListSites: MethodDefinition<_campaign_v1_ListSitesRequest, _campaign_v1_AdminSiteList, _campaign_v1_ListSitesRequest__Output, _campaign_v1_AdminSiteList__Output>
  ListUsers: MethodDefinition<_campaign_v1_AdminSiteRequest, _campaign_v1_AdminUserList, _campaign_v1_AdminSiteRequest__Output, _campaign_v1_AdminUserList__Output>
  ResetPasswordLink: MethodDefinition<_campaign_v1_ResetPasswordLinkRequest, _campaign_v1_AdminPasswordReset, _campaign_v1_ResetPasswordLinkRequest__Output, _campaign_v1_AdminPasswordReset__Output>
  RevokeKeys: MethodDefinition<_campaign_v1_RevokeKeysRequest, _campaign_v1_RevokeKeysAnswer, _campaign_v1_RevokeKeysRequest__Output, _campaign_v1_RevokeKeysAnswer__Output>
  SetThrottle: MethodDefinition<_campaign_v1_SetThrottleRequest, _campaign_v1_ThrottleAnswer, _campaign_v1_SetThrottleRequest__Output, _campaign_v1_ThrottleAnswer__Output>
}
