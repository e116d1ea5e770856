// Sends one chunk of a campaign: claim (campaign, subscription) rows in the delivery log, push
// to the claimed ones, record outcomes — all batched, never one statement per push. A chunk
// delivered again (restart, rebalance) claims nothing already claimed, so nothing is sent twice;
// rows left 'claimed' by a dead instance are ambiguous (maybe sent, result unknown) and are sent
// again — counted — since losing them is worse (the Topic header makes a repeat replace the
// first on the device).
import { withTransaction, type Pool } from '../../../shared/src/db.js';
import type { Logger } from '../../../shared/src/log.js';
import type { ChunkMessage, DispatchMessage } from '../../../shared/src/messages.js';
import { buildPushPayload } from '../../../shared/src/push-payload.js';
import { chunkDone, claim, findRun, heldByOthers, recordOutcomes, subscriptions, type Outcome, type RunRow } from '../db/runs.js';
import type { TrackingTokens } from '../domain/tracking-token.js';
import { failureClassOf } from './failure-class.js';

export interface PushItem {
  id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  payload: string;
}

export interface PushResult {
  id: string;
  outcome: 'sent' | 'expired' | 'failed';
  status?: number;
  reason?: string;
  /** The destination policy refused the endpoint; the sender has logged it once per origin. */
  refused?: true;
  /** POSTs made (0: nothing was sent); tells failure classes apart. */
  attempts?: number;
}

/** Sends pushes for one site with its VAPID keys (see push-gateway.ts). */
export interface Pusher {
  push(siteId: string, meta: { ttl: number; topic: string; urgency: 'normal' }, items: PushItem[]): Promise<PushResult[]>;
}

export interface ChunkDeps {
  pool: Pool;
  log: Logger;
  instanceId: string;
  pusher: Pusher;
  tokens: TrackingTokens;
  publishStats(run: RunRow): Promise<void>;
  /** Metrics: one call per push result, with the push service's origin (scheme://host[:port]). */
  onPushed?(origin: string, outcome: PushResult['outcome']): void;
}

export interface ChunkOptions {
  /** An instance silent this long is dead; its claims can be taken over. */
  deadAfterSec: number;
  /** How long to wait for rows another live instance holds before handing the chunk back. */
  waitForOthersMs: number;
  /** Pushes claimed, sent and recorded together. */
  claimBatch: number;
}

export class ChunkNotFinished extends Error {}

function originOf(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return 'invalid';
  }
}

function payloadFor(job: DispatchMessage, token: string): string {
  return buildPushPayload({
    campaignId: job.campaignId,
    title: job.title,
    body: job.body,
    link: job.link,
    utmSource: job.utmSource,
    utmMedium: job.utmMedium,
    utmCampaign: job.utmCampaign,
    icon: job.icon,
    image: job.image,
    callToAction: job.callToAction,
    trackingToken: token,
  });
}

export function createChunkWorker(deps: ChunkDeps, opts: ChunkOptions) {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  const sendClaimed = async (job: DispatchMessage, ids: string[], ambiguous: number) => {
    const subs = await subscriptions(deps.pool, ids);
    const items: PushItem[] = subs.map((s) => ({
      ...s,
      payload: payloadFor(job, deps.tokens.sign({ campaignId: job.campaignId, subscriberId: s.id })),
    }));
    const results = items.length
      ? await deps.pusher.push(job.siteId, { ttl: job.ttl, topic: job.campaignId.replace(/-/g, ''), urgency: 'normal' }, items)
      : [];
    const outcomes: Outcome[] = results.map((r) => ({ subscriberId: r.id, outcome: r.outcome, status: r.status ?? null, reason: r.reason ?? null, failureClass: failureClassOf(r) }));
    if (deps.onPushed) {
      const origins = new Map(items.map((i) => [i.id, originOf(i.endpoint)]));
      for (const r of results) deps.onPushed(origins.get(r.id) ?? 'unknown', r.outcome);
    }
    for (const r of results) if (r.outcome === 'failed' && !r.refused) deps.log.warn('push failed', { campaignId: job.campaignId, subscriberId: r.id, status: r.status, reason: r.reason });
    await withTransaction(deps.pool, (tx) => recordOutcomes(tx, job.campaignId, deps.instanceId, outcomes, ambiguous));
  };

  return async function handleChunk(chunk: ChunkMessage, heartbeat: () => Promise<void>): Promise<void> {
    const run = await findRun(deps.pool, chunk.campaignId);
    if (!run) {
      deps.log.warn('chunk of an unknown campaign run ignored', { campaignId: chunk.campaignId, chunkNo: chunk.chunkNo });
      return;
    }
    if (run.state === 'failed' || run.state === 'completed') return;
    const until = Date.now() + opts.waitForOthersMs;
    for (let pass = 0; ; pass++) {
      // Claimed and recorded slice by slice: a crash leaves at most one slice ambiguous per chunk.
      for (let at = 0; at < chunk.subscriberIds.length; at += opts.claimBatch) {
        const slice = chunk.subscriberIds.slice(at, at + opts.claimBatch);
        const { fresh, takenOver } = await withTransaction(deps.pool, (tx) => claim(tx, chunk.campaignId, slice, deps.instanceId, opts.deadAfterSec));
        const mine = [...fresh, ...takenOver];
        if (takenOver.length > 0) deps.log.warn('resending pushes left in flight by a dead instance', { campaignId: chunk.campaignId, count: takenOver.length });
        if (mine.length > 0) await sendClaimed(run.job, mine, takenOver.length);
        await heartbeat();
      }
      const others = await heldByOthers(deps.pool, chunk.campaignId, chunk.subscriberIds, deps.instanceId);
      if (others === 0) break;
      if (Date.now() > until) throw new ChunkNotFinished(`${others} pushes of chunk ${chunk.chunkNo} are held by another instance`);
      await sleep(Math.min(1000, 100 * (pass + 1)));
    }
    const after = await withTransaction(deps.pool, (tx) => chunkDone(tx, chunk.campaignId, chunk.chunkNo));
    await deps.publishStats(after);
  };
}
