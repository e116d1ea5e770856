// A notification to chosen subscriptions where its pushes are made (docs/api-decisions.md,
// "Notifications"): the dispatch handler and the chunk worker as the service wires them, against a
// real Postgres and a recording push sender. The targets are resolved once, to the site's active
// subscriptions only; each gets one push whatever repeats (the job, its chunks); the chunks go
// to the notifications' own topic; the results say what happened to each name, in its order;
// the cap holds back all but a transactional one; notification.sent carries the counts.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createLogger } from '@webpush/shared/log.js';
import { TOPICS, type ChunkMessage, type DispatchMessage } from '@webpush/contracts/messages.js';
import type { PushHooks, PushJob, PushResult } from '@webpush/push/types.js';
import type { VapidHeaderCache } from '@webpush/push/vapid.js';
import { heartbeat } from '../../src/sending/instance-store.js';
import { trackingTokensFor } from '../../src/tracking/tracking-token.js';
import { createChunkWorker } from '../../src/sending/chunk-worker.js';
import { createDispatchHandler } from '../../src/sending/dispatch.js';
import { findRun } from '../../src/sending/run-store.js';
import { targetResults } from '../../src/sending/notification-store.js';
import { deletePersonEverywhere } from '../../src/people/people-store.js';
import { withTransaction } from '@webpush/shared/db.js';
import { dispatchMessage, newSite, startTestDelivery, type TestDelivery } from '../support.js';

const log = createLogger('notifications-test', 'error');
const noop = async () => {};
const noVapid = async (): Promise<VapidHeaderCache> => ({ headerFor: () => '', publicKey: '', signatures: 0 });

