// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface NotificationAction {
  'title'?: (string);
  'link'?: (string);
}

export interface NotificationAction__Output {
  'title': (string);
  'link': (string);
}
