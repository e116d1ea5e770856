// Original file: packages/contracts/protos/campaign/v1/console.proto

import type { SessionView as _campaign_v1_SessionView, SessionView__Output as _campaign_v1_SessionView__Output } from '../../campaign/v1/SessionView';

export interface SessionGrant {
  'sessionId'?: (string);
  'session'?: (_campaign_v1_SessionView | null);
}

export interface SessionGrant__Output {
  'sessionId': (string);
  'session': (_campaign_v1_SessionView__Output | null);
}
