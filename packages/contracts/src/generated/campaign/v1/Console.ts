// Original file: packages/contracts/protos/campaign/v1/console.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AcceptInviteRequest as _campaign_v1_AcceptInviteRequest, AcceptInviteRequest__Output as _campaign_v1_AcceptInviteRequest__Output } from '../../campaign/v1/AcceptInviteRequest';
import type { ApiKeyList as _campaign_v1_ApiKeyList, ApiKeyList__Output as _campaign_v1_ApiKeyList__Output } from '../../campaign/v1/ApiKeyList';
import type { ApiKeyRequest as _campaign_v1_ApiKeyRequest, ApiKeyRequest__Output as _campaign_v1_ApiKeyRequest__Output } from '../../campaign/v1/ApiKeyRequest';
import type { ConsoleSiteRequest as _campaign_v1_ConsoleSiteRequest, ConsoleSiteRequest__Output as _campaign_v1_ConsoleSiteRequest__Output } from '../../campaign/v1/ConsoleSiteRequest';
import type { CreateInviteRequest as _campaign_v1_CreateInviteRequest, CreateInviteRequest__Output as _campaign_v1_CreateInviteRequest__Output } from '../../campaign/v1/CreateInviteRequest';
import type { CreateKeyRequest as _campaign_v1_CreateKeyRequest, CreateKeyRequest__Output as _campaign_v1_CreateKeyRequest__Output } from '../../campaign/v1/CreateKeyRequest';
import type { CreatedInvite as _campaign_v1_CreatedInvite, CreatedInvite__Output as _campaign_v1_CreatedInvite__Output } from '../../campaign/v1/CreatedInvite';
import type { EstimateAudienceRequest as _campaign_v1_EstimateAudienceRequest, EstimateAudienceRequest__Output as _campaign_v1_EstimateAudienceRequest__Output } from '../../campaign/v1/EstimateAudienceRequest';
import type { EstimateAudienceResponse as _campaign_v1_EstimateAudienceResponse, EstimateAudienceResponse__Output as _campaign_v1_EstimateAudienceResponse__Output } from '../../campaign/v1/EstimateAudienceResponse';
import type { InviteList as _campaign_v1_InviteList, InviteList__Output as _campaign_v1_InviteList__Output } from '../../campaign/v1/InviteList';
import type { InvitePreview as _campaign_v1_InvitePreview, InvitePreview__Output as _campaign_v1_InvitePreview__Output } from '../../campaign/v1/InvitePreview';
import type { InviteRequest as _campaign_v1_InviteRequest, InviteRequest__Output as _campaign_v1_InviteRequest__Output } from '../../campaign/v1/InviteRequest';
import type { InviteTokenRequest as _campaign_v1_InviteTokenRequest, InviteTokenRequest__Output as _campaign_v1_InviteTokenRequest__Output } from '../../campaign/v1/InviteTokenRequest';
import type { IssuedApiKey as _campaign_v1_IssuedApiKey, IssuedApiKey__Output as _campaign_v1_IssuedApiKey__Output } from '../../campaign/v1/IssuedApiKey';
import type { LoginRequest as _campaign_v1_LoginRequest, LoginRequest__Output as _campaign_v1_LoginRequest__Output } from '../../campaign/v1/LoginRequest';
import type { LogoutResponse as _campaign_v1_LogoutResponse, LogoutResponse__Output as _campaign_v1_LogoutResponse__Output } from '../../campaign/v1/LogoutResponse';
import type { Member as _campaign_v1_Member, Member__Output as _campaign_v1_Member__Output } from '../../campaign/v1/Member';
import type { MemberList as _campaign_v1_MemberList, MemberList__Output as _campaign_v1_MemberList__Output } from '../../campaign/v1/MemberList';
import type { MemberRequest as _campaign_v1_MemberRequest, MemberRequest__Output as _campaign_v1_MemberRequest__Output } from '../../campaign/v1/MemberRequest';
import type { RemoveMemberResponse as _campaign_v1_RemoveMemberResponse, RemoveMemberResponse__Output as _campaign_v1_RemoveMemberResponse__Output } from '../../campaign/v1/RemoveMemberResponse';
import type { RevokeInviteResponse as _campaign_v1_RevokeInviteResponse, RevokeInviteResponse__Output as _campaign_v1_RevokeInviteResponse__Output } from '../../campaign/v1/RevokeInviteResponse';
import type { RevokedApiKey as _campaign_v1_RevokedApiKey, RevokedApiKey__Output as _campaign_v1_RevokedApiKey__Output } from '../../campaign/v1/RevokedApiKey';
import type { SessionAnswer as _campaign_v1_SessionAnswer, SessionAnswer__Output as _campaign_v1_SessionAnswer__Output } from '../../campaign/v1/SessionAnswer';
import type { SessionGrant as _campaign_v1_SessionGrant, SessionGrant__Output as _campaign_v1_SessionGrant__Output } from '../../campaign/v1/SessionGrant';
import type { SessionRef as _campaign_v1_SessionRef, SessionRef__Output as _campaign_v1_SessionRef__Output } from '../../campaign/v1/SessionRef';
import type { SetSiteThrottleRequest as _campaign_v1_SetSiteThrottleRequest, SetSiteThrottleRequest__Output as _campaign_v1_SetSiteThrottleRequest__Output } from '../../campaign/v1/SetSiteThrottleRequest';
import type { SiteInfoResponse as _campaign_v1_SiteInfoResponse, SiteInfoResponse__Output as _campaign_v1_SiteInfoResponse__Output } from '../../campaign/v1/SiteInfoResponse';
import type { SiteThrottle as _campaign_v1_SiteThrottle, SiteThrottle__Output as _campaign_v1_SiteThrottle__Output } from '../../campaign/v1/SiteThrottle';
import type { UpdateMemberRequest as _campaign_v1_UpdateMemberRequest, UpdateMemberRequest__Output as _campaign_v1_UpdateMemberRequest__Output } from '../../campaign/v1/UpdateMemberRequest';

