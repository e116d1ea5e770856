// Original file: packages/contracts/protos/campaign/v1/console.proto

import type { Invite as _campaign_v1_Invite, Invite__Output as _campaign_v1_Invite__Output } from '../../campaign/v1/Invite';

export interface InviteList {
  'invites'?: (_campaign_v1_Invite)[];
}

export interface InviteList__Output {
  'invites': (_campaign_v1_Invite__Output)[];
}
