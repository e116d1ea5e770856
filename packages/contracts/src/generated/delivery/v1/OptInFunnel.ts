// Original file: packages/contracts/protos/delivery/v1/audience.proto

import type { OptInFunnelDay as _delivery_v1_OptInFunnelDay, OptInFunnelDay__Output as _delivery_v1_OptInFunnelDay__Output } from '../../delivery/v1/OptInFunnelDay';
import type { OptInFunnelPrompt as _delivery_v1_OptInFunnelPrompt, OptInFunnelPrompt__Output as _delivery_v1_OptInFunnelPrompt__Output } from '../../delivery/v1/OptInFunnelPrompt';
import type { OptInCounts as _delivery_v1_OptInCounts, OptInCounts__Output as _delivery_v1_OptInCounts__Output } from '../../delivery/v1/OptInCounts';

export interface OptInFunnel {
  'from'?: (string);
  'to'?: (string);
  'prompt'?: (string);
  'days'?: (_delivery_v1_OptInFunnelDay)[];
  'prompts'?: (_delivery_v1_OptInFunnelPrompt)[];
  'totals'?: (_delivery_v1_OptInCounts | null);
}

export interface OptInFunnel__Output {
  'from': (string);
  'to': (string);
  'prompt': (string);
  'days': (_delivery_v1_OptInFunnelDay__Output)[];
  'prompts': (_delivery_v1_OptInFunnelPrompt__Output)[];
  'totals': (_delivery_v1_OptInCounts__Output | null);
}
