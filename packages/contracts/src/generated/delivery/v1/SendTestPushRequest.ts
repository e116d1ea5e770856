// Original file: packages/contracts/protos/delivery/v1/console_data.proto


export interface SendTestPushRequest {
  'siteId'?: (string);
  'endpoint'?: (string);
  'p256dh'?: (string);
  'auth'?: (string);
  'siteName'?: (string);
  'link'?: (string);
}

export interface SendTestPushRequest__Output {
  'siteId': (string);
  'endpoint': (string);
  'p256dh': (string);
  'auth': (string);
  'siteName': (string);
  'link': (string);
}
