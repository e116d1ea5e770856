// Takes a dispatched campaign: creates its run once, then streams its audience (active
// subscribers in topics ∪ countries, narrowed by its segment; for a revision of a campaign, the
// subscribers that campaign was sent to; for a notification, the site's active subscribers among
// those it names, or the active subscriptions of the people it names, resolved once) by keyset in id order and
// publishes it as chunk messages, a notification's on its own chunk topic (a campaign with local
// time, an A/B test or a throttle, or one with zones in the site's quiet hours, is planned in
// stages instead, which the pacer expands: stages.ts),
// recording progress after every group so a restarted instance resumes where it stopped. The
// audience is never held in memory: one slice of `chunkSize` ids at a time.
import { withTransaction, type Pool } from '@webpush/shared/db.js';
import type { Logger } from '@webpush/shared/log.js';
import { chunkKey, TOPICS, type ChunkMessage, type DispatchMessage } from '@webpush/contracts/messages.js';
import { audienceSlice, failRun, findRun, finishExpansion, recipientsSlice, recordExpansion, revisedRun, runFor, startPacing, type RunRow } from './run-store.js';
import { isStaged, storeStagePlan } from './stages.js';
import { bestTimePlan, freezeBestTimeBatch } from './best-time-store.js';
import { lockNotificationRun, resolveTargets, storePersonTargets, storeRenderings, targetsSlice, targetsToRender } from './notification-store.js';
import { renderForTarget } from './notification-render.js';
import { activeSubscriptionsOfPeople, tagTextsOfPeople, tagTextsOfSubscribers } from '../people/index.js';
import { findSiteById } from '../sites/index.js';

export interface DispatchDeps {
  pool: Pool;
  log: Logger;
  publish(topic: string, messages: { key: string; value: Buffer }[]): Promise<void>;
  publishStats(run: RunRow): Promise<void>;
  /** A staged run was handed to the pacer (pacer.ts): wake it. */
  paced?(): void;
  /**
   * The notification lane's chunk worker (chunk-worker.ts): a notification sent at once whose
   * targets fit one chunk is sent by this handler through it, without the chunk topic's hop
   * (docs/architecture.md, "A notification").
   */
  sendChunk?(chunk: ChunkMessage, heartbeat: () => Promise<void>): Promise<void>;
  /**
   * A campaign's expansion takes a turn per group of chunks (lane-priority.ts campaignTurn, as
   * its chunks' claim batches do): while notifications are being sent, reading a large audience
   * and publishing its chunks waits for them instead of holding the machine.
   */
  turn?: () => Promise<() => void>;
}

export interface DispatchOptions {
  chunkSize: number;
  /** The most chunks published per produce call (and per progress update); the first call has one. */
  chunksPerGroup: number;
  /** Subscribers whose best-time slots are frozen per statement (each committed, the consumer's heartbeat between); BEST_TIME_BATCH when absent. */
  bestTimeBatch?: number;
}

/**
 * A best-time freeze's batch: 0.2 to 0.5 s of Postgres on a loaded machine (51 batches for
 * 100,000 subscribers), far inside the consumer's session timeout.
 */
const BEST_TIME_BATCH = 2000;

