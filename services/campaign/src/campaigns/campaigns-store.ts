// SQL for campaigns: create (with stats and outbox), a draft's edit, read, list, conditional delete.
import type { Queryable } from '@webpush/shared/db.js';
import type { Segment } from '@webpush/contracts/segment.js';
import type { AbTest } from '@webpush/contracts/ab-test.js';
import type { BestTime } from '@webpush/contracts/best-time.js';
import type { CampaignContent } from '@webpush/contracts/campaign-content.js';
import type { Urgency } from '@webpush/contracts/urgency.js';
import { CONTENT_COLUMN_LIST, contentParameters } from '../base/content-columns.js';
import pg from 'pg';
import type { Campaign } from '@webpush/contracts/campaign-json.js';
import { campaignOf, fixedFieldsOf, SORT_COLUMN, sortKeyOf, type CampaignRow, type LiveRow } from './campaign-rows.js';
import type { FixedPartsCache } from './fixed-parts-cache.js';

/** The template a campaign was rendered from, as it was then. */
export interface TemplateReference {
  id: string;
  version: number;
}

export interface NewCampaign extends CampaignContent {
  id: string;
  siteId: string;
  /** Null: inline content (or a draft edited since). */
  template: TemplateReference | null;
  topics: string[];
  status: string;
  scheduleMode: string;
  /** Null: the creation time stands in. */
  scheduleDate: Date | null;
  /** Null: not counted yet (the delivery service could not count it; audience-recount.ts counts it later). */
  totalUsers: number | null;
  ttl: number;
  segment: Segment | null;
  /** As asked: null takes the site's default, 0 means no limit. */
  throttlePerMinute: number | null;
  ignoreFrequencyCap: boolean;
  ignoreQuietHours: boolean;
  /** A local-time campaign's plan, the API's `localTime` as JSON text (scheduleDate is its first send); null for others. */
  localTimeJson: string | null;
  /** A local-time campaign's last send; null for others. */
  lastSendAt: Date | null;
  abTest: AbTest | null;
  urgency: Urgency;
  bestTime: BestTime | null;
  dispatchNow: boolean;
}

/** The parameters after the content's: quiet hours ignored, then a best-time delivery. */
const IGNORE_QUIET_HOURS_PARAM = 18 + CONTENT_COLUMN_LIST.length;
const BEST_TIME_PARAM = IGNORE_QUIET_HOURS_PARAM + 1;

/**
 * The campaign and its stats row in one statement (atomic on its own: a plain create needs no
 * transaction around it), prepared: its text is long and the same on every create.
 */
const INSERT_CAMPAIGN = {
  name: 'campaign_insert',
  text: `WITH c AS (
     INSERT INTO campaign.campaigns (id, site_id, topics, status, schedule_mode, schedule_date, total_users, ttl, dispatched_at, segment,
       throttle_per_minute, ignore_frequency_cap, local_time, last_send_at, ab_test, urgency, template, ${CONTENT_COLUMN_LIST.join(', ')}, ignore_quiet_hours, best_time)
     VALUES ($1, $2, $3, $4, $5, COALESCE($6::timestamptz, now()), $7, $8, CASE WHEN $9::boolean THEN now() END, $10::json,
       CASE WHEN $11::int IS NULL THEN (SELECT default_throttle_per_minute FROM campaign.sites WHERE id = $2) ELSE NULLIF($11::int, 0) END, $12,
       $13::json, $14::timestamptz, $15::json, $16, $17::jsonb, ${CONTENT_COLUMN_LIST.map((_, i) => `$${18 + i}`).join(', ')}, $${IGNORE_QUIET_HOURS_PARAM}, $${BEST_TIME_PARAM}::json)
     RETURNING id)
   INSERT INTO campaign.campaign_stats (campaign_id) SELECT id FROM c`,
};

