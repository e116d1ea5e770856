// Original file: packages/contracts/protos/campaign/v1/console.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AcceptInviteRequest as _campaign_v1_AcceptInviteRequest, AcceptInviteRequest__Output as _campaign_v1_AcceptInviteRequest__Output } from '../../campaign/v1/AcceptInviteRequest';
import type { ApiKeyList as _campaign_v1_ApiKeyList, ApiKeyList__Output as _campaign_v1_ApiKeyList__Output } from '../../campaign/v1/ApiKeyList';
import type { ApiKeyRequest as _campaign_v1_ApiKeyRequest, ApiKeyRequest__Output as _campaign_v1_ApiKeyRequest__Output } from '../../campaign/v1/ApiKeyRequest';
import type { ConsoleSiteRequest as _campaign_v1_ConsoleSiteRequest, ConsoleSiteRequest__Output as _campaign_v1_ConsoleSiteRequest__Output } from '../../campaign/v1/ConsoleSiteRequest';
import type { CreateKeyRequest as _campaign_v1_CreateKeyRequest, CreateKeyRequest__Output as _campaign_v1_CreateKeyRequest__Output } from '../../campaign/v1/CreateKeyRequest';
import type { EstimateAudienceRequest as _campaign_v1_EstimateAudienceRequest, EstimateAudienceRequest__Output as _campaign_v1_EstimateAudienceRequest__Output } from '../../campaign/v1/EstimateAudienceRequest';
import type { EstimateAudienceResponse as _campaign_v1_EstimateAudienceResponse, EstimateAudienceResponse__Output as _campaign_v1_EstimateAudienceResponse__Output } from '../../campaign/v1/EstimateAudienceResponse';
import type { IssuedApiKey as _campaign_v1_IssuedApiKey, IssuedApiKey__Output as _campaign_v1_IssuedApiKey__Output } from '../../campaign/v1/IssuedApiKey';
import type { LoginRequest as _campaign_v1_LoginRequest, LoginRequest__Output as _campaign_v1_LoginRequest__Output } from '../../campaign/v1/LoginRequest';
import type { LogoutResponse as _campaign_v1_LogoutResponse, LogoutResponse__Output as _campaign_v1_LogoutResponse__Output } from '../../campaign/v1/LogoutResponse';
import type { MemberList as _campaign_v1_MemberList, MemberList__Output as _campaign_v1_MemberList__Output } from '../../campaign/v1/MemberList';
import type { RevokedApiKey as _campaign_v1_RevokedApiKey, RevokedApiKey__Output as _campaign_v1_RevokedApiKey__Output } from '../../campaign/v1/RevokedApiKey';
import type { SessionAnswer as _campaign_v1_SessionAnswer, SessionAnswer__Output as _campaign_v1_SessionAnswer__Output } from '../../campaign/v1/SessionAnswer';
import type { SessionGrant as _campaign_v1_SessionGrant, SessionGrant__Output as _campaign_v1_SessionGrant__Output } from '../../campaign/v1/SessionGrant';
import type { SessionRef as _campaign_v1_SessionRef, SessionRef__Output as _campaign_v1_SessionRef__Output } from '../../campaign/v1/SessionRef';
import type { SetSiteThrottleRequest as _campaign_v1_SetSiteThrottleRequest, SetSiteThrottleRequest__Output as _campaign_v1_SetSiteThrottleRequest__Output } from '../../campaign/v1/SetSiteThrottleRequest';
import type { SiteInfoResponse as _campaign_v1_SiteInfoResponse, SiteInfoResponse__Output as _campaign_v1_SiteInfoResponse__Output } from '../../campaign/v1/SiteInfoResponse';
import type { SiteThrottle as _campaign_v1_SiteThrottle, SiteThrottle__Output as _campaign_v1_SiteThrottle__Output } from '../../campaign/v1/SiteThrottle';

export interface ConsoleClient extends grpc.Client {
  AcceptInvite(argument: _campaign_v1_AcceptInviteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_SessionGrant__Output>): grpc.ClientUnaryCall;
  AcceptInvite(argument: _campaign_v1_AcceptInviteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_SessionGrant__Output>): grpc.ClientUnaryCall;
  AcceptInvite(argument: _campaign_v1_AcceptInviteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_SessionGrant__Output>): grpc.ClientUnaryCall;
  AcceptInvite(argument: _campaign_v1_AcceptInviteRequest, callback: grpc.requestCallback<_campaign_v1_SessionGrant__Output>): grpc.ClientUnaryCall;
  acceptInvite(argument: _campaign_v1_AcceptInviteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_SessionGrant__Output>): grpc.ClientUnaryCall;
  acceptInvite(argument: _campaign_v1_AcceptInviteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_campaign_v1_SessionGrant__Output>): grpc.ClientUnaryCall;
  acceptInvite(argument: _campaign_v1_AcceptInviteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_campaign_v1_SessionGrant__Output>): grpc.ClientUnaryCall;
  acceptInvite(argument: _campaign_v1_AcceptInviteRequest, callback: grpc.requestCallback<_campaign_v1_SessionGrant__Output>): grpc.ClientUnaryCall;
  
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
  
}

