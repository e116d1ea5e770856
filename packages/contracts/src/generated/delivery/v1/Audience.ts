// Original file: packages/contracts/protos/delivery/v1/audience.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CountAudienceRequest as _delivery_v1_CountAudienceRequest, CountAudienceRequest__Output as _delivery_v1_CountAudienceRequest__Output } from '../../delivery/v1/CountAudienceRequest';
import type { CountAudienceResponse as _delivery_v1_CountAudienceResponse, CountAudienceResponse__Output as _delivery_v1_CountAudienceResponse__Output } from '../../delivery/v1/CountAudienceResponse';
import type { DeletedPerson as _delivery_v1_DeletedPerson, DeletedPerson__Output as _delivery_v1_DeletedPerson__Output } from '../../delivery/v1/DeletedPerson';
import type { ExportChunk as _delivery_v1_ExportChunk, ExportChunk__Output as _delivery_v1_ExportChunk__Output } from '../../delivery/v1/ExportChunk';
import type { ExportSubscribersRequest as _delivery_v1_ExportSubscribersRequest, ExportSubscribersRequest__Output as _delivery_v1_ExportSubscribersRequest__Output } from '../../delivery/v1/ExportSubscribersRequest';
import type { GetOptInFunnelRequest as _delivery_v1_GetOptInFunnelRequest, GetOptInFunnelRequest__Output as _delivery_v1_GetOptInFunnelRequest__Output } from '../../delivery/v1/GetOptInFunnelRequest';
import type { ImportSubscriptionsRequest as _delivery_v1_ImportSubscriptionsRequest, ImportSubscriptionsRequest__Output as _delivery_v1_ImportSubscriptionsRequest__Output } from '../../delivery/v1/ImportSubscriptionsRequest';
import type { ImportSubscriptionsResponse as _delivery_v1_ImportSubscriptionsResponse, ImportSubscriptionsResponse__Output as _delivery_v1_ImportSubscriptionsResponse__Output } from '../../delivery/v1/ImportSubscriptionsResponse';
import type { NameCounts as _delivery_v1_NameCounts, NameCounts__Output as _delivery_v1_NameCounts__Output } from '../../delivery/v1/NameCounts';
import type { OptInFunnel as _delivery_v1_OptInFunnel, OptInFunnel__Output as _delivery_v1_OptInFunnel__Output } from '../../delivery/v1/OptInFunnel';
import type { Person as _delivery_v1_Person, Person__Output as _delivery_v1_Person__Output } from '../../delivery/v1/Person';
import type { PersonExport as _delivery_v1_PersonExport, PersonExport__Output as _delivery_v1_PersonExport__Output } from '../../delivery/v1/PersonExport';
import type { PersonRequest as _delivery_v1_PersonRequest, PersonRequest__Output as _delivery_v1_PersonRequest__Output } from '../../delivery/v1/PersonRequest';
import type { PersonSends as _delivery_v1_PersonSends, PersonSends__Output as _delivery_v1_PersonSends__Output } from '../../delivery/v1/PersonSends';
import type { PlanBestTimeRequest as _delivery_v1_PlanBestTimeRequest, PlanBestTimeRequest__Output as _delivery_v1_PlanBestTimeRequest__Output } from '../../delivery/v1/PlanBestTimeRequest';
import type { PlanBestTimeResponse as _delivery_v1_PlanBestTimeResponse, PlanBestTimeResponse__Output as _delivery_v1_PlanBestTimeResponse__Output } from '../../delivery/v1/PlanBestTimeResponse';
import type { SiteRequest as _delivery_v1_SiteRequest, SiteRequest__Output as _delivery_v1_SiteRequest__Output } from '../../delivery/v1/SiteRequest';

export interface AudienceClient extends grpc.Client {
  CountAudience(argument: _delivery_v1_CountAudienceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_CountAudienceResponse__Output>): grpc.ClientUnaryCall;
  CountAudience(argument: _delivery_v1_CountAudienceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_CountAudienceResponse__Output>): grpc.ClientUnaryCall;
  CountAudience(argument: _delivery_v1_CountAudienceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_CountAudienceResponse__Output>): grpc.ClientUnaryCall;
  CountAudience(argument: _delivery_v1_CountAudienceRequest, callback: grpc.requestCallback<_delivery_v1_CountAudienceResponse__Output>): grpc.ClientUnaryCall;
  countAudience(argument: _delivery_v1_CountAudienceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_CountAudienceResponse__Output>): grpc.ClientUnaryCall;
  countAudience(argument: _delivery_v1_CountAudienceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_CountAudienceResponse__Output>): grpc.ClientUnaryCall;
  countAudience(argument: _delivery_v1_CountAudienceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_CountAudienceResponse__Output>): grpc.ClientUnaryCall;
  countAudience(argument: _delivery_v1_CountAudienceRequest, callback: grpc.requestCallback<_delivery_v1_CountAudienceResponse__Output>): grpc.ClientUnaryCall;
  
