// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface ExportCampaignsRequest {
  'siteId'?: (string);
  'bodyJson'?: (string);
  'format'?: (string);
}

export interface ExportCampaignsRequest__Output {
  'siteId': (string);
  'bodyJson': (string);
  'format': (string);
}
