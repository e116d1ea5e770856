// The send path assembled in-process (dispatch → chunks → chunk worker → sender → client) against a real database and a fake push service, with every log line captured:
// what a push service writes in its body never reaches a log line or the delivery log, and a
// refused destination is one failed push each, never retried, logged once per origin.
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { createLogger } from '@webpush/shared/log.js';
import type { ChunkMessage } from '@webpush/contracts/messages.js';
import { heartbeat } from '../../src/sending/instance-store.js';
import { trackingTokensFor } from '../../src/tracking/tracking-token.js';
import { createEncryptPool, type EncryptPool } from '@webpush/push/encryption/pool.js';
import { createPushSender, type PushSender } from '@webpush/push/sender.js';
import { createChunkWorker } from '../../src/sending/chunk-worker.js';
import { createDispatchHandler } from '../../src/sending/dispatch.js';
import { vapidSigners } from '../../src/sites/vapid-signers.js';
import { browserKeys, dispatchMessage, newSite, request, startTestDelivery, type TestDelivery } from '../support.js';
import { startFakePushService, type FakePushService } from '../../../../packages/push/test/support/fake-push-service.js';
import { testCertificate } from '../../../../packages/push/test/support/tls.js';

const SECRET = 'SECRET-BODY-7f3a';

describe('send path: nothing a push service writes reaches the logs; refused destinations', function () {
  this.timeout(60_000);
  let t: TestDelivery;
  let encryptor: EncryptPool;
  const services: FakePushService[] = [];
  const senders: PushSender[] = [];
  const noop = async () => {};

  before(async () => {
    t = await startTestDelivery('send_path_safety', { SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0' });
    encryptor = createEncryptPool({ size: 1 });
  });
  after(async () => {
    await Promise.all(senders.map((s) => s.close()));
    await Promise.all(services.map((s) => s.stop()));
    await encryptor?.close();
    await t?.stop();
  });

  /** A logger whose JSON lines land in `lines`. */
  function capturingLog() {
    const lines: string[] = [];
    const log = createLogger('delivery', 'debug', {}, new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }));
    return { log, lines };
  }

  /** Runs one campaign to `topic` through the whole send path; returns the delivery log. */
  async function sendCampaign(siteId: string, topic: string, sender: PushSender, log: ReturnType<typeof capturingLog>['log']) {
    const instanceId = randomUUID();
    await heartbeat(t.pool, instanceId);
    const chunks: ChunkMessage[] = [];
    const dispatch = createDispatchHandler(
      { pool: t.pool, log, publish: async (_topic, messages) => void chunks.push(...messages.map((m) => JSON.parse(m.value.toString()) as ChunkMessage)), publishStats: noop },
      { chunkSize: 50, chunksPerGroup: 5 },
    );
    const vapid = vapidSigners(t.pool, t.config.vapidEncryptionKey, 'mailto:ops@example.com');
    const chunk = createChunkWorker(
      { pool: t.pool, log, instanceId, sender, vapid, tokens: trackingTokensFor({ current: t.config.vapidEncryptionKey, previous: [] }), publishStats: noop },
      { deadAfterSec: 10, waitForOthersMs: 1000, claimBatch: 50 },
    );
    const job = dispatchMessage(siteId, [topic]);
    await dispatch(job, noop);
    for (const c of chunks) await chunk(c, noop);
    const { rows } = await t.pool.query(
      `SELECT s.endpoint, l.state, l.status, l.reason FROM delivery.delivery_log l JOIN delivery.subscribers s ON s.id = l.subscriber_id
        WHERE l.campaign_id = $1 ORDER BY s.endpoint`,
      [job.campaignId],
    );
    return rows as { endpoint: string; state: string; status: number | null; reason: string | null }[];
  }

  async function subscribe(publicId: string, endpoint: string, topic: string) {
    const res = await request(t, 'POST', `/public/v1/sites/${publicId}/subscriptions`, { body: { subscription: { endpoint, keys: browserKeys() }, topics: [topic] } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
  }

  for (const protocol of ['h2', 'https1'] as const) {
    it(`when a push service answers 400, 403, 413, 418 and 500 with bodies, then no log line and no delivery-log row holds the body (${protocol})`, async () => {
      const statuses = [400, 403, 413, 418, 500];
      const service = await startFakePushService(protocol, (push) => {
        const status = statuses[Number(push.path.split('/')[2])];
        return { status, headers: { 'content-type': 'application/json' }, body: `{"reason":"${SECRET}","detail":"${SECRET}\\u0000\\n${'x'.repeat(3000)}"}` };
      });
      services.push(service);
      const { log, lines } = capturingLog();
      const sender = createPushSender({ ca: testCertificate().cert, testHosts: ['127.0.0.1'], encryptor, maxAttempts: 2, sleep: noop, log });
      senders.push(sender);
      const site = await newSite(t);
      for (const [i] of statuses.entries()) await subscribe(site.publicId, service.endpoint(`/push/${i}`), `bodies-${protocol}`);
      const outcomes = await sendCampaign(site.siteId, `bodies-${protocol}`, sender, log);
      expect(outcomes.map((o) => [o.state, o.status, o.reason])).to.deep.equal([
        ['failed', 400, '400 bad request'],
        ['failed', 403, '403 forbidden (VAPID key mismatch)'],
        ['failed', 413, '413 payload too large'],
        ['failed', 418, protocol === 'h2' ? '418 unexpected status' : "418 I'm a Teapot"],
        ['failed', 500, 'gave up after 2 attempts (the attempt limit): 500 push service error'],
      ]);
      expect(service.received.length).to.equal(6); // the 500 was tried twice
      await sender.close(); // writes the failure summary
      // One line per origin and failure class, then one summary with the counts.
      const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      const failed = logged.filter((l) => l.msg === 'push failed');
      expect(failed.map((l) => [l.class, l.status]).sort()).to.deep.equal([['rejected', 400], ['unauthorized', 403], ['unreachable', 500]]);
      const summaries = logged.filter((l) => l.msg === 'push failures summary');
      expect(summaries).to.have.length(1);
      expect(summaries[0]).to.deep.include({ failed: 5, retried: 1 });
      expect(summaries[0].byOrigin).to.deep.equal({
        [service.origin]: { failed: { rejected: 3, unauthorized: 1, unreachable: 1 }, retried: { 500: 1 }, paused: 0, resumed: 0 },
      });
      for (const line of lines) {
        expect(line).to.not.include(SECRET);
        expect(line).to.not.include('xxxxxxxx');
      }
    });
  }

  it('when subscriptions point at a host that resolves to loopback, then each push fails at once, uncontacted and unretried, with one log line for the origin', async () => {
    const service = await startFakePushService('h2');
    services.push(service);
    const port = new URL(service.origin).port;
    // The delivery service accepts these endpoints (localhost is one of its test hosts); this
    // sender does not count localhost as a test host, so it applies the production rules.
    const { log, lines } = capturingLog();
    const sender = createPushSender({ ca: testCertificate().cert, testHosts: ['127.0.0.1'], encryptor, maxAttempts: 4, sleep: noop, log });
    senders.push(sender);
    const site = await newSite(t);
    for (let i = 0; i < 3; i++) await subscribe(site.publicId, `https://localhost/push/${i}`, 'refused');
    for (let i = 0; i < 2; i++) await subscribe(site.publicId, `https://localhost:${port}/push/port-${i}`, 'refused');
    await subscribe(site.publicId, service.endpoint('/push/ok'), 'refused');
    const outcomes = await sendCampaign(site.siteId, 'refused', sender, log);
    const byEndpoint = Object.fromEntries(outcomes.map((o) => [o.endpoint, [o.state, o.reason]]));
    for (let i = 0; i < 3; i++) {
      expect(byEndpoint[`https://localhost/push/${i}`]).to.satisfy(([state, reason]: [string, string]) =>
        state === 'failed' && /^destination refused: localhost resolves to (127\.0\.0\.1|::1) \(loopback\)$/.test(reason));
    }
    for (let i = 0; i < 2; i++) expect(byEndpoint[`https://localhost:${port}/push/port-${i}`]).to.deep.equal(['failed', `destination refused: port ${port} is not 443`]);
    expect(byEndpoint[service.endpoint('/push/ok')]).to.deep.equal(['sent', null]);
    expect(service.received.map((r) => r.path)).to.deep.equal(['/push/ok']);
    const refusals = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'push destination refused');
    expect(refusals.map((l) => l.origin).sort()).to.deep.equal(['https://localhost', `https://localhost:${port}`]);
    expect(lines.filter((l) => l.includes('"push failed"'))).to.have.length(0);
    await sender.close();
    const summary = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'push failures summary');
    expect(summary?.byOrigin).to.deep.equal({
      'https://localhost': { failed: { refused: 3 }, retried: {}, paused: 0, resumed: 0 },
      [`https://localhost:${port}`]: { failed: { refused: 2 }, retried: {}, paused: 0, resumed: 0 },
    });
  });
});
