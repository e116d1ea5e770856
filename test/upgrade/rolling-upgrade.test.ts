// The upgrade path, run for real: version N (the release named in deploy/previous-release, taken
// from this repository's own history and run with its own code, dependencies and launcher) is
// running on a database; this version migrates that database while N keeps serving, starts beside
// N on the same database and Kafka topics (two versions at once, as during a rolling update), and
// N is stopped. At every step a campaign created through the gateway that is up reaches every
// subscriber exactly once, and this version's gateway in front of N's campaign service (the
// roll-out order: gateways first) answers list and get as N's gateway does. This proves the
// promise in docs/operations.md ("Upgrading"): migrations and messages stay readable by the
// previous version for one release.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../../scripts/lib/local-env.js';
import { startServices, type RunningServices, type StartOptions } from '../../scripts/lib/services.js';
import { startPushSimulator, type PushSimulator } from '../../tools/push-simulator/src/index.js';
import { freshDatabase } from '../support/postgres.js';
import { testKafkaBrokers } from '../support/kafka.js';
import { createApi, eventually, type Api } from '../e2e/support/harness.js';

const run = promisify(execFile);
const SUBSCRIBERS = 20;

/** deploy/previous-release: the commit of the release this version upgrades from (first line). */
async function previousRelease(): Promise<string> {
  const text = await readFile(path.join(ROOT, 'deploy/previous-release'), 'utf8');
  const rev = text.split('\n').find((l) => l.trim() !== '' && !l.startsWith('#'))?.trim() ?? '';
  if (!/^[0-9a-f]{40}$/.test(rev)) throw new Error(`deploy/previous-release must name a full commit id, found ${JSON.stringify(rev)}`);
  return rev;
}

/**
 * Version N's source tree with its own dependencies installed, cached by commit under
 * ~/.cache/webpush-campaigns/releases/ (the first run installs them: about a minute).
 */
async function releaseTree(rev: string): Promise<string> {
  const cache = path.join(os.homedir(), '.cache', 'webpush-campaigns', 'releases');
  const dir = path.join(cache, rev);
  if (existsSync(path.join(dir, '.installed'))) return dir;
  try {
    await run('git', ['-C', ROOT, 'cat-file', '-e', `${rev}^{commit}`]);
  } catch {
    throw new Error(`commit ${rev} (deploy/previous-release) is not in this clone's history: clone with full history (no --depth) to run the upgrade test`);
  }
  const building = `${dir}.${process.pid}.tmp`;
  await rm(building, { recursive: true, force: true });
  await mkdir(building, { recursive: true });
  console.log(`      (upgrade test: extracting ${rev.slice(0, 12)} and installing its dependencies into ${dir})`);
  await run('bash', ['-c', `git -C "${ROOT}" archive --format=tar ${rev} | tar -x -C "${building}"`], { maxBuffer: 1 << 20 });
  await run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: building, timeout: 600_000, maxBuffer: 16 << 20 });
  await run('touch', [path.join(building, '.installed')]);
  await rm(dir, { recursive: true, force: true });
  await rename(building, dir);
  return dir;
}