export interface ConsoleClient extends grpc.Client {
  AcceptInvite(argument: _campaign_v1_AcceptInviteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_SessionGrant__Output>): grpc.ClientUnaryCall;
  AcceptInvite(argument: _campaign_v1_AcceptInviteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_SessionGrant__Output>): grpc.ClientUnaryCall;
  AcceptInvite(argument: _campaign_v1_AcceptInviteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_SessionGrant__Output>): grpc.ClientUnaryCall;
  AcceptInvite(argument: _campaign_v1_AcceptInviteRequest, callback: grpc.requestCallback<_campaign_v1_SessionGrant__Output>): grpc.ClientUnaryCall;
  acceptInvite(argument: _campaign_v1_AcceptInviteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_SessionGrant__Output>): grpc.ClientUnaryCall;
  acceptInvite(argument: _campaign_v1_AcceptInviteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_SessionGrant__Output>): grpc.ClientUnaryCall;
  acceptInvite(argument: _campaign_v1_AcceptInviteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_SessionGrant__Output>): grpc.ClientUnaryCall;
  acceptInvite(argument: _campaign_v1_AcceptInviteRequest, callback: grpc.requestCallback<_campaign_v1_SessionGrant__Output>): grpc.ClientUnaryCall;
  
  CreateInvite(argument: _campaign_v1_CreateInviteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_CreatedInvite__Output>): grpc.ClientUnaryCall;
  CreateInvite(argument: _campaign_v1_CreateInviteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_CreatedInvite__Output>): grpc.ClientUnaryCall;
  CreateInvite(argument: _campaign_v1_CreateInviteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_CreatedInvite__Output>): grpc.ClientUnaryCall;
  CreateInvite(argument: _campaign_v1_CreateInviteRequest, callback: grpc.requestCallback<_campaign_v1_CreatedInvite__Output>): grpc.ClientUnaryCall;
  createInvite(argument: _campaign_v1_CreateInviteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_CreatedInvite__Output>): grpc.ClientUnaryCall;
  createInvite(argument: _campaign_v1_CreateInviteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_CreatedInvite__Output>): grpc.ClientUnaryCall;
  createInvite(argument: _campaign_v1_CreateInviteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_CreatedInvite__Output>): grpc.ClientUnaryCall;
  createInvite(argument: _campaign_v1_CreateInviteRequest, callback: grpc.requestCallback<_campaign_v1_CreatedInvite__Output>): grpc.ClientUnaryCall;
  