describe('sending: notifications to chosen subscriptions', function () {
  this.timeout(60_000);
  let t: TestDelivery;
  let siteId: string;
  let otherSite: string;
  let tokens: ReturnType<typeof trackingTokensFor>;
  /** Public ids of the site's five subscriptions, and of the other site's one. */
  let mine: string[];
  let theirs: string;

  before(async () => {
    t = await startTestDelivery('notifications');
    siteId = (await newSite(t)).siteId;
    otherSite = (await newSite(t)).siteId;
    tokens = trackingTokensFor({ current: t.config.vapidEncryptionKey, previous: [] });
    const { rows } = await t.pool.query(
      `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country, topics)
       SELECT $1, 'https://push.example/notify-' || g, 'key', 'auth', 'US', ARRAY['all'] FROM generate_series(1, 5) g
       RETURNING public_id::text`,
      [siteId],
    );
    mine = rows.map((r) => r.public_id as string);
    const other = await t.pool.query(
      `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country, topics) VALUES ($1, 'https://push.example/other', 'key', 'auth', 'US', ARRAY['all']) RETURNING public_id::text`,
      [otherSite],
    );
    theirs = other.rows[0].public_id;
  });
  after(async () => t?.stop());

  /** Dispatches `job` and sends its chunks (each twice); answers the pushes handed to the sender and the topics the chunks went to. */
  async function send(job: DispatchMessage, failing: string[] = []): Promise<{ pushed: { endpoint: string; payload: Record<string, unknown> }[]; topics: string[]; chunks: ChunkMessage[] }> {
    const chunks: ChunkMessage[] = [];
    const topics: string[] = [];
    const dispatch = createDispatchHandler(
      {
        pool: t.pool,
        log,
        publish: async (topic, messages) => {
          topics.push(topic);
          chunks.push(...messages.map((m) => JSON.parse(m.value.toString()) as ChunkMessage));
        },
        publishStats: noop,
      },
      { chunkSize: 2, chunksPerGroup: 10 },
    );
    // The job twice: a relay that published it twice.
    await dispatch(job, noop);
    await dispatch(job, noop);
    const jobs: PushJob[] = [];
    const sender = {
      async sendBatch(j: PushJob, hooks?: PushHooks) {
        jobs.push(j);
        return Promise.all(
          j.subscriptions.map(async (item): Promise<PushResult> => {
            if (hooks?.beforeSend && !(await hooks.beforeSend(item.id))) return { id: item.id, outcome: 'failed', reason: 'not sent', attempts: 0 };
            const result: PushResult = failing.some((f) => item.endpoint.endsWith(f)) ? { id: item.id, outcome: 'failed', status: 400, attempts: 1 } : { id: item.id, outcome: 'sent', status: 201, attempts: 1 };
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
    for (const c of [...chunks, ...chunks]) await handle(c, noop);
    const pushed = jobs.flatMap((j) => j.subscriptions.map((s) => ({ endpoint: s.endpoint, payload: JSON.parse(s.payload ?? j.payload) as Record<string, unknown> })));
    return { pushed, topics, chunks };
  }

  const notification = (subscriptionIds: string[], extra: Partial<DispatchMessage> = {}): DispatchMessage => ({ ...dispatchMessage(siteId, []), notification: { subscriptionIds }, ...extra });

  it("when the site's subscriptions, an unknown id and another site's are named, then each of the site's gets one push on the notifications' topic, and the results say so in the order named", async () => {
    const unknown = randomUUID();
    const job = notification([mine[3], unknown, mine[0], theirs, mine[1]]);
    const { pushed, topics } = await send(job, ['notify-2']);
    expect([...new Set(topics)]).to.deep.equal([TOPICS.notificationChunks]);
    expect(pushed.map((p) => p.endpoint).sort()).to.deep.equal(['https://push.example/notify-1', 'https://push.example/notify-2', 'https://push.example/notify-4']);
    for (const p of pushed) expect(p.payload).to.deep.include({ id: job.campaignId, title: job.content.title });
    expect(await findRun(t.pool, job.campaignId)).to.deep.include({ state: 'completed', sent: 2, failed: 1 });
    const { counts, results, hasMore } = await targetResults(t.pool, job.campaignId, 0, 10);
    expect(counts).to.deep.equal({ sent: 2, noSubscription: 2, capped: 0, failed: 1, pending: 0 });
    expect(results.map((r) => [r.subscriptionId, r.outcome])).to.deep.equal([
      [mine[3], 'sent'],
      [unknown, 'noSubscription'],
      [mine[0], 'sent'],
      [theirs, 'noSubscription'],
      [mine[1], 'failed'],
    ]);
    expect(hasMore).to.equal(false);
    const page = await targetResults(t.pool, job.campaignId, 2, 2);
    expect([page.results.map((r) => r.position), page.hasMore]).to.deep.equal([[3, 4], true]);
  });

  it('when retention has expired the delivery log of a finished notification, then its results are still answered, from the outcomes kept with its targets', async () => {
    const job = notification([mine[2], randomUUID(), mine[0]]);
    await send(job, ['notify-1']);
    const before = await targetResults(t.pool, job.campaignId, 0, 10);
    expect(before.results.map((r) => r.outcome)).to.deep.equal(['sent', 'noSubscription', 'failed']);
    // What the retention pass leaves (retention.ts): the run marked, its log rows gone with their piece.
    const { rows } = await t.pool.query(`SELECT to_char(log_piece, 'YYYYMMDD') AS piece FROM delivery.campaign_runs WHERE campaign_id = $1`, [job.campaignId]);
    await t.pool.query(`DELETE FROM delivery.${rows[0].piece ? `delivery_log_${rows[0].piece}` : 'delivery_log'} WHERE campaign_id = $1`, [job.campaignId]);
    await t.pool.query('UPDATE delivery.campaign_runs SET log_expired_at = now() WHERE campaign_id = $1', [job.campaignId]);
    expect(await targetResults(t.pool, job.campaignId, 0, 10)).to.deep.equal(before);
  });

  it('when the site has a cap of one push a day, then a second notification is capped for those already notified, and a transactional one is not', async () => {
    await t.pool.query('UPDATE delivery.sites SET cap_campaigns = 1, cap_hours = 24 WHERE site_id = $1', [siteId]);
    await send(notification([mine[4]]));
    const capped = notification([mine[4], mine[2]]);
    expect((await send(capped)).pushed.map((p) => p.endpoint)).to.deep.equal(['https://push.example/notify-3']);
    expect((await targetResults(t.pool, capped.campaignId, 0, 10)).counts).to.deep.include({ sent: 1, capped: 1 });
    const transactional = notification([mine[4], mine[2]], { ignoreFrequencyCap: true });
    expect((await send(transactional)).pushed).to.have.length(2);
    await t.pool.query('UPDATE delivery.sites SET cap_campaigns = NULL, cap_hours = NULL WHERE site_id = $1', [siteId]);
  });

  it("when the lane sends a notification of one chunk from its dispatch, then no chunk is published, and neither a crash after its pushes and before its record nor two handlings at once send anybody twice", async () => {
    const pushed: string[] = [];
    const sender = {
      async sendBatch(j: PushJob, hooks?: PushHooks) {
        return Promise.all(
          j.subscriptions.map(async (item): Promise<PushResult> => {
            if (hooks?.beforeSend && !(await hooks.beforeSend(item.id))) return { id: item.id, outcome: 'failed', reason: 'not sent', attempts: 0 };
            pushed.push(item.endpoint);
            const result: PushResult = { id: item.id, outcome: 'sent', status: 201, attempts: 1 };
            hooks?.onResult?.(result);
            return result;
          }),
        );
      },
    };
    const instanceId = randomUUID();
    await heartbeat(t.pool, instanceId);
    const chunkWorker = createChunkWorker({ pool: t.pool, log, instanceId, sender, vapid: noVapid, tokens, publishStats: noop }, { deadAfterSec: 30, waitForOthersMs: 2000, claimBatch: 10, retrySec: 5 });
    const topics: string[] = [];
    const dispatchWith = (sendChunk: (c: ChunkMessage, hb: () => Promise<void>) => Promise<void>) =>
      createDispatchHandler({ pool: t.pool, log, publish: async (topic) => void topics.push(topic), publishStats: noop, sendChunk }, { chunkSize: 10, chunksPerGroup: 10 });
    const job = notification([mine[0], randomUUID(), mine[1], mine[2]]);
    // The first attempt dies once its chunk is sent, before the dispatch records it.
    const died = await dispatchWith(async (c, hb) => {
      await chunkWorker(c, hb);
      throw new Error('killed');
    })(job, noop).then(() => null, (err: Error) => err.message);
    expect(died).to.equal('killed');
    expect(await findRun(t.pool, job.campaignId)).to.deep.include({ state: 'expanding' });
    // Kafka delivers the job again, twice (a relay that published it twice).
    await dispatchWith(chunkWorker)(job, noop);
    await dispatchWith(chunkWorker)(job, noop);
    expect(topics).to.deep.equal([]);
    expect(pushed.sort()).to.deep.equal(['https://push.example/notify-1', 'https://push.example/notify-2', 'https://push.example/notify-3']);
    expect(await findRun(t.pool, job.campaignId)).to.deep.include({ state: 'completed', sent: 3, chunksTotal: 1 });
    const { rows } = await t.pool.query(`SELECT chunks_done FROM delivery.campaign_runs WHERE campaign_id = $1`, [job.campaignId]);
    expect(rows[0].chunks_done).to.equal(1);
    expect((await targetResults(t.pool, job.campaignId, 0, 10)).counts).to.deep.equal({ sent: 3, noSubscription: 1, capped: 0, failed: 0, pending: 0 });

    // Two copies of a job handled at once by two instances (one process runs a key's copies one
    // after another: messaging.ts allOf): one push each, one chunk.
    pushed.length = 0;
    const otherInstance = randomUUID();
    await heartbeat(t.pool, otherInstance);
    const otherWorker = createChunkWorker({ pool: t.pool, log, instanceId: otherInstance, sender, vapid: noVapid, tokens, publishStats: noop }, { deadAfterSec: 30, waitForOthersMs: 5000, claimBatch: 10, retrySec: 5 });
    const twice = notification([mine[3], mine[4]]);
    await Promise.all([dispatchWith(chunkWorker)(twice, noop), dispatchWith(otherWorker)(twice, noop)]);
    expect(pushed.sort()).to.deep.equal(['https://push.example/notify-4', 'https://push.example/notify-5']);
    expect(await findRun(t.pool, twice.campaignId)).to.deep.include({ state: 'completed', sent: 2, chunksTotal: 1 });
  });

  it('when a notification ends, then notification.sent carries its counts and no campaign event is written for it', async () => {
    const body = JSON.stringify({ url: 'https://hooks.example/in', events: ['campaign.dispatched', 'campaign.completed', 'notification.sent'] });
    await new Promise((resolve, reject) => t.webhooks.CreateWebhook({ siteId, bodyJson: body }, (err, res) => (err ? reject(err) : resolve(res))));
    const job = notification([mine[0], randomUUID()]);
    await send(job);
    const { rows } = await t.pool.query(`SELECT event_type, body::json->'data' AS data FROM delivery.webhook_deliveries WHERE body::json->'data'->>'notificationId' = $1 OR body::json->'data'->>'campaignId' = $1`, [job.campaignId]);
    expect(rows).to.deep.equal([
      { event_type: 'notification.sent', data: { notificationId: job.campaignId, status: 'completed', targets: 2, sent: 1, noSubscription: 1, capped: 0, failed: 0, reason: null } },
    ]);
  });

  describe('to people (externalIds)', () => {
    let peopleSite: string;

    /** A person of `site` with subscriptions at these endpoints (active or not); answers nothing. */
    async function person(site: string, externalId: string, endpoints: { endpoint: string; active?: boolean }[]): Promise<void> {
      const p = await t.pool.query(`INSERT INTO delivery.people (site_id, external_id) VALUES ($1, $2) RETURNING id`, [site, externalId]);
      for (const { endpoint, active = true } of endpoints) {
        const sub = await t.pool.query(
          `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country, topics, active) VALUES ($1, $2, 'key', 'auth', 'US', ARRAY['all'], $3) RETURNING id`,
          [site, endpoint, active],
        );
        await t.pool.query(`INSERT INTO delivery.person_subscriptions (subscriber_id, person_id) VALUES ($1, $2)`, [sub.rows[0].id, p.rows[0].id]);
      }
    }

    before(async () => {
      peopleSite = (await newSite(t)).siteId;
      await person(peopleSite, 'alice', [{ endpoint: 'https://push.example/alice-1' }, { endpoint: 'https://push.example/alice-2' }]);
      await person(peopleSite, 'bob', [{ endpoint: 'https://push.example/bob-1' }]);
      await person(peopleSite, 'carol', []);
      await person(peopleSite, 'dave', [{ endpoint: 'https://push.example/dave-1', active: false }]);
      // Another site's person of the same id: never reached.
      await person(otherSite, 'alice', [{ endpoint: 'https://push.example/other-alice' }]);
      const body = JSON.stringify({ url: 'https://hooks.example/people', events: ['notification.sent'] });
      await new Promise((resolve, reject) => t.webhooks.CreateWebhook({ siteId: peopleSite, bodyJson: body }, (err, res) => (err ? reject(err) : resolve(res))));
    });

    const toPeople = (externalIds: string[]): DispatchMessage => ({ ...dispatchMessage(peopleSite, []), notification: { externalIds } });

    it("when people are named, then each of their active subscriptions gets one push, and each person's result is derived from their subscriptions', in the order named", async () => {
      const job = toPeople(['bob', 'alice', 'nobody', 'carol', 'dave']);
      // alice-2 and bob-1 fail: alice still got one (sent), bob got none (failed).
      const { pushed, topics } = await send(job, ['alice-2', 'bob-1']);
      expect([...new Set(topics)]).to.deep.equal([TOPICS.notificationChunks]);
      expect(pushed.map((p) => p.endpoint).sort()).to.deep.equal(['https://push.example/alice-1', 'https://push.example/alice-2', 'https://push.example/bob-1']);
      const { counts, results, hasMore } = await targetResults(t.pool, job.campaignId, 0, 10);
      expect(counts).to.deep.equal({ sent: 1, noSubscription: 3, capped: 0, failed: 1, pending: 0 });
      expect(results.map((r) => [r.externalId, r.subscriptionId, r.outcome])).to.deep.equal([
        ['bob', '', 'failed'],
        ['alice', '', 'sent'],
        ['nobody', '', 'noSubscription'],
        ['carol', '', 'noSubscription'],
        ['dave', '', 'noSubscription'],
      ]);
      expect(hasMore).to.equal(false);
      const page = await targetResults(t.pool, job.campaignId, 1, 2);
      expect([page.results.map((r) => [r.position, r.externalId]), page.hasMore]).to.deep.equal([[[2, 'alice'], [3, 'nobody']], true]);
    });

    it('when a notification to people ends, then notification.sent carries the counts by person and each one\'s result', async () => {
      const job = toPeople(['alice', 'carol']);
      await send(job, ['alice-1']);
      const { rows } = await t.pool.query(`SELECT event_type, body::json->'data' AS data FROM delivery.webhook_deliveries WHERE body::json->'data'->>'notificationId' = $1`, [job.campaignId]);
      expect(rows).to.deep.equal([
        {
          event_type: 'notification.sent',
          data: {
            notificationId: job.campaignId,
            status: 'completed',
            targets: 2,
            sent: 1,
            noSubscription: 1,
            capped: 0,
            failed: 0,
            reason: null,
            results: [
              { externalId: 'alice', outcome: 'sent', reason: null },
              { externalId: 'carol', outcome: 'noSubscription', reason: null },
            ],
          },
        },
      ]);
    });

    it("when retention has expired the delivery log of a finished notification to people, then each person's result is still answered", async () => {
      const job = toPeople(['alice', 'bob', 'carol']);
      await send(job, ['alice-1', 'bob-1']);
      const before = await targetResults(t.pool, job.campaignId, 0, 10);
      expect(before.results.map((r) => r.outcome)).to.deep.equal(['sent', 'failed', 'noSubscription']);
      const { rows } = await t.pool.query(`SELECT to_char(log_piece, 'YYYYMMDD') AS piece FROM delivery.campaign_runs WHERE campaign_id = $1`, [job.campaignId]);
      await t.pool.query(`DELETE FROM delivery.${rows[0].piece ? `delivery_log_${rows[0].piece}` : 'delivery_log'} WHERE campaign_id = $1`, [job.campaignId]);
      await t.pool.query('UPDATE delivery.campaign_runs SET log_expired_at = now() WHERE campaign_id = $1', [job.campaignId]);
      expect(await targetResults(t.pool, job.campaignId, 0, 10)).to.deep.equal(before);
    });

    it('when a person gains a subscription after the people were resolved, then the notification does not change: they are resolved once', async () => {
      const job = toPeople(['carol']);
      await send(job);
      await person(peopleSite, 'carol-2', [{ endpoint: 'https://push.example/carol-late' }]);
      await t.pool.query(
        `UPDATE delivery.person_subscriptions SET person_id = (SELECT id FROM delivery.people WHERE site_id = $1 AND external_id = 'carol')
          WHERE person_id = (SELECT id FROM delivery.people WHERE site_id = $1 AND external_id = 'carol-2')`,
        [peopleSite],
      );
      await createDispatchHandler({ pool: t.pool, log, publish: noop, publishStats: noop }, { chunkSize: 2, chunksPerGroup: 10 })(job, noop);
      const { rows } = await t.pool.query(`SELECT count(*)::int AS n FROM delivery.notification_targets WHERE notification_id = $1`, [job.campaignId]);
      expect(rows[0].n).to.equal(1);
      expect((await targetResults(t.pool, job.campaignId, 0, 10)).results.map((r) => r.outcome)).to.deep.equal(['noSubscription']);
    });

    describe('from a template (each person rendered with their tags)', () => {
      /** Sets the tags of the person `externalId` of the people's site (typed, as PATCH /v2/users stores them). */
      async function tag(externalId: string, tags: Record<string, string | number | boolean | Date>): Promise<void> {
        for (const [key, value] of Object.entries(tags)) {
          const kind = value instanceof Date ? 'date' : typeof value;
          await t.pool.query(
            `INSERT INTO delivery.person_tags (person_id, key, kind, string_value, number_value, date_value, boolean_value)
             SELECT id, $3, $4, $5, $6, $7, $8 FROM delivery.people WHERE site_id = $1 AND external_id = $2`,
            [peopleSite, externalId, key, kind, kind === 'string' ? value : null, kind === 'number' ? value : null, kind === 'date' ? value : null, kind === 'boolean' ? value : null],
          );
        }
      }
      const TEXTS = {
        title: 'Hi {{ first_name }}',
        body: '{{ points }} points, member: {{ member | "no" }}, since {{ since | "ever" }}, order {{ order }}',
        link: 'https://shop.example/o/{{ order }}?who={{ first_name }}',
      };
      /** A job as the relay makes it: the create's rendering as its content, the template's texts and the call's values. */
      const fromTemplate = (targets: { externalIds: string[] } | { subscriptionIds: string[] }, texts: Record<string, string>, variables: Record<string, string | number>): DispatchMessage => ({
        ...dispatchMessage(peopleSite, [], { content: { title: 'Hi {{ first_name }}', body: 'the create rendering', link: 'https://shop.example/o/7?who=%7B%7B%20first_name%20%7D%7D' } }),
        notification: { ...targets, template: { content: texts, variables } },
      } as DispatchMessage);

      before(async () => {
        await tag('alice', { first_name: 'Alice', points: 12.5, member: true, since: new Date('2026-01-02T03:04:05Z') });
        // The call's variables win over a tag of the same name.
        await tag('bob', { first_name: 'Bob & Co', points: 3, order: 'not this one' });
        await person(peopleSite, 'erin', [{ endpoint: 'https://push.example/erin-1' }]);
        await tag('erin', { points: 1 });
        await person(peopleSite, 'frank', [{ endpoint: 'https://push.example/frank-1' }]);
        await tag('frank', { first_name: 'Frank', points: 2, note: 'n'.repeat(256) });
      });

      it("when people are named, then each subscription is sent its person's rendering (tags as text, the call's variables over them), and one whose rendering fails is failed with the reason while the rest are sent", async () => {
        const job = fromTemplate({ externalIds: ['alice', 'bob', 'erin', 'nobody'] }, TEXTS, { order: 7 });
        const { pushed } = await send(job);
        const byEndpoint = Object.fromEntries(pushed.map((p) => [p.endpoint, [p.payload.title, p.payload.body, p.payload.url]]));
        const alice = ['Hi Alice', '12.5 points, member: true, since 2026-01-02T03:04:05.000Z, order 7', 'https://shop.example/o/7?who=Alice'];
        expect(byEndpoint).to.deep.equal({
          'https://push.example/alice-1': alice,
          'https://push.example/alice-2': alice,
          'https://push.example/bob-1': ['Hi Bob & Co', '3 points, member: no, since ever, order 7', 'https://shop.example/o/7?who=Bob%20%26%20Co'],
        });
        const { counts, results } = await targetResults(t.pool, job.campaignId, 0, 10);
        expect(counts).to.deep.equal({ sent: 2, noSubscription: 1, capped: 0, failed: 1, pending: 0 });
        expect(results.map((r) => [r.externalId, r.outcome, r.reason])).to.deep.equal([
          ['alice', 'sent', ''],
          ['bob', 'sent', ''],
          ['erin', 'failed', "the template's variable first_name had no value for this person (no tag, no call variable, no default)"],
          ['nobody', 'noSubscription', ''],
        ]);
        expect(await findRun(t.pool, job.campaignId)).to.deep.include({ state: 'completed', sent: 3, failed: 0 });
      });

      it('when a person\'s rendering is too large for one push, then they are failed with that reason and the others are sent', async () => {
        const job = fromTemplate({ externalIds: ['frank', 'alice'] }, { ...TEXTS, body: '{{ note | "short" }}'.repeat(16) }, { order: 8 });
        const { pushed } = await send(job);
        expect(pushed.map((p) => p.endpoint).sort()).to.deep.equal(['https://push.example/alice-1', 'https://push.example/alice-2']);
        expect(pushed[0].payload.body).to.equal('short'.repeat(16));
        const { results } = await targetResults(t.pool, job.campaignId, 0, 10);
        expect(results.map((r) => [r.externalId, r.outcome, r.reason])).to.deep.equal([
          ['frank', 'failed', 'the notification rendered for this person is too large for one push (over 4096 bytes encrypted)'],
          ['alice', 'sent', ''],
        ]);
      });

      it("when subscriptions are named, then one of an identified person is rendered with that person's tags, and an anonymous one with the call's variables alone", async () => {
        const { rows } = await t.pool.query(`SELECT public_id::text AS id FROM delivery.subscribers WHERE site_id = $1 AND endpoint = 'https://push.example/alice-1'`, [peopleSite]);
        const anonymous = await t.pool.query(
          `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country, topics) VALUES ($1, 'https://push.example/anonymous', 'key', 'auth', 'US', ARRAY['all']) RETURNING public_id::text AS id`,
          [peopleSite],
        );
        const job = fromTemplate({ subscriptionIds: [rows[0].id, anonymous.rows[0].id] }, { title: 'Hi {{ first_name | "there" }}', body: 'Order {{ order }} is ready', link: 'https://shop.example/o/{{ order }}' }, { order: 9, first_name: 'called' });
        const { pushed } = await send(job);
        // The call's first_name wins over Alice's tag; neither has any other tag used.
        expect(pushed.map((p) => [p.endpoint, p.payload.title, p.payload.body]).sort()).to.deep.equal([
          ['https://push.example/alice-1', 'Hi called', 'Order 9 is ready'],
          ['https://push.example/anonymous', 'Hi called', 'Order 9 is ready'],
        ]);
        const tagged = fromTemplate({ subscriptionIds: [rows[0].id, anonymous.rows[0].id] }, { title: 'Hi {{ first_name | "there" }}', body: 'Order {{ order }} is ready', link: 'https://shop.example/o/{{ order }}' }, { order: 9 });
        expect((await send(tagged)).pushed.map((p) => [p.endpoint, p.payload.title]).sort()).to.deep.equal([
          ['https://push.example/alice-1', 'Hi Alice'],
          ['https://push.example/anonymous', 'Hi there'],
        ]);
      });

      it('when a person named is deleted (the privacy delete), then their external id and the contents rendered with their tags leave the targets, and the result keeps its place', async () => {
        await person(peopleSite, 'gina', [{ endpoint: 'https://push.example/gina-1' }]);
        await tag('gina', { first_name: 'Gina', points: 4 });
        const job = fromTemplate({ externalIds: ['alice', 'gina'] }, TEXTS, { order: 5 });
        await send(job);
        const { rows: ginas } = await t.pool.query(`SELECT id FROM delivery.people WHERE site_id = $1 AND external_id = 'gina'`, [peopleSite]);
        await withTransaction(t.pool, (tx) => deletePersonEverywhere(tx, peopleSite, ginas[0].id));
        const { rows } = await t.pool.query(`SELECT target, external_id, content IS NOT NULL AS rendered FROM delivery.notification_targets WHERE notification_id = $1 ORDER BY position`, [job.campaignId]);
        expect(rows).to.deep.equal([
          { target: 1, external_id: 'alice', rendered: true },
          { target: 1, external_id: 'alice', rendered: true },
          { target: 2, external_id: '', rendered: false },
        ]);
        expect((await targetResults(t.pool, job.campaignId, 0, 10)).results.map((r) => [r.position, r.externalId, r.outcome])).to.deep.equal([
          [1, 'alice', 'sent'],
          [2, '', 'sent'],
        ]);
      });
    });
  });
});
