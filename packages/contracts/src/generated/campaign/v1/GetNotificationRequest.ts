// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface GetNotificationRequest {
  'siteId'?: (string);
  'notificationId'?: (string);
  'limit'?: (string);
  'cursor'?: (string);
}

export interface GetNotificationRequest__Output {
  'siteId': (string);
  'notificationId': (string);
  'limit': (string);
  'cursor': (string);
}
