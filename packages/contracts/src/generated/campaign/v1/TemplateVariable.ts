// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface TemplateVariable {
  'name'?: (string);
  'required'?: (boolean);
}

export interface TemplateVariable__Output {
  'name': (string);
  'required': (boolean);
}
