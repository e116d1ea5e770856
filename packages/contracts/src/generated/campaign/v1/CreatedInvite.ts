// Original file: packages/contracts/protos/campaign/v1/console.proto

import type { Invite as _campaign_v1_Invite, Invite__Output as _campaign_v1_Invite__Output } from '../../campaign/v1/Invite';

export interface CreatedInvite {
  'invite'?: (_campaign_v1_Invite | null);
  'link'?: (string);
}

export interface CreatedInvite__Output {
  'invite': (_campaign_v1_Invite__Output | null);
  'link': (string);
}
