// Original file: packages/contracts/protos/delivery/v1/audience.proto


export interface GetOptInFunnelRequest {
  'siteId'?: (string);
  'from'?: (string);
  'to'?: (string);
  'prompt'?: (string);
}

export interface GetOptInFunnelRequest__Output {
  'siteId': (string);
  'from': (string);
  'to': (string);
  'prompt': (string);
}
