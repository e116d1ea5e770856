// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface TemplateRequest {
  'siteId'?: (string);
  'templateId'?: (string);
  'bodyJson'?: (string);
  'limit'?: (string);
  'cursor'?: (string);
}

export interface TemplateRequest__Output {
  'siteId': (string);
  'templateId': (string);
  'bodyJson': (string);
  'limit': (string);
  'cursor': (string);
}
