// Original file: packages/contracts/protos/delivery/v1/site_registry.proto


export interface TimeZoneAnswer {
  'siteId'?: (string);
  'timeZone'?: (string);
}

export interface TimeZoneAnswer__Output {
  'siteId': (string);
  'timeZone': (string);
}
