// Original file: packages/contracts/protos/delivery/v1/site_registry.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { FrequencyCapAnswer as _delivery_v1_FrequencyCapAnswer, FrequencyCapAnswer__Output as _delivery_v1_FrequencyCapAnswer__Output } from '../../delivery/v1/FrequencyCapAnswer';
import type { QuietHoursAnswer as _delivery_v1_QuietHoursAnswer, QuietHoursAnswer__Output as _delivery_v1_QuietHoursAnswer__Output } from '../../delivery/v1/QuietHoursAnswer';
import type { RegisterSiteRequest as _delivery_v1_RegisterSiteRequest, RegisterSiteRequest__Output as _delivery_v1_RegisterSiteRequest__Output } from '../../delivery/v1/RegisterSiteRequest';
import type { RegisteredSite as _delivery_v1_RegisteredSite, RegisteredSite__Output as _delivery_v1_RegisteredSite__Output } from '../../delivery/v1/RegisteredSite';
import type { SetFrequencyCapRequest as _delivery_v1_SetFrequencyCapRequest, SetFrequencyCapRequest__Output as _delivery_v1_SetFrequencyCapRequest__Output } from '../../delivery/v1/SetFrequencyCapRequest';
import type { SetQuietHoursRequest as _delivery_v1_SetQuietHoursRequest, SetQuietHoursRequest__Output as _delivery_v1_SetQuietHoursRequest__Output } from '../../delivery/v1/SetQuietHoursRequest';
import type { SetTimeZoneRequest as _delivery_v1_SetTimeZoneRequest, SetTimeZoneRequest__Output as _delivery_v1_SetTimeZoneRequest__Output } from '../../delivery/v1/SetTimeZoneRequest';
import type { SetVisitorTagsRequest as _delivery_v1_SetVisitorTagsRequest, SetVisitorTagsRequest__Output as _delivery_v1_SetVisitorTagsRequest__Output } from '../../delivery/v1/SetVisitorTagsRequest';
import type { TimeZoneAnswer as _delivery_v1_TimeZoneAnswer, TimeZoneAnswer__Output as _delivery_v1_TimeZoneAnswer__Output } from '../../delivery/v1/TimeZoneAnswer';
import type { VisitorTagsAnswer as _delivery_v1_VisitorTagsAnswer, VisitorTagsAnswer__Output as _delivery_v1_VisitorTagsAnswer__Output } from '../../delivery/v1/VisitorTagsAnswer';

export interface SiteRegistryClient extends grpc.Client {
  RegisterSite(argument: _delivery_v1_RegisterSiteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_RegisteredSite__Output>): grpc.ClientUnaryCall;
  RegisterSite(argument: _delivery_v1_RegisterSiteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_RegisteredSite__Output>): grpc.ClientUnaryCall;
  RegisterSite(argument: _delivery_v1_RegisterSiteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_RegisteredSite__Output>): grpc.ClientUnaryCall;
  RegisterSite(argument: _delivery_v1_RegisterSiteRequest, callback: grpc.requestCallback<_delivery_v1_RegisteredSite__Output>): grpc.ClientUnaryCall;
  registerSite(argument: _delivery_v1_RegisterSiteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_RegisteredSite__Output>): grpc.ClientUnaryCall;
  registerSite(argument: _delivery_v1_RegisterSiteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_RegisteredSite__Output>): grpc.ClientUnaryCall;
  registerSite(argument: _delivery_v1_RegisterSiteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_RegisteredSite__Output>): grpc.ClientUnaryCall;
  registerSite(argument: _delivery_v1_RegisterSiteRequest, callback: grpc.requestCallback<_delivery_v1_RegisteredSite__Output>): grpc.ClientUnaryCall;
  
  SetFrequencyCap(argument: _delivery_v1_SetFrequencyCapRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_FrequencyCapAnswer__Output>): grpc.ClientUnaryCall;
  SetFrequencyCap(argument: _delivery_v1_SetFrequencyCapRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_FrequencyCapAnswer__Output>): grpc.ClientUnaryCall;
  SetFrequencyCap(argument: _delivery_v1_SetFrequencyCapRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_FrequencyCapAnswer__Output>): grpc.ClientUnaryCall;
  SetFrequencyCap(argument: _delivery_v1_SetFrequencyCapRequest, callback: grpc.requestCallback<_delivery_v1_FrequencyCapAnswer__Output>): grpc.ClientUnaryCall;
  setFrequencyCap(argument: _delivery_v1_SetFrequencyCapRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_FrequencyCapAnswer__Output>): grpc.ClientUnaryCall;
  setFrequencyCap(argument: _delivery_v1_SetFrequencyCapRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_FrequencyCapAnswer__Output>): grpc.ClientUnaryCall;
  setFrequencyCap(argument: _delivery_v1_SetFrequencyCapRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_FrequencyCapAnswer__Output>): grpc.ClientUnaryCall;
  setFrequencyCap(argument: _delivery_v1_SetFrequencyCapRequest, callback: grpc.requestCallback<_delivery_v1_FrequencyCapAnswer__Output>): grpc.ClientUnaryCall;
  
