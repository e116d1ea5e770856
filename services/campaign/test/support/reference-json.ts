// The previous object-building path for a campaign, kept verbatim as the reference the API JSON
// built from the Campaign message (@webpush/contracts campaign-json.ts) is compared with: the columns it selected, the domain view
// (campaign-view.ts + analytics.ts), the proto message (grpc/encode.ts; the wire round trip is the
// identity for these values, and an unset optional read back as '') and the gateway's object
// (gateway/src/routes/campaign-json.ts), then Express's JSON.stringify. The `delivery` object
// (an addition of 2026-11-23) is appended after those fields, as its documentation says. The
// optional parts (`capped`, `byBrowser`, `segment`, `throttlePerMinute`, `ignoreFrequencyCap`,
// `localTime`, `abTest` with its results) are the JSON text Postgres built for them until
// 2026-12-05 (the SQL below, verbatim), spliced in where that path put them.
import type { Queryable } from '@webpush/shared/db.js';

const UTC_SECONDS = `'YYYY-MM-DD"T"HH24:MI:SS"Z"'`;

function percentSql(part: string, base: string): string {
  return `CASE WHEN ${base} > 0 THEN trim_scale(div(${part}::numeric * 20000 + ${base}, ${base}::numeric * 2) * 0.01)::text ELSE '0' END`;
}

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

const DELIVERY_TAIL = `CASE WHEN COALESCE(s.capped, 0) > 0 THEN ',"capped":' || s.capped ELSE '' END
    || CASE WHEN s.by_browser IS NULL THEN '' ELSE ',"byBrowser":' || s.by_browser::text END`;

const CAMPAIGN_TAIL = `CASE WHEN c.segment IS NULL THEN '' ELSE ',"segment":' || c.segment::text END
    || CASE WHEN c.throttle_per_minute IS NULL THEN '' ELSE ',"throttlePerMinute":' || c.throttle_per_minute END
    || CASE WHEN c.ignore_frequency_cap THEN ',"ignoreFrequencyCap":true' ELSE '' END
    || CASE WHEN c.local_time IS NULL THEN '' ELSE ',"localTime":' || c.local_time::text END
    || CASE WHEN c.ab_test IS NULL THEN '' ELSE ',"abTest":' || left(c.ab_test::text, -1) || ${AB_TEST_OUTCOME} || '}' END`;

export function referenceColumns(sortColumn: string): string {
  return `c.id, c.title, c.body, c.link, c.topics, c.status, c.schedule_mode,
    to_char(c.schedule_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS schedule_date,
    to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at,
    c.total_users, c.image, c.icon, c.call_to_action, c.utm_source, c.utm_medium, c.utm_campaign, c.ttl,
    COALESCE(s.impressions, 0) AS impressions, COALESCE(s.clicks, 0) AS clicks,
    COALESCE(s.sent, 0) AS sent, COALESCE(s.failed, 0) AS failed, COALESCE(s.expired, 0) AS expired,
    COALESCE(s.audience, 0) AS audience, COALESCE(s.capped, 0) AS capped, COALESCE(s.delivery_finished, false) AS delivery_finished,
    COALESCE(s.failed_rejected, 0) AS failed_rejected, COALESCE(s.failed_unauthorized, 0) AS failed_unauthorized,
    COALESCE(s.failed_unreachable, 0) AS failed_unreachable, COALESCE(s.failed_refused, 0) AS failed_refused,
    to_char(c.${sortColumn} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS sort_key,
    ${DELIVERY_TAIL} AS delivery_tail, ${CAMPAIGN_TAIL} AS campaign_tail`;
}

interface ReferenceRow {
  id: string;
  title: string;
  body: string;
  link: string;
  topics: string[];
  status: string;
  schedule_mode: string;
  schedule_date: string;
  created_at: string;
  total_users: string;
  image: string | null;
  icon: string | null;
  call_to_action: string;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  ttl: number;
  impressions: string;
  clicks: string;
  sent: string;
  failed: string;
  expired: string;
  audience: string;
  capped: string;
  delivery_finished: boolean;
  failed_rejected: string;
  failed_unauthorized: string;
  failed_unreachable: string;
  failed_refused: string;
  delivery_tail: string;
  campaign_tail: string;
}