/** The parameters of INSERT_CAMPAIGN and UPDATE_DRAFT, which number them alike. */
function campaignValues(c: NewCampaign): unknown[] {
  return [c.id, c.siteId, c.topics, c.status, c.scheduleMode, c.scheduleDate, c.totalUsers, c.ttl, c.dispatchNow,
    c.segment === null ? null : JSON.stringify(c.segment), c.throttlePerMinute, c.ignoreFrequencyCap,
    c.localTimeJson, c.lastSendAt, c.abTest === null ? null : JSON.stringify(c.abTest), c.urgency,
    c.template === null ? null : JSON.stringify(c.template), ...contentParameters(c), c.ignoreQuietHours,
    c.bestTime === null ? null : JSON.stringify(c.bestTime)];
}

export async function insertCampaign(db: Queryable, c: NewCampaign): Promise<void> {
  await db.query({ ...INSERT_CAMPAIGN, values: campaignValues(c) });
}

/**
 * A draft edited in place (update-draft.ts): every column a create writes, from the same
 * NewCampaign, in one statement conditional on the row still being a draft of the site, so that
 * it races a delete, another edit and a publish safely (a row lock, then the condition checked
 * again on the row as committed). `scheduleDate` null: the publish moment for a send now, the
 * creation for a draft (as a create's "now" reads). `edited_at` is the moment of the edit, which a
 * local-time plan made now is measured from (the relay's dispatch message). False: no such draft.
 */
const UPDATE_DRAFT = {
  name: 'campaign_update_draft',
  text: `UPDATE campaign.campaigns c SET topics = $3, status = $4, schedule_mode = $5,
       schedule_date = COALESCE($6::timestamptz, CASE WHEN $9::boolean THEN now() ELSE c.created_at END),
       total_users = $7, ttl = $8, dispatched_at = CASE WHEN $9::boolean THEN now() END, segment = $10::json,
       throttle_per_minute = CASE WHEN $11::int IS NULL THEN (SELECT default_throttle_per_minute FROM campaign.sites WHERE id = $2) ELSE NULLIF($11::int, 0) END,
       ignore_frequency_cap = $12, local_time = $13::json, last_send_at = $14::timestamptz, ab_test = $15::json, urgency = $16, template = $17::jsonb, edited_at = now(),
       ${CONTENT_COLUMN_LIST.map((col, i) => `${col} = $${18 + i}`).join(', ')}, ignore_quiet_hours = $${IGNORE_QUIET_HOURS_PARAM}, best_time = $${BEST_TIME_PARAM}::json
     WHERE c.id = $1 AND c.site_id = $2 AND c.status = 'draft'
     RETURNING c.id`,
};

export async function updateDraft(db: Queryable, c: NewCampaign): Promise<boolean> {
  const { rowCount } = await db.query({ ...UPDATE_DRAFT, values: campaignValues(c) });
  return rowCount === 1;
}

/** A campaign whose audience was not counted at create (total_users NULL), with what to count. */
export interface UncountedCampaign {
  id: string;
  siteId: string;
  /** The stored destinations: topics and `country__` names. */
  destinations: string[];
  segment: Segment | null;
}

/** Up to `limit` uncounted campaigns, oldest first (the partial index campaigns_uncounted_idx). */
export async function uncountedCampaigns(db: Queryable, limit: number): Promise<UncountedCampaign[]> {
  const { rows } = await db.query<{ id: string; site_id: string; topics: string[]; segment: Segment | null }>(
    'SELECT id, site_id, topics, segment FROM campaign.campaigns WHERE total_users IS NULL ORDER BY created_at LIMIT $1',
    [limit],
  );
  return rows.map((r) => ({ id: r.id, siteId: r.site_id, destinations: r.topics, segment: r.segment }));
}

/**
 * Writes a counted audience into a campaign not counted yet: a no-op for one counted meanwhile by
 * another replica, or for a draft whose destinations or segment were edited since they were read
 * (the count is of the old ones; the edit counted again, or left it for the next pass).
 */
export async function setCountedAudience(db: Queryable, c: UncountedCampaign, users: number): Promise<void> {
  await db.query(
    `UPDATE campaign.campaigns SET total_users = $2
      WHERE id = $1 AND total_users IS NULL AND topics = $3::text[] AND segment::jsonb IS NOT DISTINCT FROM $4::jsonb`,
    [c.id, users, c.destinations, c.segment === null ? null : JSON.stringify(c.segment)],
  );
}

