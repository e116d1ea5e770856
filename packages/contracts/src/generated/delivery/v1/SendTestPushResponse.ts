// Original file: packages/contracts/protos/delivery/v1/console_data.proto


export interface SendTestPushResponse {
  'sent'?: (boolean);
  'pushServiceStatus'?: (number);
  'message'?: (string);
}

export interface SendTestPushResponse__Output {
  'sent': (boolean);
  'pushServiceStatus': (number);
  'message': (string);
}
