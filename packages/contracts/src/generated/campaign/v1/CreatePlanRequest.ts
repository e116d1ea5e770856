// Original file: packages/contracts/protos/campaign/v1/site_admin.proto


export interface CreatePlanRequest {
  'name'?: (string);
  'permissions'?: (string)[];
}

export interface CreatePlanRequest__Output {
  'name': (string);
  'permissions': (string)[];
}
