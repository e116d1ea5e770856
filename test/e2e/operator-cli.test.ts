// The operator CLI as an operator runs it: plans, sites, keys, settings and users through the
// services' admin APIs, the delivery service's database tools on its schema; and a site created
// while the delivery service is down, finished by running the create again.
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import pg from 'pg';
import { ROOT } from '../../scripts/lib/local-env.js';
import { cliEnvOf, startStack, type Stack } from './support/harness.js';

const run = promisify(execFile);

describe('e2e: operator CLI', function () {
  this.timeout(180_000);
  let stack: Stack;
  const cliRaw = (...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/cli.ts'), ...args], {
      cwd: ROOT,
      env: cliEnvOf(stack.services, stack.databaseUrl, stack.vapidEncryptionKey),
      timeout: 60_000,
    }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e) => ({ code: e.code as number, stdout: e.stdout as string, stderr: e.stderr as string }),
    );

  before(async () => {
    stack = await startStack('e2e_cli');
  });
  after(async () => {
    await stack?.stop();
  });

  it('when asked for help, then it lists every command', async () => {
    const { code, stdout } = await cliRaw('--help');
    expect(code).to.equal(0);
    for (const cmd of ['plans create', 'sites create', 'sites set-plan', 'keys rotate', 'keys revoke', 'subscribers seed']) expect(stdout).to.include(cmd);
  });

  it('when asked for sizes and a retention pass, then it shows the database and delivery tables and what the pass did', async () => {
    const sizes = await cliRaw('retention', 'sizes', '--json');
    expect(sizes.code, sizes.stderr).to.equal(0);
    const parsed = JSON.parse(sizes.stdout) as { databaseBytes: number; tables: { table: string; bytes: number }[] };
    expect(parsed.databaseBytes).to.be.greaterThan(0);
    expect(parsed.tables.map((t) => t.table)).to.include.members(['delivery_log', 'tracking', 'campaign_runs']);
    const pass = await cliRaw('retention', 'run');
    expect(pass.code, pass.stderr).to.equal(0);
    expect(pass.stdout).to.match(/^delivery log: \d+ piece\(s\) expired, \d+ dropped/);
    const short = await run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/cli.ts'), 'retention', 'run'], {
      cwd: ROOT,
      env: { ...cliEnvOf(stack.services, stack.databaseUrl, stack.vapidEncryptionKey), RETENTION_CAP_HISTORY_DAYS: '29' },
      timeout: 60_000,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (e) => ({ code: e.code as number, stderr: e.stderr as string }),
    );
    expect(short.code, 'a cap history shorter than the longest cap window is refused').to.not.equal(0);
    expect(short.stderr).to.include('RETENTION_CAP_HISTORY_DAYS');
  });

  it('when a command or permission is unknown, then it exits 2 with a clear error', async () => {
    expect((await cliRaw('frobnicate', 'now')).code).to.equal(2);
    const bad = await cliRaw('plans', 'create', 'x', '--permissions', 'create,teleport');
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.include('teleport');
    const noPlan = await cliRaw('sites', 'create', 'x', '--plan', 'does-not-exist');
    expect(noPlan.code).to.equal(2);
    expect(noPlan.stderr).to.include('does-not-exist');
  });

  it('when a site is created, then the key is shown once, stored only as its SHA-256, and works against the API', async () => {
    await stack.cli('plans', 'create', 'gold', '--permissions', 'create,reports,delete,audience');
    const site = await stack.cli('sites', 'create', 'Acme', '--plan', 'gold');
    expect(site.id).to.match(/^[0-9a-f-]{36}$/);
    expect(site.publicId).to.match(/^pub_[A-Za-z0-9_-]{22}$/);
    expect(site.apiKey).to.match(/^wpk_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(site.vapidPublicKey, 'base64url')).to.have.length(65);
    const client = new pg.Client({ connectionString: stack.databaseUrl });
    await client.connect();
    try {
      const dump = await client.query(`SELECT row_to_json(k)::text AS row FROM campaign.api_keys k WHERE site_id = $1`, [site.id]);
      expect(dump.rows).to.have.length(1);
      expect(dump.rows[0].row).to.not.include(site.apiKey);
      expect(dump.rows[0].row).to.include(createHash('sha256').update(site.apiKey).digest('hex'));
    } finally {
      await client.end();
    }
    const listed = await stack.cli('keys', 'list', site.id);
    expect(JSON.stringify(listed)).to.not.include(site.apiKey);
    const res = await stack.api.request('GET', '/v2/topics', { key: site.apiKey });
    expect(res.status).to.equal(200);
  });

  it('when subscribers are seeded, then topics and countries add up to the seeded count', async () => {
    await stack.cli('plans', 'create', 'seeded', '--permissions', 'audience,create,reports');
    const site = await stack.cli('sites', 'create', 'Seeded', '--plan', 'seeded');
    const out = await stack.cli('subscribers', 'seed', site.publicId, '--count', '3000', '--topics', 'a,b,c', '--countries', 'br,us', '--per-subscriber', '1');
    expect(out.inserted).to.equal(3000);
    const topics = (await stack.api.request('GET', '/v2/topics', { key: site.apiKey })).body as Array<{ name: string; users: number }>;
    const countries = (await stack.api.request('GET', '/v2/countries', { key: site.apiKey })).body as Array<{ name: string; users: number }>;
    expect(topics.map((t) => t.name).sort()).to.deep.equal(['a', 'b', 'c']);
    expect(topics.reduce((s, t) => s + t.users, 0)).to.equal(3000);
    expect(countries.map((t) => t.name).sort()).to.deep.equal(['country__br', 'country__us']);
    expect(countries.reduce((s, t) => s + t.users, 0)).to.equal(3000);
    const created = await stack.api.request('POST', '/v2/campaign/create', {
      key: site.apiKey,
      body: { title: 'Everyone', body: 'To all seeded', link: 'https://x.example', topics: ['a', 'b'], countries: ['country__br', 'country__us'], status: 'draft', scheduleMode: 'now' },
    });
    const got = await stack.api.request('GET', `/v2/campaign/${created.body.id}`, { key: site.apiKey });
    expect(got.body.totalUsers).to.equal(3000);
  });
  it('when a site is moved, throttled, capped and zoned, and its keys rotated and revoked, then each service holds its part and the CLI says so', async () => {
    await stack.cli('plans', 'create', 'silver', '--permissions', 'create,reports');
    await stack.cli('plans', 'create', 'bronze', '--permissions', 'audience');
    const site = await stack.cli('sites', 'create', 'Settings', '--plan', 'silver');
    const listed = await cliRaw('sites', 'list');
    expect(listed.code, listed.stderr).to.equal(0);
    expect(listed.stdout).to.match(new RegExp(`${site.id}\\s+${site.publicId}\\s+Settings\\s+silver`));
    expect(await stack.cli('sites', 'set-plan', site.publicId, 'bronze')).to.deep.include({ id: site.id, plan: 'bronze' });
    const plans = await stack.cli('plans', 'list');
    expect(plans.map((p: { name: string }) => p.name)).to.include.members(['bronze', 'silver']);

    const throttle = await cliRaw('sites', 'set-throttle', site.id, '600');
    expect([throttle.code, throttle.stdout]).to.deep.equal([0, `site ${site.id}: campaigns created without throttlePerMinute send at most 600 pushes per minute\n`]);
    expect(await stack.cli('sites', 'set-throttle', site.publicId, 'none')).to.deep.equal({ id: site.id, defaultThrottlePerMinute: null });
    expect(await stack.cli('sites', 'set-throttle', site.id, '250')).to.deep.equal({ id: site.id, defaultThrottlePerMinute: 250 });
    const cap = await cliRaw('sites', 'set-frequency-cap', site.publicId, '3', '24');
    expect([cap.code, cap.stdout]).to.deep.equal([0, `site ${site.id}: at most 3 campaign(s) per subscriber in any 24 hour(s)\n`]);
    expect(await stack.cli('sites', 'set-time-zone', site.id, 'europe/lisbon')).to.deep.equal({ siteId: site.id, timeZone: 'Europe/Lisbon' });

    const client = new pg.Client({ connectionString: stack.databaseUrl });
    await client.connect();
    try {
      const campaignSide = await client.query('SELECT default_throttle_per_minute FROM campaign.sites WHERE id = $1', [site.id]);
      expect(campaignSide.rows).to.deep.equal([{ default_throttle_per_minute: 250 }]);
      const deliverySide = await client.query('SELECT public_id, cap_campaigns, cap_hours, time_zone FROM delivery.sites WHERE site_id = $1', [site.id]);
      expect(deliverySide.rows).to.deep.equal([{ public_id: site.publicId, cap_campaigns: 3, cap_hours: 24, time_zone: 'Europe/Lisbon' }]);
    } finally {
      await client.end();
    }
    expect(await stack.cli('sites', 'set-frequency-cap', site.id, 'none')).to.deep.equal({ siteId: site.id, frequencyCap: null });
    expect(await stack.cli('sites', 'set-time-zone', site.id, 'none')).to.deep.equal({ siteId: site.id, timeZone: 'UTC' });

    const rotated = await stack.cli('keys', 'rotate', site.id, '--keep-old');
    expect(rotated).to.deep.include({ siteId: site.id, olderKeysRevoked: false });
    // (The first key is not used before it is revoked: the gateway caches a key's lookup briefly.)
    expect(await stack.cli('keys', 'revoke', site.id, '--key', site.keyId)).to.deep.equal({ siteId: site.id, revoked: 1 });
    const keys = await stack.cli('keys', 'list', site.publicId);
    expect(keys.map((k: { keyId: string; revokedAt: string | null; lastUsedAt: string | null }) => [k.keyId, k.revokedAt === null])).to.deep.equal([
      [site.keyId, false],
      [rotated.keyId, true],
    ]);
    expect(keys[1].lastUsedAt).to.equal(null);
    expect((await stack.api.request('GET', '/v2/topics', { key: rotated.apiKey })).status).to.equal(200);
    expect((await stack.api.request('GET', '/v2/topics', { key: site.apiKey })).status).to.equal(403);
    const fresh = await stack.cli('keys', 'rotate', site.id);
    expect(fresh.olderKeysRevoked).to.equal(true);
    expect((await stack.api.request('GET', '/v2/topics', { key: fresh.apiKey })).status).to.equal(200);

    // Refusals keep their exit code 2 and say why, whichever service refuses.
    for (const [args, message] of [
      [['sites', 'set-throttle', site.id, '0'], 'the pushes per minute must be a whole number from 1 to'],
      [['sites', 'set-throttle', site.id, '99999999999'], 'the pushes per minute must be a whole number from 1 to'],
      [['sites', 'set-frequency-cap', site.id, '0', '24'], 'the campaigns of a frequency cap must be a whole number from 1 to 1000'],
      [['sites', 'set-frequency-cap', site.id, '1', '721'], 'the hours of a frequency cap must be a whole number from 1 to 720'],
      [['sites', 'set-time-zone', site.id, 'Mars/Olympus_Mons'], 'unknown time zone "Mars/Olympus_Mons"'],
      [['sites', 'set-time-zone', 'pub_nope', 'UTC'], 'site "pub_nope" does not exist'],
      [['sites', 'set-plan', site.id, 'platinum'], 'plan "platinum" does not exist'],
      [['keys', 'revoke', site.id, '--key', 'wpk_nothere'], 'no active key "wpk_nothere"'],
      [['plans', 'create', 'silver', '--permissions', 'create'], 'plan "silver" already exists'],
      [['sites', 'create', 'x'.repeat(201), '--plan', 'silver'], 'site name must be at most 200 characters'],
      [['sites', 'create', 'Again', '--plan', 'silver', '--site-id', 'not-a-uuid'], 'site id "not-a-uuid" is not a UUID'],
      [['sites', 'create', 'Again', '--plan', 'silver', '--site-id', site.id], 'exists already'],
    ] as [string[], string][]) {
      const r = await cliRaw(...args);
      expect([r.code, r.stderr], args.join(' ')).to.satisfy(([code, stderr]: [number, string]) => code === 2 && stderr.startsWith('error: ') && stderr.includes(message));
    }
  });

  it('when the operator token is wrong or no service address is known, then it exits 2 saying which', async () => {
    const env = cliEnvOf(stack.services, stack.databaseUrl, stack.vapidEncryptionKey);
    const withEnv = (extra: NodeJS.ProcessEnv, ...args: string[]) =>
      run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/cli.ts'), ...args], { cwd: ROOT, env: { ...env, ...extra }, timeout: 60_000 }).then(
        () => ({ code: 0, stderr: '' }),
        (e) => ({ code: e.code as number, stderr: e.stderr as string }),
      );
    const wrong = await withEnv({ OPERATOR_INTERNAL_TOKEN: Buffer.alloc(32, 9).toString('base64') }, 'plans', 'list');
    expect(wrong.code).to.equal(2);
    expect(wrong.stderr).to.include('refused the operator token (OPERATOR_INTERNAL_TOKEN)');
    // Another caller's token opens nothing here either.
    const gateway = await withEnv({ OPERATOR_INTERNAL_TOKEN: stack.services.env.gateway.GATEWAY_INTERNAL_TOKEN }, 'sites', 'set-time-zone', 'pub_x', 'UTC');
    expect(gateway.code).to.equal(2);
    expect(gateway.stderr).to.include('refused the operator token');
    const nowhere = await withEnv({ CAMPAIGN_GRPC_TARGET: '', WEBPUSH_DATA_DIR: path.join(ROOT, 'test', 'no-such-data-dir') }, 'sites', 'list');
    expect(nowhere.code).to.equal(2);
    expect(nowhere.stderr).to.include('set CAMPAIGN_GRPC_TARGET');
  });

  it('when no address or token is set, then it uses the running stack\'s (npm start\'s stack file and secrets)', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'webpush-cli-stack-'));
    try {
      const { ports, env: serviceEnv } = stack.services;
      // What `npm start` writes (scripts/stack.ts, scripts/lib/local-env.ts), this process standing in for it.
      await writeFile(
        path.join(dataDir, 'stack.json'),
        JSON.stringify({ pid: process.pid, databaseUrl: stack.databaseUrl, gatewayUrl: stack.services.gatewayUrl, campaignGrpcTarget: `127.0.0.1:${ports.campaignGrpc}`, deliveryGrpcTarget: `127.0.0.1:${ports.deliveryGrpc}` }),
      );
      await writeFile(
        path.join(dataDir, 'secrets.json'),
        JSON.stringify({ CURSOR_SECRET: serviceEnv.campaign.CURSOR_SECRET, VAPID_ENCRYPTION_KEY: stack.vapidEncryptionKey, OPERATOR_INTERNAL_TOKEN: serviceEnv.campaign.OPERATOR_INTERNAL_TOKEN }),
        { mode: 0o600 },
      );
      const env: NodeJS.ProcessEnv = { ...process.env, WEBPUSH_DATA_DIR: dataDir };
      for (const name of ['CAMPAIGN_GRPC_TARGET', 'AUDIENCE_GRPC_TARGET', 'OPERATOR_INTERNAL_TOKEN', 'DATABASE_URL', 'VAPID_ENCRYPTION_KEY']) delete env[name];
      const cli = (...args: string[]) => run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/cli.ts'), ...args, '--json'], { cwd: ROOT, env, timeout: 60_000 });
      await cli('plans', 'create', 'local', '--permissions', 'audience');
      const site = JSON.parse((await cli('sites', 'create', 'Local', '--plan', 'local')).stdout);
      expect(JSON.parse((await cli('sites', 'set-time-zone', site.publicId, 'Asia/Tokyo')).stdout)).to.deep.equal({ siteId: site.id, timeZone: 'Asia/Tokyo' });
      // The database tools find the stack's database the same way.
      expect(JSON.parse((await cli('subscribers', 'seed', site.id, '--count', '5')).stdout)).to.include({ siteId: site.id, inserted: 5 });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  // Last: it stops and restarts the delivery service.
  it('when the delivery service is down during sites create, then nothing is stored, the CLI says how to finish, and that command makes the site whole', async () => {
    const client = new pg.Client({ connectionString: stack.databaseUrl });
    await client.connect();
    try {
      const count = async (sql: string, id: string) => (await client.query(sql, [id])).rows[0].n as number;
      await stack.cli('plans', 'create', 'outage', '--permissions', 'audience');
      stack.services.signal('delivery', 'SIGKILL');
      const failed = await cliRaw('sites', 'create', "Bob's shop", '--plan', 'outage');
      expect(failed.code, failed.stderr).to.equal(1);
      expect(failed.stderr).to.include('the delivery service did not answer');
      const finish = /npm run cli -- (sites create .* --site-id ([0-9a-f-]{36}))\n/.exec(failed.stderr);
      expect(finish, failed.stderr).to.not.equal(null);
      const siteId = finish![2];
      expect(finish![1]).to.equal(`sites create 'Bob'\\''s shop' --plan outage --site-id ${siteId}`);
      expect(await count('SELECT count(*)::int AS n FROM campaign.sites WHERE id = $1', siteId)).to.equal(0);
      expect(await count('SELECT count(*)::int AS n FROM campaign.api_keys WHERE site_id = $1', siteId)).to.equal(0);
      // While it is down, the campaign service's own commands still work.
      expect((await cliRaw('sites', 'list')).code).to.equal(0);

      await stack.services.restart('delivery');
      const site = await stack.cli('sites', 'create', "Bob's shop", '--plan', 'outage', '--site-id', siteId);
      expect(site).to.include({ id: siteId, name: "Bob's shop", plan: 'outage' });
      expect(await count('SELECT count(*)::int AS n FROM delivery.sites WHERE site_id = $1', siteId)).to.equal(1);
      const delivered = await client.query('SELECT public_id, vapid_public_key FROM delivery.sites WHERE site_id = $1', [siteId]);
      expect(delivered.rows[0]).to.deep.equal({ public_id: site.publicId, vapid_public_key: site.vapidPublicKey });
      expect((await stack.api.request('GET', '/v2/topics', { key: site.apiKey })).status).to.equal(200);
      const plugin = await stack.api.request('GET', `/public/v1/sites/${site.publicId}/config`);
      expect(plugin.status, plugin.text).to.equal(200);
      // Once whole, the same command is refused: the key was shown once.
      const again = await cliRaw('sites', 'create', "Bob's shop", '--plan', 'outage', '--site-id', siteId);
      expect(again.code).to.equal(2);
      expect(again.stderr).to.include(`site ${siteId} exists already`);
      expect(await count('SELECT count(*)::int AS n FROM campaign.api_keys WHERE site_id = $1', siteId)).to.equal(1);
    } finally {
      await client.end();
    }
  });
});
