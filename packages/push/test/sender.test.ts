import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect } from 'chai';
import webpush from 'web-push';
import { createEncryptPool, type EncryptPool } from '../src/encryption/pool.js';
import { createPushSender, type PushJob, type PushSender, type PushSenderOptions } from '../src/sender.js';
import { createVapidHeaderCache } from '../src/vapid.js';
import { startFakePushService, type FakeOptions, type FakePushService, type Handler, type Reply } from './support/fake-push-service.js';
import { createTestSubscriber, decryptPush, type TestSubscriber } from './support/rfc8291.js';
import { testCertificate } from './support/tls.js';
import { verifyVapidHeader } from './support/vapid-verify.js';

const NOW = Date.UTC(2025, 5, 1, 12, 0, 0);
const payload = JSON.stringify({ v: 1, id: '0f0e0d0c-0b0a-4908-8706-050403020100', title: 'Hello', body: 'World', token: 't' });
const topic = '0f0e0d0c0b0a49088706050403020100';

describe('push sender', () => {
  const keys = webpush.generateVAPIDKeys();
  const subject = 'mailto:push@example.com';
  let pool: EncryptPool;
  const services: FakePushService[] = [];
  const senders: PushSender[] = [];

  before(() => {
    pool = createEncryptPool({ size: 2 });
  });
  after(() => pool.close());
  afterEach(async () => {
    await Promise.all(senders.splice(0).map((s) => s.close()));
    await Promise.all(services.splice(0).map((s) => s.stop()));
  });

  async function service(protocol: 'h2' | 'https1', handler?: Handler, options?: FakeOptions) {
    const s = await startFakePushService(protocol, handler, options);
    services.push(s);
    return s;
  }

  // A clock that a sleep moves on at once: waits are recorded, not waited.
  function sender(overrides: PushSenderOptions = {}) {
    const sleeps: number[] = [];
    let clock = NOW;
    const s = createPushSender({
      ca: testCertificate().cert,
      testHosts: ['127.0.0.1'],
      encryptor: pool,
      random: () => 0.5,
      sleep: async (ms) => {
        sleeps.push(ms);
        clock += ms;
      },
      now: () => clock,
      ...overrides,
    });
    senders.push(s);
    return { sender: s, sleeps };
  }

  function job(targets: Array<{ id: string; endpoint: string; subscriber: TestSubscriber }>, extra: Partial<PushJob> = {}): PushJob {
    return {
      payload,
      ttl: 86400,
      urgency: 'normal',
      topic,
      vapid: createVapidHeaderCache({ subject, ...keys }),
      subscriptions: targets.map((t) => ({ id: t.id, endpoint: t.endpoint, p256dh: t.subscriber.p256dh, auth: t.subscriber.auth })),
      ...extra,
    };
  }

  it('delivers a batch the browsers can decrypt, with the RFC 8030 headers and one VAPID signature per origin', async () => {
    const push = await service('h2');
    const targets = Array.from({ length: 60 }, (_, i) => ({ id: `s${i}`, endpoint: push.endpoint(`/wpush/${i}`), subscriber: createTestSubscriber() }));
    const { sender: s } = sender();
    const j = job(targets, { urgency: 'high', ttl: 3600 });
    const results = await s.sendBatch(j);

    expect(results.map((r) => r.id)).to.deep.equal(targets.map((t) => t.id));
    expect(results.every((r) => r.outcome === 'sent' && r.status === 201 && r.attempts === 1)).to.equal(true);
    expect(push.received).to.have.length(60);
    for (const received of push.received) {
      const target = targets[Number(received.path.split('/').pop())];
      expect(decryptPush(received.body, target.subscriber).toString()).to.equal(payload);
      expect(received.headers).to.include({
        ttl: '3600',
        urgency: 'high',
        topic,
        'content-encoding': 'aes128gcm',
        'content-type': 'application/octet-stream',
      });
      const claims = verifyVapidHeader(received.headers.authorization, keys.publicKey);
      expect(claims.aud).to.equal(push.origin);
      expect(claims.sub).to.equal(subject);
      expect(claims.exp * 1000 - Date.now()).to.be.within(11 * 3600_000, 24 * 3600_000);
    }
    expect(j.vapid.signatures).to.equal(1);
    expect(push.connections).to.equal(1);
  });

  it('while its pushes wait for their answers, a batch keeps none of its targets (keys, plaintext)', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const push = await service('h2', async () => {
      await held;
      return { status: 201 };
    });
    const targets = Array.from({ length: 20 }, (_, i) => ({ id: `s${i}`, endpoint: push.endpoint(`/held/${i}`), subscriber: createTestSubscriber() }));
    const { sender: s } = sender();
    let kept: WeakRef<object>[] = [];
    // The job and its targets are made here and referenced nowhere else: only the sender could keep them.
    const sending = (() => {
      const j = job(targets);
      kept = j.subscriptions.map((t) => new WeakRef(t));
      return s.sendBatch(j);
    })();
    for (let i = 0; i < 500 && push.received.length < targets.length; i++) await new Promise((r) => setTimeout(r, 10));
    expect(push.received, 'every push is waiting for its answer').to.have.length(targets.length);
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    await new Promise((r) => setImmediate(r));
    gc();
    expect(kept.filter((r) => r.deref() !== undefined), 'targets still reachable').to.have.length(0);
    release();
    expect((await sending).every((r) => r.outcome === 'sent')).to.equal(true);
  });

  it('delivers over HTTP/1.1 keep-alive when the push service has no HTTP/2', async () => {
    const push = await service('https1');
    const targets = Array.from({ length: 30 }, (_, i) => ({ id: `s${i}`, endpoint: push.endpoint(`/p/${i}`), subscriber: createTestSubscriber() }));
    const results = await sender({ concurrencyPerOrigin: 4 }).sender.sendBatch(job(targets));
    expect(results.every((r) => r.outcome === 'sent')).to.equal(true);
    expect(push.connections).to.be.at.most(5);
  });

  describe('status matrix', () => {
    const retryAfterDate = new Date(NOW + 30_000).toUTCString();
    // Each scenario is the list of replies its subscription gets, one per attempt. Retries run
    // for a time budget (2 s here for 5xx, timeouts and resets: backoff 250, 500, 1000, then the
    // 250 left; the default 300 s for 429s, whose pauses are a minute).
    const short = 2000;
    const scenarios: Array<{ name: string; replies: Reply[]; outcome: string; status?: number; attempts: number; sleeps: number[]; reason?: RegExp; budgetMs?: number; ambiguous?: number }> = [
      { name: '201', replies: [{ status: 201 }], outcome: 'sent', status: 201, attempts: 1, sleeps: [] },
      { name: '400', replies: [{ status: 400, body: '{"reason":"BadPayload"}' }], outcome: 'failed', status: 400, attempts: 1, sleeps: [], reason: /^400 bad request$/ },
      { name: '401', replies: [{ status: 401 }], outcome: 'failed', status: 401, attempts: 1, sleeps: [], reason: /401/ },
      { name: '403', replies: [{ status: 403 }], outcome: 'failed', status: 403, attempts: 1, sleeps: [], reason: /403/ },
      { name: '404', replies: [{ status: 404 }], outcome: 'expired', status: 404, attempts: 1, sleeps: [] },
      { name: '410', replies: [{ status: 410 }], outcome: 'expired', status: 410, attempts: 1, sleeps: [] },
      { name: '413', replies: [{ status: 413 }], outcome: 'failed', status: 413, attempts: 1, sleeps: [], reason: /payload too large/ },
      { name: '429 with Retry-After seconds, then 201', replies: [{ status: 429, headers: { 'Retry-After': '7' } }, { status: 201 }], outcome: 'sent', status: 201, attempts: 2, sleeps: [7000] },
      { name: '429 with Retry-After HTTP-date, then 201', replies: [{ status: 429, headers: { 'Retry-After': retryAfterDate } }, { status: 201 }], outcome: 'sent', status: 201, attempts: 2, sleeps: [30_000] },
      {
        name: '429 without Retry-After, every time', replies: [{ status: 429 }], outcome: 'failed', status: 429, attempts: 6, sleeps: Array(6).fill(60_000),
        reason: /^gave up after 6 attempts \(retry budget 300 s; Retry-After ends after it\): 429 rate limited$/,
      },
      { name: '500 every time', replies: [{ status: 500 }], outcome: 'failed', status: 500, attempts: 5, sleeps: [250, 500, 1000, 250], budgetMs: short, reason: /^gave up after 5 attempts \(retry budget 2 s\): 500 push service error$/ },
      { name: '503, then 201', replies: [{ status: 503 }, { status: 201 }], outcome: 'sent', status: 201, attempts: 2, sleeps: [250] },
      { name: 'timeout every time', replies: ['hang'], outcome: 'failed', attempts: 5, sleeps: [250, 500, 1000, 250], budgetMs: short, reason: /\): timeout: no response/, ambiguous: 5 },
      { name: 'reset every time', replies: ['reset'], outcome: 'failed', attempts: 5, sleeps: [250, 500, 1000, 250], budgetMs: short, reason: /\): reset/, ambiguous: 5 },
      { name: 'reset, then 201', replies: ['reset', { status: 201 }], outcome: 'sent', status: 201, attempts: 2, sleeps: [250], ambiguous: 1 },
    ];

    for (const protocol of ['h2', 'https1'] as const) {
      for (const sc of scenarios) {
        it(`${sc.name} (${protocol}) → ${sc.outcome} after ${sc.attempts} attempt(s)`, async () => {
          let n = 0;
          const push = await service(protocol, () => sc.replies[Math.min(n++, sc.replies.length - 1)]);
          // Only the hanging scenario needs a short deadline; a loaded machine can take 150 ms for a TLS handshake.
          const { sender: s, sleeps } = sender({ timeoutMs: sc.replies[0] === 'hang' ? 1000 : 10_000, retryBudgetMs: sc.budgetMs });
          const [result] = await s.sendBatch(job([{ id: 'only', endpoint: push.endpoint('/sub'), subscriber: createTestSubscriber() }]));
          expect(result).to.include({ id: 'only', outcome: sc.outcome, attempts: sc.attempts });
          expect(result.status).to.equal(sc.status);
          expect(result.ambiguous, 'ambiguous').to.equal(sc.ambiguous);
          if (sc.reason) expect(result.reason).to.match(sc.reason);
          expect(sleeps).to.deep.equal(sc.sleeps);
          expect(push.received).to.have.length(sc.attempts);
          // A retry resends the very same encrypted body.
          for (const r of push.received) expect(Buffer.compare(r.body, push.received[0].body)).to.equal(0);
        });
      }
    }
  });

  it("when a job names a retry budget shorter than the sender's, then its pushes stop retrying at the job's; a longer one changes nothing", async () => {
    const push = await service('h2', () => ({ status: 500 }));
    const { sender: s, sleeps } = sender({ retryBudgetMs: 2000 });
    const [short] = await s.sendBatch(job([{ id: 'short', endpoint: push.endpoint('/short'), subscriber: createTestSubscriber() }], { retryBudgetMs: 1000 }));
    expect(short).to.include({ outcome: 'failed', status: 500, attempts: 4 });
    expect(short.reason).to.equal('gave up after 4 attempts (retry budget 1 s): 500 push service error');
    expect(sleeps.splice(0)).to.deep.equal([250, 500, 250]);
    // A fresh sender: the first one's gate now counts the origin as down.
    const [long] = await sender({ retryBudgetMs: 2000 }).sender.sendBatch(job([{ id: 'long', endpoint: push.endpoint('/long'), subscriber: createTestSubscriber() }], { retryBudgetMs: 60_000 }));
    expect(long.reason).to.equal('gave up after 5 attempts (retry budget 2 s): 500 push service error');
    const refused = await s.sendBatch(job([], { retryBudgetMs: -1 })).catch((err: unknown) => err);
    expect(refused).to.be.instanceOf(RangeError).with.property('message', 'retryBudgetMs must be zero or more');
  });

  it('when origin A answers 429, then A waits for Retry-After while origin B keeps sending', async () => {
    let firstA = true;
    const a = await service('h2', () => {
      if (!firstA) return { status: 201 };
      firstA = false;
      return { status: 429, headers: { 'Retry-After': '120' } };
    });
    const b = await service('h2');
    let pauseStarted!: () => void;
    const started = new Promise<void>((resolve) => (pauseStarted = resolve));
    let endPause!: () => void;
    const { sender: s } = sender({
      concurrencyPerOrigin: 1,
      sleep: (ms) => {
        if (ms !== 120_000) return Promise.resolve();
        pauseStarted();
        return new Promise<void>((resolve) => (endPause = resolve));
      },
    });
    const targets = [
      ...Array.from({ length: 5 }, (_, i) => ({ id: `a${i}`, endpoint: a.endpoint(`/a/${i}`), subscriber: createTestSubscriber() })),
      ...Array.from({ length: 5 }, (_, i) => ({ id: `b${i}`, endpoint: b.endpoint(`/b/${i}`), subscriber: createTestSubscriber() })),
    ];
    let finished = false;
    const sending = s.sendBatch(job(targets)).then((r) => {
      finished = true;
      return r;
    });
    await started;
    for (let i = 0; i < 200 && b.received.length < 5; i += 1) await new Promise((r) => setTimeout(r, 10));

    expect(b.received).to.have.length(5);
    expect(a.received).to.have.length(1);
    expect(finished).to.equal(false);

    endPause();
    const results = await sending;
    expect(results.every((r) => r.outcome === 'sent')).to.equal(true);
    expect(results.find((r) => r.id === 'a0')!.attempts).to.equal(2);
    expect(a.received).to.have.length(6);
  });

  it('when an endpoint or its keys are unusable, then that subscription fails without a request', async () => {
    const push = await service('h2');
    const good = createTestSubscriber();
    const results = await sender().sender.sendBatch({
      ...job([{ id: 'ok', endpoint: push.endpoint('/ok'), subscriber: good }]),
      subscriptions: [
        { id: 'ok', endpoint: push.endpoint('/ok'), p256dh: good.p256dh, auth: good.auth },
        { id: 'bad-url', endpoint: 'not a url', p256dh: good.p256dh, auth: good.auth },
        { id: 'ftp', endpoint: 'ftp://127.0.0.1/x', p256dh: good.p256dh, auth: good.auth },
        { id: 'bad-keys', endpoint: push.endpoint('/bad'), p256dh: 'AAAA', auth: good.auth },
      ],
    });
    expect(results).to.deep.equal([
      { id: 'ok', outcome: 'sent', status: 201, attempts: 1 },
      { id: 'bad-url', outcome: 'failed', reason: 'invalid endpoint URL', attempts: 0 },
      { id: 'ftp', outcome: 'failed', reason: 'invalid endpoint URL', attempts: 0 },
      { id: 'bad-keys', outcome: 'failed', reason: 'invalid subscription keys', attempts: 0 },
    ]);
    expect(push.received).to.have.length(1);
  });

  describe('concurrency to one origin: one adaptive limit, several HTTP/2 connections', () => {
    // A push service advertising 10 streams per connection that answers each push a few ms
    // later (real timers; nothing asserts on time), recording the sender's limit at each arrival.
    async function slowService(reply: (seq: number) => Reply = () => ({ status: 201 })) {
      const seen: Array<{ seq: number; inFlight: number; limit: number }> = [];
      let inFlight = 0;
      let s: ReturnType<typeof sender>['sender'] | undefined;
      const push = await service(
        'h2',
        (p) => {
          inFlight += 1;
          seen.push({ seq: p.seq, inFlight, limit: s!.limitFor(push.origin)! });
          return new Promise((resolve) =>
            setTimeout(() => {
              inFlight -= 1;
              resolve(reply(p.seq));
            }, 3),
          );
        },
        { maxConcurrentStreams: 10 },
      );
      return { push, seen, use: (x: NonNullable<typeof s>) => (s = x) };
    }
    const targetsAt = (push: FakePushService, n: number) => Array.from({ length: n }, (_, i) => ({ id: `s${i}`, endpoint: push.endpoint(`/p/${i}`), subscriber: createTestSubscriber() }));

    it('when the origin answers well, then the limit grows from its start to the ceiling and the requests spread over several connections of at most 10 streams', async () => {
      const { push, seen, use } = await slowService();
      const { sender: s } = sender({ concurrencyPerOrigin: 40, initialConcurrency: 4 });
      use(s);
      const results = await s.sendBatch(job(targetsAt(push, 300)));
      expect(results.every((r) => r.outcome === 'sent' && r.attempts === 1)).to.equal(true);
      expect(seen.every((a) => a.inFlight <= a.limit)).to.equal(true);
      expect(seen[0].limit).to.equal(4);
      expect(s.limitFor(push.origin)).to.equal(40);
      expect(push.maxConcurrentPerConnection).to.be.at.most(10);
      expect(push.maxConcurrent).to.be.above(10).and.at.most(40);
      expect(push.connections).to.be.within(2, 4);
    });

    it('when the origin answers 503 and then 429 for a while, then the limit backs off and grows again, and every push is sent', async () => {
      const { push, seen, use } = await slowService((seq) =>
        seq > 100 && seq <= 130 ? { status: 503 } : seq > 130 && seq <= 150 ? { status: 429, headers: { 'Retry-After': '0' } } : { status: 201 },
      );
      const { sender: s } = sender({ concurrencyPerOrigin: 40, initialConcurrency: 4 });
      use(s);
      const results = await s.sendBatch(job(targetsAt(push, 300)));
      expect(results.every((r) => r.outcome === 'sent')).to.equal(true);
      expect(push.received).to.have.length(350);
      const before = Math.max(...seen.filter((a) => a.seq <= 100).map((a) => a.limit));
      const low = Math.min(...seen.filter((a) => a.seq > 110).map((a) => a.limit));
      expect(before).to.equal(40);
      expect(low).to.be.below(10);
      expect(s.limitFor(push.origin)).to.be.above(low);
      expect(Math.max(...seen.map((a) => a.inFlight))).to.be.at.most(40);
      expect(push.maxConcurrentPerConnection).to.be.at.most(10);
    });
  });

  it('rejects a job with an invalid TTL, urgency or topic before sending anything', async () => {
    const { sender: s } = sender();
    const base = job([]);
    for (const bad of [{ ttl: -1 }, { ttl: 1.5 }, { urgency: 'urgent' as 'high' }, { topic: 'has spaces' }, { topic: 'x'.repeat(33) }]) {
      const err = await s.sendBatch({ ...base, ...bad }).catch((e: unknown) => e);
      expect(err, JSON.stringify(bad)).to.be.instanceOf(RangeError);
    }
  });
});
