// Counters reported by the delivery service. They only grow, so each is kept at the greatest
// value seen: a replayed or reordered message can never lower or double a counter. A field an
// older producer leaves out (audience, failedBy, capped) counts as 0, which keeps what is stored.
// Finished (a run completed or failed) is final: once seen, nothing is pending any more.
import type { Queryable } from '../../../shared/src/db.js';
import type { StatsMessage } from '../../../shared/src/messages.js';

export async function applyStats(db: Queryable, messages: StatsMessage[]): Promise<void> {
  if (messages.length === 0) return;
  await db.query(
    `UPDATE campaign.campaign_stats s
        SET sent = GREATEST(s.sent, v.sent), failed = GREATEST(s.failed, v.failed), expired = GREATEST(s.expired, v.expired),
            impressions = GREATEST(s.impressions, v.impressions), clicks = GREATEST(s.clicks, v.clicks),
            audience = GREATEST(s.audience, v.audience),
            failed_rejected = GREATEST(s.failed_rejected, v.rejected),
            failed_unauthorized = GREATEST(s.failed_unauthorized, v.unauthorized),
            failed_unreachable = GREATEST(s.failed_unreachable, v.unreachable),
            failed_refused = GREATEST(s.failed_refused, v.refused),
            capped = GREATEST(s.capped, v.capped),
            by_browser = coalesce(v.by_browser, s.by_browser),
            delivery_finished = s.delivery_finished OR v.finished
       FROM (SELECT campaign_id, max(sent) AS sent, max(failed) AS failed, max(expired) AS expired,
                    max(impressions) AS impressions, max(clicks) AS clicks, max(audience) AS audience,
                    max(rejected) AS rejected, max(unauthorized) AS unauthorized, max(unreachable) AS unreachable,
                    max(refused) AS refused, bool_or(finished) AS finished, max(capped) AS capped,
                    (array_agg(by_browser) FILTER (WHERE by_browser IS NOT NULL))[1] AS by_browser
               FROM unnest($1::uuid[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[],
                           $8::bigint[], $9::bigint[], $10::bigint[], $11::bigint[], $12::boolean[], $13::bigint[], $14::json[])
                    AS t(campaign_id, sent, failed, expired, impressions, clicks, audience,
                         rejected, unauthorized, unreachable, refused, finished, capped, by_browser)
              GROUP BY campaign_id) v
      WHERE s.campaign_id = v.campaign_id`,
    [
      messages.map((m) => m.campaignId),
      messages.map((m) => m.sent),
      messages.map((m) => m.failed),
      messages.map((m) => m.expired),
      messages.map((m) => m.impressions),
      messages.map((m) => m.clicks),
      messages.map((m) => m.audience ?? 0),
      messages.map((m) => m.failedBy?.rejected ?? 0),
      messages.map((m) => m.failedBy?.unauthorized ?? 0),
      messages.map((m) => m.failedBy?.unreachable ?? 0),
      messages.map((m) => m.failedBy?.refused ?? 0),
      messages.map((m) => m.state !== 'sending'),
      messages.map((m) => m.capped ?? 0),
      messages.map((m) => (m.byBrowser ? JSON.stringify(m.byBrowser) : null)),
    ],
  );
  const failed = [...new Set(messages.filter((m) => m.state === 'failed').map((m) => m.campaignId))];
  // Only a published campaign moves to failed; nothing moves out of failed.
  if (failed.length > 0) {
    await db.query(`UPDATE campaign.campaigns SET status = 'failed' WHERE id = ANY($1::uuid[]) AND status = 'published'`, [failed]);
  }
}