  DeletePerson(argument: _delivery_v1_PersonRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_DeletedPerson__Output>): grpc.ClientUnaryCall;
  DeletePerson(argument: _delivery_v1_PersonRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_DeletedPerson__Output>): grpc.ClientUnaryCall;
  DeletePerson(argument: _delivery_v1_PersonRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_DeletedPerson__Output>): grpc.ClientUnaryCall;
  DeletePerson(argument: _delivery_v1_PersonRequest, callback: grpc.requestCallback<_delivery_v1_DeletedPerson__Output>): grpc.ClientUnaryCall;
  deletePerson(argument: _delivery_v1_PersonRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_DeletedPerson__Output>): grpc.ClientUnaryCall;
  deletePerson(argument: _delivery_v1_PersonRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_DeletedPerson__Output>): grpc.ClientUnaryCall;
  deletePerson(argument: _delivery_v1_PersonRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_DeletedPerson__Output>): grpc.ClientUnaryCall;
  deletePerson(argument: _delivery_v1_PersonRequest, callback: grpc.requestCallback<_delivery_v1_DeletedPerson__Output>): grpc.ClientUnaryCall;
  
  ExportPerson(argument: _delivery_v1_PersonRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_PersonExport__Output>): grpc.ClientUnaryCall;
  ExportPerson(argument: _delivery_v1_PersonRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_PersonExport__Output>): grpc.ClientUnaryCall;
  ExportPerson(argument: _delivery_v1_PersonRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_PersonExport__Output>): grpc.ClientUnaryCall;
  ExportPerson(argument: _delivery_v1_PersonRequest, callback: grpc.requestCallback<_delivery_v1_PersonExport__Output>): grpc.ClientUnaryCall;
  exportPerson(argument: _delivery_v1_PersonRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_PersonExport__Output>): grpc.ClientUnaryCall;
  exportPerson(argument: _delivery_v1_PersonRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_PersonExport__Output>): grpc.ClientUnaryCall;
  exportPerson(argument: _delivery_v1_PersonRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_PersonExport__Output>): grpc.ClientUnaryCall;
  exportPerson(argument: _delivery_v1_PersonRequest, callback: grpc.requestCallback<_delivery_v1_PersonExport__Output>): grpc.ClientUnaryCall;
  
