// Where each field of a campaign's content (@webpush/contracts campaign-content.ts) is stored in
// campaign.campaigns. The insert and the relay's read are made from this list, so a new content
// field is one edit to the content type, its column here (the compiler asks for it), a migration,
// its validation, and its field in the Campaign message (protos/campaign/v1/campaign.proto) with
// its place in the API's JSON (@webpush/contracts campaign-json.ts, in the spec's order) and in
// the row that fills it (campaigns/campaign-rows.ts, which the compiler asks for).
import { CAMPAIGN_CONTENT_FIELDS, type CampaignContent } from '@webpush/contracts/campaign-content.js';

export const CONTENT_COLUMNS = {
  title: 'title',
  body: 'body',
  link: 'link',
  utmSource: 'utm_source',
  utmMedium: 'utm_medium',
  utmCampaign: 'utm_campaign',
  icon: 'icon',
  image: 'image',
  callToAction: 'call_to_action',
  options: 'notification_options',
} as const satisfies Record<keyof CampaignContent, string>;

/** The content columns in CAMPAIGN_CONTENT_FIELDS's order. */
export const CONTENT_COLUMN_LIST: readonly string[] = CAMPAIGN_CONTENT_FIELDS.map((f) => CONTENT_COLUMNS[f]);

/** A row's content columns back into the content. */
export function contentOfRow(row: Record<string, unknown>): CampaignContent {
  const content = {} as Record<keyof CampaignContent, unknown>;
  for (const field of CAMPAIGN_CONTENT_FIELDS) content[field] = row[CONTENT_COLUMNS[field]];
  return content as CampaignContent;
}

/**
 * The content's values as the insert's parameters, in CONTENT_COLUMN_LIST's order: the options
 * as JSON text (node-postgres would send their arrays as Postgres arrays), null for none.
 */
export function contentParameters(c: CampaignContent): unknown[] {
  return CAMPAIGN_CONTENT_FIELDS.map((field) => (field === 'options' ? (c.options ? JSON.stringify(c.options) : null) : c[field]));
}