/** The transaction's now(): what a row's `DEFAULT now()` in it is (to the millisecond, as a Date holds it). */
export async function transactionNow(db: Queryable): Promise<Date> {
  const { rows } = await db.query<{ now: Date }>('SELECT now() AS now');
  return rows[0].now;
}

/** A campaign's `localTime` as the API's JSON text, or null (none, or no such campaign). */
export async function localTimeOf(db: Queryable, siteId: string, id: string): Promise<string | null> {
  const { rows } = await db.query<{ local_time: string | null }>('SELECT local_time::text FROM campaign.campaigns WHERE id = $1 AND site_id = $2', [id, siteId]);
  return rows[0]?.local_time ?? null;
}

/**
 * How many variants the campaign's A/B test has: null when it has none, undefined when the site
 * has no such campaign.
 */
export async function abTestVariantCount(db: Queryable, siteId: string, id: string): Promise<number | null | undefined> {
  const { rows } = await db.query<{ variants: number | null }>(
    `SELECT json_array_length(ab_test->'variants') AS variants FROM campaign.campaigns WHERE id = $1 AND site_id = $2`,
    [id, siteId],
  );
  return rows.length === 0 ? undefined : rows[0].variants;
}

/**
 * The columns a campaign read selects, in two sets (campaign-rows.ts, LiveRow and FixedRow). LIVE:
 * what changes after the insert. FIXED: the content and the options, which nothing updates once
 * the campaign is no longer a draft (only drafts are edited), so the service keeps them per id
 * for campaigns past draft (FixedPartsCache) and a warm read selects only LIVE. Dates come `AT TIME ZONE 'UTC'`, as Postgres prints a timestamp
 * (ISO DateStyle, which node-postgres requires anyway), read as text (CAMPAIGN_TYPES).
 */
const LIVE_COLUMNS = `c.id, c.status,
    c.schedule_date AT TIME ZONE 'UTC' AS schedule_date, c.schedule_mode, c.created_at AT TIME ZONE 'UTC' AS created_at,
    st.clicks, st.impressions, st.sent, st.failed, st.expired, st.pending, st.capped,
    st.failed_rejected, st.failed_unauthorized, st.failed_unreachable, st.failed_refused,
    s.by_browser, s.ab_results, s.ab_winner_variant, s.ab_winner_decided_at AT TIME ZONE 'UTC' AS ab_winner_decided_at, s.ab_winner_by,
    s.ab_window_ends_at AT TIME ZONE 'UTC' AS ab_window_ends_at, s.best_time_results`;
const FIXED_COLUMNS = `${CONTENT_COLUMN_LIST.map((col) => `c.${col}`).join(', ')}, c.topics, c.total_users, c.ttl,
    c.segment, c.throttle_per_minute, c.ignore_frequency_cap, c.local_time, c.ab_test, c.urgency, c.ignore_quiet_hours, c.best_time`;
const CAMPAIGN_COLUMNS = `${LIVE_COLUMNS}, ${FIXED_COLUMNS}`;

/**
 * `delivery.pending`: every planned push without an outcome yet, from create to the last push
 * (docs/api-decisions.md, "Delivery counts"). Planned is `totalUsers` (counted at create, for
 * every group to come: an A/B test's rest, local-time groups, a throttled audience not yet
 * taken), or the audience the delivery service took when more joined since. A draft or a failed
 * campaign plans nothing; a finished send has nothing pending.
 */
const PENDING = `CASE WHEN c.status <> 'published' OR s.delivery_finished THEN 0
                      ELSE GREATEST(GREATEST(c.total_users, COALESCE(s.audience, 0))
                                    - COALESCE(s.sent + s.failed + s.expired + s.capped, 0), 0) END`;

