// A sent campaign's revisions where their pushes are made (docs/api-decisions.md, "Update and
// recall"): the dispatch handler and the chunk worker as the service wires them, against a real
// Postgres and a recording push sender. A revision goes once to each subscriber the campaign was
// sent to and still active, as the campaign's notification (its id, Topic and tracking token),
// whatever the site's frequency cap; a revision of a campaign still sending goes nowhere.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createLogger } from '@webpush/shared/log.js';
import type { ChunkMessage, DispatchMessage, Revision } from '@webpush/contracts/messages.js';
import type { PushHooks, PushJob, PushResult } from '@webpush/push/types.js';
import type { VapidHeaderCache } from '@webpush/push/vapid.js';
import { heartbeat } from '../../src/sending/instance-store.js';
import { trackingTokensFor } from '../../src/tracking/tracking-token.js';
import { createChunkWorker } from '../../src/sending/chunk-worker.js';
import { createDispatchHandler } from '../../src/sending/dispatch.js';
import { findRun } from '../../src/sending/run-store.js';
import { dispatchMessage, newSite, startTestDelivery, type TestDelivery } from '../support.js';

const log = createLogger('revisions-test', 'error');
const noop = async () => {};
const noVapid = async (): Promise<VapidHeaderCache> => ({ headerFor: () => '', publicKey: '', signatures: 0 });

