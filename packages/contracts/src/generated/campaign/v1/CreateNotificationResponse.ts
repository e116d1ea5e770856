// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface CreateNotificationResponse {
  'id'?: (string);
}

export interface CreateNotificationResponse__Output {
  'id': (string);
}