  CreateKey(argument: _campaign_v1_CreateKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_IssuedApiKey__Output>): grpc.ClientUnaryCall;
  CreateKey(argument: _campaign_v1_CreateKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_IssuedApiKey__Output>): grpc.ClientUnaryCall;
  CreateKey(argument: _campaign_v1_CreateKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_IssuedApiKey__Output>): grpc.ClientUnaryCall;
  CreateKey(argument: _campaign_v1_CreateKeyRequest, callback: grpc.requestCallback<_campaign_v1_IssuedApiKey__Output>): grpc.ClientUnaryCall;
  createKey(argument: _campaign_v1_CreateKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_IssuedApiKey__Output>): grpc.ClientUnaryCall;
  createKey(argument: _campaign_v1_CreateKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_IssuedApiKey__Output>): grpc.ClientUnaryCall;
  createKey(argument: _campaign_v1_CreateKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_IssuedApiKey__Output>): grpc.ClientUnaryCall;
  createKey(argument: _campaign_v1_CreateKeyRequest, callback: grpc.requestCallback<_campaign_v1_IssuedApiKey__Output>): grpc.ClientUnaryCall;
  
  EstimateAudience(argument: _campaign_v1_EstimateAudienceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_EstimateAudienceResponse__Output>): grpc.ClientUnaryCall;
  EstimateAudience(argument: _campaign_v1_EstimateAudienceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_EstimateAudienceResponse__Output>): grpc.ClientUnaryCall;
  EstimateAudience(argument: _campaign_v1_EstimateAudienceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_EstimateAudienceResponse__Output>): grpc.ClientUnaryCall;
  EstimateAudience(argument: _campaign_v1_EstimateAudienceRequest, callback: grpc.requestCallback<_campaign_v1_EstimateAudienceResponse__Output>): grpc.ClientUnaryCall;
  estimateAudience(argument: _campaign_v1_EstimateAudienceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_EstimateAudienceResponse__Output>): grpc.ClientUnaryCall;
  estimateAudience(argument: _campaign_v1_EstimateAudienceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_EstimateAudienceResponse__Output>): grpc.ClientUnaryCall;
  estimateAudience(argument: _campaign_v1_EstimateAudienceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_EstimateAudienceResponse__Output>): grpc.ClientUnaryCall;
  estimateAudience(argument: _campaign_v1_EstimateAudienceRequest, callback: grpc.requestCallback<_campaign_v1_EstimateAudienceResponse__Output>): grpc.ClientUnaryCall;
  
  GetSiteThrottle(argument: _campaign_v1_ConsoleSiteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_SiteThrottle__Output>): grpc.ClientUnaryCall;
  GetSiteThrottle(argument: _campaign_v1_ConsoleSiteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_SiteThrottle__Output>): grpc.ClientUnaryCall;
  GetSiteThrottle(argument: _campaign_v1_ConsoleSiteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_SiteThrottle__Output>): grpc.ClientUnaryCall;
  GetSiteThrottle(argument: _campaign_v1_ConsoleSiteRequest, callback: grpc.requestCallback<_campaign_v1_SiteThrottle__Output>): grpc.ClientUnaryCall;
  getSiteThrottle(argument: _campaign_v1_ConsoleSiteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_SiteThrottle__Output>): grpc.ClientUnaryCall;
  getSiteThrottle(argument: _campaign_v1_ConsoleSiteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_SiteThrottle__Output>): grpc.ClientUnaryCall;
  getSiteThrottle(argument: _campaign_v1_ConsoleSiteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_SiteThrottle__Output>): grpc.ClientUnaryCall;
  getSiteThrottle(argument: _campaign_v1_ConsoleSiteRequest, callback: grpc.requestCallback<_campaign_v1_SiteThrottle__Output>): grpc.ClientUnaryCall;
  
  ListInvites(argument: _campaign_v1_ConsoleSiteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_InviteList__Output>): grpc.ClientUnaryCall;
  ListInvites(argument: _campaign_v1_ConsoleSiteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_InviteList__Output>): grpc.ClientUnaryCall;
  ListInvites(argument: _campaign_v1_ConsoleSiteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_InviteList__Output>): grpc.ClientUnaryCall;
  ListInvites(argument: _campaign_v1_ConsoleSiteRequest, callback: grpc.requestCallback<_campaign_v1_InviteList__Output>): grpc.ClientUnaryCall;
  listInvites(argument: _campaign_v1_ConsoleSiteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_InviteList__Output>): grpc.ClientUnaryCall;
  listInvites(argument: _campaign_v1_ConsoleSiteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_InviteList__Output>): grpc.ClientUnaryCall;
  listInvites(argument: _campaign_v1_ConsoleSiteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_InviteList__Output>): grpc.ClientUnaryCall;
  listInvites(argument: _campaign_v1_ConsoleSiteRequest, callback: grpc.requestCallback<_campaign_v1_InviteList__Output>): grpc.ClientUnaryCall;
  
