// Original file: packages/contracts/protos/campaign/v1/site_admin.proto


export interface SetThrottleRequest {
  'site'?: (string);
  'perMinute'?: (number);
  '_perMinute'?: "perMinute";
}

export interface SetThrottleRequest__Output {
  'site': (string);
  'perMinute'?: (number);
  '_perMinute'?: "perMinute";
}
