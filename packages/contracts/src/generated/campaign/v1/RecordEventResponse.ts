// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface RecordEventResponse {
  'id'?: (string);
}

export interface RecordEventResponse__Output {
  'id': (string);
}
