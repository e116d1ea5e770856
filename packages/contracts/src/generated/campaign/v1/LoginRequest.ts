// Original file: packages/contracts/protos/campaign/v1/console.proto


export interface LoginRequest {
  'email'?: (string);
  'password'?: (string);
  'clientAddress'?: (string);
  'previousSessionHash'?: (string);
}

export interface LoginRequest__Output {
  'email': (string);
  'password': (string);
  'clientAddress': (string);
  'previousSessionHash': (string);
}
