// Original file: packages/contracts/protos/delivery/v1/audience.proto


export interface PersonExport {
  'json'?: (string);
}

export interface PersonExport__Output {
  'json': (string);
}