/**
 * The `delivery` object: pending is what a published campaign planned (totalUsers, or the audience
 * the run took if greater) and has no outcome yet, 0 once it is finished (issue 34).
 */
export function computeDelivery(
  row: Pick<ReferenceRow, 'status' | 'total_users' | 'sent' | 'failed' | 'expired' | 'audience' | 'capped' | 'delivery_finished' | 'failed_rejected' | 'failed_unauthorized' | 'failed_unreachable' | 'failed_refused'>,
) {
  const [sent, failed, expired] = [Number(row.sent), Number(row.failed), Number(row.expired)];
  const planned = Math.max(Number(row.total_users), Number(row.audience));
  return {
    sent,
    failed,
    expired,
    pending: row.status !== 'published' || row.delivery_finished ? 0 : Math.max(0, planned - sent - failed - expired - Number(row.capped)),
    failedBy: {
      rejected: Number(row.failed_rejected),
      unauthorized: Number(row.failed_unauthorized),
      unreachable: Number(row.failed_unreachable),
      refused: Number(row.failed_refused),
    },
  };
}

function percent(part: number, base: number): number {
  if (base <= 0) return 0;
  return Math.round((part * 10_000) / base) / 100;
}

export function computeAnalytics(counts: { clicks: number; impressions: number; totalUsers: number }) {
  return {
    clicks: counts.clicks,
    impressions: counts.impressions,
    ctr: percent(counts.clicks, counts.impressions),
    its: percent(counts.impressions, counts.totalUsers),
    totalUsers: counts.totalUsers,
  };
}

/** toCampaignView → encodeCampaign → (proto) → campaignJson. */
export function referenceCampaignObject(row: ReferenceRow) {
  const totalUsers = Number(row.total_users);
  const a = computeAnalytics({ clicks: Number(row.clicks), impressions: Number(row.impressions), totalUsers });
  // encodeCampaign left a null image/icon unset, and an unset optional string decoded as ''.
  const image = row.image !== null ? row.image : '';
  const icon = row.icon !== null ? row.icon : '';
  const updatedAt = '';
  const ttlUnit = 'seconds';
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    link: row.link,
    topics: [...row.topics],
    status: row.status,
    scheduleDate: row.schedule_date,
    scheduleMode: row.schedule_mode,
    createdAt: row.created_at,
    updatedAt: updatedAt || null,
    totalUsers: Number(totalUsers),
    image: image || null,
    icon: icon || null,
    callToAction: row.call_to_action,
    utmSource: row.utm_source,
    utmMedium: row.utm_medium,
    utmCampaign: row.utm_campaign,
    ttl: row.ttl,
    ttlUnit: ttlUnit || 'seconds',
    analytics: {
      clicks: Number(a.clicks ?? 0),
      impressions: Number(a.impressions ?? 0),
      ctr: Number(a.ctr ?? 0),
      its: Number(a.its ?? 0),
      totalUsers: Number(a.totalUsers ?? totalUsers),
    },
    delivery: computeDelivery(row),
  };
}

/** The reference JSON text of one campaign, read with the previous query. */
export async function referenceCampaignJson(db: Queryable, id: string): Promise<string> {
  const { rows } = await db.query<ReferenceRow>(
    `SELECT ${referenceColumns('created_at')}
       FROM campaign.campaigns c LEFT JOIN campaign.campaign_stats s ON s.campaign_id = c.id
      WHERE c.id = $1`,
    [id],
  );
  if (rows.length !== 1) throw new Error(`campaign ${id} not found`);
  const json = JSON.stringify(referenceCampaignObject(rows[0]));
  // Both objects end the text: `delivery` and the campaign, `}}`.
  return `${json.slice(0, -2)}${rows[0].delivery_tail}}${rows[0].campaign_tail}}`;
}
