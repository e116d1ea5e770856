// Original file: packages/contracts/protos/delivery/v1/console_data.proto


export interface SiteSettingsRequest {
  'siteId'?: (string);
}

export interface SiteSettingsRequest__Output {
  'siteId': (string);
}
