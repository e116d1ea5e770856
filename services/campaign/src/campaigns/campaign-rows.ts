// The columns every campaign read selects, and the API's Campaign object built from them as the
// exact JSON text the API answers (no object building or re-serialising on the way out), plus
// the position used by cursors.
import { CONTENT_COLUMN_LIST } from '../base/content-columns.js';

export const SORT_COLUMN = { createdAt: 'created_at', scheduleDate: 'schedule_date' } as const;

const UTC_SECONDS = `'YYYY-MM-DD"T"HH24:MI:SS"Z"'`;

/**
 * `part / base` as a percentage rounded half up to two decimals, 0 on a zero base (the spec's
 * ctr and its), as JSON number text. Exact integer arithmetic in numeric: k = ⌊(2·part·10⁴ + base)
 * / (2·base)⌋ hundredths, printed without trailing zeros (33.33, 33.3, 100, 0) — what
 * `Math.round(part * 10000 / base) / 100` gives through JSON.stringify for any counter a campaign
 * can reach (the old object-building path; services/campaign/test/campaign-json.test.ts compares them).
 */
function percentSql(part: string, base: string): string {
  return `CASE WHEN ${base} > 0 THEN trim_scale(div(${part}::numeric * 20000 + ${base}, ${base}::numeric * 2) * 0.01)::text ELSE '0' END`;
}

/**
 * What follows an A/B test's own fields (its stored JSON without the closing brace): `results`,
 * one row per variant in order (zeros before the delivery service reported any; a variant it did
 * not report is zeros too), each with its `ctr` (clicks ÷ impressions) and `its` (impressions ÷
 * sent) rounded as the analytics are, `winner` (null until chosen) and `windowEndsAt` (when the
 * window ends: null before the test's first send). Evaluated only for a campaign with a test.
 */
const AB_TEST_OUTCOME = `',"results":' || (
    SELECT '[' || string_agg(format('{"variant":%s,"sent":%s,"impressions":%s,"clicks":%s,"ctr":%s,"its":%s}',
                                    g.v, r.sent, r.impressions, r.clicks, ${percentSql('r.clicks', 'r.impressions')}, ${percentSql('r.impressions', 'r.sent')}),
                             ',' ORDER BY g.v) || ']'
      FROM generate_series(0, json_array_length(c.ab_test->'variants') - 1) AS g(v)
      CROSS JOIN LATERAL (
        SELECT COALESCE(max((e->>'sent')::bigint), 0) AS sent, COALESCE(max((e->>'impressions')::bigint), 0) AS impressions,
               COALESCE(max((e->>'clicks')::bigint), 0) AS clicks
          FROM json_array_elements(COALESCE(s.ab_results, '[]'::json)) AS e
         WHERE (e->>'variant')::int = g.v) r)
  || ',"winner":' || CASE WHEN s.ab_winner_variant IS NULL THEN 'null'
                          ELSE format('{"variant":%s,"decidedAt":"%s","by":"%s"}', s.ab_winner_variant,
                                      to_char(s.ab_winner_decided_at AT TIME ZONE 'UTC', ${UTC_SECONDS}), s.ab_winner_by) END
  || ',"windowEndsAt":' || CASE WHEN s.ab_window_ends_at IS NULL THEN 'null'
                                ELSE '"' || to_char(s.ab_window_ends_at AT TIME ZONE 'UTC', ${UTC_SECONDS}) || '"' END`;

/**
 * The end of the `delivery` object, where it applies (each an addition that leaves every other
 * campaign's object exactly as it was): `capped` ("Frequency caps", 2026-11-26), then `byBrowser`
 * once the delivery service published it (a finished campaign).
 */
const DELIVERY_TAIL = `CASE WHEN st.capped > 0 THEN ',"capped":' || st.capped ELSE '' END
    || CASE WHEN s.by_browser IS NULL THEN '' ELSE ',"byBrowser":' || s.by_browser::text END`;

/**
 * The campaign's fields after `delivery`, each only where it applies: `segment`,
 * `throttlePerMinute` and `ignoreFrequencyCap` (2026-11-26), then a local-time campaign's plan
 * ("Local time") and an A/B test with its results and winner ("A/B tests", 2026-11-27).
 */
const CAMPAIGN_TAIL = `CASE WHEN c.segment IS NULL THEN '' ELSE ',"segment":' || c.segment::text END
    || CASE WHEN c.throttle_per_minute IS NULL THEN '' ELSE ',"throttlePerMinute":' || c.throttle_per_minute END
    || CASE WHEN c.ignore_frequency_cap THEN ',"ignoreFrequencyCap":true' ELSE '' END
    || CASE WHEN c.local_time IS NULL THEN '' ELSE ',"localTime":' || c.local_time::text END
    || CASE WHEN c.ab_test IS NULL THEN '' ELSE ',"abTest":' || left(c.ab_test::text, -1) || ${AB_TEST_OUTCOME} || '}' END`;

