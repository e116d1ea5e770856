// An independent check of what we send: the third-party `web-push-testing` push service (its
// own VAPID validation and aes128gcm decryption) receives a campaign from the real pipeline.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import { ROOT } from '../../scripts/lib/local-env.js';
import { freePort } from '@webpush/shared/ports.js';
import { ALL, siteWithPermissions, validCampaign, type SiteInfo } from './support/fixtures.js';
import { eventually, startStack, type Stack } from './support/harness.js';

describe('e2e: delivering to the web-push-testing push service', function () {
  this.timeout(120_000);
  let stack: Stack;
  let site: SiteInfo;
  let server: ChildProcess;
  let base: string;

  const post = async (url: string, body: unknown) => {
    const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
  };

  before(async () => {
    const port = await freePort();
    base = `http://localhost:${port}`;
    server = spawn(process.execPath, [path.join(ROOT, 'node_modules/web-push-testing/src/bin/server.js'), String(port)], { stdio: 'ignore' });
    await eventually(async () => ((await post(`${base}/status`, {}).catch(() => ({ status: 0 }))).status === 200 ? true : undefined), 15_000, 100);
    // Its endpoints are plain http on localhost, allowed only because the harness lists
    // localhost in PUSH_TEST_HOSTS.
    stack = await startStack('e2e_wpt');
    site = await siteWithPermissions(stack, ALL, 'third-party');
  });
  after(async () => {
    await stack?.stop();
    server?.kill('SIGTERM');
  });

  it('when a campaign is sent, then web-push-testing accepts the VAPID-signed aes128gcm push and decrypts our payload', async () => {
    const sub = await post(`${base}/subscribe`, { userVisibleOnly: 'true', applicationServerKey: site.vapidPublicKey });
    expect(sub.status).to.equal(200);
    const { endpoint, keys, clientHash } = sub.body.data;
    const res = await stack.api.request('POST', `/public/v1/sites/${site.publicId}/subscriptions`, {
      body: { subscription: { endpoint, keys }, topics: ['thirdparty'] },
    });
    expect(res.status, res.text).to.equal(201);
    const created = await stack.api.request('POST', '/v2/campaign/create', {
      key: site.apiKey,
      body: validCampaign({ status: 'published', topics: ['thirdparty'], title: 'Hello third party' }),
    });
    const id = created.body.id as string;
    const messages = await eventually(async () => {
      const got = await post(`${base}/get-notifications`, { clientHash });
      return got.status === 200 && got.body.data.messages.length > 0 ? (got.body.data.messages as string[]) : undefined;
    }, 60_000, 250);
    expect(messages).to.have.length(1);
    const payload = JSON.parse(messages[0]);
    expect(payload).to.include({ id, title: 'Hello third party' });
    await eventually(async () => {
      const c = (await stack.api.request('GET', `/v2/campaign/${id}`, { key: site.apiKey })).body;
      return c.status === 'published' ? true : undefined;
    });
  });
});