describe('upgrade: the previous release and this one on one database, rolled forward without downtime', function () {
  this.timeout(900_000);
  let oldTree: string;
  let db: { url: string; drop(): Promise<void> };
  let sim: PushSimulator;
  let oldStack: RunningServices | undefined;
  let newStack: RunningServices | undefined;
  let site: { id: string; publicId: string; apiKey: string; vapidPublicKey: string };
  const logs: string[] = [];
  const subscriptions: string[] = [];
  let shared: Omit<StartOptions, 'onLine'>;

  /** A CLI of either version, on the shared database. */
  const cli = async (root: string, ...args: string[]) => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/cli.ts'), ...args, '--json'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: shared.databaseUrl, VAPID_ENCRYPTION_KEY: shared.vapidEncryptionKey, CURSOR_SECRET: shared.cursorSecret },
      timeout: 120_000,
    });
    return JSON.parse(stdout);
  };
  const onLine = (version: string) => (name: string, line: string) => {
    if (logs.length < 5000) logs.push(`[${version} ${name}] ${line}`);
  };
  /** Creates a campaign through this gateway and waits until every subscriber got it exactly once. */
  const sendThrough = async (api: Api, title: string) => {
    const res = await api.request('POST', '/v2/campaign/create', {
      key: site.apiKey,
      body: { title, body: 'Rolling upgrade', link: 'https://example.com/', topics: ['news'], status: 'published', scheduleMode: 'now' },
    });
    expect(res.status, res.text).to.equal(200);
    const id = res.body.id as string;
    const perSubscription = () => {
      const counts = new Map<string, number>();
      for (const m of sim.received()) if (JSON.parse(m.payload).id === id) counts.set(m.subscriptionId, (counts.get(m.subscriptionId) ?? 0) + 1);
      return counts;
    };
    await eventually(async () => (perSubscription().size === SUBSCRIBERS ? true : undefined), 90_000, 200);
    // A repeat would come from the same run moments later: look once more after a pause.
    await new Promise((r) => setTimeout(r, 1000));
    const counts = perSubscription();
    expect([...counts.values()].every((n) => n === 1), `${title}: a subscriber got it more than once`).to.equal(true);
    expect(subscriptions.every((s) => counts.get(s) === 1), `${title}: every subscriber got it`).to.equal(true);
    return id;
  };

  before(async function () {
    const rev = await previousRelease();
    oldTree = await releaseTree(rev);
    sim = await startPushSimulator();
    db = await freshDatabase('upgrade');
    shared = {
      databaseUrl: db.url,
      cursorSecret: randomBytes(32).toString('base64'),
      vapidEncryptionKey: randomBytes(32).toString('base64'),
      env: {
        KAFKA_BROKERS: testKafkaBrokers(),
        KAFKA_TOPIC_PREFIX: `upgrade-${randomBytes(3).toString('hex')}.`,
        PUSH_TEST_HOSTS: '127.0.0.1,localhost',
        PUSH_EXTRA_CA_FILE: sim.caCertFile,
        AUTH_CACHE_TTL_MS: '300',
        SCHEDULER_INTERVAL_MS: '200',
        SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0',
        LOG_LEVEL: 'warn',
        // One deployment's secrets: either version's services may call the other's.
        GATEWAY_INTERNAL_TOKEN: randomBytes(32).toString('base64'),
        CAMPAIGN_INTERNAL_TOKEN: randomBytes(32).toString('base64'),
      },
    };
    // Version N's own launcher, from its own tree: it runs N's services the way N ran them.
    const oldServices = (await import(path.join(oldTree, 'scripts/lib/services.ts'))) as { startServices: typeof startServices };
    oldStack = await oldServices.startServices({ ...shared, onLine: onLine('N') });
    await cli(oldTree, 'plans', 'create', 'upgrade', '--permissions', 'create,reports,delete,audience');
    site = await cli(oldTree, 'sites', 'create', 'upgrade site', '--plan', 'upgrade');
    const api = createApi(oldStack.gatewayUrl);
    for (let i = 0; i < SUBSCRIBERS; i++) {
      const sub = sim.createSubscription(site.vapidPublicKey);
      const res = await api.request('POST', `/public/v1/sites/${site.publicId}/subscriptions`, { body: { subscription: { endpoint: sub.endpoint, keys: sub.keys }, topics: ['news'] } });
      expect(res.status, res.text).to.equal(201);
      subscriptions.push(sub.id);
    }
  });

  after(async () => {
    await newStack?.stop();
    await oldStack?.stop();
    await db?.drop();
    await sim?.close();
  });

  afterEach(function () {
    if (this.currentTest?.state === 'failed') console.log(logs.slice(-60).join('\n'));
  });

  it('version N serves on its own schema', async () => {
    await sendThrough(createApi(oldStack!.gatewayUrl), 'N alone');
  });

  it("when this version's migrations run while N is serving, then N keeps working on the migrated schema", async () => {
    const applied = await cli(ROOT, 'migrate');
    expect(applied).to.deep.include({ migrated: true });
    await sendThrough(createApi(oldStack!.gatewayUrl), 'N on the new schema');
  });

  it('when this version starts beside N (same database, same topics), then campaigns created through either gateway reach everyone exactly once', async () => {
    newStack = await startServices({ ...shared, onLine: onLine('N+1') });
    await sendThrough(createApi(oldStack!.gatewayUrl), 'through N, both running');
    await sendThrough(createApi(newStack.gatewayUrl), 'through N+1, both running');
  });

  it("when this version's gateway is rolled out before the campaign service, then list and get through it answer exactly N's gateway's bytes", async () => {
    // The order of docs/operations.md ("Upgrading"): gateways first. This version's gateway in
    // front of N's campaign service (as a Kubernetes Service routes while only the gateways are
    // new) must read N's answers, which carry the API's JSON bytes instead of typed campaigns.
    await newStack!.restart('gateway', { CAMPAIGN_GRPC_TARGET: `127.0.0.1:${oldStack!.ports.campaignGrpc}` });
    try {
      const viaOld = createApi(oldStack!.gatewayUrl);
      const viaNew = createApi(newStack!.gatewayUrl);
      /** One request through both gateways; N's is asked before and after, and all three again when a delivery report changed the campaigns in between. */
      const same = async (method: string, urlPath: string, body?: unknown) => {
        for (let attempt = 1; ; attempt++) {
          const before = await viaOld.request(method, urlPath, { key: site.apiKey, body });
          const through = await viaNew.request(method, urlPath, { key: site.apiKey, body });
          const after = await viaOld.request(method, urlPath, { key: site.apiKey, body });
          expect(before.status, before.text).to.equal(200);
          if (before.text !== after.text && attempt < 10) continue;
          expect(after.text, `${urlPath}: N's own answers kept changing`).to.equal(before.text);
          expect(through.status, through.text).to.equal(200);
          expect(through.text, urlPath).to.equal(before.text);
          return before.body;
        }
      };
      const first = await same('POST', '/v2/campaigns', { limit: 2 });
      expect(first.hasMore, 'the test needs a second page').to.equal(true);
      await same('POST', '/v2/campaigns', { limit: 2, cursor: first.nextCursor });
      await same('GET', `/v2/campaign/${first.items[0].id}`);
    } finally {
      await newStack!.restart('gateway', { CAMPAIGN_GRPC_TARGET: `127.0.0.1:${newStack!.ports.campaignGrpc}` });
    }
  });

  it("when only one version's delivery is up, then it sends what the other version's campaign service published", async () => {
    // Which delivery instance takes a message depends on Kafka's partition assignment: stop one
    // version's delivery (pointing that version's campaign service at the other's for audience
    // counts, as a Kubernetes Service would) so that the other must read what the other wrote.
    const only = async (up: RunningServices, down: RunningServices, title: string) => {
      down.signal('delivery', 'SIGTERM');
      await eventually(async () => (down.exitCode('delivery') !== undefined ? true : undefined), 30_000, 100);
      await down.restart('campaign', { AUDIENCE_GRPC_TARGET: `127.0.0.1:${up.ports.deliveryGrpc}` });
      await sendThrough(createApi(down.gatewayUrl), title);
      await down.restart('delivery');
      await down.restart('campaign', { AUDIENCE_GRPC_TARGET: `127.0.0.1:${down.ports.deliveryGrpc}` });
    };
    await only(oldStack!, newStack!, 'N+1 campaign, N delivery');
    await only(newStack!, oldStack!, 'N campaign, N+1 delivery');
  });

  it('when N is stopped, then this version serves alone, and what N created reads the same through it', async () => {
    await oldStack!.stop();
    oldStack = undefined;
    const api = createApi(newStack!.gatewayUrl);
    await sendThrough(api, 'N+1 alone');
    const list = await api.request('POST', '/v2/campaigns', { key: site.apiKey, body: { limit: 100 } });
    expect(list.status, list.text).to.equal(200);
    const titles = (list.body.items as { title: string }[]).map((c) => c.title);
    expect(titles).to.include.members(['N alone', 'N on the new schema', 'through N, both running', 'through N+1, both running', 'N+1 campaign, N delivery', 'N campaign, N+1 delivery', 'N+1 alone']);
  });
});
