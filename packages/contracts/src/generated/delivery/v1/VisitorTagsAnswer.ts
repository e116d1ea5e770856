// Original file: packages/contracts/protos/delivery/v1/site_registry.proto


export interface VisitorTagsAnswer {
  'siteId'?: (string);
  'keys'?: (string)[];
}

export interface VisitorTagsAnswer__Output {
  'siteId': (string);
  'keys': (string)[];
}
