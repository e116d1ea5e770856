// Rotating VAPID_ENCRYPTION_KEY end to end, as docs/operations.md, "Rotating secrets" tells an operator to: a
// stack runs under key A; the delivery service is restarted with key B and A as previous; the
// operator CLI re-encrypts the stored VAPID keys; finally A is dropped. Real processes, real
// Postgres and Kafka, and the push-service simulator, which verifies each push's VAPID signature
// against the key the browser subscribed with and decrypts the payload.
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import pg from 'pg';
import { ROOT } from '../../scripts/lib/local-env.js';
import { createDeliveryOperators } from '../../services/delivery/src/operators.js';
import { createPool } from '@webpush/shared/db.js';
import { startPushSimulator, type PushSimulator } from '../../tools/push-simulator/src/index.js';
import { ALL, siteWithPermissions, validCampaign, type SiteInfo } from './support/fixtures.js';
import { eventually, startStack, type Stack } from './support/harness.js';

const run = promisify(execFile);
const BROWSERS = 4;

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

describe('e2e: rotating VAPID_ENCRYPTION_KEY', function () {
  this.timeout(300_000);
  let stack: Stack;
  let sim: PushSimulator;
  let site: SiteInfo;
  let keyA: string;
  const keyB = randomBytes(32).toString('base64');
  const keyC = randomBytes(32).toString('base64');
  const browsers: string[] = [];
  let tokenA: string;
  let campaignA: string;
  let tokenB: string;
  let campaignB: string;

  /** The operator CLI as a real process with the given keys (CURSOR_SECRET too, so it never touches .data/). */
  const cli = async (keys: { current: string; previous?: string }, ...args: string[]): Promise<CliResult> => {
    const env = {
      ...process.env,
      DATABASE_URL: stack.databaseUrl,
      CURSOR_SECRET: randomBytes(32).toString('base64'),
      VAPID_ENCRYPTION_KEY: keys.current,
      VAPID_ENCRYPTION_KEY_PREVIOUS: keys.previous ?? '',
    };
    const result = await run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/cli.ts'), ...args, '--json'], { cwd: ROOT, env, timeout: 120_000 }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e) => ({ code: e.code as number, stdout: (e.stdout as string) ?? '', stderr: (e.stderr as string) ?? '' }),
    );
    let json: unknown;
    try {
      json = JSON.parse(result.stdout);
    } catch {
      json = undefined;
    }
    return { ...result, json };
  };

  /** Restarts the delivery service with other keys. */
  const restartDelivery = (keys: { current: string; previous: string }) =>
    stack.services.restart('delivery', { VAPID_ENCRYPTION_KEY: keys.current, VAPID_ENCRYPTION_KEY_PREVIOUS: keys.previous });

  const send = async (): Promise<{ id: string; token: string }> => {
    const created = await stack.api.request('POST', '/v2/campaign/create', { key: site.apiKey, body: validCampaign({ status: 'published', topics: ['all'] }) });
    expect(created.status, created.text).to.equal(200);
    const id = created.body.id as string;
    const ofCampaign = () => sim.received().filter((m) => JSON.parse(m.payload).id === id);
    try {
      await eventually(async () => (ofCampaign().length >= BROWSERS ? true : undefined), 90_000, 200);
    } catch (err) {
      throw new Error(`${(err as Error).message}; simulator: ${JSON.stringify(sim.stats().rejected)}\n${stack.logs.slice(-30).join('\n')}`);
    }
    const got = ofCampaign();
    expect(got.map((m) => m.subscriptionId).sort()).to.deep.equal([...browsers].sort());
    return { id, token: JSON.parse(got[0].payload).token as string };
  };

  const report = (type: 'impression' | 'click', token: string) => stack.api.request('POST', '/public/v1/events', { body: { type, token } });
  /** The campaign's impressions and clicks as the API reports them (0 before any counter exists). */
  const analytics = async (id: string): Promise<{ impressions: number; clicks: number }> => {
    const res = await stack.api.request('GET', `/v2/campaign/${id}`, { key: site.apiKey });
    expect(res.status, res.text).to.equal(200);
    return { impressions: res.body.analytics?.impressions ?? 0, clicks: res.body.analytics?.clicks ?? 0 };
  };
  const storedSites = async () => {
    const client = new pg.Client({ connectionString: stack.databaseUrl });
    await client.connect();
    try {
      return (await client.query(`SELECT site_id, public_id, vapid_public_key, vapid_private_key_enc FROM delivery.sites ORDER BY site_id`)).rows;
    } finally {
      await client.end();
    }
  };

  before(async () => {
    sim = await startPushSimulator({ seed: 11 });
    stack = await startStack('e2e_keyrot', {
      PUSH_EXTRA_CA_FILE: sim.caCertFile,
      SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0',
      TRACKING_RATE_LIMIT_PER_MINUTE: '0',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
    });
    keyA = stack.vapidEncryptionKey;
    site = await siteWithPermissions(stack, ALL, 'rotating');
    for (let i = 0; i < BROWSERS; i++) {
      const sub = sim.createSubscription(site.vapidPublicKey);
      const res = await stack.api.request('POST', `/public/v1/sites/${site.publicId}/subscriptions`, {
        body: { subscription: { endpoint: sub.endpoint, keys: sub.keys }, topics: ['all'] },
      });
      expect(res.status, res.text).to.equal(201);
      browsers.push(sub.id);
    }
  });
  after(async () => {
    await stack?.stop();
    await sim?.close();
  });

  it('under key A, a campaign reaches every browser (VAPID verified, decrypted) with a tracking token', async () => {
    ({ id: campaignA, token: tokenA } = await send());
    expect(tokenA).to.match(/^[A-Za-z0-9_-]{54}$/);
    expect(sim.stats().rejected.total).to.equal(0);
    expect((await analytics(campaignA)).impressions).to.equal(0);
  });

  it('when VAPID_ENCRYPTION_KEY_PREVIOUS is malformed, then the delivery service stops at start-up with a message naming it', async () => {
    const before = stack.logs.length;
    let thrown: unknown;
    await restartDelivery({ current: keyB, previous: `${keyA},c2hvcnQ=` }).catch((err) => (thrown = err));
    expect(String(thrown)).to.match(/delivery exited with code 1 while starting/);
    expect(stack.logs.slice(before).join('\n')).to.include('VAPID_ENCRYPTION_KEY_PREVIOUS (key 2 of 2) must be base64 of exactly 32 bytes').and.not.include(keyA);
  });

  it('with key B current and A previous, the token delivered under A still counts, and the site (key still under A) still sends', async () => {
    await restartDelivery({ current: keyB, previous: keyA });
    const res = await report('impression', tokenA);
    expect(res.status, res.text).to.equal(202);
    const click = await fetch(`${stack.services.gatewayUrl}/public/v1/r/${tokenA}`, { redirect: 'manual' });
    expect(click.status).to.equal(302);
    const counted = await eventually(async () => {
      const a = await analytics(campaignA);
      return a.impressions === 1 && a.clicks === 1 ? a : undefined;
    }, 20_000, 250);
    expect(counted).to.include({ impressions: 1, clicks: 1 });
    // Before re-encryption the stored key is still under A: decrypted with the previous key.
    const during = await send();
    expect(during.token).to.not.equal(tokenA);
    expect(sim.stats().rejected.total).to.equal(0);
  });

  it('the CLI lists the command in --help, and refuses a malformed previous key and a bad batch size with exit 2', async () => {
    const help = await cli({ current: keyB }, '--help');
    expect(help.code).to.equal(0);
    expect(help.stdout).to.include('vapid reencrypt [--batch-size N]').and.include('VAPID_ENCRYPTION_KEY_PREVIOUS');
    const malformed = await cli({ current: keyB, previous: 'not-a-key' }, 'vapid', 'reencrypt');
    expect(malformed.code).to.equal(2);
    expect(malformed.stderr).to.include('error: VAPID_ENCRYPTION_KEY_PREVIOUS must be base64 of exactly 32 bytes');
    const batch = await cli({ current: keyB, previous: keyA }, 'vapid', 'reencrypt', '--batch-size', '0');
    expect(batch.code).to.equal(2);
    expect(batch.stderr).to.include('--batch-size must be an integer from 1 to 10000');
  });

  it('vapid reencrypt re-encrypts the stored key under B, lists a site no known key opens (exit 1), finishes once that key is given (exit 0), and is idempotent', async () => {
    // A site whose key was stored under a third key, C, that the rotation does not know yet: the
    // delivery service's own registration, run under C (a service the operator forgot to rotate).
    const stray = { id: randomUUID(), publicId: `pub_stray_${randomBytes(4).toString('hex')}` };
    const pool = createPool(stack.databaseUrl, { max: 1 });
    try {
      await createDeliveryOperators(pool, Buffer.from(keyC, 'base64')).registerSite({ siteId: stray.id, publicId: stray.publicId });
    } finally {
      await pool.end();
    }
    const before = await storedSites();

    const first = await cli({ current: keyB, previous: keyA }, 'vapid', 'reencrypt', '--batch-size', '1');
    expect(first.code, first.stderr).to.equal(1);
    expect(first.json).to.deep.include({ sites: 2, reencrypted: 1, alreadyCurrent: 0 });
    expect(first.json.failed).to.have.length(1);
    expect(first.json.failed[0]).to.include({ siteId: stray.id, publicId: stray.publicId });
    expect(first.json.failed[0].reason).to.include('neither VAPID_ENCRYPTION_KEY nor any VAPID_ENCRYPTION_KEY_PREVIOUS');
    expect(first.stderr).to.include('error: 1 site(s) could not be decrypted');
    expect(first.json.previousKeyIds).to.have.length(1);

    const second = await cli({ current: keyB, previous: `${keyA},${keyC}` }, 'vapid', 'reencrypt');
    expect(second.code, second.stderr).to.equal(0);
    expect(second.json).to.deep.include({ sites: 2, reencrypted: 1, alreadyCurrent: 1, failed: [] });
    const third = await cli({ current: keyB, previous: `${keyA},${keyC}` }, 'vapid', 'reencrypt');
    expect(third.code).to.equal(0);
    expect(third.json).to.deep.include({ sites: 2, reencrypted: 0, alreadyCurrent: 2, failed: [] });

    // Only the encrypted private keys changed: public keys (and so the subscriptions) did not.
    const after = await storedSites();
    expect(after.map((r) => [r.site_id, r.public_id, r.vapid_public_key])).to.deep.equal(before.map((r) => [r.site_id, r.public_id, r.vapid_public_key]));
    for (let i = 0; i < after.length; i++) expect(after[i].vapid_private_key_enc.equals(before[i].vapid_private_key_enc)).to.equal(false);
    expect(after.find((r) => r.site_id === site.id)!.vapid_public_key).to.equal(site.vapidPublicKey);

    // The human-readable report says the same.
    const human = await run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/cli.ts'), 'vapid', 'reencrypt'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: stack.databaseUrl, CURSOR_SECRET: randomBytes(32).toString('base64'), VAPID_ENCRYPTION_KEY: keyB, VAPID_ENCRYPTION_KEY_PREVIOUS: '' },
      timeout: 120_000,
    });
    expect(human.stdout).to.match(/^2 site\(s\) in [\d.]+ s: 0 re-encrypted, 2 already current, 0 failed to decrypt with any known key; 0 webhook secret\(s\) and 0 identity secret\(s\) re-encrypted$/m);
    expect(human.stderr).to.include('checked 2 site(s)');
  });

  it('after re-encryption, a new campaign is sent with the same VAPID key pair (verified by the push service) and its token counts', async () => {
    ({ id: campaignB, token: tokenB } = await send());
    expect(sim.stats().rejected.total).to.equal(0);
    expect((await report('impression', tokenB)).status).to.equal(202);
    await eventually(async () => ((await analytics(campaignB)).impressions === 1 ? true : undefined), 20_000, 250);
  });

  it('with key B alone, sending still works and the token delivered under A is refused with 400 (its click link with 404)', async () => {
    await restartDelivery({ current: keyB, previous: '' });
    await send();
    expect(sim.stats().rejected.total).to.equal(0);

    const refused = await report('impression', tokenA);
    expect(refused.status).to.equal(400);
    expect(refused.body.message).to.include('token is not a valid tracking token');
    expect((await report('click', tokenA)).status).to.equal(400);
    expect((await fetch(`${stack.services.gatewayUrl}/public/v1/r/${tokenA}`, { redirect: 'manual' })).status).to.equal(404);
    // Tokens issued under B keep counting (a repeat is accepted but counted once).
    expect((await report('click', tokenB)).status).to.equal(202);
    const b = await eventually(async () => {
      const a = await analytics(campaignB);
      return a.clicks === 1 ? a : undefined;
    }, 20_000, 250);
    expect(b.impressions).to.equal(1);
    expect(await analytics(campaignA)).to.include({ impressions: 1, clicks: 1 });
  });
});
