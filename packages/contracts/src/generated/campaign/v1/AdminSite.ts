// Original file: packages/contracts/protos/campaign/v1/site_admin.proto


export interface AdminSite {
  'id'?: (string);
  'name'?: (string);
  'publicId'?: (string);
  'plan'?: (string);
  'createdAt'?: (string);
}

export interface AdminSite__Output {
  'id': (string);
  'name': (string);
  'publicId': (string);
  'plan': (string);
  'createdAt': (string);
}
