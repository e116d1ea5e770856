// A site moving from another push provider, as an operator moves it: its VAPID key pair and an
// export of its subscriptions go in through the CLI, and the next campaign reaches every imported
// browser — the push-service simulator checks each push's VAPID signature against the key the
// subscription was made with, and decrypts it with the subscription's own keys.
import { execFile } from 'node:child_process';
import { createECDH } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { ROOT } from '../../scripts/lib/local-env.js';
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
  const previous = createECDH('prime256v1');
  previous.generateKeys();
  const publicKey = previous.getPublicKey().toString('base64url');
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
    await writeFile(keysFile, JSON.stringify({ publicKey, privateKey: previous.getPrivateKey().toString('base64url') }));
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
    const other = createECDH('prime256v1');
    other.generateKeys();
    const keysFile = path.join(dir, 'other.json');
    await writeFile(keysFile, JSON.stringify({ publicKey: other.getPublicKey().toString('base64url'), privateKey: other.getPrivateKey().toString('base64url') }));
    const err = await stack.cli('sites', 'import-vapid', site.publicId, keysFile).catch((e: Error) => e);
    expect(err).to.be.instanceOf(Error);
    expect((err as Error).message).to.include('before the first subscriber and the first campaign');
  });
});
