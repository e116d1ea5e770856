// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface PlanPreviewRequest {
  'siteId'?: (string);
  'bodyJson'?: (string);
}

export interface PlanPreviewRequest__Output {
  'siteId': (string);
  'bodyJson': (string);
}