/** `FROM` clause matching CAMPAIGN_COLUMNS. */
const CAMPAIGN_FROM = `campaign.campaigns c
      LEFT JOIN campaign.campaign_stats s ON s.campaign_id = c.id
      CROSS JOIN LATERAL (SELECT COALESCE(s.impressions, 0) AS impressions, COALESCE(s.clicks, 0) AS clicks,
                                 COALESCE(s.sent, 0) AS sent, COALESCE(s.failed, 0) AS failed, COALESCE(s.expired, 0) AS expired,
                                 ${PENDING} AS pending,
                                 COALESCE(s.capped, 0) AS capped,
                                 COALESCE(s.failed_rejected, 0) AS failed_rejected, COALESCE(s.failed_unauthorized, 0) AS failed_unauthorized,
                                 COALESCE(s.failed_unreachable, 0) AS failed_unreachable, COALESCE(s.failed_refused, 0) AS failed_refused) st`;

const INT8 = 20;
const TIMESTAMP = 1114;
const asText = (value: string) => value;
/**
 * The `types` of a campaign read: bigint counters as numbers (exact below 2⁵³, past anything a
 * campaign counts), timestamps as the text Postgres printed (a Date would lose the microseconds a
 * cursor needs), the rest as node-postgres reads it (json parsed, text[] as arrays).
 */
const CAMPAIGN_TYPES = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') => (oid === INT8 ? Number : oid === TIMESTAMP ? asText : pg.types.getTypeParser(oid, format)),
};

// The campaign reads run as named (prepared) statements: their text is long enough that parsing
// and planning it on every call would cost Postgres more than executing it. Each read has two
// forms: every column, and only the live ones for campaigns whose fixed fields are cached.
const FIND_WHERE = 'WHERE c.site_id = $1 AND c.id = $2';
const FIND_CAMPAIGN = { name: 'campaign_find', text: `SELECT ${CAMPAIGN_COLUMNS} FROM ${CAMPAIGN_FROM} ${FIND_WHERE}` };
const FIND_LIVE = { name: 'campaign_find_live', text: `SELECT ${LIVE_COLUMNS} FROM ${CAMPAIGN_FROM} ${FIND_WHERE}` };

/** A campaign as the Campaign message, with its position for cursors. */
export interface CampaignAt {
  campaign: Campaign;
  id: string;
  /** The sort date at full (microsecond) precision, for cursors. */
  sortKey: string;
}

/**
 * The rows' campaigns from every column, their fixed fields remembered in `cache`, except a
 * campaign's whose audience is not counted yet (its total_users is still to be written, once,
 * from NULL) and a draft's (the console edits drafts: update-draft.ts). A row is one statement's
 * snapshot: one read as published has its final fixed columns, since only drafts are edited.
 */
function fromFullRows(rows: CampaignRow[], cache: FixedPartsCache | undefined): { row: CampaignRow; campaign: Campaign }[] {
  return rows.map((row) => {
    const fixed = fixedFieldsOf(row);
    if (row.total_users !== null && row.status !== 'draft') cache?.remember(row.id, fixed);
    return { row, campaign: campaignOf(fixed, row) };
  });
}

/** The campaign, or null (no such campaign on the site). */
export async function findCampaign(db: Queryable, siteId: string, id: string, cache?: FixedPartsCache): Promise<Campaign | null> {
  const fixed = cache?.get(id);
  if (fixed !== undefined) {
    const { rows } = await db.query<LiveRow>({ ...FIND_LIVE, values: [siteId, id], types: CAMPAIGN_TYPES });
    return rows.length === 0 ? null : campaignOf(fixed, rows[0]);
  }
  const { rows } = await db.query<CampaignRow>({ ...FIND_CAMPAIGN, values: [siteId, id], types: CAMPAIGN_TYPES });
  return rows.length === 0 ? null : fromFullRows(rows, cache)[0].campaign;
}

/**
 * A list statement per distinct shape: date field × which filters are present × the status
 * combination × live or every column, a small closed set. Its text and name are made once, so a
 * call neither rebuilds the long text nor hashes it to find its name.
 */
const listStatements = new Map<string, { name: string; text: string }>();

export interface ListQuery {
  siteId: string;
  dateField: keyof typeof SORT_COLUMN;
  startDate: Date | null;
  endDate: Date | null;
  statuses: readonly ('draft' | 'scheduled' | 'sent' | 'failed')[];
  after: { sortKey: string; id: string } | null;
  fetch: number;
}

