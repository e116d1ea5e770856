// Original file: packages/contracts/protos/delivery/v1/site_registry.proto


export interface SetVisitorTagsRequest {
  'site'?: (string);
  'keys'?: (string)[];
}

export interface SetVisitorTagsRequest__Output {
  'site': (string);
  'keys': (string)[];
}
