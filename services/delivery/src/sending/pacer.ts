// Throttled campaigns (a dispatch with `throttlePerMinute`): instead of expanding the whole
// audience at once, the pacer publishes it one small chunk at a time, each when it is due, so
// pushes leave at the asked rate spread over the minute (a chunk of about a quarter second's
// worth, never a minute's burst at its top). The rate holds across instances: a run's next chunk is claimed
// under its row lock (SKIP LOCKED), by one instance. Progress is stored with each chunk, so a
// restart resumes at the same place and pace; a chunk published twice (a crash between publish
// and commit) is harmless, its rows being claimed once (chunk-worker.ts). Segments apply as in
// an ordinary expansion.
import { withTransaction, type Pool } from '../../../shared/src/db.js';
import type { Logger } from '../../../shared/src/log.js';
import { chunkKey, TOPICS, upgradeDispatch, type ChunkMessage } from '../../../shared/src/messages.js';
import { createPeriodic, quietWhileFailing } from '../../../shared/src/periodic.js';
import { splitAudience } from './dispatch.js';
import { audienceSlice, finishExpansion, recordExpansion } from './run-store.js';

export interface PacerDeps {
  pool: Pool;
  log: Logger;
  publish(topic: string, messages: { key: string; value: Buffer }[]): Promise<void>;
  /** Counters changed (the counter publisher's wake). */
  countersChanged(): void;
}

/** How often the pacer looks for due chunks: the granularity of the pace. */
const PASS_MS = 100;
/** Runs advanced per pass. */
const RUNS_PER_PASS = 50;

/**
 * The chunk size and the time between chunks for `perMinute`: about a quarter second's worth per
 * chunk (at least 1 subscriber, at most `maxChunk`), so 1200/min is 5 every 250 ms and 30/min is
 * 1 every 2 seconds.
 */
export function pace(perMinute: number, maxChunk: number): { size: number; intervalMs: number } {
  const size = Math.min(maxChunk, Math.max(1, Math.round(perMinute / 240)));
  return { size, intervalMs: (size * 60_000) / perMinute };
}

export function createPacer(deps: PacerDeps, opts: { chunkSize: number }) {
  /** One pass: the next chunk of every due run; answers how many runs advanced. */
  async function advanceDue(): Promise<number> {
    return withTransaction(deps.pool, async (tx) => {
      const { rows } = await tx.query(
        `SELECT campaign_id, job, expanded_through::text, chunks_published FROM delivery.campaign_runs
          WHERE state = 'expanding' AND next_expand_at <= now()
          ORDER BY next_expand_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [RUNS_PER_PASS],
      );
      for (const r of rows) {
        const job = upgradeDispatch(r.job);
        const { size, intervalMs } = pace(job.throttlePerMinute ?? Number.MAX_SAFE_INTEGER, opts.chunkSize);
        const { topics, countries } = splitAudience(job.audience);
        const ids = await audienceSlice(tx, job.siteId, topics, countries, r.expanded_through, size, job.segment);
        if (ids.length > 0) {
          const chunk: ChunkMessage = { type: 'delivery.chunk', version: 1, campaignId: job.campaignId, siteId: job.siteId, chunkNo: r.chunks_published, subscriberIds: ids };
          await deps.publish(TOPICS.chunks, [{ key: chunkKey(chunk.campaignId, chunk.chunkNo), value: Buffer.from(JSON.stringify(chunk)) }]);
          await recordExpansion(tx, job.campaignId, ids[ids.length - 1], 1, ids.length);
        }
        if (ids.length < size) {
          const run = await finishExpansion(tx, job.campaignId);
          await tx.query('UPDATE delivery.campaign_runs SET next_expand_at = NULL WHERE campaign_id = $1', [job.campaignId]);
          deps.log.info('throttled campaign expanded', { campaignId: job.campaignId, chunks: run.chunksTotal, state: run.state });
        } else {
          // On time from the last due moment, not from now, so the rate does not drift; a run
          // that fell behind (an outage) resumes at the pace instead of catching up in a burst.
          await tx.query(
            `UPDATE delivery.campaign_runs
                SET next_expand_at = greatest(next_expand_at + $2 * interval '1 millisecond', now() - $2 * interval '1 millisecond')
              WHERE campaign_id = $1`,
            [job.campaignId, intervalMs],
          );
        }
      }
      if (rows.length > 0) deps.countersChanged();
      return rows.length;
    });
  }

  // Postgres or Kafka away: the runs keep their place and pace, and the next pass retries.
  const pass = quietWhileFailing(advanceDue, deps.log, { failed: 'pacing throttled campaigns failed; retried', recovered: 'pacer running again' });
  const loop = createPeriodic(pass, { intervalMs: PASS_MS, onError: (err) => deps.log.error('pacer pass failed', { err }) });
  return { start: loop.start, stop: loop.stop, wake: loop.wake, advanceDue };
}

export type Pacer = ReturnType<typeof createPacer>;
