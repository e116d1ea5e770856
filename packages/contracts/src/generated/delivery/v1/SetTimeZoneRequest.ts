// Original file: packages/contracts/protos/delivery/v1/site_registry.proto


export interface SetTimeZoneRequest {
  'site'?: (string);
  'timeZone'?: (string);
  '_timeZone'?: "timeZone";
}

export interface SetTimeZoneRequest__Output {
  'site': (string);
  'timeZone'?: (string);
  '_timeZone'?: "timeZone";
}
