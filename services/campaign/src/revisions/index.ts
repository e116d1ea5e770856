// The revisions/ feature's surface: a sent campaign's update and recall.
export { reviseCampaignUseCase, UPDATE_FIELDS } from './revise-campaign.js';
export type { CampaignRevision } from './revise-campaign.js';