export function createDispatchHandler(deps: DispatchDeps, opts: DispatchOptions) {
  return async function handleDispatch(job: DispatchMessage, heartbeat: () => Promise<void>): Promise<void> {
    let run = await runFor(deps.pool, job);
    if (run.state !== 'expanding') return; // a repeated dispatch of a campaign already taken
    const site = await findSiteById(deps.pool, job.siteId);
    if (!site) {
      run = await failRun(deps.pool, job.campaignId, 'the site has no VAPID keys in the delivery service');
      deps.log.warn('campaign failed', { campaignId: job.campaignId, reason: run.reason });
      await deps.publishStats(run);
      return;
    }
    if (job.revision) {
      // A revision goes to whom the campaign was sent: only once its run is final (the campaign
      // service refuses one before: its stats said so), and while its delivery log is kept.
      const revised = await revisedRun(deps.pool, job.revision.campaignId);
      const refused = !revised || (revised.state !== 'completed' && revised.state !== 'failed') ? 'the campaign has not finished sending' : revised.logExpired ? "the campaign's delivery log has expired" : null;
      if (refused) {
        run = await failRun(deps.pool, job.campaignId, refused);
        deps.log.warn('revision failed', { campaignId: job.revision.campaignId, revisionId: job.campaignId, reason: refused });
        await deps.publishStats(run);
        return;
      }
    }
    // Resolved before the first slice is read; a repeated dispatch of a run still expanding finds them stored.
    if (job.notification?.subscriptionIds) await resolveTargets(deps.pool, job.campaignId, job.siteId, job.notification.subscriptionIds);
    if (job.notification?.externalIds) {
      // People: each one's active subscriptions as they are now, stored once (a repeat finds them stored).
      const people = job.notification.externalIds;
      await withTransaction(deps.pool, async (tx) => {
        await lockNotificationRun(tx, job.campaignId);
        await storePersonTargets(tx, job.campaignId, people, await activeSubscriptionsOfPeople(tx, job.siteId, people));
      });
    }
    // A template: each target's content rendered once, before any is sent (notification-render.ts).
    const template = job.notification?.template;
    if (template) {
      await withTransaction(deps.pool, async (tx) => {
        await lockNotificationRun(tx, job.campaignId);
        const rows = await targetsToRender(tx, job.campaignId);
        if (rows.length === 0) return;
        const byPerson = job.notification?.externalIds
          ? await tagTextsOfPeople(tx, job.siteId, [...new Set(rows.map((r) => r.externalId!))])
          : await tagTextsOfSubscribers(tx, job.siteId, rows.map((r) => r.subscriberId));
        const renderings = rows.map((r) => {
          const rendered = renderForTarget(job.content, template, byPerson.get(r.externalId ?? r.subscriberId));
          return { position: r.position, ...('content' in rendered ? { content: rendered.content, reason: '' } : { content: null, reason: rendered.reason }) };
        });
        await storeRenderings(tx, job.campaignId, renderings);
        const failed = renderings.filter((r) => r.content === null).length;
        if (failed > 0) deps.log.info('notification not rendered for some targets', { campaignId: job.campaignId, failed, rendered: renderings.length - failed });
      });
    }
    // Local time, A/B test, throttle, best time or zones in quiet hours: the pacer expands the audience in
    // stages, each when due. A notification sent at once that does not keep quiet hours has
    // none of them (storeStagePlan): no transaction of three round trips on the lane's pool for
    // a plan it cannot have.
    const unplanned = job.notification !== undefined && !job.notification.quietHours && !isStaged(job);
    const stages = unplanned ? null : await withTransaction(deps.pool, async (tx) => {
      const planned = await storeStagePlan(tx, job);
      if (planned && !job.bestTime) await startPacing(tx, job.campaignId, planned[0].at);
      return planned;
    });
    if (stages && job.bestTime) {
      // Every subscriber's slot is frozen before the pacer may start (one without a slot would go
      // with the last). In batches, each committed with its progress, so a long freeze neither
      // holds one transaction nor starves the consumer's heartbeat; a redelivered dispatch
      // resumes after the last batch (a run planned before batches, its slots stored with its
      // stages, has no plan). Bounded: each batch moves past at least one id or is the last.
      let plan = await bestTimePlan(deps.pool, job.campaignId);
      let batches = 0;
      while (plan && !plan.done) {
        plan = { ...plan, ...(await freezeBestTimeBatch(deps.pool, job, job.bestTime, plan, opts.bestTimeBatch ?? BEST_TIME_BATCH)) };
        batches++;
        await heartbeat();
      }
      await startPacing(deps.pool, job.campaignId, stages[0].at);
      if (batches > 0) deps.log.info('best-time slots frozen', { campaignId: job.campaignId, batches });
    }
    if (stages) {
      deps.log.info('campaign planned in stages', { campaignId: job.campaignId, stages: stages.length, first: stages[0].at.toISOString() });
      deps.paced?.();
      return;
    }
    let after = run.expandedThrough;
    let chunkNo = run.chunksPublished;
    if (job.notification && deps.sendChunk && after === '0') {
      // One chunk: sent here, then recorded. A crash before the record leaves the run as it was,
      // and the redelivered job sends the same chunk again: its rows are final, nothing goes
      // twice, and the chunk is counted done once (chunkDone). After the record the job ends as
      // an expansion whose chunks are all done. Two handlings at once (a copy of the message on
      // another instance) claim its rows once between them and record it once.
      const ids = await targetsSlice(deps.pool, job.campaignId, after, opts.chunkSize);
      if (ids.length < opts.chunkSize) {
        if (ids.length > 0) {
          await deps.sendChunk({ type: 'delivery.chunk', version: 1, campaignId: job.campaignId, siteId: job.siteId, chunkNo: 0, subscriberIds: ids }, heartbeat);
          // False when another handling of the job recorded it first: the chunk is the same.
          await recordExpansion(deps.pool, job.campaignId, chunkNo, ids[ids.length - 1], 1, ids.length);
        }
        run = await finishExpansion(deps.pool, job.campaignId);
        await deps.publishStats(run);
        return;
      }
    }
    // The first group is one chunk, so the first pushes leave after one audience read rather
    // than chunksPerGroup of them; groups then double up to chunksPerGroup.
    let groupSize = 1;
    /**
     * Reads the next group of up to `size` chunks after `from`, publishes and records it; answers
     * it (empty at the end) and whether it was recorded (false: another handling was first).
     */
    const publishGroup = async (from: string, size: number): Promise<{ group: ChunkMessage[]; recorded: boolean }> => {
      const group: ChunkMessage[] = [];
      let last = from;
      let count = 0;
      while (group.length < size) {
        const ids = job.revision
          ? await recipientsSlice(deps.pool, job.revision.campaignId, last, opts.chunkSize)
          : job.notification
            ? await targetsSlice(deps.pool, job.campaignId, last, opts.chunkSize)
            : await audienceSlice(deps.pool, job, last, opts.chunkSize);
        if (ids.length === 0) break;
        group.push({ type: 'delivery.chunk', version: 1, campaignId: job.campaignId, siteId: job.siteId, chunkNo: chunkNo + group.length, subscriberIds: ids });
        last = ids[ids.length - 1];
        count += ids.length;
        if (ids.length < opts.chunkSize) break;
      }
      if (group.length === 0) return { group, recorded: true };
      await deps.publish(
        job.notification ? TOPICS.notificationChunks : TOPICS.chunks,
        group.map((c) => ({ key: chunkKey(c.campaignId, c.chunkNo), value: Buffer.from(JSON.stringify(c)) })),
      );
      return { group, recorded: await recordExpansion(deps.pool, job.campaignId, chunkNo, last, group.length, count) };
    };
    // Bounded: each pass consumes at least one new id, follows another handling's progress, or ends.
    for (;;) {
      const endTurn = deps.turn ? await deps.turn() : () => {};
      const { group, recorded } = await publishGroup(after, groupSize).finally(endTurn);
      if (!recorded) {
        // Another handling of this job (a copy of the message, handled at the same time by
        // another instance) recorded these chunk numbers first: go on from its progress. What
        // this one published under them is a chunk published twice, its rows claimed once.
        const now = await findRun(deps.pool, job.campaignId);
        if (now?.state !== 'expanding') return;
        after = now.expandedThrough;
        chunkNo = now.chunksPublished;
        await heartbeat();
        continue;
      }
      if (group.length === 0) break;
      const lastChunk = group[group.length - 1].subscriberIds;
      after = lastChunk[lastChunk.length - 1];
      chunkNo += group.length;
      groupSize = Math.min(groupSize * 2, opts.chunksPerGroup);
      await heartbeat();
      if (lastChunk.length < opts.chunkSize) break;
    }
    run = await finishExpansion(deps.pool, job.campaignId);
    deps.log.info('campaign expanded', { campaignId: job.campaignId, chunks: run.chunksTotal, state: run.state });
    await deps.publishStats(run);
  };
}