/**
 * The columns a campaign read selects, all read as text (CAMPAIGN_TYPES), in two sets. LIVE:
 * what changes after the insert (`status`, the counters from `st`, 0 without a stats row, the
 * optional objects with their A/B results) and the dates (only tests move them, to age a
 * campaign). FIXED: the content, which nothing updates once written (campaigns are never
 * edited), so the service keeps its JSON per id (FixedPartsCache) and a warm read selects only
 * LIVE. Optional objects come as JSON text built here only where they apply (most campaigns
 * have none, and a CASE on a null column is free). Dates come `AT TIME ZONE 'UTC'`, as Postgres
 * prints a timestamp (ISO DateStyle, which node-postgres requires anyway:
 * 'YYYY-MM-DD HH:MI:SS[.ffffff]'), and are cut to the second in campaignJson. Building the
 * object itself is left to campaignJson: per row, Postgres spent about twice the CPU of the
 * whole read on to_char, to_json and format (docs/history/performance-log.md).
 */
export const LIVE_COLUMNS = `c.id, c.status,
    c.schedule_date AT TIME ZONE 'UTC' AS schedule_date, c.schedule_mode, c.created_at AT TIME ZONE 'UTC' AS created_at,
    st.clicks, st.impressions, st.sent, st.failed, st.expired, st.pending,
    st.failed_rejected, st.failed_unauthorized, st.failed_unreachable, st.failed_refused,
    ${DELIVERY_TAIL} AS delivery_tail, ${CAMPAIGN_TAIL} AS campaign_tail`;
export const FIXED_COLUMNS = `${CONTENT_COLUMN_LIST.map((col) => `c.${col}`).join(', ')}, array_to_json(c.topics)::text AS topics, c.total_users, c.ttl`;
export const CAMPAIGN_COLUMNS = `${LIVE_COLUMNS}, ${FIXED_COLUMNS}`;

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
export const CAMPAIGN_FROM = `campaign.campaigns c
      LEFT JOIN campaign.campaign_stats s ON s.campaign_id = c.id
      CROSS JOIN LATERAL (SELECT COALESCE(s.impressions, 0) AS impressions, COALESCE(s.clicks, 0) AS clicks,
                                 COALESCE(s.sent, 0) AS sent, COALESCE(s.failed, 0) AS failed, COALESCE(s.expired, 0) AS expired,
                                 ${PENDING} AS pending,
                                 COALESCE(s.capped, 0) AS capped,
                                 COALESCE(s.failed_rejected, 0) AS failed_rejected, COALESCE(s.failed_unauthorized, 0) AS failed_unauthorized,
                                 COALESCE(s.failed_unreachable, 0) AS failed_unreachable, COALESCE(s.failed_refused, 0) AS failed_refused) st`;

/** A LIVE_COLUMNS row: every column as Postgres printed it (CAMPAIGN_TYPES). */
export interface LiveRow {
  id: string;
  status: string;
  /** 'YYYY-MM-DD HH:MI:SS[.ffffff]', UTC. */
  schedule_date: string;
  schedule_mode: string;
  /** 'YYYY-MM-DD HH:MI:SS[.ffffff]', UTC. */
  created_at: string;
  clicks: string;
  impressions: string;
  sent: string;
  failed: string;
  expired: string;
  pending: string;
  failed_rejected: string;
  failed_unauthorized: string;
  failed_unreachable: string;
  failed_refused: string;
  /** JSON text following `failedBy`, '' for most campaigns. */
  delivery_tail: string;
  /** JSON text following `delivery`, '' for most campaigns. */
  campaign_tail: string;
}

/** A CAMPAIGN_COLUMNS row: LIVE_COLUMNS and FIXED_COLUMNS. */
export interface CampaignRow extends LiveRow {
  title: string;
  body: string;
  link: string;
  /** JSON text. */
  topics: string;
  /** Null: not counted yet (the delivery service could not count it at create; audience-recount.ts). */
  total_users: string | null;
  image: string | null;
  icon: string | null;
  call_to_action: string;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  ttl: string;
}

const asText = (value: string) => value;
/**
 * The `types` of a campaign read: every column as the text Postgres sent. Numbers and JSON go
 * into the answer as they are, so parsing them (dates into Date objects, bigints, arrays) would
 * only be undone.
 */
export const CAMPAIGN_TYPES = { getTypeParser: () => asText };

/** 'YYYY-MM-DD HH:MI:SS[.ffffff]' → 'YYYY-MM-DDTHH:MI:SSZ', the API's dates (to the second, cut as to_char cuts). */
const apiDate = (utc: string) => `${utc.slice(0, 10)}T${utc.slice(11, 19)}Z`;

