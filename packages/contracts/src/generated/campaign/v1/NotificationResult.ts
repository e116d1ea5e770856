// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface NotificationResult {
  'subscriptionId'?: (string);
  'outcome'?: (string);
  'reason'?: (string);
  'externalId'?: (string);
}

export interface NotificationResult__Output {
  'subscriptionId': (string);
  'outcome': (string);
  'reason': (string);
  'externalId': (string);
}
