// Original file: packages/contracts/protos/delivery/v1/console_data.proto


export interface AudienceDailyRequest {
  'siteId'?: (string);
  'days'?: (number);
}

export interface AudienceDailyRequest__Output {
  'siteId': (string);
  'days': (number);
}
