// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface ExportCampaignsChunk {
  'data'?: (Buffer | Uint8Array | string);
}

export interface ExportCampaignsChunk__Output {
  'data': (Buffer);
}
