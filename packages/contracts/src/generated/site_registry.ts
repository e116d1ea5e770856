import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { FrequencyCap as _delivery_v1_FrequencyCap, FrequencyCap__Output as _delivery_v1_FrequencyCap__Output } from './delivery/v1/FrequencyCap';
import type { FrequencyCapAnswer as _delivery_v1_FrequencyCapAnswer, FrequencyCapAnswer__Output as _delivery_v1_FrequencyCapAnswer__Output } from './delivery/v1/FrequencyCapAnswer';
import type { QuietHoursAnswer as _delivery_v1_QuietHoursAnswer, QuietHoursAnswer__Output as _delivery_v1_QuietHoursAnswer__Output } from './delivery/v1/QuietHoursAnswer';
import type { QuietHoursWindow as _delivery_v1_QuietHoursWindow, QuietHoursWindow__Output as _delivery_v1_QuietHoursWindow__Output } from './delivery/v1/QuietHoursWindow';
import type { RegisterSiteRequest as _delivery_v1_RegisterSiteRequest, RegisterSiteRequest__Output as _delivery_v1_RegisterSiteRequest__Output } from './delivery/v1/RegisterSiteRequest';
import type { RegisteredSite as _delivery_v1_RegisteredSite, RegisteredSite__Output as _delivery_v1_RegisteredSite__Output } from './delivery/v1/RegisteredSite';
import type { SetFrequencyCapRequest as _delivery_v1_SetFrequencyCapRequest, SetFrequencyCapRequest__Output as _delivery_v1_SetFrequencyCapRequest__Output } from './delivery/v1/SetFrequencyCapRequest';
import type { SetQuietHoursRequest as _delivery_v1_SetQuietHoursRequest, SetQuietHoursRequest__Output as _delivery_v1_SetQuietHoursRequest__Output } from './delivery/v1/SetQuietHoursRequest';
import type { SetTimeZoneRequest as _delivery_v1_SetTimeZoneRequest, SetTimeZoneRequest__Output as _delivery_v1_SetTimeZoneRequest__Output } from './delivery/v1/SetTimeZoneRequest';
import type { SetVisitorTagsRequest as _delivery_v1_SetVisitorTagsRequest, SetVisitorTagsRequest__Output as _delivery_v1_SetVisitorTagsRequest__Output } from './delivery/v1/SetVisitorTagsRequest';
import type { SiteRegistryClient as _delivery_v1_SiteRegistryClient, SiteRegistryDefinition as _delivery_v1_SiteRegistryDefinition } from './delivery/v1/SiteRegistry';
import type { TimeZoneAnswer as _delivery_v1_TimeZoneAnswer, TimeZoneAnswer__Output as _delivery_v1_TimeZoneAnswer__Output } from './delivery/v1/TimeZoneAnswer';
import type { VisitorTagsAnswer as _delivery_v1_VisitorTagsAnswer, VisitorTagsAnswer__Output as _delivery_v1_VisitorTagsAnswer__Output } from './delivery/v1/VisitorTagsAnswer';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  delivery: {
    v1: {
      FrequencyCap: MessageTypeDefinition<_delivery_v1_FrequencyCap, _delivery_v1_FrequencyCap__Output>
      FrequencyCapAnswer: MessageTypeDefinition<_delivery_v1_FrequencyCapAnswer, _delivery_v1_FrequencyCapAnswer__Output>
      QuietHoursAnswer: MessageTypeDefinition<_delivery_v1_QuietHoursAnswer, _delivery_v1_QuietHoursAnswer__Output>
      QuietHoursWindow: MessageTypeDefinition<_delivery_v1_QuietHoursWindow, _delivery_v1_QuietHoursWindow__Output>
      RegisterSiteRequest: MessageTypeDefinition<_delivery_v1_RegisterSiteRequest, _delivery_v1_RegisterSiteRequest__Output>
      RegisteredSite: MessageTypeDefinition<_delivery_v1_RegisteredSite, _delivery_v1_RegisteredSite__Output>
      SetFrequencyCapRequest: MessageTypeDefinition<_delivery_v1_SetFrequencyCapRequest, _delivery_v1_SetFrequencyCapRequest__Output>
      SetQuietHoursRequest: MessageTypeDefinition<_delivery_v1_SetQuietHoursRequest, _delivery_v1_SetQuietHoursRequest__Output>
      SetTimeZoneRequest: MessageTypeDefinition<_delivery_v1_SetTimeZoneRequest, _delivery_v1_SetTimeZoneRequest__Output>
      SetVisitorTagsRequest: MessageTypeDefinition<_delivery_v1_SetVisitorTagsRequest, _delivery_v1_SetVisitorTagsRequest__Output>
      SiteRegistry: SubtypeConstructor<typeof grpc.Client, _delivery_v1_SiteRegistryClient> & { service: _delivery_v1_SiteRegistryDefinition }
      TimeZoneAnswer: MessageTypeDefinition<_delivery_v1_TimeZoneAnswer, _delivery_v1_TimeZoneAnswer__Output>
      VisitorTagsAnswer: MessageTypeDefinition<_delivery_v1_VisitorTagsAnswer, _delivery_v1_VisitorTagsAnswer__Output>
    }
  }
}