  ListKeys(argument: _campaign_v1_ConsoleSiteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ApiKeyList__Output>): grpc.ClientUnaryCall;
  ListKeys(argument: _campaign_v1_ConsoleSiteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_ApiKeyList__Output>): grpc.ClientUnaryCall;
  ListKeys(argument: _campaign_v1_ConsoleSiteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ApiKeyList__Output>): grpc.ClientUnaryCall;
  ListKeys(argument: _campaign_v1_ConsoleSiteRequest, callback: grpc.requestCallback<_campaign_v1_ApiKeyList__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _campaign_v1_ConsoleSiteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ApiKeyList__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _campaign_v1_ConsoleSiteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_ApiKeyList__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _campaign_v1_ConsoleSiteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_ApiKeyList__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _campaign_v1_ConsoleSiteRequest, callback: grpc.requestCallback<_campaign_v1_ApiKeyList__Output>): grpc.ClientUnaryCall;
  
  ListMembers(argument: _campaign_v1_ConsoleSiteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_MemberList__Output>): grpc.ClientUnaryCall;
  ListMembers(argument: _campaign_v1_ConsoleSiteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_MemberList__Output>): grpc.ClientUnaryCall;
  ListMembers(argument: _campaign_v1_ConsoleSiteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_MemberList__Output>): grpc.ClientUnaryCall;
  ListMembers(argument: _campaign_v1_ConsoleSiteRequest, callback: grpc.requestCallback<_campaign_v1_MemberList__Output>): grpc.ClientUnaryCall;
  listMembers(argument: _campaign_v1_ConsoleSiteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_MemberList__Output>): grpc.ClientUnaryCall;
  listMembers(argument: _campaign_v1_ConsoleSiteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_MemberList__Output>): grpc.ClientUnaryCall;
  listMembers(argument: _campaign_v1_ConsoleSiteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_MemberList__Output>): grpc.ClientUnaryCall;
  listMembers(argument: _campaign_v1_ConsoleSiteRequest, callback: grpc.requestCallback<_campaign_v1_MemberList__Output>): grpc.ClientUnaryCall;
  
  Login(argument: _campaign_v1_LoginRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_SessionGrant__Output>): grpc.ClientUnaryCall;
  Login(argument: _campaign_v1_LoginRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_SessionGrant__Output>): grpc.ClientUnaryCall;
  Login(argument: _campaign_v1_LoginRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_SessionGrant__Output>): grpc.ClientUnaryCall;
  Login(argument: _campaign_v1_LoginRequest, callback: grpc.requestCallback<_campaign_v1_SessionGrant__Output>): grpc.ClientUnaryCall;
  login(argument: _campaign_v1_LoginRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_SessionGrant__Output>): grpc.ClientUnaryCall;
  login(argument: _campaign_v1_LoginRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_SessionGrant__Output>): grpc.ClientUnaryCall;
  login(argument: _campaign_v1_LoginRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_SessionGrant__Output>): grpc.ClientUnaryCall;
  login(argument: _campaign_v1_LoginRequest, callback: grpc.requestCallback<_campaign_v1_SessionGrant__Output>): grpc.ClientUnaryCall;
  
  Logout(argument: _campaign_v1_SessionRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_LogoutResponse__Output>): grpc.ClientUnaryCall;
  Logout(argument: _campaign_v1_SessionRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_LogoutResponse__Output>): grpc.ClientUnaryCall;
  Logout(argument: _campaign_v1_SessionRef, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_LogoutResponse__Output>): grpc.ClientUnaryCall;
  Logout(argument: _campaign_v1_SessionRef, callback: grpc.requestCallback<_campaign_v1_LogoutResponse__Output>): grpc.ClientUnaryCall;
  logout(argument: _campaign_v1_SessionRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_LogoutResponse__Output>): grpc.ClientUnaryCall;
  logout(argument: _campaign_v1_SessionRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_LogoutResponse__Output>): grpc.ClientUnaryCall;
  logout(argument: _campaign_v1_SessionRef, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_LogoutResponse__Output>): grpc.ClientUnaryCall;
  logout(argument: _campaign_v1_SessionRef, callback: grpc.requestCallback<_campaign_v1_LogoutResponse__Output>): grpc.ClientUnaryCall;
  
