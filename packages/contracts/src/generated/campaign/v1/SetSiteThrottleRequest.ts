// Original file: packages/contracts/protos/campaign/v1/console.proto


export interface SetSiteThrottleRequest {
  'siteId'?: (string);
  'perMinute'?: (number | string);
  'validateOnly'?: (boolean);
  '_perMinute'?: "perMinute";
}

export interface SetSiteThrottleRequest__Output {
  'siteId': (string);
  'perMinute'?: (number);
  'validateOnly': (boolean);
  '_perMinute'?: "perMinute";
}
