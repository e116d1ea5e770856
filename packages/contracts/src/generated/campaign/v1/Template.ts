// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { TemplateVariable as _campaign_v1_TemplateVariable, TemplateVariable__Output as _campaign_v1_TemplateVariable__Output } from '../../campaign/v1/TemplateVariable';

export interface Template {
  'id'?: (string);
  'name'?: (string);
  'version'?: (number);
  'contentJson'?: (string);
  'variables'?: (_campaign_v1_TemplateVariable)[];
  'createdAt'?: (string);
  'updatedAt'?: (string);
}

export interface Template__Output {
  'id': (string);
  'name': (string);
  'version': (number);
  'contentJson': (string);
  'variables': (_campaign_v1_TemplateVariable__Output)[];
  'createdAt': (string);
  'updatedAt': (string);
}
