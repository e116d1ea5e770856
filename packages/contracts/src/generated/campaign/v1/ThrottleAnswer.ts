// Original file: packages/contracts/protos/campaign/v1/site_admin.proto


export interface ThrottleAnswer {
  'siteId'?: (string);
  'defaultThrottlePerMinute'?: (number);
  '_defaultThrottlePerMinute'?: "defaultThrottlePerMinute";
}

export interface ThrottleAnswer__Output {
  'siteId': (string);
  'defaultThrottlePerMinute'?: (number);
  '_defaultThrottlePerMinute'?: "defaultThrottlePerMinute";
}
