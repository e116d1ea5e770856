// Counters reported by the delivery service. They only grow, so each is kept at the greatest
// value seen: a replayed or reordered message can never lower or double a counter. A field an
// older producer leaves out (audience, failedBy, capped) counts as 0, which keeps what is stored.
// Finished (a run completed or failed) is final: once seen, nothing is pending any more.
// An A/B test's results are a set of counters: the set whose counters total is greatest is kept
// (the latest, whatever order the events came in); its winner is the first one reported, kept;
// its window's end is set once by the delivery service, so the latest reported is kept. A
// best-time campaign's results by slot are kept the same way as an A/B test's.
// A notification's run reports under the notification's id: its impressions and clicks are kept
// the same way on the notification, and what they grew by is added to its automation step's.
import type { AbWinner, VariantResult } from '@webpush/contracts/ab-test.js';
import type { SlotResult } from '@webpush/contracts/best-time.js';
import { withTransaction, type Pool, type Queryable } from '@webpush/shared/db.js';
import type { StatsMessage } from '@webpush/contracts/messages.js';

/** The results as stored: only the counters, in variant order (the campaign object computes the rest). */
function abResults(results: VariantResult[]): VariantResult[] {
  return results.map((r) => ({ variant: r.variant, sent: r.sent, impressions: r.impressions, clicks: r.clicks })).sort((a, b) => a.variant - b.variant);
}

/** Every counter of a result set, added: it only grows while a test sends and is measured. */
function abTotal(results: VariantResult[]): number {
  return results.reduce((sum, r) => sum + r.sent + r.impressions + r.clicks, 0);
}

/** A best-time campaign's slots as stored: only the counters and the moment, in slot order. */
function slotResults(slots: SlotResult[]): SlotResult[] {
  return slots.map((s) => ({ slot: s.slot, sendAt: s.sendAt, planned: s.planned, sent: s.sent, impressions: s.impressions, clicks: s.clicks })).sort((a, b) => a.slot - b.slot);
}

/** Every counter of a slot set, added: it only grows while the campaign sends and is measured. */
function slotTotal(slots: SlotResult[]): number {
  return slots.reduce((sum, s) => sum + s.planned + s.sent + s.impressions + s.clicks, 0);
}

/** The message's winner with a date Postgres takes (a winner whose date is not one is left for a later event). */
function winnerOf(m: StatsMessage): AbWinner | null {
  const w = m.abTest?.winner;
  if (!w) return null;
  const at = new Date(w.decidedAt);
  return Number.isNaN(at.getTime()) || at.getUTCFullYear() < 1 || at.getUTCFullYear() > 9999 ? null : { variant: w.variant, decidedAt: at.toISOString(), by: w.by };
}

/** The message's test window end when Postgres takes it as a date (else left for a later event). */
function windowEndOf(m: StatsMessage): string | null {
  const w = m.abTest?.windowEndsAt;
  if (!w) return null;
  const at = new Date(w);
  return Number.isNaN(at.getTime()) || at.getUTCFullYear() < 1 || at.getUTCFullYear() > 9999 ? null : at.toISOString();
}

/**
 * Records an A/B test's winner unless one is recorded already (the first one stands): the
 * delivery service's, from its stats events, or the customer's pick as the delivery service
 * answered it. True when this one was recorded.
 */
