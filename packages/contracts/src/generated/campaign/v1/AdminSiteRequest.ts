// Original file: packages/contracts/protos/campaign/v1/site_admin.proto


export interface AdminSiteRequest {
  'site'?: (string);
}

export interface AdminSiteRequest__Output {
  'site': (string);
}
