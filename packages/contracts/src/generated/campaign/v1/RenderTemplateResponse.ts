// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { Template as _campaign_v1_Template, Template__Output as _campaign_v1_Template__Output } from '../../campaign/v1/Template';

export interface RenderTemplateResponse {
  'template'?: (_campaign_v1_Template | null);
  'contentJson'?: (string);
}

export interface RenderTemplateResponse__Output {
  'template': (_campaign_v1_Template__Output | null);
  'contentJson': (string);
}
