// Original file: packages/contracts/protos/delivery/v1/console_data.proto


export interface CampaignSeriesRequest {
  'siteId'?: (string);
  'campaignId'?: (string);
}

export interface CampaignSeriesRequest__Output {
  'siteId': (string);
  'campaignId': (string);
}
