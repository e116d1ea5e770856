// Original file: packages/contracts/protos/campaign/v1/console.proto


export interface SessionRef {
  'sessionHash'?: (string);
}

export interface SessionRef__Output {
  'sessionHash': (string);
}
