// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface TagValue {
  'text'?: (string);
  'number'?: (number | string);
  'boolean'?: (boolean);
  'kind'?: "text"|"number"|"boolean";
}

export interface TagValue__Output {
  'text'?: (string);
  'number'?: (number);
  'boolean'?: (boolean);
  'kind'?: "text"|"number"|"boolean";
}
