// Original file: packages/contracts/protos/delivery/v1/console_data.proto


export interface SiteSettingsResponse {
  'vapidPublicKey'?: (string);
  'publicId'?: (string);
}

export interface SiteSettingsResponse__Output {
  'vapidPublicKey': (string);
  'publicId': (string);
}
