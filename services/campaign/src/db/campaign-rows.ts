// The columns every campaign read selects: each campaign as the exact JSON text the API answers
// (built by Postgres, so no row parsing, object building or re-serialising on the way out), plus
// the position used by cursors.
export const SORT_COLUMN = { createdAt: 'created_at', scheduleDate: 'schedule_date' } as const;

const UTC_SECONDS = `'YYYY-MM-DD"T"HH24:MI:SS"Z"'`;

/**
 * `part / base` as a percentage rounded half up to two decimals, 0 on a zero base (the spec's
 * ctr and its), as JSON number text. Exact integer arithmetic in numeric: k = ⌊(2·part·10⁴ + base)
 * / (2·base)⌋ hundredths, printed without trailing zeros (33.33, 33.3, 100, 0) — what
 * `Math.round(part * 10000 / base) / 100` gives through JSON.stringify for any counter a campaign
 * can reach (the old object-building path; services/campaign/test/campaign-json.test.ts compares them).
 */
function percentJson(part: string, base: string): string {
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
                                    g.v, r.sent, r.impressions, r.clicks, ${percentJson('r.clicks', 'r.impressions')}, ${percentJson('r.impressions', 'r.sent')}),
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

/** A text column as a JSON string (escaped by to_json exactly as JSON.stringify escapes it). */
const jsonString = (column: string) => `to_json(${column})::text`;
/** The same, or null when the column is null or empty (what the API shows for image and icon). */
const jsonStringOrNull = (column: string) => `COALESCE(to_json(NULLIF(${column}, ''))::text, 'null')`;

/**
 * The API's Campaign object, in the spec's field order, as [JSON text before the value, SQL
 * expression giving the value's JSON text]. The id (a uuid), status and schedule mode
 * (CHECK-constrained words) and the formatted dates need no escaping.
 */
const CAMPAIGN_JSON_PARTS: readonly (readonly [string, string])[] = [
  ['{"id":"', 'c.id::text'],
  ['","title":', jsonString('c.title')],
  [',"body":', jsonString('c.body')],
  [',"link":', jsonString('c.link')],
  [',"topics":', 'array_to_json(c.topics)::text'],
  [',"status":"', 'c.status'],
  ['","scheduleDate":"', `to_char(c.schedule_date AT TIME ZONE 'UTC', ${UTC_SECONDS})`],
  ['","scheduleMode":"', 'c.schedule_mode'],
  ['","createdAt":"', `to_char(c.created_at AT TIME ZONE 'UTC', ${UTC_SECONDS})`],
  ['","updatedAt":null,"totalUsers":', 'c.total_users::text'],
  [',"image":', jsonStringOrNull('c.image')],
  [',"icon":', jsonStringOrNull('c.icon')],
  [',"callToAction":', jsonString('c.call_to_action')],
  [',"utmSource":', jsonString('c.utm_source')],
  [',"utmMedium":', jsonString('c.utm_medium')],
  [',"utmCampaign":', jsonString('c.utm_campaign')],
  [',"ttl":', 'c.ttl::text'],
  [',"ttlUnit":"seconds","analytics":{"clicks":', 'st.clicks::text'],
  [',"impressions":', 'st.impressions::text'],
  [',"ctr":', percentJson('st.clicks', 'st.impressions')],
  [',"its":', percentJson('st.impressions', 'c.total_users')],
  [',"totalUsers":', 'c.total_users::text'],
  // The addition of 2026-11-23 (docs/api-decisions.md, "Delivery counts"): after every field the
  // spec states, which stay exactly as they were.
  ['},"delivery":{"sent":', 'st.sent::text'],
  [',"failed":', 'st.failed::text'],
  [',"expired":', 'st.expired::text'],
  [',"pending":', 'st.pending::text'],
  [',"failedBy":{"rejected":', 'st.failed_rejected::text'],
  [',"unauthorized":', 'st.failed_unauthorized::text'],
  [',"unreachable":', 'st.failed_unreachable::text'],
  [',"refused":', 'st.failed_refused::text'],
  // The additions of 2026-11-26, each only where it applies, so every other campaign's object
  // stays exactly as it was: `capped` in `delivery` ("Frequency caps"), then `segment`,
  // `throttlePerMinute` and `ignoreFrequencyCap` on the campaign.
  ['}', `CASE WHEN st.capped > 0 THEN ',"capped":' || st.capped ELSE '' END`],
  // Results by browser family, once the delivery service has published them (a finished campaign).
  ['', `CASE WHEN s.by_browser IS NULL THEN '' ELSE ',"byBrowser":' || s.by_browser::text END`],
  ['}', `CASE WHEN c.segment IS NULL THEN '' ELSE ',"segment":' || c.segment::text END`],
  ['', `CASE WHEN c.throttle_per_minute IS NULL THEN '' ELSE ',"throttlePerMinute":' || c.throttle_per_minute END`],
  ['', `CASE WHEN c.ignore_frequency_cap THEN ',"ignoreFrequencyCap":true' ELSE '' END`],
  // The additions of 2026-11-27, likewise only where they apply: a local-time campaign's plan
  // ("Local time"), then an A/B test with its results and winner ("A/B tests").
  ['', `CASE WHEN c.local_time IS NULL THEN '' ELSE ',"localTime":' || c.local_time::text END`],
  ['', `CASE WHEN c.ab_test IS NULL THEN '' ELSE ',"abTest":' || left(c.ab_test::text, -1) || ${AB_TEST_OUTCOME} || '}' END`],
];
const CAMPAIGN_JSON_END = '}';