  LookupInvite(argument: _campaign_v1_InviteTokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_InvitePreview__Output>): grpc.ClientUnaryCall;
  LookupInvite(argument: _campaign_v1_InviteTokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_InvitePreview__Output>): grpc.ClientUnaryCall;
  LookupInvite(argument: _campaign_v1_InviteTokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_InvitePreview__Output>): grpc.ClientUnaryCall;
  LookupInvite(argument: _campaign_v1_InviteTokenRequest, callback: grpc.requestCallback<_campaign_v1_InvitePreview__Output>): grpc.ClientUnaryCall;
  lookupInvite(argument: _campaign_v1_InviteTokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_InvitePreview__Output>): grpc.ClientUnaryCall;
  lookupInvite(argument: _campaign_v1_InviteTokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_InvitePreview__Output>): grpc.ClientUnaryCall;
  lookupInvite(argument: _campaign_v1_InviteTokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_InvitePreview__Output>): grpc.ClientUnaryCall;
  lookupInvite(argument: _campaign_v1_InviteTokenRequest, callback: grpc.requestCallback<_campaign_v1_InvitePreview__Output>): grpc.ClientUnaryCall;
  
  RemoveMember(argument: _campaign_v1_MemberRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_RemoveMemberResponse__Output>): grpc.ClientUnaryCall;
  RemoveMember(argument: _campaign_v1_MemberRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_RemoveMemberResponse__Output>): grpc.ClientUnaryCall;
  RemoveMember(argument: _campaign_v1_MemberRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_RemoveMemberResponse__Output>): grpc.ClientUnaryCall;
  RemoveMember(argument: _campaign_v1_MemberRequest, callback: grpc.requestCallback<_campaign_v1_RemoveMemberResponse__Output>): grpc.ClientUnaryCall;
  removeMember(argument: _campaign_v1_MemberRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_RemoveMemberResponse__Output>): grpc.ClientUnaryCall;
  removeMember(argument: _campaign_v1_MemberRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_RemoveMemberResponse__Output>): grpc.ClientUnaryCall;
  removeMember(argument: _campaign_v1_MemberRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_RemoveMemberResponse__Output>): grpc.ClientUnaryCall;
  removeMember(argument: _campaign_v1_MemberRequest, callback: grpc.requestCallback<_campaign_v1_RemoveMemberResponse__Output>): grpc.ClientUnaryCall;
  
  RevokeInvite(argument: _campaign_v1_InviteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_RevokeInviteResponse__Output>): grpc.ClientUnaryCall;
  RevokeInvite(argument: _campaign_v1_InviteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_RevokeInviteResponse__Output>): grpc.ClientUnaryCall;
  RevokeInvite(argument: _campaign_v1_InviteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_RevokeInviteResponse__Output>): grpc.ClientUnaryCall;
  RevokeInvite(argument: _campaign_v1_InviteRequest, callback: grpc.requestCallback<_campaign_v1_RevokeInviteResponse__Output>): grpc.ClientUnaryCall;
  revokeInvite(argument: _campaign_v1_InviteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_RevokeInviteResponse__Output>): grpc.ClientUnaryCall;
  revokeInvite(argument: _campaign_v1_InviteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_RevokeInviteResponse__Output>): grpc.ClientUnaryCall;
  revokeInvite(argument: _campaign_v1_InviteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_RevokeInviteResponse__Output>): grpc.ClientUnaryCall;
  revokeInvite(argument: _campaign_v1_InviteRequest, callback: grpc.requestCallback<_campaign_v1_RevokeInviteResponse__Output>): grpc.ClientUnaryCall;
  
  RevokeKey(argument: _campaign_v1_ApiKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_RevokedApiKey__Output>): grpc.ClientUnaryCall;
  RevokeKey(argument: _campaign_v1_ApiKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_RevokedApiKey__Output>): grpc.ClientUnaryCall;
  RevokeKey(argument: _campaign_v1_ApiKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_RevokedApiKey__Output>): grpc.ClientUnaryCall;
  RevokeKey(argument: _campaign_v1_ApiKeyRequest, callback: grpc.requestCallback<_campaign_v1_RevokedApiKey__Output>): grpc.ClientUnaryCall;
  revokeKey(argument: _campaign_v1_ApiKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_RevokedApiKey__Output>): grpc.ClientUnaryCall;
  revokeKey(argument: _campaign_v1_ApiKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_RevokedApiKey__Output>): grpc.ClientUnaryCall;
  revokeKey(argument: _campaign_v1_ApiKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_RevokedApiKey__Output>): grpc.ClientUnaryCall;
  revokeKey(argument: _campaign_v1_ApiKeyRequest, callback: grpc.requestCallback<_campaign_v1_RevokedApiKey__Output>): grpc.ClientUnaryCall;
  
