// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface ListCampaignsResponse {
  'limit'?: (number);
  'hasMore'?: (boolean);
  'nextCursor'?: (string);
  'itemsJson'?: (Buffer | Uint8Array | string);
}

export interface ListCampaignsResponse__Output {
  'limit': (number);
  'hasMore': (boolean);
  'nextCursor': (string);
  'itemsJson': (Buffer);
}
