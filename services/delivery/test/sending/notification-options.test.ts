// A campaign's notification options and urgency where its pushes are made (docs/api-decisions.md,
// "Notification options"): the chunk worker, as the service wires it, against a real Postgres and
// a recording push sender. Every push of a campaign carries its Urgency (normal when the dispatch
// has none, as earlier releases wrote it), and its payload the options, the buttons' links with
// the UTM parameters and the moment it was sent as the notification's time (or the campaign's).
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createLogger } from '@webpush/shared/log.js';
import type { ChunkMessage, DispatchMessage } from '@webpush/contracts/messages.js';
import type { NotificationOptions } from '@webpush/contracts/campaign-content.js';
import type { PushHooks, PushJob, PushResult } from '@webpush/push/types.js';
import type { VapidHeaderCache } from '@webpush/push/vapid.js';
import { heartbeat } from '../../src/sending/instance-store.js';
import { trackingTokensFor } from '../../src/tracking/tracking-token.js';
import { createChunkWorker } from '../../src/sending/chunk-worker.js';
import { createDispatchHandler } from '../../src/sending/dispatch.js';
import { dispatchMessage, newSite, startTestDelivery, type TestDelivery } from '../support.js';

const log = createLogger('options-test', 'error');
const noop = async () => {};
const noVapid = async (): Promise<VapidHeaderCache> => ({ headerFor: () => '', publicKey: '', signatures: 0 });

const OPTIONS: NotificationOptions = {
  actions: [{ title: 'Scores', link: 'https://shop.example/scores#top' }],
  badge: 'https://cdn.example/badge.png',
  requireInteraction: true,
  renotify: false,
  silent: true,
  vibrate: [],
  timestamp: null,
  dir: 'ltr',
  lang: 'pt-BR',
};

describe('sending: notification options and urgency in every push', function () {
  this.timeout(60_000);
  let t: TestDelivery;
  let siteId: string;

  before(async () => {
    t = await startTestDelivery('options');
    siteId = (await newSite(t)).siteId;
    await t.pool.query(
      `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country, topics)
       SELECT $1, 'https://push.example/options-' || g, 'key', 'auth', 'US', ARRAY['all'] FROM generate_series(1, 3) g`,
      [siteId],
    );
  });
  after(async () => t?.stop());

  /** Dispatches `job` and sends its chunks through the chunk worker; answers what the sender was handed. */
  async function send(job: DispatchMessage): Promise<{ jobs: PushJob[]; payloads: Record<string, unknown>[] }> {
    const chunks: ChunkMessage[] = [];
    const dispatch = createDispatchHandler(
      { pool: t.pool, log, publish: async (_topic, messages) => void chunks.push(...messages.map((m) => JSON.parse(m.value.toString()) as ChunkMessage)), publishStats: noop },
      { chunkSize: 10, chunksPerGroup: 10 },
    );
    await dispatch(job, noop);
    const jobs: PushJob[] = [];
    const sender = {
      async sendBatch(j: PushJob, hooks?: PushHooks) {
        jobs.push(j);
        return Promise.all(
          j.subscriptions.map(async (item): Promise<PushResult> => {
            if (hooks?.beforeSend && !(await hooks.beforeSend(item.id))) return { id: item.id, outcome: 'failed', reason: 'not sent', attempts: 0 };
            const result: PushResult = { id: item.id, outcome: 'sent', status: 201, attempts: 1 };
            hooks?.onResult?.(result);
            return result;
          }),
        );
      },
    };
    const instanceId = randomUUID();
    await heartbeat(t.pool, instanceId);
    const handle = createChunkWorker(
      { pool: t.pool, log, instanceId, sender, vapid: noVapid, tokens: trackingTokensFor({ current: t.config.vapidEncryptionKey, previous: [] }), publishStats: noop },
      { deadAfterSec: 30, waitForOthersMs: 2000, claimBatch: 10, retrySec: 5 },
    );
    for (const c of chunks) await handle(c, noop);
    return { jobs, payloads: jobs.flatMap((j) => j.subscriptions.map((s) => JSON.parse(s.payload ?? j.payload) as Record<string, unknown>)) };
  }

  it("when the campaign sets options and urgency low, then every push has Urgency low and the options in its payload, the button's link with the UTM parameters", async () => {
    const job = { ...dispatchMessage(siteId, ['all'], { content: { utmSource: 'push', options: OPTIONS } }), urgency: 'low' as const };
    const before = Date.now();
    const { jobs, payloads } = await send(job);
    expect(jobs.map((j) => j.urgency)).to.satisfy((u: string[]) => u.length > 0 && u.every((x) => x === 'low'));
    expect(payloads).to.have.length(3);
    for (const p of payloads) {
      expect(p).to.deep.include({
        actions: [{ title: 'Scores', url: 'https://shop.example/scores?utm_source=push#top' }],
        badge: 'https://cdn.example/badge.png',
        requireInteraction: true,
        silent: true,
        dir: 'ltr',
        lang: 'pt-BR',
      });
      expect(p).to.not.have.any.keys('renotify', 'vibrate');
      expect(p.timestamp as number, 'the moment it was sent').to.be.within(before, Date.now());
    }
  });

  it('when the dispatch has no urgency and no options (as earlier releases wrote it), then pushes go at normal urgency with the plain payload; a campaign timestamp replaces the send time', async () => {
    const { jobs, payloads } = await send(dispatchMessage(siteId, ['all']));
    expect(jobs.every((j) => j.urgency === 'normal')).to.equal(true);
    for (const p of payloads) expect(Object.keys(p)).to.deep.equal(['v', 'id', 'title', 'body', 'url', 'icon', 'image', 'timestamp', 'token']);
    const stamped = await send(dispatchMessage(siteId, ['all'], { content: { options: { ...OPTIONS, silent: false, timestamp: '2026-12-05T10:00:00Z' } } }));
    for (const p of stamped.payloads) expect(p.timestamp).to.equal(Date.parse('2026-12-05T10:00:00Z'));
  });
});
