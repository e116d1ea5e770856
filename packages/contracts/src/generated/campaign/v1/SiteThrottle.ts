// Original file: packages/contracts/protos/campaign/v1/console.proto


export interface SiteThrottle {
  'defaultThrottlePerMinute'?: (number);
  '_defaultThrottlePerMinute'?: "defaultThrottlePerMinute";
}

export interface SiteThrottle__Output {
  'defaultThrottlePerMinute'?: (number);
  '_defaultThrottlePerMinute'?: "defaultThrottlePerMinute";
}
