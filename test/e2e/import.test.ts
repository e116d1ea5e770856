// A site moving from another push provider, as an operator moves it: its VAPID key pair and an
// export of its subscriptions go in through the CLI, and the next campaign reaches every imported
// browser — the push-service simulator checks each push's VAPID signature against the key the
// subscription was made with, and decrypts it with the subscription's own keys.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import fc from 'fast-check';
import { ROOT } from '../../scripts/lib/local-env.js';
import { generateVapidKeyPair } from '../../services/delivery/src/sites/vapid-keys.js';
import { startPushSimulator, type PushSimulator } from '../../tools/push-simulator/src/index.js';
import { ALL, siteWithPermissions, validCampaign, type SiteInfo } from './support/fixtures.js';
import { eventually, startStack, type Stack } from './support/harness.js';

const run = promisify(execFile);
const SUBSCRIPTIONS = 10_000;

describe('e2e: importing a site from another provider', function () {
  this.timeout(300_000);
  let stack: Stack;
  let sim: PushSimulator;
  let site: SiteInfo;
  let dir: string;
  // The previous provider's key pair: the browsers' subscriptions are bound to it.
  // (generateVapidKeyPair pads the private key to 32 bytes; a raw ECDH key has 31 once in 256.)
  const previous = generateVapidKeyPair();
  const publicKey = previous.publicKey;
  const subscriptions: { id: string; endpoint: string; keys: { p256dh: string; auth: string } }[] = [];

  before(async () => {
    sim = await startPushSimulator({ seed: 11 });
    stack = await startStack('e2e_import', { PUSH_EXTRA_CA_FILE: sim.caCertFile });
    site = await siteWithPermissions(stack, ALL, 'moving');
    dir = await mkdtemp(path.join(os.tmpdir(), 'webpush-import-'));
    for (let i = 0; i < SUBSCRIPTIONS; i++) subscriptions.push(sim.createSubscription(publicKey));
  });
  after(async () => {
    await stack?.stop();
    await sim?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it(`when the key pair and ${SUBSCRIPTIONS.toLocaleString('en')} subscriptions are imported, then the next campaign reaches every one of them once, signed with the imported key`, async () => {
    const keysFile = path.join(dir, 'vapid.json');
    await writeFile(keysFile, JSON.stringify(previous));
    const adopted = await stack.cli('sites', 'import-vapid', site.publicId, keysFile);
    expect(adopted).to.include({ vapidPublicKey: publicKey, changed: true });

    const file = path.join(dir, 'subscriptions.ndjson');
    const lines = subscriptions.map((s, i) => JSON.stringify({ endpoint: s.endpoint, keys: s.keys, topics: ['moved'], country: i % 2 ? 'BR' : 'pt', createdAt: '2025-06-01T12:00:00Z' }));
    await writeFile(file, lines.join('\n') + '\n');
    const report = await stack.cli('subscribers', 'import', site.publicId, file);
    expect(report).to.include({ read: SUBSCRIPTIONS, imported: SUBSCRIPTIONS, existing: 0, refused: 0 });

    const topics = await stack.api.request('GET', '/v2/topics', { key: site.apiKey });
    expect(topics.body).to.deep.equal([{ name: 'moved', users: SUBSCRIPTIONS }]);
    const created = await stack.api.request('POST', '/v2/campaign/create', { key: site.apiKey, body: validCampaign({ status: 'published', topics: ['moved'] }) });
    expect(created.status, created.text).to.equal(200);
    const campaignId = created.body.id as string;
    const ofCampaign = () => sim.received().filter((m) => JSON.parse(m.payload).id === campaignId);
    await eventually(async () => (ofCampaign().length >= SUBSCRIPTIONS ? true : undefined), 180_000, 500);
    const got = ofCampaign();
    expect(new Set(got.map((m) => m.subscriptionId)).size).to.equal(SUBSCRIPTIONS);
    expect(got.map((m) => m.subscriptionId).sort()).to.deep.equal(subscriptions.map((s) => s.id).sort());
    expect(sim.stats().rejected.total).to.equal(0);
    const campaign = await stack.api.request('GET', `/v2/campaign/${campaignId}`, { key: site.apiKey });
    expect(campaign.body.totalUsers).to.equal(SUBSCRIPTIONS);
  });

  it('when the same export is imported again with a few bad lines, then nothing is doubled, the bad lines are reported, and the command exits 1', async () => {
    const file = path.join(dir, 'again.ndjson');
    const lines = [JSON.stringify({ endpoint: subscriptions[0].endpoint, keys: subscriptions[0].keys }), '{"endpoint": "https://evil.example/x", "keys": {}}', 'nonsense'];
    await writeFile(file, lines.join('\n'));
    const result = await run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/cli.ts'), 'subscribers', 'import', site.publicId, file, '--json'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: stack.databaseUrl, VAPID_ENCRYPTION_KEY: stack.vapidEncryptionKey, PUSH_TEST_HOSTS: '127.0.0.1,localhost' },
      timeout: 60_000,
    }).then(
      () => ({ code: 0, stdout: '' }),
      (e: { code: number; stdout: string }) => ({ code: e.code, stdout: e.stdout }),
    );
    expect(result.code).to.equal(1);
    const report = JSON.parse(result.stdout);
    expect(report).to.include({ read: 3, imported: 0, existing: 1, refused: 2 });
    expect(report.refusals.map((r: { line: number }) => r.line)).to.deep.equal([2, 3]);
    const topics = await stack.api.request('GET', '/v2/topics', { key: site.apiKey });
    expect(topics.body).to.deep.equal([{ name: 'moved', users: SUBSCRIPTIONS }]);
  });

  it('when a key pair is imported after the site has subscribers, then it is refused with the reason', async () => {
    const keysFile = path.join(dir, 'other.json');
    await writeFile(keysFile, JSON.stringify(generateVapidKeyPair()));
    const err = await stack.cli('sites', 'import-vapid', site.publicId, keysFile).catch((e: Error) => e);
    expect(err).to.be.instanceOf(Error);
    expect((err as Error).message).to.include('before the first subscriber and the first campaign');
  });

  it('when the site is exported with the CLI (its key pair, its subscriptions with their keys) and imported into another site, then a campaign there reaches every browser', async () => {
    const keysFile = path.join(dir, 'exported-vapid.json');
    const exported = await stack.cli('sites', 'export-vapid', site.publicId, keysFile);
    expect(exported).to.include({ vapidPublicKey: publicKey });
    expect((await stat(keysFile)).mode & 0o777).to.equal(0o600);
    expect((await stack.cli('sites', 'export-vapid', site.publicId, keysFile).catch((e: Error) => e)).message).to.include('exists already');
    const linesFile = path.join(dir, 'exported.ndjson');
    expect(await stack.cli('subscribers', 'export', site.publicId, linesFile)).to.include({ exported: SUBSCRIPTIONS });
    const lines = (await readFile(linesFile, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.endpoint).sort()).to.deep.equal(subscriptions.map((s) => s.endpoint).sort());
    expect(lines[0]).to.have.all.keys('endpoint', 'keys', 'topics', 'country', 'createdAt');

    const next = await siteWithPermissions(stack, ALL, 'moved-again');
    expect(await stack.cli('sites', 'import-vapid', next.publicId, keysFile)).to.include({ vapidPublicKey: publicKey, changed: true });
    expect(await stack.cli('subscribers', 'import', next.publicId, linesFile)).to.include({ read: SUBSCRIPTIONS, imported: SUBSCRIPTIONS, refused: 0 });
    const created = await stack.api.request('POST', '/v2/campaign/create', { key: next.apiKey, body: validCampaign({ status: 'published', topics: ['moved'] }) });
    expect(created.status, created.text).to.equal(200);
    const ofCampaign = () => sim.received().filter((m) => JSON.parse(m.payload).id === created.body.id);
    await eventually(async () => (ofCampaign().length >= SUBSCRIPTIONS ? true : undefined), 180_000, 500);
    expect(new Set(ofCampaign().map((m) => m.subscriptionId)).size).to.equal(SUBSCRIPTIONS);
    expect(sim.stats().rejected.total).to.equal(0);
  });

  describe('through the API (POST /v2/subscribers/import)', () => {
    const pairOf = generateVapidKeyPair;
    const importing = (key: string, body: unknown) => stack.api.request('POST', '/v2/subscribers/import', { key, body });

    it('when a new site sends its key pair and subscriptions, then the valid ones are imported, the others reported by index, and a campaign reaches them signed with that key', async () => {
      const fresh = await siteWithPermissions(stack, ALL, 'api-moving');
      const pair = pairOf();
      const browsers = Array.from({ length: 40 }, () => sim.createSubscription(pair.publicKey));
      const items: unknown[] = browsers.map((b) => ({ endpoint: b.endpoint, keys: b.keys, topics: ['api-moved'] }));
      items.splice(3, 0, { endpoint: 'https://evil.example/push/1', keys: browsers[0].keys });
      items.splice(7, 0, 'a string');
      const res = await importing(fresh.apiKey, { vapidKeys: pair, subscriptions: items });
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.equal({
        received: 42,
        imported: 40,
        existing: 0,
        refused: 2,
        refusals: [
          { index: 3, reason: 'subscription.endpoint must be an https URL of a push service' },
          { index: 7, reason: 'a subscription must be a JSON object: {"endpoint", "keys": {"p256dh", "auth"}, "topics", "country", "createdAt"}' },
        ],
        vapidPublicKey: pair.publicKey,
      });
      // The same request again (a retry after a lost answer): nothing new, the key pair unchanged.
      const again = await importing(fresh.apiKey, { vapidKeys: pair, subscriptions: items });
      expect(again.body).to.include({ imported: 0, existing: 40, refused: 2 });

      const created = await stack.api.request('POST', '/v2/campaign/create', { key: fresh.apiKey, body: validCampaign({ status: 'published', topics: ['api-moved'] }) });
      expect(created.status, created.text).to.equal(200);
      const campaignId = created.body.id as string;
      await eventually(async () => (sim.received().filter((m) => JSON.parse(m.payload).id === campaignId).length >= 40 ? true : undefined), 60_000, 200);
      const ids = sim.received().filter((m) => JSON.parse(m.payload).id === campaignId).map((m) => m.subscriptionId).sort();
      expect(ids).to.deep.equal(browsers.map((b) => b.id).sort());

      // From now on the site's key is bound: another pair is 409, and nothing of that request is imported.
      const extra = sim.createSubscription(pair.publicKey);
      const late = await importing(fresh.apiKey, { vapidKeys: pairOf(), subscriptions: [{ endpoint: extra.endpoint, keys: extra.keys }] });
      expect([late.status, late.body]).to.deep.equal([
        409,
        { message: 'the site already has subscribers or campaigns bound to its VAPID key: a key pair can be imported only before the first subscriber and the first campaign' },
      ]);
      const topics = await stack.api.request('GET', '/v2/topics', { key: fresh.apiKey });
      expect(topics.body).to.deep.equal([{ name: 'api-moved', users: 40 }]);
    });

    it('when the request is not an import, then 400 with every wrong field named, and nothing is imported', async () => {
      const fresh = await siteWithPermissions(stack, ALL, 'api-bad');
      const pair = pairOf();
      const other = pairOf();
      const one = { endpoint: 'https://127.0.0.1/push/x', keys: sim.createSubscription(pair.publicKey).keys };
      const cases: [unknown, string][] = [
        [{}, 'subscriptions must be an array of 1 to 1000 subscriptions'],
        [{ subscriptions: [] }, 'subscriptions must be an array of 1 to 1000 subscriptions'],
        [{ subscriptions: Array.from({ length: 1001 }, () => one) }, 'subscriptions must be an array of 1 to 1000 subscriptions'],
        [{ subscriptions: 'all' }, 'subscriptions must be an array of 1 to 1000 subscriptions'],
        [{ vapidKeys: [], subscriptions: [one] }, 'vapidKeys must be an object: {"publicKey", "privateKey"}'],
        [{ vapidKeys: { publicKey: pair.publicKey, privateKey: other.privateKey }, subscriptions: [one] }, 'vapidKeys.publicKey must be the public key of vapidKeys.privateKey'],
        [{ vapidKeys: { publicKey: 'x', privateKey: other.privateKey } }, 'subscriptions must be an array of 1 to 1000 subscriptions, vapidKeys.publicKey must be an uncompressed P-256 public key (65 bytes) in base64url'],
        [[one], 'Invalid JSON body'],
      ];
      for (const [body, message] of cases) {
        const res = await importing(fresh.apiKey, body);
        expect([res.status, res.body], JSON.stringify(body).slice(0, 80)).to.deep.equal([400, { message }]);
      }
      const topics = await stack.api.request('GET', '/v2/topics', { key: fresh.apiKey });
      expect(topics.body).to.deep.equal([]);
    });

    it('when the plan has no audience permission, then 403; over 2 MiB, 413', async () => {
      const limited = await siteWithPermissions(stack, ['create', 'reports'], 'api-no-audience');
      const denied = await importing(limited.apiKey, { subscriptions: [{}] });
      expect([denied.status, denied.body]).to.deep.equal([403, { message: 'This plan does not have permission to import subscribers via API' }]);
      const big = await stack.api.request('POST', '/v2/subscribers/import', { key: site.apiKey, rawBody: JSON.stringify({ subscriptions: [{ endpoint: 'x'.repeat(2 * 1024 * 1024) }] }) });
      expect([big.status, big.body]).to.deep.equal([413, { message: 'Request body too large' }]);
      // Between the /v2 limit (100 kB) and this one: read and judged.
      const mid = await stack.api.request('POST', '/v2/subscribers/import', { key: site.apiKey, rawBody: JSON.stringify({ subscriptions: [{ endpoint: 'x'.repeat(200_000) }] }) });
      expect([mid.status, mid.body.refused]).to.deep.equal([200, 1]);
    });

    it('whatever the body holds, the answer is 200, 400 or 409 with a message, never a 5xx', async () => {
      const hostile = fc.oneof(
        fc.jsonValue({ maxDepth: 3 }),
        fc.record(
          {
            vapidKeys: fc.oneof(fc.anything(), fc.record({ publicKey: fc.string(), privateKey: fc.string() })),
            subscriptions: fc.oneof(fc.anything(), fc.array(fc.anything(), { maxLength: 5 }), fc.array(fc.record({ endpoint: fc.string(), keys: fc.anything(), topics: fc.anything(), country: fc.anything(), createdAt: fc.anything() }, { requiredKeys: [] }), { maxLength: 5 })),
          },
          { requiredKeys: [] },
        ),
      );
      await fc.assert(
        fc.asyncProperty(hostile, async (body) => {
          const res = await stack.api.request('POST', '/v2/subscribers/import', { key: site.apiKey, rawBody: JSON.stringify(body) ?? 'null' });
          expect([200, 400, 409], res.text).to.include(res.status);
          if (res.status !== 200) expect(res.body.message).to.be.a('string').and.not.equal('');
        }),
        { numRuns: 60 },
      );
    });
  });
});
