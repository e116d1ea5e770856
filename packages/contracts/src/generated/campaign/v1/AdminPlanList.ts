// Original file: packages/contracts/protos/campaign/v1/site_admin.proto

import type { AdminPlan as _campaign_v1_AdminPlan, AdminPlan__Output as _campaign_v1_AdminPlan__Output } from '../../campaign/v1/AdminPlan';

export interface AdminPlanList {
  'plans'?: (_campaign_v1_AdminPlan)[];
}

export interface AdminPlanList__Output {
  'plans': (_campaign_v1_AdminPlan__Output)[];
}