export interface ConsoleHandlers extends grpc.UntypedServiceImplementation {
  AcceptInvite: grpc.handleUnaryCall<_campaign_v1_AcceptInviteRequest__Output, _campaign_v1_SessionGrant>;
  
  CreateKey: grpc.handleUnaryCall<_campaign_v1_CreateKeyRequest__Output, _campaign_v1_IssuedApiKey>;
  
  EstimateAudience: grpc.handleUnaryCall<_campaign_v1_EstimateAudienceRequest__Output, _campaign_v1_EstimateAudienceResponse>;
  
  GetSiteThrottle: grpc.handleUnaryCall<_campaign_v1_ConsoleSiteRequest__Output, _campaign_v1_SiteThrottle>;
  
  ListKeys: grpc.handleUnaryCall<_campaign_v1_ConsoleSiteRequest__Output, _campaign_v1_ApiKeyList>;
  
  ListMembers: grpc.handleUnaryCall<_campaign_v1_ConsoleSiteRequest__Output, _campaign_v1_MemberList>;
  
  Login: grpc.handleUnaryCall<_campaign_v1_LoginRequest__Output, _campaign_v1_SessionGrant>;
  
  Logout: grpc.handleUnaryCall<_campaign_v1_SessionRef__Output, _campaign_v1_LogoutResponse>;
  
  RevokeKey: grpc.handleUnaryCall<_campaign_v1_ApiKeyRequest__Output, _campaign_v1_RevokedApiKey>;
  
  RotateKey: grpc.handleUnaryCall<_campaign_v1_ApiKeyRequest__Output, _campaign_v1_IssuedApiKey>;
  
  Session: grpc.handleUnaryCall<_campaign_v1_SessionRef__Output, _campaign_v1_SessionAnswer>;
  
  SetSiteThrottle: grpc.handleUnaryCall<_campaign_v1_SetSiteThrottleRequest__Output, _campaign_v1_SiteThrottle>;
  
  SiteInfo: grpc.handleUnaryCall<_campaign_v1_ConsoleSiteRequest__Output, _campaign_v1_SiteInfoResponse>;
  
}

export interface ConsoleDefinition extends grpc.ServiceDefinition {
  AcceptInvite: MethodDefinition<_campaign_v1_AcceptInviteRequest, _campaign_v1_SessionGrant, _campaign_v1_AcceptInviteRequest__Output, _campaign_v1_SessionGrant__Output>
  CreateKey: MethodDefinition<_campaign_v1_CreateKeyRequest, _campaign_v1_IssuedApiKey, _campaign_v1_CreateKeyRequest__Output, _campaign_v1_IssuedApiKey__Output>
  EstimateAudience: MethodDefinition<_campaign_v1_EstimateAudienceRequest, _campaign_v1_EstimateAudienceResponse, _campaign_v1_EstimateAudienceRequest__Output, _campaign_v1_EstimateAudienceResponse__Output>
  GetSiteThrottle: MethodDefinition<_campaign_v1_ConsoleSiteRequest, _campaign_v1_SiteThrottle, _campaign_v1_ConsoleSiteRequest__Output, _campaign_v1_SiteThrottle__Output>
  ListKeys: MethodDefinition<_campaign_v1_ConsoleSiteRequest, _campaign_v1_ApiKeyList, _campaign_v1_ConsoleSiteRequest__Output, _campaign_v1_ApiKeyList__Output>
  ListMembers: MethodDefinition<_campaign_v1_ConsoleSiteRequest, _campaign_v1_MemberList, _campaign_v1_ConsoleSiteRequest__Output, _campaign_v1_MemberList__Output>
  Login: MethodDefinition<_campaign_v1_LoginRequest, _campaign_v1_SessionGrant, _campaign_v1_LoginRequest__Output, _campaign_v1_SessionGrant__Output>
  Logout: MethodDefinition<_campaign_v1_SessionRef, _campaign_v1_LogoutResponse, _campaign_v1_SessionRef__Output, _campaign_v1_LogoutResponse__Output>
  RevokeKey: MethodDefinition<_campaign_v1_ApiKeyRequest, _campaign_v1_RevokedApiKey, _campaign_v1_ApiKeyRequest__Output, _campaign_v1_RevokedApiKey__Output>
  RotateKey: MethodDefinition<_campaign_v1_ApiKeyRequest, _campaign_v1_IssuedApiKey, _campaign_v1_ApiKeyRequest__Output, _campaign_v1_IssuedApiKey__Output>
  Session: MethodDefinition<_campaign_v1_SessionRef, _campaign_v1_SessionAnswer, _campaign_v1_SessionRef__Output, _campaign_v1_SessionAnswer__Output>
  SetSiteThrottle: MethodDefinition<_campaign_v1_SetSiteThrottleRequest, _campaign_v1_SiteThrottle, _campaign_v1_SetSiteThrottleRequest__Output, _campaign_v1_SiteThrottle__Output>
  SiteInfo: MethodDefinition<_campaign_v1_ConsoleSiteRequest, _campaign_v1_SiteInfoResponse, _campaign_v1_ConsoleSiteRequest__Output, _campaign_v1_SiteInfoResponse__Output>
}
