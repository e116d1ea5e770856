// Original file: packages/contracts/protos/delivery/v1/audience.proto


export interface PersonSend {
  'runId'?: (string);
  'kind'?: (string);
  'campaignId'?: (string);
  'title'?: (string);
  'subscriptionId'?: (string);
  'state'?: (string);
  'at'?: (string);
  'finishedAt'?: (string);
  'impressionAt'?: (string);
  'clickAt'?: (string);
  '_finishedAt'?: "finishedAt";
  '_impressionAt'?: "impressionAt";
  '_clickAt'?: "clickAt";
}

export interface PersonSend__Output {
  'runId': (string);
  'kind': (string);
  'campaignId': (string);
  'title': (string);
  'subscriptionId': (string);
  'state': (string);
  'at': (string);
  'finishedAt'?: (string);
  'impressionAt'?: (string);
  'clickAt'?: (string);
  '_finishedAt'?: "finishedAt";
  '_impressionAt'?: "impressionAt";
  '_clickAt'?: "clickAt";
}
