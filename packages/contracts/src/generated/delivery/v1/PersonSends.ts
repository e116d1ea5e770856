// Original file: packages/contracts/protos/delivery/v1/audience.proto

import type { PersonSend as _delivery_v1_PersonSend, PersonSend__Output as _delivery_v1_PersonSend__Output } from '../../delivery/v1/PersonSend';

export interface PersonSends {
  'sends'?: (_delivery_v1_PersonSend)[];
  'more'?: (boolean);
}

export interface PersonSends__Output {
  'sends': (_delivery_v1_PersonSend__Output)[];
  'more': (boolean);
}
