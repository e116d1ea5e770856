// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface ListNotificationsRequest {
  'siteId'?: (string);
  'limit'?: (string);
  'cursor'?: (string);
}

export interface ListNotificationsRequest__Output {
  'siteId': (string);
  'limit': (string);
  'cursor': (string);
}
