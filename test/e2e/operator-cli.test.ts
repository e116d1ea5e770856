// The operator CLI as an operator runs it.
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import pg from 'pg';
import { ROOT } from '../../scripts/lib/local-env.js';
import { startStack, type Stack } from './support/harness.js';

const run = promisify(execFile);

describe('e2e: operator CLI', function () {
  this.timeout(180_000);
  let stack: Stack;
  const cliRaw = (...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/cli.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: stack.databaseUrl, VAPID_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') },
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
      env: { ...process.env, DATABASE_URL: stack.databaseUrl, VAPID_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'), RETENTION_CAP_HISTORY_DAYS: '29' },
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
});
