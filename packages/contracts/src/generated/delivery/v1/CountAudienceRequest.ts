// Original file: packages/contracts/protos/delivery/v1/audience.proto


export interface CountAudienceRequest {
  'siteId'?: (string);
  'topics'?: (string)[];
  'countries'?: (string)[];
  'segmentJson'?: (string);
  'withZones'?: (boolean);
}

export interface CountAudienceRequest__Output {
  'siteId': (string);
  'topics': (string)[];
  'countries': (string)[];
  'segmentJson': (string);
  'withZones': (boolean);
}