describe('sending: revisions of a sent campaign', function () {
  this.timeout(60_000);
  let t: TestDelivery;
  let siteId: string;
  let tokens: ReturnType<typeof trackingTokensFor>;
  /** Subscriber ids by endpoint suffix 1..5. */
  let ids: string[];

  before(async () => {
    t = await startTestDelivery('revisions');
    siteId = (await newSite(t)).siteId;
    tokens = trackingTokensFor({ current: t.config.vapidEncryptionKey, previous: [] });
    const { rows } = await t.pool.query(
      `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country, topics)
       SELECT $1, 'https://push.example/revision-' || g, 'key', 'auth', 'US', ARRAY['all'] FROM generate_series(1, 5) g
       RETURNING id::text`,
      [siteId],
    );
    ids = rows.map((r) => r.id as string).sort((a, b) => Number(a) - Number(b));
  });
  after(async () => t?.stop());

  /**
   * Dispatches `job` and sends its chunks through the chunk worker (`failing`: subscribers whose
   * push the push service refuses); answers what the sender was handed.
   */
  async function send(job: DispatchMessage, failing: string[] = []): Promise<{ jobs: PushJob[]; pushed: { id: string; payload: Record<string, unknown> }[]; chunks: ChunkMessage[] }> {
    const chunks: ChunkMessage[] = [];
    const dispatch = createDispatchHandler(
      { pool: t.pool, log, publish: async (_topic, messages) => void chunks.push(...messages.map((m) => JSON.parse(m.value.toString()) as ChunkMessage)), publishStats: noop },
      { chunkSize: 2, chunksPerGroup: 10 },
    );
    await dispatch(job, noop);
    const jobs: PushJob[] = [];
    const sender = {
      async sendBatch(j: PushJob, hooks?: PushHooks) {
        jobs.push(j);
        return Promise.all(
          j.subscriptions.map(async (item): Promise<PushResult> => {
            if (hooks?.beforeSend && !(await hooks.beforeSend(item.id))) return { id: item.id, outcome: 'failed', reason: 'not sent', attempts: 0 };
            const result: PushResult = failing.includes(item.id) ? { id: item.id, outcome: 'failed', status: 400, attempts: 1 } : { id: item.id, outcome: 'sent', status: 201, attempts: 1 };
            hooks?.onResult?.(result);
            return result;
          }),
        );
      },
    };
    const instanceId = randomUUID();
    await heartbeat(t.pool, instanceId);
    const handle = createChunkWorker(
      { pool: t.pool, log, instanceId, sender, vapid: noVapid, tokens, publishStats: noop },
      { deadAfterSec: 30, waitForOthersMs: 2000, claimBatch: 10, retrySec: 5 },
    );
    // Every chunk twice: a chunk delivered again (a restart, a rebalance) sends nothing more.
    for (const c of [...chunks, ...chunks]) await handle(c, noop);
    const pushed = jobs.flatMap((j) => j.subscriptions.map((s) => ({ id: s.id, payload: JSON.parse(s.payload ?? j.payload) as Record<string, unknown> })));
    return { jobs, pushed, chunks };
  }

  function revisionJob(of: DispatchMessage, revision: Omit<Revision, 'campaignId'>, content: Partial<DispatchMessage['content']> = {}): DispatchMessage {
    return { ...dispatchMessage(siteId, []), ttl: of.ttl, content: { ...of.content, ...content }, revision: { campaignId: of.campaignId, ...revision } };
  }

  it('when a sent campaign is updated, then each subscriber it was sent to and still active gets the correction once, as the campaign\'s notification; its cap holds nothing back', async () => {
    // A cap of one campaign a day, which the campaign itself uses up.
    await t.pool.query('UPDATE delivery.sites SET cap_campaigns = 1, cap_hours = 24 WHERE site_id = $1', [siteId]);
    const campaign = dispatchMessage(siteId, ['all']);
    await send(campaign, [ids[1]]);
    // Unsubscribed since: not pushed again.
    await t.pool.query('UPDATE delivery.subscribers SET active = false WHERE id = $1', [ids[4]]);

    const job = revisionJob(campaign, { number: 1, action: 'update' }, { title: 'Hello again', body: 'Corrected' });
    const { jobs, pushed } = await send(job);
    expect(pushed.map((p) => p.id).sort()).to.deep.equal([ids[0], ids[2], ids[3]].sort());
    expect(jobs.every((j) => j.topic === campaign.campaignId.replace(/-/g, ''))).to.equal(true);
    for (const { id, payload } of pushed) {
      expect(payload).to.deep.include({ revision: 1, id: campaign.campaignId, title: 'Hello again', body: 'Corrected', token: tokens.signAll(campaign.campaignId, [id])[0] });
    }
    const run = await findRun(t.pool, job.campaignId);
    expect(run).to.deep.include({ state: 'completed', sent: 3 });
    // The campaign's own run is untouched.
    expect(await findRun(t.pool, campaign.campaignId)).to.deep.include({ sent: 4, failed: 1 });
    await t.pool.query('UPDATE delivery.sites SET cap_campaigns = NULL, cap_hours = NULL WHERE site_id = $1', [siteId]);
    await t.pool.query('UPDATE delivery.subscribers SET active = true WHERE id = $1', [ids[4]]);
  });

  it('when a sent campaign is recalled, then each subscriber it was sent to gets a push that only names it, and a second recall job of the same id sends nothing more', async () => {
    const campaign = dispatchMessage(siteId, ['all']);
    await send(campaign);
    const job = revisionJob(campaign, { number: 2, action: 'recall' });
    const { pushed } = await send(job);
    expect(pushed.map((p) => p.id).sort()).to.deep.equal([...ids].sort());
    for (const { payload } of pushed) expect(payload).to.deep.equal({ v: 1, id: campaign.campaignId, revision: 2, recall: true });
    expect((await send(job)).pushed, 'the same job again (a relay that published twice)').to.have.length(0);
  });

  it('when the campaign revised has not finished sending (or has no run), then the revision fails with the reason and pushes nothing', async () => {
    const campaign = dispatchMessage(siteId, ['all']);
    const job = revisionJob(campaign, { number: 1, action: 'recall' });
    const { pushed, chunks } = await send(job);
    expect(pushed).to.have.length(0);
    expect(chunks).to.have.length(0);
    expect(await findRun(t.pool, job.campaignId)).to.deep.include({ state: 'failed', reason: 'the campaign has not finished sending' });
  });

  it('when a revision run is created and ends, then no campaign webhook event is written for it (the campaign\'s own are)', async () => {
    // A receiver that is never reached (hooks.example does not resolve): only the events written matter here.
    const body = JSON.stringify({ url: 'https://hooks.example/in', events: ['campaign.dispatched', 'campaign.completed', 'campaign.failed'] });
    await new Promise((resolve, reject) => t.webhooks.CreateWebhook({ siteId, bodyJson: body }, (err, res) => (err ? reject(err) : resolve(res))));
    const campaign = dispatchMessage(siteId, ['all']);
    await send(campaign);
    const job = revisionJob(campaign, { number: 1, action: 'recall' });
    await send(job);
    const { rows } = await t.pool.query(`SELECT body::json->'data'->>'campaignId' AS id, event_type FROM delivery.webhook_deliveries ORDER BY created_at, event_type DESC`);
    expect(rows.filter((r) => r.id === job.campaignId)).to.deep.equal([]);
    expect(rows.filter((r) => r.id === campaign.campaignId).map((r) => r.event_type)).to.deep.equal(['campaign.dispatched', 'campaign.completed']);
  });
});
