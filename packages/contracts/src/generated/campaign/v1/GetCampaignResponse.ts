// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface GetCampaignResponse {
  'campaignJson'?: (Buffer | Uint8Array | string);
}

export interface GetCampaignResponse__Output {
  'campaignJson': (Buffer);
}
