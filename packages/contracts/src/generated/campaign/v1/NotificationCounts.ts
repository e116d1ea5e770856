// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface NotificationCounts {
  'sent'?: (number);
  'noSubscription'?: (number);
  'capped'?: (number);
  'failed'?: (number);
  'pending'?: (number);
}

export interface NotificationCounts__Output {
  'sent': (number);
  'noSubscription': (number);
  'capped': (number);
  'failed': (number);
  'pending': (number);
}
