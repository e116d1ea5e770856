// The push path's metrics (packages/push/src/metrics.ts) against the push-service simulator: every request's
// answer by status and push service, its latency, and retries — read back from a real registry
// as Prometheus scrapes it.
import { expect } from 'chai';
import { Registry } from 'prom-client';
import webpush from 'web-push';
import { startPushSimulator } from '../../../tools/push-simulator/src/index.js';
import { createPushMetrics, PUSH_SERVICE_LABELS } from '../src/metrics.js';
import { createPushSender, type PushSender } from '../src/sender.js';
import { createVapidHeaderCache } from '../src/vapid.js';

/** The value of one series in Prometheus text, or undefined when it is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('push metrics', () => {
  let simulator: Awaited<ReturnType<typeof startPushSimulator>>;
  let sender: PushSender;
  let registry: Registry;
  const keys = webpush.generateVAPIDKeys();

  before(async () => {
    simulator = await startPushSimulator({ host: '127.0.0.1', port: 0, tls: true, mode: 'record' });
    registry = new Registry();
    // Three attempts at most, no backoff: a push answered 503 every time is retried twice, then fails.
    sender = createPushSender({ ca: simulator.caCertPem, sleep: async () => {}, testHosts: ['127.0.0.1'], maxAttempts: 3, metrics: createPushMetrics(registry) });
  });
  after(async () => {
    await sender?.close();
    await simulator?.close();
  });

  it('counts every request by push service, status class and code, observes its latency, counts retries by cause and every push by outcome', async () => {
    const subs = Array.from({ length: 6 }, () => simulator.createSubscription(keys.publicKey));
    simulator.expireSubscription(subs[0].id);
    simulator.setBehaviour({ status: 503, forSubscription: subs[1].id });
    simulator.setBehaviour({ latencyMs: 60 });
    const results = await sender.sendBatch({
      payload: 'hello',
      ttl: 600,
      urgency: 'normal',
      topic: '',
      vapid: createVapidHeaderCache({ subject: 'mailto:push@example.com', ...keys }),
      subscriptions: subs.map((s) => ({ id: s.id, endpoint: s.endpoint, ...s.keys })),
    });
    expect(results.map((r) => r.outcome)).to.deep.equal(['expired', 'failed', 'sent', 'sent', 'sent', 'sent']);
    simulator.clearBehaviours();

    const host = new URL(simulator.origin).host;
    const text = await registry.metrics();
    const ps = `push_service="${host}"`;
    expect(sample(text, `delivery_push_responses_total{${ps},status_class="2xx",code="201"}`)).to.equal(4);
    expect(sample(text, `delivery_push_responses_total{${ps},status_class="4xx",code="410"}`)).to.equal(1);
    expect(sample(text, `delivery_push_responses_total{${ps},status_class="5xx",code="503"}`)).to.equal(3);
    expect(sample(text, `delivery_push_retries_total{${ps},cause="503"}`)).to.equal(2);
    // One final outcome per push, counted by the sender.
    expect(sample(text, `delivery_pushes_total{push_service="${host}",outcome="sent"}`)).to.equal(4);
    expect(sample(text, `delivery_pushes_total{push_service="${host}",outcome="expired"}`)).to.equal(1);
    expect(sample(text, `delivery_pushes_total{push_service="${host}",outcome="failed"}`)).to.equal(1);
    // One observation per request (4 + 1 + 3); the simulator held the accepted ones for 60 ms.
    expect(sample(text, `delivery_push_request_duration_seconds_count{${ps}}`)).to.equal(8);
    expect(sample(text, `delivery_push_request_duration_seconds_sum{${ps}}`)).to.be.at.least(4 * 0.06);
    expect(sample(text, `delivery_push_request_duration_seconds_bucket{le="0.05",${ps}}`)).to.be.at.most(4);
  });

  it('names at most PUSH_SERVICE_LABELS push services; the rest share `other`', async () => {
    const own = new Registry();
    const metrics = createPushMetrics(own);
    for (let i = 0; i < PUSH_SERVICE_LABELS + 10; i++) metrics.pushed(`https://push${i}.example`, 'sent');
    metrics.pushed('not a url', 'failed');
    const text = await own.metrics();
    const named = text.split('\n').filter((l) => l.startsWith('delivery_pushes_total{'));
    expect(named).to.have.length(PUSH_SERVICE_LABELS + 2);
    expect(sample(text, 'delivery_pushes_total{push_service="push0.example",outcome="sent"}')).to.equal(1);
    expect(sample(text, 'delivery_pushes_total{push_service="other",outcome="sent"}')).to.equal(10);
    expect(sample(text, 'delivery_pushes_total{push_service="other",outcome="failed"}')).to.equal(1);
  });

  it('counts each push and answer once however often the registry is read, and what came between reads', async () => {
    const own = new Registry();
    const metrics = createPushMetrics(own);
    const series = 'delivery_pushes_total{push_service="push.example",outcome="sent"}';
    const answers = 'delivery_push_responses_total{push_service="push.example",status_class="error",code="timeout"}';
    metrics.pushed('https://push.example', 'sent');
    metrics.attempt('https://push.example', 'timeout', 10);
    metrics.attempt('https://push.example', 'timeout', 10);
    expect(sample(await own.metrics(), series)).to.equal(1);
    const again = await own.metrics();
    expect(sample(again, series)).to.equal(1);
    expect(sample(again, answers)).to.equal(2);
    metrics.pushed('https://push.example', 'sent');
    metrics.attempt('https://push.example', 'timeout', 10);
    const later = await own.metrics();
    expect(sample(later, series)).to.equal(2);
    expect(sample(later, answers)).to.equal(3);
  });
});