  ExportSubscribers(argument: _delivery_v1_ExportSubscribersRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_delivery_v1_ExportChunk__Output>;
  ExportSubscribers(argument: _delivery_v1_ExportSubscribersRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_delivery_v1_ExportChunk__Output>;
  exportSubscribers(argument: _delivery_v1_ExportSubscribersRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_delivery_v1_ExportChunk__Output>;
  exportSubscribers(argument: _delivery_v1_ExportSubscribersRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_delivery_v1_ExportChunk__Output>;
  
  GetOptInFunnel(argument: _delivery_v1_GetOptInFunnelRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_OptInFunnel__Output>): grpc.ClientUnaryCall;
  GetOptInFunnel(argument: _delivery_v1_GetOptInFunnelRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_OptInFunnel__Output>): grpc.ClientUnaryCall;
  GetOptInFunnel(argument: _delivery_v1_GetOptInFunnelRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_OptInFunnel__Output>): grpc.ClientUnaryCall;
  GetOptInFunnel(argument: _delivery_v1_GetOptInFunnelRequest, callback: grpc.requestCallback<_delivery_v1_OptInFunnel__Output>): grpc.ClientUnaryCall;
  getOptInFunnel(argument: _delivery_v1_GetOptInFunnelRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_OptInFunnel__Output>): grpc.ClientUnaryCall;
  getOptInFunnel(argument: _delivery_v1_GetOptInFunnelRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_OptInFunnel__Output>): grpc.ClientUnaryCall;
  getOptInFunnel(argument: _delivery_v1_GetOptInFunnelRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_OptInFunnel__Output>): grpc.ClientUnaryCall;
  getOptInFunnel(argument: _delivery_v1_GetOptInFunnelRequest, callback: grpc.requestCallback<_delivery_v1_OptInFunnel__Output>): grpc.ClientUnaryCall;
  
  GetPerson(argument: _delivery_v1_PersonRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_Person__Output>): grpc.ClientUnaryCall;
  GetPerson(argument: _delivery_v1_PersonRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_Person__Output>): grpc.ClientUnaryCall;
  GetPerson(argument: _delivery_v1_PersonRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_Person__Output>): grpc.ClientUnaryCall;
  GetPerson(argument: _delivery_v1_PersonRequest, callback: grpc.requestCallback<_delivery_v1_Person__Output>): grpc.ClientUnaryCall;
  getPerson(argument: _delivery_v1_PersonRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_Person__Output>): grpc.ClientUnaryCall;
  getPerson(argument: _delivery_v1_PersonRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_Person__Output>): grpc.ClientUnaryCall;
  getPerson(argument: _delivery_v1_PersonRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_Person__Output>): grpc.ClientUnaryCall;
  getPerson(argument: _delivery_v1_PersonRequest, callback: grpc.requestCallback<_delivery_v1_Person__Output>): grpc.ClientUnaryCall;
  
  ImportSubscriptions(argument: _delivery_v1_ImportSubscriptionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_ImportSubscriptionsResponse__Output>): grpc.ClientUnaryCall;
  ImportSubscriptions(argument: _delivery_v1_ImportSubscriptionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_ImportSubscriptionsResponse__Output>): grpc.ClientUnaryCall;
  ImportSubscriptions(argument: _delivery_v1_ImportSubscriptionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_ImportSubscriptionsResponse__Output>): grpc.ClientUnaryCall;
  ImportSubscriptions(argument: _delivery_v1_ImportSubscriptionsRequest, callback: grpc.requestCallback<_delivery_v1_ImportSubscriptionsResponse__Output>): grpc.ClientUnaryCall;
  importSubscriptions(argument: _delivery_v1_ImportSubscriptionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_ImportSubscriptionsResponse__Output>): grpc.ClientUnaryCall;
  importSubscriptions(argument: _delivery_v1_ImportSubscriptionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_ImportSubscriptionsResponse__Output>): grpc.ClientUnaryCall;
  importSubscriptions(argument: _delivery_v1_ImportSubscriptionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_ImportSubscriptionsResponse__Output>): grpc.ClientUnaryCall;
  importSubscriptions(argument: _delivery_v1_ImportSubscriptionsRequest, callback: grpc.requestCallback<_delivery_v1_ImportSubscriptionsResponse__Output>): grpc.ClientUnaryCall;
  
  ListCountries(argument: _delivery_v1_SiteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_NameCounts__Output>): grpc.ClientUnaryCall;
  ListCountries(argument: _delivery_v1_SiteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_NameCounts__Output>): grpc.ClientUnaryCall;
  ListCountries(argument: _delivery_v1_SiteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_NameCounts__Output>): grpc.ClientUnaryCall;
  ListCountries(argument: _delivery_v1_SiteRequest, callback: grpc.requestCallback<_delivery_v1_NameCounts__Output>): grpc.ClientUnaryCall;
  listCountries(argument: _delivery_v1_SiteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_NameCounts__Output>): grpc.ClientUnaryCall;
  listCountries(argument: _delivery_v1_SiteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_NameCounts__Output>): grpc.ClientUnaryCall;
  listCountries(argument: _delivery_v1_SiteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_NameCounts__Output>): grpc.ClientUnaryCall;
  listCountries(argument: _delivery_v1_SiteRequest, callback: grpc.requestCallback<_delivery_v1_NameCounts__Output>): grpc.ClientUnaryCall;
  
  ListPersonSends(argument: _delivery_v1_PersonRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_PersonSends__Output>): grpc.ClientUnaryCall;
  ListPersonSends(argument: _delivery_v1_PersonRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_PersonSends__Output>): grpc.ClientUnaryCall;
  ListPersonSends(argument: _delivery_v1_PersonRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_PersonSends__Output>): grpc.ClientUnaryCall;
  ListPersonSends(argument: _delivery_v1_PersonRequest, callback: grpc.requestCallback<_delivery_v1_PersonSends__Output>): grpc.ClientUnaryCall;
  listPersonSends(argument: _delivery_v1_PersonRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_PersonSends__Output>): grpc.ClientUnaryCall;
  listPersonSends(argument: _delivery_v1_PersonRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_PersonSends__Output>): grpc.ClientUnaryCall;
  listPersonSends(argument: _delivery_v1_PersonRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_PersonSends__Output>): grpc.ClientUnaryCall;
  listPersonSends(argument: _delivery_v1_PersonRequest, callback: grpc.requestCallback<_delivery_v1_PersonSends__Output>): grpc.ClientUnaryCall;
  
  ListTopics(argument: _delivery_v1_SiteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_NameCounts__Output>): grpc.ClientUnaryCall;
  ListTopics(argument: _delivery_v1_SiteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_NameCounts__Output>): grpc.ClientUnaryCall;
  ListTopics(argument: _delivery_v1_SiteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_NameCounts__Output>): grpc.ClientUnaryCall;
  ListTopics(argument: _delivery_v1_SiteRequest, callback: grpc.requestCallback<_delivery_v1_NameCounts__Output>): grpc.ClientUnaryCall;
  listTopics(argument: _delivery_v1_SiteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_NameCounts__Output>): grpc.ClientUnaryCall;
  listTopics(argument: _delivery_v1_SiteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_NameCounts__Output>): grpc.ClientUnaryCall;
  listTopics(argument: _delivery_v1_SiteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_NameCounts__Output>): grpc.ClientUnaryCall;
  listTopics(argument: _delivery_v1_SiteRequest, callback: grpc.requestCallback<_delivery_v1_NameCounts__Output>): grpc.ClientUnaryCall;
  
  PlanBestTime(argument: _delivery_v1_PlanBestTimeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_PlanBestTimeResponse__Output>): grpc.ClientUnaryCall;
  PlanBestTime(argument: _delivery_v1_PlanBestTimeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_PlanBestTimeResponse__Output>): grpc.ClientUnaryCall;
  PlanBestTime(argument: _delivery_v1_PlanBestTimeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_PlanBestTimeResponse__Output>): grpc.ClientUnaryCall;
  PlanBestTime(argument: _delivery_v1_PlanBestTimeRequest, callback: grpc.requestCallback<_delivery_v1_PlanBestTimeResponse__Output>): grpc.ClientUnaryCall;
  planBestTime(argument: _delivery_v1_PlanBestTimeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_PlanBestTimeResponse__Output>): grpc.ClientUnaryCall;
  planBestTime(argument: _delivery_v1_PlanBestTimeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_PlanBestTimeResponse__Output>): grpc.ClientUnaryCall;
  planBestTime(argument: _delivery_v1_PlanBestTimeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_PlanBestTimeResponse__Output>): grpc.ClientUnaryCall;
  planBestTime(argument: _delivery_v1_PlanBestTimeRequest, callback: grpc.requestCallback<_delivery_v1_PlanBestTimeResponse__Output>): grpc.ClientUnaryCall;
  
  UpdatePerson(argument: _delivery_v1_PersonRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_Person__Output>): grpc.ClientUnaryCall;
  UpdatePerson(argument: _delivery_v1_PersonRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_Person__Output>): grpc.ClientUnaryCall;
  UpdatePerson(argument: _delivery_v1_PersonRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_Person__Output>): grpc.ClientUnaryCall;
  UpdatePerson(argument: _delivery_v1_PersonRequest, callback: grpc.requestCallback<_delivery_v1_Person__Output>): grpc.ClientUnaryCall;
  updatePerson(argument: _delivery_v1_PersonRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_Person__Output>): grpc.ClientUnaryCall;
  updatePerson(argument: _delivery_v1_PersonRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_Person__Output>): grpc.ClientUnaryCall;
  updatePerson(argument: _delivery_v1_PersonRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_Person__Output>): grpc.ClientUnaryCall;
  updatePerson(argument: _delivery_v1_PersonRequest, callback: grpc.requestCallback<_delivery_v1_Person__Output>): grpc.ClientUnaryCall;
  
}

export interface AudienceHandlers extends grpc.UntypedServiceImplementation {
  CountAudience: grpc.handleUnaryCall<_delivery_v1_CountAudienceRequest__Output, _delivery_v1_CountAudienceResponse>;
  
  DeletePerson: grpc.handleUnaryCall<_delivery_v1_PersonRequest__Output, _delivery_v1_DeletedPerson>;
  
  ExportPerson: grpc.handleUnaryCall<_delivery_v1_PersonRequest__Output, _delivery_v1_PersonExport>;
  
  ExportSubscribers: grpc.handleServerStreamingCall<_delivery_v1_ExportSubscribersRequest__Output, _delivery_v1_ExportChunk>;
  
  GetOptInFunnel: grpc.handleUnaryCall<_delivery_v1_GetOptInFunnelRequest__Output, _delivery_v1_OptInFunnel>;
  
  GetPerson: grpc.handleUnaryCall<_delivery_v1_PersonRequest__Output, _delivery_v1_Person>;
  
  ImportSubscriptions: grpc.handleUnaryCall<_delivery_v1_ImportSubscriptionsRequest__Output, _delivery_v1_ImportSubscriptionsResponse>;
  
  ListCountries: grpc.handleUnaryCall<_delivery_v1_SiteRequest__Output, _delivery_v1_NameCounts>;
  
  ListPersonSends: grpc.handleUnaryCall<_delivery_v1_PersonRequest__Output, _delivery_v1_PersonSends>;
  
  ListTopics: grpc.handleUnaryCall<_delivery_v1_SiteRequest__Output, _delivery_v1_NameCounts>;
  
  PlanBestTime: grpc.handleUnaryCall<_delivery_v1_PlanBestTimeRequest__Output, _delivery_v1_PlanBestTimeResponse>;
  
  UpdatePerson: grpc.handleUnaryCall<_delivery_v1_PersonRequest__Output, _delivery_v1_Person>;
  
}

export interface AudienceDefinition extends grpc.ServiceDefinition {
  CountAudience: MethodDefinition<_delivery_v1_CountAudienceRequest, _delivery_v1_CountAudienceResponse, _delivery_v1_CountAudienceRequest__Output, _delivery_v1_CountAudienceResponse__Output>
  DeletePerson: MethodDefinition<_delivery_v1_PersonRequest, _delivery_v1_DeletedPerson, _delivery_v1_PersonRequest__Output, _delivery_v1_DeletedPerson__Output>
  ExportPerson: MethodDefinition<_delivery_v1_PersonRequest, _delivery_v1_PersonExport, _delivery_v1_PersonRequest__Output, _delivery_v1_PersonExport__Output>
  ExportSubscribers: MethodDefinition<_delivery_v1_ExportSubscribersRequest, _delivery_v1_ExportChunk, _delivery_v1_ExportSubscribersRequest__Output, _delivery_v1_ExportChunk__Output>
  GetOptInFunnel: MethodDefinition<_delivery_v1_GetOptInFunnelRequest, _delivery_v1_OptInFunnel, _delivery_v1_GetOptInFunnelRequest__Output, _delivery_v1_OptInFunnel__Output>
  GetPerson: MethodDefinition<_delivery_v1_PersonRequest, _delivery_v1_Person, _delivery_v1_PersonRequest__Output, _delivery_v1_Person__Output>
  ImportSubscriptions: MethodDefinition<_delivery_v1_ImportSubscriptionsRequest, _delivery_v1_ImportSubscriptionsResponse, _delivery_v1_ImportSubscriptionsRequest__Output, _delivery_v1_ImportSubscriptionsResponse__Output>
  ListCountries: MethodDefinition<_delivery_v1_SiteRequest, _delivery_v1_NameCounts, _delivery_v1_SiteRequest__Output, _delivery_v1_NameCounts__Output>
  ListPersonSends: MethodDefinition<_delivery_v1_PersonRequest, _delivery_v1_PersonSends, _delivery_v1_PersonRequest__Output, _delivery_v1_PersonSends__Output>
  ListTopics: MethodDefinition<_delivery_v1_SiteRequest, _delivery_v1_NameCounts, _delivery_v1_SiteRequest__Output, _delivery_v1_NameCounts__Output>
  PlanBestTime: MethodDefinition<_delivery_v1_PlanBestTimeRequest, _delivery_v1_PlanBestTimeResponse, _delivery_v1_PlanBestTimeRequest__Output, _delivery_v1_PlanBestTimeResponse__Output>
  UpdatePerson: MethodDefinition<_delivery_v1_PersonRequest, _delivery_v1_Person, _delivery_v1_PersonRequest__Output, _delivery_v1_Person__Output>
}