/** The API's image and icon: null when unset or empty. */
const stringOrNull = (value: string | null) => (value === null || value === '' ? 'null' : JSON.stringify(value));

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * `part / base` as a percentage rounded half up to two decimals, 0 on a zero base (the spec's
 * ctr and its), as JSON number text — exactly what percentSql gives: k = ⌊(2·part·10⁴ + base) /
 * (2·base)⌋ hundredths (a double division of integers below 2⁵³ floors exactly; BigInt past
 * that), printed without trailing zeros (33.33, 33.3, 100, 0).
 */
export function percentJson(part: string, base: string): string {
  const b = Number(base);
  if (!(b > 0)) return '0';
  const numerator = Number(part) * 20_000 + b;
  if (numerator > MAX_SAFE) return hundredths((BigInt(part) * 20_000n + BigInt(base)) / (2n * BigInt(base)));
  const k = Math.floor(numerator / (2 * b));
  const whole = Math.floor(k / 100);
  const cents = k - whole * 100;
  if (cents === 0) return String(whole);
  return cents % 10 === 0 ? `${whole}.${cents / 10}` : `${whole}.${cents < 10 ? '0' : ''}${cents}`;
}

/** k hundredths as decimal text without trailing zeros, for counters past 2⁵³ (no campaign yet). */
function hundredths(k: bigint): string {
  const cents = k % 100n;
  if (cents === 0n) return String(k / 100n);
  return `${k / 100n}.${String(cents).padStart(2, '0').replace(/0$/, '')}`;
}

/**
 * A campaign's JSON around its live fields, from its FIXED_COLUMNS (and id): `head` up to the
 * `status` value, `middle` from `updatedAt` to the `clicks` value; `totalUsers` for `its`.
 */
export interface FixedParts {
  head: string;
  middle: string;
  totalUsers: string;
}

export function fixedPartsOf(r: CampaignRow): FixedParts {
  return {
    head: `{"id":"${r.id}","title":${JSON.stringify(r.title)},"body":${JSON.stringify(r.body)},"link":${JSON.stringify(r.link)},"topics":${r.topics},"status":"`,
    middle: `","updatedAt":null,"totalUsers":${r.total_users ?? '0'},"image":${stringOrNull(r.image)},"icon":${stringOrNull(r.icon)}` +
      `,"callToAction":${JSON.stringify(r.call_to_action)},"utmSource":${JSON.stringify(r.utm_source)},"utmMedium":${JSON.stringify(r.utm_medium)}` +
      `,"utmCampaign":${JSON.stringify(r.utm_campaign)},"ttl":${r.ttl},"ttlUnit":"seconds","analytics":{"clicks":`,
    totalUsers: r.total_users ?? '0',
  };
}

/**
 * The API's Campaign object as JSON text, in the spec's field order, no whitespace: `updatedAt`
 * null (campaigns are never edited), empty `image`/`icon` null, `ttlUnit` "seconds", then the
 * `delivery` counts (the addition of 2026-11-23, docs/api-decisions.md "Delivery counts": after
 * every field the spec states), then the optional fields. Strings go through JSON.stringify (the
 * old object path's escaping; test/campaign-json.test.ts compares the two byte for byte).
 */
export function campaignJson(f: FixedParts, r: LiveRow): string {
  return `${f.head}${r.status}","scheduleDate":"${apiDate(r.schedule_date)}","scheduleMode":"${r.schedule_mode}","createdAt":"${apiDate(r.created_at)}` +
    `${f.middle}${r.clicks},"impressions":${r.impressions},"ctr":${percentJson(r.clicks, r.impressions)},"its":${percentJson(r.impressions, f.totalUsers)},"totalUsers":${f.totalUsers}}` +
    `,"delivery":{"sent":${r.sent},"failed":${r.failed},"expired":${r.expired},"pending":${r.pending}` +
    `,"failedBy":{"rejected":${r.failed_rejected},"unauthorized":${r.failed_unauthorized},"unreachable":${r.failed_unreachable},"refused":${r.failed_refused}}${r.delivery_tail}}` +
    `${r.campaign_tail}}`;
}

/** The row's sort date at full precision, 'YYYY-MM-DDTHH:MI:SS.ffffffZ': a cursor's position. */
export function sortKeyOf(r: LiveRow, column: (typeof SORT_COLUMN)[keyof typeof SORT_COLUMN]): string {
  const utc = r[column];
  const fraction = utc.length > 20 ? utc.slice(20, 26) : '';
  return `${utc.slice(0, 10)}T${utc.slice(11, 19)}.${fraction.padEnd(6, '0')}Z`;
}
