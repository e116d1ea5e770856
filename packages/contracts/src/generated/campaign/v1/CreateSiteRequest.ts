// Original file: packages/contracts/protos/campaign/v1/site_admin.proto


export interface CreateSiteRequest {
  'siteId'?: (string);
  'name'?: (string);
  'plan'?: (string);
}

export interface CreateSiteRequest__Output {
  'siteId': (string);
  'name': (string);
  'plan': (string);
}
