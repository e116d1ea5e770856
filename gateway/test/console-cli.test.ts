// The console's users as an operator makes them with the CLI (scripts/cli.ts: users invite,
// users reset-password, users list), through the in-process campaign service's admin API, and the links it
// prints used through the gateway's console API.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { ROOT } from '../../scripts/lib/local-env.js';
import { startInProcess, type InProcessStack, type TestSite } from '../../test/support/in-process.js';
import { INTERNAL_TOKENS } from '../../test/support/internal-tokens.js';
import { ConsoleBrowser, tokenOf } from './support/console.js';
import { silentLogger } from './support/stack.js';

const run = promisify(execFile);
const PUBLIC_URL = 'https://push.example.net';

describe('gateway: console users made with the operator CLI', function () {
  this.timeout(120_000);
  let stack: InProcessStack;
  let site: TestSite;
  let dataDir: string;

  const cli = (args: string[], env: Record<string, string> = { PUBLIC_URL }) =>
    run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/cli.ts'), ...args], {
      cwd: ROOT,
      // A data folder of its own: no running stack of the developer's is found.
      env: {
        ...process.env,
        // The campaign service's admin API, with the operators' token.
        CAMPAIGN_GRPC_TARGET: `127.0.0.1:${stack.campaign!.grpcPort}`,
        AUDIENCE_GRPC_TARGET: stack.audienceTarget,
        OPERATOR_INTERNAL_TOKEN: INTERNAL_TOKENS.OPERATOR_INTERNAL_TOKEN,
        WEBPUSH_DATA_DIR: dataDir,
        PUBLIC_URL: '',
        ...env,
      },
      timeout: 60_000,
    }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e) => ({ code: e.code as number, stdout: e.stdout as string, stderr: e.stderr as string }),
    );
  const json = async (args: string[]) => {
    const r = await cli([...args, '--json']);
    expect(r.code, r.stderr).to.equal(0);
    return JSON.parse(r.stdout);
  };

  before(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'webpush-cli-'));
    stack = await startInProcess('gateway_console_cli', {
      delivery: { log: silentLogger },
      campaign: { log: silentLogger },
      gateway: { log: silentLogger, env: { CONSOLE_SECURE_COOKIE: 'false' } },
    });
    site = await stack.newSite();
  });
  after(async () => {
    await stack?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('when an operator invites a user, then the link is printed under PUBLIC_URL and logs them in once they set a password; users list shows them', async () => {
    const human = await cli(['users', 'invite', site.publicId, 'Ann@Example.com', '--role', 'editor']);
    expect(human.code, human.stderr).to.equal(0);
    const link = /https:\/\/push\.example\.net\/console\/#\/invite\/[A-Za-z0-9_-]{43}/.exec(human.stdout)?.[0];
    expect(link, human.stdout).to.be.a('string');
    expect(human.stdout).to.include('ann@example.com (editor of site 1');

    const b = new ConsoleBrowser(stack.gateway!.url, '192.0.2.10');
    const accepted = await b.call('POST', '/console/api/invites/accept', { body: { token: tokenOf(link!), password: 'ann has a password' } });
    expect([accepted.status, accepted.body]).to.deep.equal([200, { user: { email: 'ann@example.com' }, csrfToken: b.csrfToken, sites: [{ id: site.siteId, name: 'site 1', role: 'editor' }] }]);

    const listed = await json(['users', 'list', site.siteId]);
    expect(listed.members.map((m: { email: string; role: string }) => [m.email, m.role])).to.deep.equal([['ann@example.com', 'editor']]);
    expect((await cli(['users', 'list', site.siteId])).stdout).to.match(/^email\s+role\s+since\nann@example\.com\s+editor\s+\d{4}-/);
    // A viewer too: the console then lists the invite as pending, made by no user.
    const viewer = await json(['users', 'invite', site.siteId, 'vic@example.com', '--role', 'viewer']);
    expect([viewer.email, viewer.role]).to.deep.equal(['vic@example.com', 'viewer']);

    const reset = await json(['users', 'reset-password', 'ann@example.com']);
    expect(reset.link.startsWith(`${PUBLIC_URL}/console/#/invite/`)).to.equal(true);
    const r = new ConsoleBrowser(stack.gateway!.url, '192.0.2.11');
    expect((await r.call('POST', '/console/api/invites/accept', { body: { token: tokenOf(reset.link), password: 'a new password for ann' } })).status).to.equal(200);
    expect((await b.call('GET', '/console/api/session')).status).to.equal(401);
    expect((await new ConsoleBrowser(stack.gateway!.url, '192.0.2.12').call('POST', '/console/api/login', { body: { email: 'ann@example.com', password: 'a new password for ann' } })).status).to.equal(200);
  });

  it('when the role, email, user or site is wrong, or no PUBLIC_URL is known, then the CLI exits 2 saying why', async () => {
    const cases: [string[], Record<string, string> | undefined, string][] = [
      [['users', 'invite', site.siteId, 'bob@example.com', '--role', 'admin'], undefined, '--role must be owner, editor or viewer'],
      [['users', 'invite', site.siteId, 'not-an-email'], undefined, '"not-an-email" is not an email address'],
      [['users', 'invite', 'pub_nope', 'bob@example.com'], undefined, 'site "pub_nope" does not exist'],
      [['users', 'reset-password', 'nobody@example.com'], undefined, 'there is no user "nobody@example.com"'],
      [['users', 'invite', site.siteId, 'bob@example.com'], {}, 'set PUBLIC_URL'],
      [['users', 'invite', site.siteId, 'bob@example.com'], { PUBLIC_URL: 'https://push.example.net/some/path' }, 'PUBLIC_URL must be an http(s) origin'],
    ];
    for (const [args, env, message] of cases) {
      const r = await cli(args, env);
      expect([r.code, r.stderr], args.join(' ')).to.satisfy(([code, stderr]: [number, string]) => code === 2 && stderr.includes(message));
    }
    expect((await stack.pool.query("SELECT count(*)::int AS n FROM campaign.one_time_links WHERE email = 'bob@example.com'")).rows[0].n).to.equal(0);
  });
});
