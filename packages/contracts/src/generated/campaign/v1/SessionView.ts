// Original file: packages/contracts/protos/campaign/v1/console.proto

import type { Membership as _campaign_v1_Membership, Membership__Output as _campaign_v1_Membership__Output } from '../../campaign/v1/Membership';

export interface SessionView {
  'email'?: (string);
  'csrfToken'?: (string);
  'sites'?: (_campaign_v1_Membership)[];
}

export interface SessionView__Output {
  'email': (string);
  'csrfToken': (string);
  'sites': (_campaign_v1_Membership__Output)[];
}
