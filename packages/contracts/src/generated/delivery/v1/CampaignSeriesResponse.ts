// Original file: packages/contracts/protos/delivery/v1/console_data.proto

import type { SeriesPoint as _delivery_v1_SeriesPoint, SeriesPoint__Output as _delivery_v1_SeriesPoint__Output } from '../../delivery/v1/SeriesPoint';

export interface CampaignSeriesResponse {
  'resolution'?: (string);
  'points'?: (_delivery_v1_SeriesPoint)[];
  'startedAt'?: (string);
}

export interface CampaignSeriesResponse__Output {
  'resolution': (string);
  'points': (_delivery_v1_SeriesPoint__Output)[];
  'startedAt': (string);
}
