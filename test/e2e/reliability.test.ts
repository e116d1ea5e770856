// Fault tests of the sending path (shared/design/reliability.md): the delivery service is
// killed (-9) or stopped (SIGTERM) in the middle of a campaign and started again. Nothing may
// be lost; repeats are only possible for pushes that were in flight at the kill (ambiguous),
// and each run prints its figures.
import { spawn } from 'node:child_process';
import { expect } from 'chai';
import { compiledPath } from '../../scripts/lib/build-output.js';
import { ROOT } from '../../scripts/lib/local-env.js';
import { freePort } from '@webpush/shared/ports.js';
import pg from 'pg';
import { startPushSimulator, type PushSimulator } from '../../tools/push-simulator/src/index.js';
import { ALL, siteWithPermissions, validCampaign, type SiteInfo } from './support/fixtures.js';
import { eventually, startStack, type Stack } from './support/harness.js';

const N = 600;

describe('e2e: delivery survives being killed mid-campaign', function () {
  this.timeout(300_000);
  let stack: Stack;
  let sim: PushSimulator;
  let site: SiteInfo;
  const browsers: string[] = [];

  before(async () => {
    sim = await startPushSimulator({ seed: 3 });
    stack = await startStack('e2e_kill', {
      PUSH_EXTRA_CA_FILE: sim.caCertFile,
      SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0',
      CHUNK_SIZE: '100',
      CLAIM_BATCH_SIZE: '20',
      PUSH_CONCURRENCY_PER_ORIGIN: '6',
      INSTANCE_DEAD_AFTER_SEC: '3',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
    });
    site = await siteWithPermissions(stack, ALL, 'reliable');
    const subscribeOne = async () => {
      const sub = sim.createSubscription(site.vapidPublicKey);
      const res = await stack.api.request('POST', `/public/v1/sites/${site.publicId}/subscriptions`, {
        body: { subscription: { endpoint: sub.endpoint, keys: sub.keys }, topics: ['all'] },
      });
      if (res.status !== 201) throw new Error(`subscribe: ${res.status} ${res.text}`);
      browsers.push(sub.id);
    };
    for (let i = 0; i < N; i += 20) await Promise.all(Array.from({ length: Math.min(20, N - i) }, subscribeOne));
  });
  after(async () => {
    await stack?.stop();
    await sim?.close();
  });

  async function runInterrupted(signal: 'SIGKILL' | 'SIGTERM') {
    sim.reset();
    sim.setBehaviour({ latencyMs: 20 });
    const created = await stack.api.request('POST', '/v2/campaign/create', { key: site.apiKey, body: validCampaign({ status: 'published', topics: ['all'] }) });
    const id = created.body.id as string;
    const ofCampaign = () => sim.received().filter((m) => JSON.parse(m.payload).id === id);
    await eventually(async () => (ofCampaign().length >= N / 4 ? true : undefined), 60_000, 20);
    const atSignal = ofCampaign().length;
    stack.services.signal('delivery', signal);
    await eventually(async () => (stack.services.exitCode('delivery') !== undefined ? true : undefined), 30_000, 50);
    await stack.services.restart('delivery');
    try {
      await eventually(async () => (new Set(ofCampaign().map((m) => m.subscriptionId)).size >= N ? true : undefined), 120_000, 250);
    } catch (err) {
      const client = new pg.Client({ connectionString: stack.databaseUrl });
      await client.connect();
      const log = (await client.query(`SELECT state, claimed_by, count(*)::int AS n FROM delivery.delivery_log WHERE campaign_id = $1 GROUP BY 1, 2`, [id])).rows;
      const runRow = (await client.query(`SELECT * FROM delivery.campaign_runs WHERE campaign_id = $1`, [id])).rows[0];
      const chunks = (await client.query(`SELECT array_agg(chunk_no ORDER BY chunk_no) AS done FROM delivery.campaign_chunks WHERE campaign_id = $1`, [id])).rows[0];
      const instances = (await client.query(`SELECT id, heartbeat_at FROM delivery.instances`)).rows;
      await client.end();
      throw new Error(
        `${(err as Error).message}; received ${new Set(ofCampaign().map((m) => m.subscriptionId)).size}/${N}\n` +
          JSON.stringify({ log, run: { ...runRow, job: undefined }, chunks, instances }, null, 1) +
          `\n${stack.logs.slice(-30).join('\n')}`,
      );
    }
    // Let stragglers (a retry of an ambiguous push) arrive before counting.
    await new Promise((r) => setTimeout(r, 1500));
    sim.clearBehaviours();
    const got = new Set(ofCampaign().map((m) => m.subscriptionId));
    const lost = browsers.filter((b) => !got.has(b)).length;
    const accepted = sim.stats().accepted;
    const duplicates = accepted - got.size;
    const client = new pg.Client({ connectionString: stack.databaseUrl });
    await client.connect();
    const run = (await client.query(`SELECT sent::int, ambiguous::int, state FROM delivery.campaign_runs WHERE campaign_id = $1`, [id])).rows[0];
    await client.end();
    console.log(
      `      ${signal} after ${atSignal}/${N} pushes: lost ${lost}, duplicates ${duplicates} (${((100 * duplicates) / N).toFixed(2)}%), ambiguous ${run.ambiguous}, recorded sent ${run.sent}, run ${run.state}`,
    );
    return { lost, duplicates, ambiguous: run.ambiguous as number, sent: run.sent as number, state: run.state as string };
  }

  it('when the delivery service is killed with SIGKILL mid-campaign, then nothing is lost and repeats stay within the ambiguous pushes', async () => {
    const r = await runInterrupted('SIGKILL');
    expect(r.lost).to.equal(0);
    expect(r.duplicates).to.be.at.most(r.ambiguous);
    expect(r.sent).to.equal(N);
    expect(r.state).to.equal('completed');
  });

  it('when the delivery service is stopped with SIGTERM mid-campaign, then it hands back its work: nothing lost, nothing repeated', async () => {
    const r = await runInterrupted('SIGTERM');
    expect(r.lost).to.equal(0);
    expect(r.duplicates).to.equal(0);
    expect(r.sent).to.equal(N);
  });
  it('when two delivery instances run, then one campaign is spread over both and each subscriber gets it once', async () => {
    const env = { ...process.env, ...stack.services.env.delivery, DELIVERY_GRPC_PORT: String(await freePort()), DELIVERY_HTTP_PORT: String(await freePort()) };
    // The same compiled entry as the first instance (the stack has built dist/).
    const second = spawn(process.execPath, [compiledPath('services/delivery/src/main.ts')], { cwd: ROOT, env, stdio: 'ignore' });
    try {
      // Wait until the second instance is part of the consumer group (it heartbeats in the database).
      const client = new pg.Client({ connectionString: stack.databaseUrl });
      await client.connect();
      await eventually(async () => ((await client.query(`SELECT count(*)::int AS n FROM delivery.instances`)).rows[0].n >= 2 ? true : undefined), 30_000, 200);
      await new Promise((r) => setTimeout(r, 8000)); // the group rebalances onto both members
      sim.reset();
      const created = await stack.api.request('POST', '/v2/campaign/create', { key: site.apiKey, body: validCampaign({ status: 'published', topics: ['all'] }) });
      const id = created.body.id as string;
      const ofCampaign = () => sim.received().filter((m) => JSON.parse(m.payload).id === id);
      await eventually(async () => (new Set(ofCampaign().map((m) => m.subscriptionId)).size >= N ? true : undefined), 120_000, 250);
      await new Promise((r) => setTimeout(r, 1000));
      const byInstance = (await client.query(`SELECT claimed_by, count(*)::int AS n FROM delivery.delivery_log WHERE campaign_id = $1 GROUP BY 1`, [id])).rows;
      await client.end();
      console.log(`      two instances: ${byInstance.map((r) => r.n).join(' + ')} pushes, ${sim.stats().accepted} accepted for ${N} subscribers`);
      expect(byInstance).to.have.length(2);
      expect(sim.stats().accepted).to.equal(N);
    } finally {
      second.kill('SIGTERM');
      await new Promise((r) => second.once('exit', r));
    }
  });
});