  SetQuietHours(argument: _delivery_v1_SetQuietHoursRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_QuietHoursAnswer__Output>): grpc.ClientUnaryCall;
  SetQuietHours(argument: _delivery_v1_SetQuietHoursRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_QuietHoursAnswer__Output>): grpc.ClientUnaryCall;
  SetQuietHours(argument: _delivery_v1_SetQuietHoursRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_QuietHoursAnswer__Output>): grpc.ClientUnaryCall;
  SetQuietHours(argument: _delivery_v1_SetQuietHoursRequest, callback: grpc.requestCallback<_delivery_v1_QuietHoursAnswer__Output>): grpc.ClientUnaryCall;
  setQuietHours(argument: _delivery_v1_SetQuietHoursRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_QuietHoursAnswer__Output>): grpc.ClientUnaryCall;
  setQuietHours(argument: _delivery_v1_SetQuietHoursRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_QuietHoursAnswer__Output>): grpc.ClientUnaryCall;
  setQuietHours(argument: _delivery_v1_SetQuietHoursRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_QuietHoursAnswer__Output>): grpc.ClientUnaryCall;
  setQuietHours(argument: _delivery_v1_SetQuietHoursRequest, callback: grpc.requestCallback<_delivery_v1_QuietHoursAnswer__Output>): grpc.ClientUnaryCall;
  
  SetTimeZone(argument: _delivery_v1_SetTimeZoneRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_TimeZoneAnswer__Output>): grpc.ClientUnaryCall;
  SetTimeZone(argument: _delivery_v1_SetTimeZoneRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_TimeZoneAnswer__Output>): grpc.ClientUnaryCall;
  SetTimeZone(argument: _delivery_v1_SetTimeZoneRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_TimeZoneAnswer__Output>): grpc.ClientUnaryCall;
  SetTimeZone(argument: _delivery_v1_SetTimeZoneRequest, callback: grpc.requestCallback<_delivery_v1_TimeZoneAnswer__Output>): grpc.ClientUnaryCall;
  setTimeZone(argument: _delivery_v1_SetTimeZoneRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_TimeZoneAnswer__Output>): grpc.ClientUnaryCall;
  setTimeZone(argument: _delivery_v1_SetTimeZoneRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_TimeZoneAnswer__Output>): grpc.ClientUnaryCall;
  setTimeZone(argument: _delivery_v1_SetTimeZoneRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_TimeZoneAnswer__Output>): grpc.ClientUnaryCall;
  setTimeZone(argument: _delivery_v1_SetTimeZoneRequest, callback: grpc.requestCallback<_delivery_v1_TimeZoneAnswer__Output>): grpc.ClientUnaryCall;
  
  SetVisitorTags(argument: _delivery_v1_SetVisitorTagsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_VisitorTagsAnswer__Output>): grpc.ClientUnaryCall;
  SetVisitorTags(argument: _delivery_v1_SetVisitorTagsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_VisitorTagsAnswer__Output>): grpc.ClientUnaryCall;
  SetVisitorTags(argument: _delivery_v1_SetVisitorTagsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_VisitorTagsAnswer__Output>): grpc.ClientUnaryCall;
  SetVisitorTags(argument: _delivery_v1_SetVisitorTagsRequest, callback: grpc.requestCallback<_delivery_v1_VisitorTagsAnswer__Output>): grpc.ClientUnaryCall;
  setVisitorTags(argument: _delivery_v1_SetVisitorTagsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_VisitorTagsAnswer__Output>): grpc.ClientUnaryCall;
  setVisitorTags(argument: _delivery_v1_SetVisitorTagsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_VisitorTagsAnswer__Output>): grpc.ClientUnaryCall;
  setVisitorTags(argument: _delivery_v1_SetVisitorTagsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_VisitorTagsAnswer__Output>): grpc.ClientUnaryCall;
  setVisitorTags(argument: _delivery_v1_SetVisitorTagsRequest, callback: grpc.requestCallback<_delivery_v1_VisitorTagsAnswer__Output>): grpc.ClientUnaryCall;
  
}

export interface SiteRegistryHandlers extends grpc.UntypedServiceImplementation {
  RegisterSite: grpc.handleUnaryCall<_delivery_v1_RegisterSiteRequest__Output, _delivery_v1_RegisteredSite>;
  
  SetFrequencyCap: grpc.handleUnaryCall<_delivery_v1_SetFrequencyCapRequest__Output, _delivery_v1_FrequencyCapAnswer>;
  
  SetQuietHours: grpc.handleUnaryCall<_delivery_v1_SetQuietHoursRequest__Output, _delivery_v1_QuietHoursAnswer>;
  
  SetTimeZone: grpc.handleUnaryCall<_delivery_v1_SetTimeZoneRequest__Output, _delivery_v1_TimeZoneAnswer>;
  
  SetVisitorTags: grpc.handleUnaryCall<_delivery_v1_SetVisitorTagsRequest__Output, _delivery_v1_VisitorTagsAnswer>;
  
}

export interface SiteRegistryDefinition extends grpc.ServiceDefinition {
  RegisterSite: MethodDefinition<_delivery_v1_RegisterSiteRequest, _delivery_v1_RegisteredSite, _delivery_v1_RegisterSiteRequest__Output, _delivery_v1_RegisteredSite__Output>
  SetFrequencyCap: MethodDefinition<_delivery_v1_SetFrequencyCapRequest, _delivery_v1_FrequencyCapAnswer, _delivery_v1_SetFrequencyCapRequest__Output, _delivery_v1_FrequencyCapAnswer__Output>
  SetQuietHours: MethodDefinition<_delivery_v1_SetQuietHoursRequest, _delivery_v1_QuietHoursAnswer, _delivery_v1_SetQuietHoursRequest__Output, _delivery_v1_QuietHoursAnswer__Output>
  SetTimeZone: MethodDefinition<_delivery_v1_SetTimeZoneRequest, _delivery_v1_TimeZoneAnswer, _delivery_v1_SetTimeZoneRequest__Output, _delivery_v1_TimeZoneAnswer__Output>
  SetVisitorTags: MethodDefinition<_delivery_v1_SetVisitorTagsRequest, _delivery_v1_VisitorTagsAnswer, _delivery_v1_SetVisitorTagsRequest__Output, _delivery_v1_VisitorTagsAnswer__Output>
}
