// Counters reported by the delivery service. They only grow, so each is kept at the greatest
// value seen: a replayed or reordered message can never lower or double a counter.
import type { Queryable } from '../../../shared/src/db.js';
import type { StatsMessage } from '../../../shared/src/messages.js';

export async function applyStats(db: Queryable, messages: StatsMessage[]): Promise<void> {
  if (messages.length === 0) return;
  await db.query(
    `UPDATE campaign.campaign_stats s
        SET sent = GREATEST(s.sent, v.sent), failed = GREATEST(s.failed, v.failed), expired = GREATEST(s.expired, v.expired),
            impressions = GREATEST(s.impressions, v.impressions), clicks = GREATEST(s.clicks, v.clicks)
       FROM (SELECT campaign_id, max(sent) AS sent, max(failed) AS failed, max(expired) AS expired,
                    max(impressions) AS impressions, max(clicks) AS clicks
               FROM unnest($1::uuid[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[])
                    AS t(campaign_id, sent, failed, expired, impressions, clicks)
              GROUP BY campaign_id) v
      WHERE s.campaign_id = v.campaign_id`,
    [
      messages.map((m) => m.campaignId),
      messages.map((m) => m.sent),
      messages.map((m) => m.failed),
      messages.map((m) => m.expired),
      messages.map((m) => m.impressions),
      messages.map((m) => m.clicks),
    ],
  );
  const failed = [...new Set(messages.filter((m) => m.state === 'failed').map((m) => m.campaignId))];
  // Only a published campaign moves to failed; nothing moves out of failed.
  if (failed.length > 0) {
    await db.query(`UPDATE campaign.campaigns SET status = 'failed' WHERE id = ANY($1::uuid[]) AND status = 'published'`, [failed]);
  }
}
