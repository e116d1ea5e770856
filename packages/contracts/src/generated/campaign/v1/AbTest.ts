// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { Variant as _campaign_v1_Variant, Variant__Output as _campaign_v1_Variant__Output } from '../../campaign/v1/Variant';
import type { VariantResult as _campaign_v1_VariantResult, VariantResult__Output as _campaign_v1_VariantResult__Output } from '../../campaign/v1/VariantResult';
import type { AbWinner as _campaign_v1_AbWinner, AbWinner__Output as _campaign_v1_AbWinner__Output } from '../../campaign/v1/AbWinner';

export interface AbTest {
  'variants'?: (_campaign_v1_Variant)[];
  'testPercent'?: (number);
  'winnerMetric'?: (string);
  'windowMinutes'?: (number);
  'results'?: (_campaign_v1_VariantResult)[];
  'winner'?: (_campaign_v1_AbWinner | null);
  'windowEndsAt'?: (string);
  '_windowEndsAt'?: "windowEndsAt";
}

export interface AbTest__Output {
  'variants': (_campaign_v1_Variant__Output)[];
  'testPercent': (number);
  'winnerMetric': (string);
  'windowMinutes': (number);
  'results': (_campaign_v1_VariantResult__Output)[];
  'winner': (_campaign_v1_AbWinner__Output | null);
  'windowEndsAt'?: (string);
  '_windowEndsAt'?: "windowEndsAt";
}
