// Original file: packages/contracts/protos/delivery/v1/runs.proto


export interface NotificationResultsRequest {
  'siteId'?: (string);
  'notificationId'?: (string);
  'after'?: (number);
  'limit'?: (number);
}

export interface NotificationResultsRequest__Output {
  'siteId': (string);
  'notificationId': (string);
  'after': (number);
  'limit': (number);
}
