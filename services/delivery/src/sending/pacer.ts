// Staged runs (stages.ts: local time, A/B tests, throttles, best time; a notification's from its
// targets, on its own chunk topic): the pacer expands each run's due stage, a pass at a time. A throttled run is published in small chunks (about a quarter second's
// worth each), LEAD_MS ahead of their time: the pace itself is kept where the pushes go out
// (send-pace.ts: a slot per push on the campaign's clock), so a chunk consumed late, or several
// at once, never makes a burst, and the lead keeps the senders fed through a slow pass or a
// consumer's lag. A pass that comes late publishes every chunk due by then (time is not dropped);
// after an outage the run starts again with its lead, not with its backlog. An unthrottled stage
// is published as fast as an ordinary expansion. Stages hold across instances: a run is
// advanced under its row lock (SKIP LOCKED), by one instance. Progress is stored with each
// chunk, so a restart resumes at the same place; a chunk published twice (a crash between
// publish and commit) is harmless, its rows being claimed once (chunk-worker.ts). Segments
// apply as in an ordinary expansion. Each pass first chooses the winners of A/B tests whose
// window has ended, so their rest stages become due.
import { withTransaction, type Pool, type Queryable } from '@webpush/shared/db.js';
import type { Logger } from '@webpush/shared/log.js';
import { chunkKey, TOPICS, type ChunkMessage } from '@webpush/contracts/messages.js';
import { createPeriodic, quietWhileFailing } from '@webpush/shared/periodic.js';
import { audienceSlice, finishExpansion, lockDueRuns, nextExpandIn, recordExpansion, stopPacing, type DueRun } from './run-store.js';
import { dueStage, recordStage, scheduleNextStage, stageSql } from './stage-store.js';
import { targetsSlice } from './notification-store.js';
import { decideEndedTests, startTestWindow, winnerGate } from '../ab-tests/index.js';

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
 * How far ahead of their slots a throttled run's chunks are published: the consumer lag and the
 * pass delays a busy machine may add without the pushes falling behind their pace.
 */
export const LEAD_MS = 2000;

/**
 * The chunk size and the time between chunks for `perMinute`: about a quarter second's worth per
 * chunk (at least 1 subscriber, at most `maxChunk`), so 1200/min is 5 every 250 ms and 30/min is
 * 1 every 2 seconds.
 */
export function pace(perMinute: number, maxChunk: number): { size: number; intervalMs: number } {
  const size = Math.min(maxChunk, Math.max(1, Math.round(perMinute / 240)));
  return { size, intervalMs: (size * 60_000) / perMinute };
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
      // A throttled run's next_expand_at is LEAD_MS before the end of what it has published:
      // the chunks due now are those that restore the lead (all of it for a stage just begun,
      // or after an outage longer than the lead).
      const behindMs = stage.expandedThrough === '0' ? LEAD_MS : Math.min(run.lateMs, LEAD_MS);
      const due = paced ? Math.min(opts.chunksPerPass, Math.floor(behindMs / paced.intervalMs) + 1) : opts.chunksPerPass;
      const narrowing = (first: number) => stageSql(stage, job.campaignId, job.abTest, job.bestTime, first);
      const chunks: ChunkMessage[] = [];
      let through = stage.expandedThrough;
      let subscribers = 0;
      let exhausted = false;
      while (chunks.length < due) {
        const ids = job.notification ? await targetsSlice(tx, job.campaignId, through, size, narrowing) : await audienceSlice(tx, job, through, size, narrowing);
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
          job.notification ? TOPICS.notificationChunks : TOPICS.chunks,
          chunks.map((c) => ({ key: chunkKey(c.campaignId, c.chunkNo), value: Buffer.from(JSON.stringify(c)) })),
        );
        // Under the run's lock (lockDueRuns): recorded from what that read.
        await recordExpansion(tx, job.campaignId, run.chunksPublished, through, chunks.length, subscribers);
      }
      await recordStage(tx, job.campaignId, stage.stageNo, through, exhausted);
      // The test window starts at the test share's first push (the chunk worker); a test share
      // with no one in it starts it now, or the rest would wait for a push that never comes.
      if (stage.abGroup === 'test' && job.abTest && windowEndsAt === null && exhausted && through === '0') {
        windowEndsAt = await startTestWindow(tx, job.campaignId, job.abTest.windowMinutes);
      }
      if (!exhausted) {
        // From the published end, not from when this pass ran, so the lead does not drift.
        const aheadMs = paced ? chunks.length * paced.intervalMs - behindMs : 0;
        await nextExpandIn(tx, job.campaignId, aheadMs);
        return;
      }
    }
    if (await scheduleNextStage(tx, job.campaignId, winnerGate(run.winner, windowEndsAt), paced?.intervalMs ?? 0)) return;
    const finished = await finishExpansion(tx, job.campaignId);
    await stopPacing(tx, job.campaignId);
    deps.log.info('staged campaign expanded', { campaignId: job.campaignId, chunks: finished.chunksTotal, state: finished.state });
  }

  /** One pass: winners of ended tests, then the due stage of every due run; answers how many runs advanced. */
  async function advanceDue(): Promise<number> {
    return withTransaction(deps.pool, async (tx) => {
      const decided = await decideEndedTests(tx, RUNS_PER_PASS);
      for (const campaignId of decided) deps.log.info('A/B test winner chosen by its metric', { campaignId });
      const runs = await lockDueRuns(tx, RUNS_PER_PASS);
      for (const run of runs) await advanceRun(tx, run);
      if (runs.length > 0 || decided.length > 0) deps.countersChanged();
      return runs.length;
    });
  }

  // Postgres or Kafka away: the runs keep their place, and the next pass retries.
  const pass = quietWhileFailing(advanceDue, deps.log, { failed: 'pacing throttled campaigns failed; retried', recovered: 'pacer running again' });
  const loop = createPeriodic(pass, { intervalMs: PASS_MS, onError: (err) => deps.log.error('pacer pass failed', { err }) });
  return { start: loop.start, stop: loop.stop, wake: loop.wake, advanceDue };
}

export type Pacer = ReturnType<typeof createPacer>;