  RotateKey(argument: _campaign_v1_ApiKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_IssuedApiKey__Output>): grpc.ClientUnaryCall;
  RotateKey(argument: _campaign_v1_ApiKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_IssuedApiKey__Output>): grpc.ClientUnaryCall;
  RotateKey(argument: _campaign_v1_ApiKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_IssuedApiKey__Output>): grpc.ClientUnaryCall;
  RotateKey(argument: _campaign_v1_ApiKeyRequest, callback: grpc.requestCallback<_campaign_v1_IssuedApiKey__Output>): grpc.ClientUnaryCall;
  rotateKey(argument: _campaign_v1_ApiKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_IssuedApiKey__Output>): grpc.ClientUnaryCall;
  rotateKey(argument: _campaign_v1_ApiKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_IssuedApiKey__Output>): grpc.ClientUnaryCall;
  rotateKey(argument: _campaign_v1_ApiKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_IssuedApiKey__Output>): grpc.ClientUnaryCall;
  rotateKey(argument: _campaign_v1_ApiKeyRequest, callback: grpc.requestCallback<_campaign_v1_IssuedApiKey__Output>): grpc.ClientUnaryCall;
  
  Session(argument: _campaign_v1_SessionRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_SessionAnswer__Output>): grpc.ClientUnaryCall;
  Session(argument: _campaign_v1_SessionRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_SessionAnswer__Output>): grpc.ClientUnaryCall;
  Session(argument: _campaign_v1_SessionRef, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_SessionAnswer__Output>): grpc.ClientUnaryCall;
  Session(argument: _campaign_v1_SessionRef, callback: grpc.requestCallback<_campaign_v1_SessionAnswer__Output>): grpc.ClientUnaryCall;
  session(argument: _campaign_v1_SessionRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_SessionAnswer__Output>): grpc.ClientUnaryCall;
  session(argument: _campaign_v1_SessionRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_SessionAnswer__Output>): grpc.ClientUnaryCall;
  session(argument: _campaign_v1_SessionRef, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_SessionAnswer__Output>): grpc.ClientUnaryCall;
  session(argument: _campaign_v1_SessionRef, callback: grpc.requestCallback<_campaign_v1_SessionAnswer__Output>): grpc.ClientUnaryCall;
  
  SetSiteThrottle(argument: _campaign_v1_SetSiteThrottleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_SiteThrottle__Output>): grpc.ClientUnaryCall;
  SetSiteThrottle(argument: _campaign_v1_SetSiteThrottleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_SiteThrottle__Output>): grpc.ClientUnaryCall;
  SetSiteThrottle(argument: _campaign_v1_SetSiteThrottleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_SiteThrottle__Output>): grpc.ClientUnaryCall;
  SetSiteThrottle(argument: _campaign_v1_SetSiteThrottleRequest, callback: grpc.requestCallback<_campaign_v1_SiteThrottle__Output>): grpc.ClientUnaryCall;
  setSiteThrottle(argument: _campaign_v1_SetSiteThrottleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_SiteThrottle__Output>): grpc.ClientUnaryCall;
  setSiteThrottle(argument: _campaign_v1_SetSiteThrottleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_SiteThrottle__Output>): grpc.ClientUnaryCall;
  setSiteThrottle(argument: _campaign_v1_SetSiteThrottleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_SiteThrottle__Output>): grpc.ClientUnaryCall;
  setSiteThrottle(argument: _campaign_v1_SetSiteThrottleRequest, callback: grpc.requestCallback<_campaign_v1_SiteThrottle__Output>): grpc.ClientUnaryCall;
  
