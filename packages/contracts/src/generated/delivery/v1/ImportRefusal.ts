// Original file: packages/contracts/protos/delivery/v1/audience.proto


export interface ImportRefusal {
  'index'?: (number);
  'reason'?: (string);
}

export interface ImportRefusal__Output {
  'index': (number);
  'reason': (string);
}
