// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface DeleteTemplateResponse {
  'id'?: (string);
}

export interface DeleteTemplateResponse__Output {
  'id': (string);
}
