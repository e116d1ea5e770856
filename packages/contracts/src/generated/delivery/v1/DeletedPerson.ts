// Original file: packages/contracts/protos/delivery/v1/audience.proto


export interface DeletedPerson {
  'externalId'?: (string);
  'subscriptions'?: (number);
}

export interface DeletedPerson__Output {
  'externalId': (string);
  'subscriptions': (number);
}
