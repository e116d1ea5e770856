// Original file: packages/contracts/protos/campaign/v1/console.proto


export interface Member {
  'email'?: (string);
  'role'?: (string);
  'userId'?: (string);
  'since'?: (string);
}

export interface Member__Output {
  'email': (string);
  'role': (string);
  'userId': (string);
  'since': (string);
}
