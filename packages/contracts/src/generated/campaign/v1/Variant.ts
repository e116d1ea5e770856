// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface Variant {
  'title'?: (string);
  'body'?: (string);
  'link'?: (string);
  'icon'?: (string);
  'image'?: (string);
  'callToAction'?: (string);
  '_title'?: "title";
  '_body'?: "body";
  '_link'?: "link";
  '_icon'?: "icon";
  '_image'?: "image";
  '_callToAction'?: "callToAction";
}

export interface Variant__Output {
  'title'?: (string);
  'body'?: (string);
  'link'?: (string);
  'icon'?: (string);
  'image'?: (string);
  'callToAction'?: (string);
  '_title'?: "title";
  '_body'?: "body";
  '_link'?: "link";
  '_icon'?: "icon";
  '_image'?: "image";
  '_callToAction'?: "callToAction";
}
