// Original file: packages/contracts/protos/delivery/v1/audience.proto

import type { PersonSubscription as _delivery_v1_PersonSubscription, PersonSubscription__Output as _delivery_v1_PersonSubscription__Output } from '../../delivery/v1/PersonSubscription';

export interface Person {
  'externalId'?: (string);
  'createdAt'?: (string);
  'subscriptions'?: (_delivery_v1_PersonSubscription)[];
  'tagsJson'?: (string);
}

export interface Person__Output {
  'externalId': (string);
  'createdAt': (string);
  'subscriptions': (_delivery_v1_PersonSubscription__Output)[];
  'tagsJson': (string);
}