  SiteInfo(argument: _campaign_v1_ConsoleSiteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_SiteInfoResponse__Output>): grpc.ClientUnaryCall;
  SiteInfo(argument: _campaign_v1_ConsoleSiteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_SiteInfoResponse__Output>): grpc.ClientUnaryCall;
  SiteInfo(argument: _campaign_v1_ConsoleSiteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_SiteInfoResponse__Output>): grpc.ClientUnaryCall;
  SiteInfo(argument: _campaign_v1_ConsoleSiteRequest, callback: grpc.requestCallback<_campaign_v1_SiteInfoResponse__Output>): grpc.ClientUnaryCall;
  siteInfo(argument: _campaign_v1_ConsoleSiteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_SiteInfoResponse__Output>): grpc.ClientUnaryCall;
  siteInfo(argument: _campaign_v1_ConsoleSiteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_SiteInfoResponse__Output>): grpc.ClientUnaryCall;
  siteInfo(argument: _campaign_v1_ConsoleSiteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_SiteInfoResponse__Output>): grpc.ClientUnaryCall;
  siteInfo(argument: _campaign_v1_ConsoleSiteRequest, callback: grpc.requestCallback<_campaign_v1_SiteInfoResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateMember(argument: _campaign_v1_UpdateMemberRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Member__Output>): grpc.ClientUnaryCall;
  UpdateMember(argument: _campaign_v1_UpdateMemberRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_Member__Output>): grpc.ClientUnaryCall;
  UpdateMember(argument: _campaign_v1_UpdateMemberRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Member__Output>): grpc.ClientUnaryCall;
  UpdateMember(argument: _campaign_v1_UpdateMemberRequest, callback: grpc.requestCallback<_campaign_v1_Member__Output>): grpc.ClientUnaryCall;
  updateMember(argument: _campaign_v1_UpdateMemberRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Member__Output>): grpc.ClientUnaryCall;
  updateMember(argument: _campaign_v1_UpdateMemberRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_Member__Output>): grpc.ClientUnaryCall;
  updateMember(argument: _campaign_v1_UpdateMemberRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_Member__Output>): grpc.ClientUnaryCall;
  updateMember(argument: _campaign_v1_UpdateMemberRequest, callback: grpc.requestCallback<_campaign_v1_Member__Output>): grpc.ClientUnaryCall;
  
}

export interface ConsoleHandlers extends grpc.UntypedServiceImplementation {
  AcceptInvite: grpc.handleUnaryCall<_campaign_v1_AcceptInviteRequest__Output, _campaign_v1_SessionGrant>;
  
  CreateInvite: grpc.handleUnaryCall<_campaign_v1_CreateInviteRequest__Output, _campaign_v1_CreatedInvite>;
  
  CreateKey: grpc.handleUnaryCall<_campaign_v1_CreateKeyRequest__Output, _campaign_v1_IssuedApiKey>;
  
  EstimateAudience: grpc.handleUnaryCall<_campaign_v1_EstimateAudienceRequest__Output, _campaign_v1_EstimateAudienceResponse>;
  
  GetSiteThrottle: grpc.handleUnaryCall<_campaign_v1_ConsoleSiteRequest__Output, _campaign_v1_SiteThrottle>;
  
  ListInvites: grpc.handleUnaryCall<_campaign_v1_ConsoleSiteRequest__Output, _campaign_v1_InviteList>;
  
  ListKeys: grpc.handleUnaryCall<_campaign_v1_ConsoleSiteRequest__Output, _campaign_v1_ApiKeyList>;
  
  ListMembers: grpc.handleUnaryCall<_campaign_v1_ConsoleSiteRequest__Output, _campaign_v1_MemberList>;
  
  Login: grpc.handleUnaryCall<_campaign_v1_LoginRequest__Output, _campaign_v1_SessionGrant>;
  
  Logout: grpc.handleUnaryCall<_campaign_v1_SessionRef__Output, _campaign_v1_LogoutResponse>;
  
  LookupInvite: grpc.handleUnaryCall<_campaign_v1_InviteTokenRequest__Output, _campaign_v1_InvitePreview>;
  
  RemoveMember: grpc.handleUnaryCall<_campaign_v1_MemberRequest__Output, _campaign_v1_RemoveMemberResponse>;
  
  RevokeInvite: grpc.handleUnaryCall<_campaign_v1_InviteRequest__Output, _campaign_v1_RevokeInviteResponse>;
  
  RevokeKey: grpc.handleUnaryCall<_campaign_v1_ApiKeyRequest__Output, _campaign_v1_RevokedApiKey>;
  
  RotateKey: grpc.handleUnaryCall<_campaign_v1_ApiKeyRequest__Output, _campaign_v1_IssuedApiKey>;
  
  Session: grpc.handleUnaryCall<_campaign_v1_SessionRef__Output, _campaign_v1_SessionAnswer>;
  
  SetSiteThrottle: grpc.handleUnaryCall<_campaign_v1_SetSiteThrottleRequest__Output, _campaign_v1_SiteThrottle>;
  
  SiteInfo: grpc.handleUnaryCall<_campaign_v1_ConsoleSiteRequest__Output, _campaign_v1_SiteInfoResponse>;
  
