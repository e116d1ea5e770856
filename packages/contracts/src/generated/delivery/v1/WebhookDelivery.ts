// Original file: packages/contracts/protos/delivery/v1/webhooks.proto


export interface WebhookDelivery {
  'eventId'?: (string);
  'type'?: (string);
  'createdAt'?: (string);
  'state'?: (string);
  'attempts'?: (number);
  'nextAttemptAt'?: (string);
  'lastAttemptAt'?: (string);
  'lastStatus'?: (number);
  'lastLatencyMs'?: (number);
  'lastError'?: (string);
  'deliveredAt'?: (string);
  '_nextAttemptAt'?: "nextAttemptAt";
  '_lastAttemptAt'?: "lastAttemptAt";
  '_lastStatus'?: "lastStatus";
  '_lastLatencyMs'?: "lastLatencyMs";
  '_lastError'?: "lastError";
  '_deliveredAt'?: "deliveredAt";
}

export interface WebhookDelivery__Output {
  'eventId': (string);
  'type': (string);
  'createdAt': (string);
  'state': (string);
  'attempts': (number);
  'nextAttemptAt'?: (string);
  'lastAttemptAt'?: (string);
  'lastStatus'?: (number);
  'lastLatencyMs'?: (number);
  'lastError'?: (string);
  'deliveredAt'?: (string);
  '_nextAttemptAt'?: "nextAttemptAt";
  '_lastAttemptAt'?: "lastAttemptAt";
  '_lastStatus'?: "lastStatus";
  '_lastLatencyMs'?: "lastLatencyMs";
  '_lastError'?: "lastError";
  '_deliveredAt'?: "deliveredAt";
}