/**
 * The filter's words. A local-time campaign (last_send_at set) reads `scheduled` until its last
 * zone group's moment has passed, even once its first group went out; `sent` after. Others:
 * `sent` once dispatched. The two are exact complements among published campaigns. Plain column
 * comparisons, as before: filters on the rows the site's keyset index walk reads.
 */
const STATUS_CONDITION = {
  draft: `c.status = 'draft'`,
  failed: `c.status = 'failed'`,
  scheduled: `(c.status = 'published' AND (c.dispatched_at IS NULL OR c.last_send_at > now()))`,
  sent: `(c.status = 'published' AND c.dispatched_at IS NOT NULL AND (c.last_send_at IS NULL OR c.last_send_at <= now()))`,
} as const;

/**
 * One keyset page, newest first on the date field, ties by id; `fetch` rows at most. With a
 * cache, the live columns first: when every campaign of the page is cached that is the answer;
 * otherwise the page is read again with every column (one statement's rows, never a mix of two
 * moments) and its campaigns are remembered. Without one (the export), every column at once.
 */
export async function listCampaigns(db: Queryable, q: ListQuery, cache?: FixedPartsCache): Promise<CampaignAt[]> {
  const values: unknown[] = [q.siteId];
  if (q.startDate) values.push(q.startDate);
  if (q.endDate) values.push(q.endDate);
  if (q.after) values.push(q.after.sortKey, q.after.id);
  values.push(q.fetch);
  const column = SORT_COLUMN[q.dateField];
  const at = (row: LiveRow, campaign: Campaign) => ({ campaign, id: row.id, sortKey: sortKeyOf(row, column) });
  if (cache !== undefined) {
    const { rows } = await db.query<LiveRow>({ ...listStatement(q, 'live'), values, types: CAMPAIGN_TYPES });
    const page: CampaignAt[] = [];
    for (const row of rows) {
      const fixed = cache.get(row.id);
      if (fixed === undefined) break;
      page.push(at(row, campaignOf(fixed, row)));
    }
    if (page.length === rows.length) return page;
  }
  const { rows } = await db.query<CampaignRow>({ ...listStatement(q, 'full'), values, types: CAMPAIGN_TYPES });
  return fromFullRows(rows, cache).map(({ row, campaign }) => at(row, campaign));
}

function listStatement(q: ListQuery, columns: 'live' | 'full'): { name: string; text: string } {
  const shape = `${q.dateField}|${q.startDate ? 's' : ''}${q.endDate ? 'e' : ''}${q.after ? 'a' : ''}|${q.statuses.join(',')}|${columns}`;
  let statement = listStatements.get(shape);
  if (statement === undefined) {
    statement = { name: `campaign_list_${listStatements.size}`, text: listText(q, columns === 'live' ? LIVE_COLUMNS : CAMPAIGN_COLUMNS) };
    listStatements.set(shape, statement);
  }
  return statement;
}

/** The text of a list statement; its parameters in the order listCampaigns gives them. */
function listText(q: ListQuery, columns: string): string {
  const col = `c.${SORT_COLUMN[q.dateField]}`;
  const where = ['c.site_id = $1'];
  let n = 1;
  const param = () => `$${++n}`;
  if (q.startDate) where.push(`${col} >= ${param()}::timestamptz`);
  // Dates are shown to the second, so an end date includes its whole second.
  if (q.endDate) where.push(`${col} < ${param()}::timestamptz + interval '1 second'`);
  if (q.statuses.length > 0) where.push(`(${q.statuses.map((s) => STATUS_CONDITION[s]).join(' OR ')})`);
  if (q.after) where.push(`(${col}, c.id) < (${param()}::timestamptz, ${param()}::uuid)`);
  return `SELECT ${columns}
       FROM ${CAMPAIGN_FROM}
      WHERE ${where.join(' AND ')}
      ORDER BY ${col} DESC, c.id DESC
      LIMIT ${param()}`;
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
