// A notification's exactly-once promise under a fault (docs/reliability.md): the delivery service
// is killed (-9) while a notification to 300 subscriptions is being sent, and started again.
// Nothing may be lost, repeats stay within the pushes it counted ambiguous, and the results end
// with every target sent.
import { expect } from 'chai';
import pg from 'pg';
import { startPushSimulator, type PushSimulator } from '../../tools/push-simulator/src/index.js';
import { ALL, siteWithPermissions, subscribeSimulated, type SiteInfo } from './support/fixtures.js';
import { eventually, startStack, type Stack } from './support/harness.js';

const N = 300;

describe('e2e: a notification survives the delivery service killed mid-send', function () {
  this.timeout(300_000);
  let stack: Stack;
  let sim: PushSimulator;
  let site: SiteInfo;
  let people: { simId: string; subscriberId: string }[];

  before(async () => {
    sim = await startPushSimulator({ seed: 23 });
    stack = await startStack('e2e_notify_kill', {
      PUSH_EXTRA_CA_FILE: sim.caCertFile,
      SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0',
      CHUNK_SIZE: '50',
      CLAIM_BATCH_SIZE: '10',
      PUSH_CONCURRENCY_PER_ORIGIN: '4',
      INSTANCE_DEAD_AFTER_SEC: '3',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
    });
    site = await siteWithPermissions(stack, ALL, 'notify-kill');
    people = await subscribeSimulated(stack, sim, site, N, () => ({ topics: ['all'] }));
  });
  after(async () => {
    await stack?.stop();
    await sim?.close();
  });

  it('when the delivery service is killed with SIGKILL mid-send, then every target gets the notification, repeats stay within the ambiguous pushes, and the results end all sent', async () => {
    sim.setBehaviour({ latencyMs: 40 });
    const created = await stack.api.request('POST', '/v2/notifications', { key: site.apiKey, body: { subscriptionIds: people.map((p) => p.subscriberId), title: 'Your order shipped', body: 'Parcel 1234 is on its way', link: 'https://shop.example/orders/1234' } });
    expect(created.status, created.text).to.equal(202);
    const id = created.body.id as string;
    const received = () => sim.received().filter((m) => JSON.parse(m.payload).id === id);
    await eventually(async () => (received().length >= N / 4 ? true : undefined), 60_000, 20);
    const atKill = received().length;
    stack.services.signal('delivery', 'SIGKILL');
    await eventually(async () => (stack.services.exitCode('delivery') !== undefined ? true : undefined), 30_000, 50);
    await stack.services.restart('delivery');
    await eventually(async () => (new Set(received().map((m) => m.subscriptionId)).size >= N ? true : undefined), 120_000, 250);
    const done = await eventually(async () => {
      const res = await stack.api.request('GET', `/v2/notifications/${id}?limit=1000`, { key: site.apiKey });
      return res.body.status === 'completed' ? res.body : undefined;
    }, 60_000, 250);
    await new Promise((r) => setTimeout(r, 1000));
    sim.clearBehaviours();
    const got = received();
    const client = new pg.Client({ connectionString: stack.databaseUrl });
    await client.connect();
    const run = (await client.query(`SELECT ambiguous::int FROM delivery.campaign_runs WHERE campaign_id = $1`, [id])).rows[0];
    await client.end();
    const duplicates = got.length - new Set(got.map((m) => m.subscriptionId)).size;
    console.log(`      SIGKILL after ${atKill}/${N} pushes: lost 0, duplicates ${duplicates}, ambiguous ${run.ambiguous}`);
    expect(new Set(got.map((m) => m.subscriptionId)).size, 'lost').to.equal(N);
    expect(duplicates, 'duplicates ≤ ambiguous').to.be.at.most(run.ambiguous);
    expect(done.counts).to.deep.equal({ sent: N, noSubscription: 0, capped: 0, failed: 0, pending: 0 });
  });
});
