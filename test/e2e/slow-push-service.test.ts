// A slow push service with no fault at all (issue 34): one that handles 100 pushes a second, one
// after another, so its latency grows with what the sender keeps queued at it. A sender that
// keeps more in flight than it drains within the request timeout gets timeouts, retries them,
// and the service still delivers the first copies: duplicates. With the in-flight limit read
// from latency, every subscriber gets the campaign once.
import { expect } from 'chai';
import { createDeliveryOperators } from '../../services/delivery/src/operators.js';
import { createPool } from '@webpush/shared/db.js';
import { startPushSimulator, type PushSimulator } from '../../tools/push-simulator/src/index.js';
import { ALL, siteWithPermissions, validCampaign } from './support/fixtures.js';
import { eventually, startStack, type Stack } from './support/harness.js';

const SUBSCRIBERS = 300;

describe('e2e: a slow push service, no faults', function () {
  this.timeout(180_000);
  let stack: Stack;
  let sim: PushSimulator;

  before(async () => {
    // 100 pushes a second: 300 at once would wait up to 3 s, three times the request timeout.
    sim = await startPushSimulator({ mode: 'sink', capacityPerSecond: 100 });
    stack = await startStack('e2e_slow_push', { PUSH_EXTRA_CA_FILE: sim.caCertFile, PUSH_TIMEOUT_MS: '1000' });
  });
  after(async () => {
    await stack?.stop();
    await sim?.close();
  });

  it('when a campaign goes to a push service slower than the sender, then every subscriber gets it exactly once: no timeout, no duplicate', async () => {
    const site = await siteWithPermissions(stack, ALL, 'slow-push');
    const pool = createPool(stack.databaseUrl, { max: 2 });
    try {
      await createDeliveryOperators(pool, Buffer.from(stack.vapidEncryptionKey, 'base64')).seedSubscribers({
        siteId: site.id,
        count: SUBSCRIBERS,
        topics: ['slow'],
        countries: ['br'],
        endpointBase: `${sim.origin}/push/`,
      });
      const created = await stack.api.request('POST', '/v2/campaign/create', { key: site.apiKey, body: validCampaign({ status: 'published', topics: ['slow'] }) });
      expect(created.status, created.text).to.equal(200);
      const id = created.body.id as string;
      const delivery = await eventually(async () => {
        const c = (await stack.api.request('GET', `/v2/campaign/${id}`, { key: site.apiKey })).body;
        return c.delivery.sent + c.delivery.failed + c.delivery.expired >= SUBSCRIBERS ? c.delivery : undefined;
      }, 120_000, 250);
      expect(delivery.sent).to.equal(SUBSCRIBERS);
      const stats = sim.stats();
      expect(stats.accepted).to.equal(SUBSCRIBERS);
      expect(stats.duplicates).to.equal(0);
      // Not one attempt timed out (each would have been retried, and counted ambiguous).
      const log = await pool.query<{ attempts: string; ambiguous: string }>(
        'SELECT sum(attempts)::text AS attempts, sum(ambiguous)::text AS ambiguous FROM delivery.delivery_log WHERE campaign_id = $1',
        [id],
      );
      expect(log.rows[0]).to.deep.equal({ attempts: String(SUBSCRIBERS), ambiguous: '0' });
    } finally {
      await pool.end();
    }
  });
});
