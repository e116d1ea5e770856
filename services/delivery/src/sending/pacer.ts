// Staged runs (stages.ts: local time, A/B tests, throttles): the pacer expands each run's due
// stage, a pass at a time. A throttled run publishes one small chunk per due moment, so pushes
// leave at the asked rate spread over the minute (a chunk of about a quarter second's worth,
// never a minute's burst at its top), each stage in turn at that rate; an unthrottled stage is
// published as fast as an ordinary expansion. The pace and the stages hold across instances: a
// run is advanced under its row lock (SKIP LOCKED), by one instance. Progress is stored with
// each chunk, so a restart resumes at the same place and pace; a chunk published twice (a crash
// between publish and commit) is harmless, its rows being claimed once (chunk-worker.ts).
// Segments apply as in an ordinary expansion. Each pass first chooses the winners of A/B tests
// whose window has ended, so their rest stages become due.
import { withTransaction, type Pool, type Queryable } from '../../../shared/src/db.js';
import type { Logger } from '../../../shared/src/log.js';
import { chunkKey, TOPICS, upgradeDispatch, type ChunkMessage, type DispatchMessage } from '../../../shared/src/messages.js';
import { createPeriodic, quietWhileFailing } from '../../../shared/src/periodic.js';
import { audienceSlice, finishExpansion, recordExpansion } from './run-store.js';
import { decideEndedTests, dueStage, recordStage, scheduleNextStage, stageSql, startTestWindow, winnerGate } from './stages.js';

export interface PacerDeps {
  pool: Pool;
  log: Logger;
  publish(topic: string, messages: { key: string; value: Buffer }[]): Promise<void>;
  /** Counters changed (the counter publisher's wake). */
  countersChanged(): void;
}

export interface PacerOptions {
  chunkSize: number;
  /** Chunks an unthrottled stage publishes per pass (one produce call). */
  chunksPerPass: number;
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

interface DueRun {
  job: DispatchMessage;
  chunksPublished: number;
  winner: Parameters<typeof winnerGate>[0];
  windowEndsAt: Date | null;
}

export function createPacer(deps: PacerDeps, opts: PacerOptions) {
  /** Advances one due run: the next chunk(s) of its due stage, then when it is due again. */
  async function advanceRun(tx: Queryable, run: DueRun): Promise<void> {
    const { job } = run;
    const paced = job.throttlePerMinute !== undefined ? pace(job.throttlePerMinute, opts.chunkSize) : null;
    let windowEndsAt = run.windowEndsAt;
    const stage = await dueStage(tx, job.campaignId, winnerGate(run.winner, windowEndsAt));
    if (stage) {
      const size = paced?.size ?? opts.chunkSize;
      const narrowing = (first: number) => stageSql(stage, job.campaignId, job.abTest, first);
      const chunks: ChunkMessage[] = [];
      let through = stage.expandedThrough;
      let subscribers = 0;
      let exhausted = false;
      while (chunks.length < (paced ? 1 : opts.chunksPerPass)) {
        const ids = await audienceSlice(tx, job, through, size, narrowing);
        if (ids.length > 0) {
          chunks.push({ type: 'delivery.chunk', version: 1, campaignId: job.campaignId, siteId: job.siteId, chunkNo: run.chunksPublished + chunks.length, subscriberIds: ids });
          through = ids[ids.length - 1];
          subscribers += ids.length;
        }
        if (ids.length < size) {
          exhausted = true;
          break;
        }
      }
      if (chunks.length > 0) {
        await deps.publish(
          TOPICS.chunks,
          chunks.map((c) => ({ key: chunkKey(c.campaignId, c.chunkNo), value: Buffer.from(JSON.stringify(c)) })),
        );
        await recordExpansion(tx, job.campaignId, through, chunks.length, subscribers);
      }
      await recordStage(tx, job.campaignId, stage.stageNo, through, exhausted);
      // The test window starts at the test share's first push (the chunk worker); a test share
      // with no one in it starts it now, or the rest would wait for a push that never comes.
      if (stage.abGroup === 'test' && job.abTest && windowEndsAt === null && exhausted && through === '0') {
        windowEndsAt = await startTestWindow(tx, job.campaignId, job.abTest.windowMinutes);
      }
      if (!exhausted) {
        // On time from the last due moment, not from now, so the rate does not drift; a run
        // that fell behind (an outage) resumes at the pace instead of catching up in a burst.
        await tx.query(
          `UPDATE delivery.campaign_runs
              SET next_expand_at = CASE WHEN $2::float8 = 0 THEN now()
                                        ELSE greatest(next_expand_at + $2 * interval '1 millisecond', now() - $2 * interval '1 millisecond') END
            WHERE campaign_id = $1`,
          [job.campaignId, paced?.intervalMs ?? 0],
        );
        return;
      }
    }
    if (await scheduleNextStage(tx, job.campaignId, winnerGate(run.winner, windowEndsAt), paced?.intervalMs ?? 0)) return;
    const finished = await finishExpansion(tx, job.campaignId);
    await tx.query('UPDATE delivery.campaign_runs SET next_expand_at = NULL WHERE campaign_id = $1', [job.campaignId]);
    deps.log.info('staged campaign expanded', { campaignId: job.campaignId, chunks: finished.chunksTotal, state: finished.state });
  }

  /** One pass: winners of ended tests, then the due stage of every due run; answers how many runs advanced. */
  async function advanceDue(): Promise<number> {
    return withTransaction(deps.pool, async (tx) => {
      const decided = await decideEndedTests(tx, RUNS_PER_PASS);
      for (const campaignId of decided) deps.log.info('A/B test winner chosen by its metric', { campaignId });
      const { rows } = await tx.query(
        `SELECT campaign_id, job, chunks_published, ab_winner, ab_window_ends_at FROM delivery.campaign_runs
          WHERE state = 'expanding' AND next_expand_at <= now()
          ORDER BY next_expand_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [RUNS_PER_PASS],
      );
      for (const r of rows) {
        await advanceRun(tx, { job: upgradeDispatch(r.job), chunksPublished: r.chunks_published, winner: r.ab_winner, windowEndsAt: r.ab_window_ends_at });
      }
      if (rows.length > 0 || decided.length > 0) deps.countersChanged();
      return rows.length;
    });
  }

  // Postgres or Kafka away: the runs keep their place and pace, and the next pass retries.
  const pass = quietWhileFailing(advanceDue, deps.log, { failed: 'pacing throttled campaigns failed; retried', recovered: 'pacer running again' });
  const loop = createPeriodic(pass, { intervalMs: PASS_MS, onError: (err) => deps.log.error('pacer pass failed', { err }) });
  return { start: loop.start, stop: loop.stop, wake: loop.wake, advanceDue };
}

export type Pacer = ReturnType<typeof createPacer>;
