// Original file: packages/contracts/protos/campaign/v1/console.proto

import type { Member as _campaign_v1_Member, Member__Output as _campaign_v1_Member__Output } from '../../campaign/v1/Member';

export interface MemberList {
  'members'?: (_campaign_v1_Member)[];
}

export interface MemberList__Output {
  'members': (_campaign_v1_Member__Output)[];
}