  UpdateMember: grpc.handleUnaryCall<_campaign_v1_UpdateMemberRequest__Output, _campaign_v1_Member>;
  
}

export interface ConsoleDefinition extends grpc.ServiceDefinition {
  AcceptInvite: MethodDefinition<_campaign_v1_AcceptInviteRequest, _campaign_v1_SessionGrant, _campaign_v1_AcceptInviteRequest__Output, _campaign_v1_SessionGrant__Output>
  CreateInvite: MethodDefinition<_campaign_v1_CreateInviteRequest, _campaign_v1_CreatedInvite, _campaign_v1_CreateInviteRequest__Output, _campaign_v1_CreatedInvite__Output>
  CreateKey: MethodDefinition<_campaign_v1_CreateKeyRequest, _campaign_v1_IssuedApiKey, _campaign_v1_CreateKeyRequest__Output, _campaign_v1_IssuedApiKey__Output>
  EstimateAudience: MethodDefinition<_campaign_v1_EstimateAudienceRequest, _campaign_v1_EstimateAudienceResponse, _campaign_v1_EstimateAudienceRequest__Output, _campaign_v1_EstimateAudienceResponse__Output>
  GetSiteThrottle: MethodDefinition<_campaign_v1_ConsoleSiteRequest, _campaign_v1_SiteThrottle, _campaign_v1_ConsoleSiteRequest__Output, _campaign_v1_SiteThrottle__Output>
  ListInvites: MethodDefinition<_campaign_v1_ConsoleSiteRequest, _campaign_v1_InviteList, _campaign_v1_ConsoleSiteRequest__Output, _campaign_v1_InviteList__Output>
  ListKeys: MethodDefinition<_campaign_v1_ConsoleSiteRequest, _campaign_v1_ApiKeyList, _campaign_v1_ConsoleSiteRequest__Output, _campaign_v1_ApiKeyList__Output>
  ListMembers: MethodDefinition<_campaign_v1_ConsoleSiteRequest, _campaign_v1_MemberList, _campaign_v1_ConsoleSiteRequest__Output, _campaign_v1_MemberList__Output>
  Login: MethodDefinition<_campaign_v1_LoginRequest, _campaign_v1_SessionGrant, _campaign_v1_LoginRequest__Output, _campaign_v1_SessionGrant__Output>
  Logout: MethodDefinition<_campaign_v1_SessionRef, _campaign_v1_LogoutResponse, _campaign_v1_SessionRef__Output, _campaign_v1_LogoutResponse__Output>
  LookupInvite: MethodDefinition<_campaign_v1_InviteTokenRequest, _campaign_v1_InvitePreview, _campaign_v1_InviteTokenRequest__Output, _campaign_v1_InvitePreview__Output>
  RemoveMember: MethodDefinition<_campaign_v1_MemberRequest, _campaign_v1_RemoveMemberResponse, _campaign_v1_MemberRequest__Output, _campaign_v1_RemoveMemberResponse__Output>
  RevokeInvite: MethodDefinition<_campaign_v1_InviteRequest, _campaign_v1_RevokeInviteResponse, _campaign_v1_InviteRequest__Output, _campaign_v1_RevokeInviteResponse__Output>
  RevokeKey: MethodDefinition<_campaign_v1_ApiKeyRequest, _campaign_v1_RevokedApiKey, _campaign_v1_ApiKeyRequest__Output, _campaign_v1_RevokedApiKey__Output>
  RotateKey: MethodDefinition<_campaign_v1_ApiKeyRequest, _campaign_v1_IssuedApiKey, _campaign_v1_ApiKeyRequest__Output, _campaign_v1_IssuedApiKey__Output>
  Session: MethodDefinition<_campaign_v1_SessionRef, _campaign_v1_SessionAnswer, _campaign_v1_SessionRef__Output, _campaign_v1_SessionAnswer__Output>
  SetSiteThrottle: MethodDefinition<_campaign_v1_SetSiteThrottleRequest, _campaign_v1_SiteThrottle, _campaign_v1_SetSiteThrottleRequest__Output, _campaign_v1_SiteThrottle__Output>
  SiteInfo: MethodDefinition<_campaign_v1_ConsoleSiteRequest, _campaign_v1_SiteInfoResponse, _campaign_v1_ConsoleSiteRequest__Output, _campaign_v1_SiteInfoResponse__Output>
  UpdateMember: MethodDefinition<_campaign_v1_UpdateMemberRequest, _campaign_v1_Member, _campaign_v1_UpdateMemberRequest__Output, _campaign_v1_Member__Output>
}