/**
 * One format() call: it builds the text in one buffer and, every argument being text, looks up
 * the output function once per row (a `||` chain copies the growing text at every step;
 * concat(…) looks up each argument's output function on every row).
 */
const CAMPAIGN_JSON = (() => {
  const literal = (text: string) => text.replaceAll('%', '%%').replaceAll("'", "''");
  const template = CAMPAIGN_JSON_PARTS.map(([before]) => `${literal(before)}%s`).join('') + literal(CAMPAIGN_JSON_END);
  return `format('${template}', ${CAMPAIGN_JSON_PARTS.map(([, value]) => value).join(', ')})`;
})();

/**
 * Columns of `campaign.campaigns c` left-joined with `campaign.campaign_stats s` (CAMPAIGN_FROM;
 * `st` names the counters, 0 without a stats row): `json`, the API's Campaign object — no
 * whitespace, `updatedAt` null (campaigns are never edited), empty `image`/`icon` null,
 * `ttlUnit` "seconds", then the `delivery` counts — then `id` and `sort_key`, the sort date at
 * full (microsecond) precision, for cursors.
 */
export function campaignJsonColumns(sortColumn: string): string {
  return `${CAMPAIGN_JSON} AS json, c.id,
    to_char(c.${sortColumn} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS sort_key`;
}

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

/** `FROM` clause matching campaignJsonColumns. */
export const CAMPAIGN_FROM = `campaign.campaigns c
      LEFT JOIN campaign.campaign_stats s ON s.campaign_id = c.id
      CROSS JOIN LATERAL (SELECT COALESCE(s.impressions, 0) AS impressions, COALESCE(s.clicks, 0) AS clicks,
                                 COALESCE(s.sent, 0) AS sent, COALESCE(s.failed, 0) AS failed, COALESCE(s.expired, 0) AS expired,
                                 ${PENDING} AS pending,
                                 COALESCE(s.capped, 0) AS capped,
                                 COALESCE(s.failed_rejected, 0) AS failed_rejected, COALESCE(s.failed_unauthorized, 0) AS failed_unauthorized,
                                 COALESCE(s.failed_unreachable, 0) AS failed_unreachable, COALESCE(s.failed_refused, 0) AS failed_refused) st`;

export interface CampaignJsonRow {
  /** The API's Campaign object as JSON text. */
  json: string;
  id: string;
  /** The sort date at full (microsecond) precision, for cursors. */
  sort_key: string;
}
