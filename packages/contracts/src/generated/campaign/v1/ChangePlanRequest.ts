// Original file: packages/contracts/protos/campaign/v1/site_admin.proto


export interface ChangePlanRequest {
  'site'?: (string);
  'plan'?: (string);
}

export interface ChangePlanRequest__Output {
  'site': (string);
  'plan': (string);
}
