// SQL for campaigns: create (with stats and outbox), read, list, conditional delete.
import type { Queryable } from '../../../shared/src/db.js';
import type { Segment } from '../../../shared/src/segment.js';
import { CAMPAIGN_FROM, campaignJsonColumns, SORT_COLUMN, type CampaignJsonRow } from './campaign-rows.js';

export interface NewCampaign {
  id: string;
  siteId: string;
  title: string;
  body: string;
  link: string;
  topics: string[];
  status: string;
  scheduleMode: string;
  /** Null: the creation time stands in. */
  scheduleDate: Date | null;
  totalUsers: number;
  image: string | null;
  icon: string | null;
  callToAction: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  ttl: number;
  segment: Segment | null;
  /** As asked: null takes the site's default, 0 means no limit. */
  throttlePerMinute: number | null;
  ignoreFrequencyCap: boolean;
  dispatchNow: boolean;
}

export async function insertCampaign(db: Queryable, c: NewCampaign): Promise<void> {
  await db.query(
    `INSERT INTO campaign.campaigns (id, site_id, title, body, link, topics, status, schedule_mode, schedule_date,
       total_users, image, icon, call_to_action, utm_source, utm_medium, utm_campaign, ttl, dispatched_at, segment, throttle_per_minute, ignore_frequency_cap)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, COALESCE($9::timestamptz, now()), $10, $11, $12, $13, $14, $15, $16, $17,
       CASE WHEN $18::boolean THEN now() END, $19::json,
       CASE WHEN $20::int IS NULL THEN (SELECT default_throttle_per_minute FROM campaign.sites WHERE id = $2) ELSE NULLIF($20::int, 0) END, $21)`,
    [c.id, c.siteId, c.title, c.body, c.link, c.topics, c.status, c.scheduleMode, c.scheduleDate, c.totalUsers,
      c.image, c.icon, c.callToAction, c.utmSource, c.utmMedium, c.utmCampaign, c.ttl, c.dispatchNow,
      c.segment === null ? null : JSON.stringify(c.segment), c.throttlePerMinute, c.ignoreFrequencyCap],
  );
  await db.query('INSERT INTO campaign.campaign_stats (campaign_id) VALUES ($1)', [c.id]);
}

// The campaign reads run as named (prepared) statements: building the JSON makes their text long
// enough that parsing and planning it on every call cost Postgres more than executing it.
const FIND_CAMPAIGN_SQL = `SELECT ${campaignJsonColumns('created_at')}
       FROM ${CAMPAIGN_FROM}
      WHERE c.site_id = $1 AND c.id = $2`;

export async function findCampaign(db: Queryable, siteId: string, id: string): Promise<CampaignJsonRow | null> {
  const { rows } = await db.query<CampaignJsonRow>({ name: 'campaign_find', text: FIND_CAMPAIGN_SQL, values: [siteId, id] });
  return rows[0] ?? null;
}

/**
 * A statement name per distinct list query text. The texts come from a small closed set (date
 * field × which filters are present × the status combination), so the map stays small; past
 * the cap a query simply runs unnamed.
 */
const listStatementNames = new Map<string, string>();
const MAX_LIST_STATEMENTS = 500;

function listStatementName(text: string): string | undefined {
  let name = listStatementNames.get(text);
  if (name === undefined && listStatementNames.size < MAX_LIST_STATEMENTS) {
    name = `campaign_list_${listStatementNames.size}`;
    listStatementNames.set(text, name);
  }
  return name;
}

export interface ListQuery {
  siteId: string;
  dateField: keyof typeof SORT_COLUMN;
  startDate: Date | null;
  endDate: Date | null;
  statuses: readonly ('draft' | 'scheduled' | 'sent' | 'failed')[];
  after: { sortKey: string; id: string } | null;
  fetch: number;
}

const STATUS_CONDITION = {
  draft: `c.status = 'draft'`,
  failed: `c.status = 'failed'`,
  scheduled: `(c.status = 'published' AND c.dispatched_at IS NULL)`,
  sent: `(c.status = 'published' AND c.dispatched_at IS NOT NULL)`,
} as const;

/** One keyset page, newest first on the date field, ties by id; `fetch` rows at most. */
export async function listCampaigns(db: Queryable, q: ListQuery): Promise<CampaignJsonRow[]> {
  const col = `c.${SORT_COLUMN[q.dateField]}`;
  const params: unknown[] = [q.siteId];
  const where = ['c.site_id = $1'];
  const param = (value: unknown) => `$${params.push(value)}`;
  if (q.startDate) where.push(`${col} >= ${param(q.startDate)}::timestamptz`);
  // Dates are shown to the second, so an end date includes its whole second.
  if (q.endDate) where.push(`${col} < ${param(q.endDate)}::timestamptz + interval '1 second'`);
  if (q.statuses.length > 0) where.push(`(${q.statuses.map((s) => STATUS_CONDITION[s]).join(' OR ')})`);
  if (q.after) where.push(`(${col}, c.id) < (${param(q.after.sortKey)}::timestamptz, ${param(q.after.id)}::uuid)`);
  const text = `SELECT ${campaignJsonColumns(SORT_COLUMN[q.dateField])}
       FROM ${CAMPAIGN_FROM}
      WHERE ${where.join(' AND ')}
      ORDER BY ${col} DESC, c.id DESC
      LIMIT ${param(q.fetch)}`;
  const { rows } = await db.query<CampaignJsonRow>({ name: listStatementName(text), text, values: params });
  return rows;
}

/** The one statement that races the scheduler: only a never-dispatched campaign is removed. */
export async function deleteUndispatched(db: Queryable, siteId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'DELETE FROM campaign.campaigns WHERE id = $1 AND site_id = $2 AND dispatched_at IS NULL RETURNING id',
    [id, siteId],
  );
  return rowCount === 1;
}

export async function campaignExists(db: Queryable, siteId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM campaign.campaigns WHERE id = $1 AND site_id = $2', [id, siteId]);
  return rowCount === 1;
}