export async function recordWinner(db: Queryable, campaignId: string, winner: AbWinner): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE campaign.campaign_stats SET ab_winner_variant = $2, ab_winner_decided_at = $3::timestamptz, ab_winner_by = $4
      WHERE campaign_id = $1 AND ab_winner_variant IS NULL`,
    [campaignId, winner.variant, winner.decidedAt, winner.by],
  );
  return rowCount === 1;
}

/** A batch of stats events: each is a campaign's or a notification's (the other statement finds no row for it). */
export async function applyStats(pool: Pool, messages: StatsMessage[]): Promise<void> {
  await applyCampaignStats(pool, messages);
  await applyNotificationStats(pool, messages);
}

async function applyCampaignStats(db: Queryable, messages: StatsMessage[]): Promise<void> {
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
            delivery_finished = s.delivery_finished OR v.finished,
            ab_results = CASE WHEN v.ab_results IS NOT NULL AND (s.ab_results IS NULL OR v.ab_total > s.ab_results_total) THEN v.ab_results ELSE s.ab_results END,
            ab_results_total = CASE WHEN v.ab_results IS NOT NULL AND (s.ab_results IS NULL OR v.ab_total > s.ab_results_total) THEN v.ab_total ELSE s.ab_results_total END,
            ab_winner_variant = CASE WHEN s.ab_winner_variant IS NULL THEN v.winner_variant ELSE s.ab_winner_variant END,
            ab_winner_decided_at = CASE WHEN s.ab_winner_variant IS NULL THEN v.winner_decided_at ELSE s.ab_winner_decided_at END,
            ab_winner_by = CASE WHEN s.ab_winner_variant IS NULL THEN v.winner_by ELSE s.ab_winner_by END,
            ab_window_ends_at = coalesce(v.window_ends_at, s.ab_window_ends_at),
            best_time_results = CASE WHEN v.bt_results IS NOT NULL AND (s.best_time_results IS NULL OR v.bt_total > s.best_time_results_total) THEN v.bt_results ELSE s.best_time_results END,
            best_time_results_total = CASE WHEN v.bt_results IS NOT NULL AND (s.best_time_results IS NULL OR v.bt_total > s.best_time_results_total) THEN v.bt_total ELSE s.best_time_results_total END
       FROM (SELECT campaign_id, max(sent) AS sent, max(failed) AS failed, max(expired) AS expired,
                    max(impressions) AS impressions, max(clicks) AS clicks, max(audience) AS audience,
                    max(rejected) AS rejected, max(unauthorized) AS unauthorized, max(unreachable) AS unreachable,
                    max(refused) AS refused, bool_or(finished) AS finished, max(capped) AS capped,
                    (array_agg(by_browser) FILTER (WHERE by_browser IS NOT NULL))[1] AS by_browser,
                    -- The batch's greatest result set (the first of equals), and its first winner.
                    (array_agg(ab_results ORDER BY ab_total DESC, ord) FILTER (WHERE ab_results IS NOT NULL))[1] AS ab_results,
                    max(ab_total) FILTER (WHERE ab_results IS NOT NULL) AS ab_total,
                    (array_agg(winner_variant ORDER BY ord) FILTER (WHERE winner_variant IS NOT NULL))[1] AS winner_variant,
                    (array_agg(winner_decided_at ORDER BY ord) FILTER (WHERE winner_variant IS NOT NULL))[1] AS winner_decided_at,
                    (array_agg(winner_by ORDER BY ord) FILTER (WHERE winner_variant IS NOT NULL))[1] AS winner_by,
                    max(window_ends_at) AS window_ends_at,
                    (array_agg(bt_results ORDER BY bt_total DESC, ord) FILTER (WHERE bt_results IS NOT NULL))[1] AS bt_results,
                    max(bt_total) FILTER (WHERE bt_results IS NOT NULL) AS bt_total
               FROM unnest($1::uuid[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[],
                           $8::bigint[], $9::bigint[], $10::bigint[], $11::bigint[], $12::boolean[], $13::bigint[], $14::json[],
                           $15::json[], $16::bigint[], $17::int[], $18::timestamptz[], $19::text[], $20::timestamptz[],
                           $21::json[], $22::bigint[]) WITH ORDINALITY
                    AS t(campaign_id, sent, failed, expired, impressions, clicks, audience,
                         rejected, unauthorized, unreachable, refused, finished, capped, by_browser,
                         ab_results, ab_total, winner_variant, winner_decided_at, winner_by, window_ends_at, bt_results, bt_total, ord)
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
      messages.map((m) => (m.abTest ? JSON.stringify(abResults(m.abTest.results)) : null)),
      messages.map((m) => (m.abTest ? abTotal(m.abTest.results) : 0)),
      messages.map((m) => winnerOf(m)?.variant ?? null),
      messages.map((m) => winnerOf(m)?.decidedAt ?? null),
      messages.map((m) => winnerOf(m)?.by ?? null),
      messages.map((m) => windowEndOf(m)),
      messages.map((m) => (m.bestTime ? JSON.stringify(slotResults(m.bestTime.slots)) : null)),
      messages.map((m) => (m.bestTime ? slotTotal(m.bestTime.slots) : 0)),
    ],
  );
  const failed = [...new Set(messages.filter((m) => m.state === 'failed').map((m) => m.campaignId))];
  // Only a published campaign moves to failed; nothing moves out of failed.
  if (failed.length > 0) {
    await db.query(`UPDATE campaign.campaigns SET status = 'failed' WHERE id = ANY($1::uuid[]) AND status = 'published'`, [failed]);
  }
}

/**
 * Notifications' impressions and clicks, each kept at the greatest reported, and each step's of
 * an automation grown by exactly what its notification's grew by. The notifications are locked
 * first (in id order, so two batches never wait on each other in a circle): the increase is then
 * computed from what is stored and applied in the same transaction, so a replayed, reordered or
 * concurrently consumed event adds nothing twice.
 */
async function applyNotificationStats(pool: Pool, messages: StatsMessage[]): Promise<void> {
  // An event with neither can raise nothing (a run's first events, every campaign's before it is seen).
  const counted = messages.filter((m) => m.impressions > 0 || m.clicks > 0);
  if (counted.length === 0) return;
  await withTransaction(pool, async (tx) => {
    const { rows } = await tx.query(`SELECT id FROM campaign.notifications WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`, [[...new Set(counted.map((m) => m.campaignId))]]);
    if (rows.length === 0) return;
    const ids = new Set(rows.map((r) => r.id as string));
    const mine = counted.filter((m) => ids.has(m.campaignId));
    // Their automations next, before any step row: a delete of one (which takes its row, then its
    // steps' rows) then waits for this transaction, or this one for it, never both for each other.
    await tx.query(
      `SELECT a.id FROM campaign.automations a
        WHERE a.id IN (SELECT s.automation_id FROM campaign.automation_sends s WHERE s.notification_id = ANY($1::uuid[]))
        ORDER BY a.id FOR KEY SHARE`,
      [[...ids]],
    );
    // `o` is the row as it was before this statement (locked above: nobody changed it since);
    // a step's notification is found by its send rows, however many people it names.
    await tx.query(
      `WITH v AS (
         SELECT id, max(impressions) AS impressions, max(clicks) AS clicks
           FROM unnest($1::uuid[], $2::bigint[], $3::bigint[]) AS t(id, impressions, clicks) GROUP BY id),
       grown AS (
         UPDATE campaign.notifications n SET impressions = GREATEST(o.impressions, v.impressions), clicks = GREATEST(o.clicks, v.clicks)
           FROM v JOIN campaign.notifications o ON o.id = v.id
          WHERE n.id = v.id AND (v.impressions > o.impressions OR v.clicks > o.clicks)
         RETURNING n.id, n.impressions - o.impressions AS impressions, n.clicks - o.clicks AS clicks),
       steps AS (
         SELECT DISTINCT s.notification_id, s.automation_id, s.step FROM campaign.automation_sends s WHERE s.notification_id IN (SELECT id FROM grown))
       INSERT INTO campaign.automation_step_stats AS t (automation_id, step, impressions, clicks)
       SELECT s.automation_id, s.step, sum(g.impressions), sum(g.clicks) FROM steps s JOIN grown g ON g.id = s.notification_id
        GROUP BY s.automation_id, s.step ORDER BY s.automation_id, s.step
       ON CONFLICT (automation_id, step) DO UPDATE SET impressions = t.impressions + EXCLUDED.impressions, clicks = t.clicks + EXCLUDED.clicks`,
      [mine.map((m) => m.campaignId), mine.map((m) => m.impressions), mine.map((m) => m.clicks)],
    );
  });
}
