// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { UtcOffset as _campaign_v1_UtcOffset, UtcOffset__Output as _campaign_v1_UtcOffset__Output } from '../../campaign/v1/UtcOffset';
import type { TagCondition as _campaign_v1_TagCondition, TagCondition__Output as _campaign_v1_TagCondition__Output } from '../../campaign/v1/TagCondition';

export interface Segment {
  'languages'?: (string)[];
  'timeZones'?: (string)[];
  'utcOffset'?: (_campaign_v1_UtcOffset | null);
  'browsers'?: (string)[];
  'subscribedAfter'?: (string);
  'subscribedBefore'?: (string);
  'engagedWithinDays'?: (number);
  'notEngagedForDays'?: (number);
  'tags'?: (_campaign_v1_TagCondition)[];
  '_subscribedAfter'?: "subscribedAfter";
  '_subscribedBefore'?: "subscribedBefore";
  '_engagedWithinDays'?: "engagedWithinDays";
  '_notEngagedForDays'?: "notEngagedForDays";
}

export interface Segment__Output {
  'languages': (string)[];
  'timeZones': (string)[];
  'utcOffset': (_campaign_v1_UtcOffset__Output | null);
  'browsers': (string)[];
  'subscribedAfter'?: (string);
  'subscribedBefore'?: (string);
  'engagedWithinDays'?: (number);
  'notEngagedForDays'?: (number);
  'tags': (_campaign_v1_TagCondition__Output)[];
  '_subscribedAfter'?: "subscribedAfter";
  '_subscribedBefore'?: "subscribedBefore";
  '_engagedWithinDays'?: "engagedWithinDays";
  '_notEngagedForDays'?: "notEngagedForDays";
}
