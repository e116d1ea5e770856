// Original file: packages/contracts/protos/delivery/v1/console_data.proto

import type { BrowserCount as _delivery_v1_BrowserCount, BrowserCount__Output as _delivery_v1_BrowserCount__Output } from '../../delivery/v1/BrowserCount';

export interface AudienceBrowsersResponse {
  'browsers'?: (_delivery_v1_BrowserCount)[];
}

export interface AudienceBrowsersResponse__Output {
  'browsers': (_delivery_v1_BrowserCount__Output)[];
}
