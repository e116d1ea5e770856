// The spec's authentication table and the plan matrix, over the real processes.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { ALL, siteWithPermissions, subscribe, validCampaign, type SiteInfo } from './support/fixtures.js';
import { eventually, startStack, type Stack } from './support/harness.js';

type Endpoint = 'create' | 'list' | 'get' | 'delete' | 'topics' | 'countries';
const ENDPOINTS: Endpoint[] = ['create', 'list', 'get', 'delete', 'topics', 'countries'];
const DENIED: Record<Endpoint, string | null> = {
  create: 'This plan does not have permission to create campaigns with API',
  list: 'This plan does not have permission to access campaign reports via API',
  get: 'This plan does not have permission to access campaign reports via API',
  delete: 'This plan does not have permission to delete campaigns via API',
  topics: null,
  countries: null,
};
const NEEDS: Record<Endpoint, string> = { create: 'create', list: 'reports', get: 'reports', delete: 'delete', topics: 'audience', countries: 'audience' };

function call(stack: Stack, endpoint: Endpoint, key: string | null) {
  const id = randomUUID();
  switch (endpoint) {
    case 'create':
      return stack.api.request('POST', '/v2/campaign/create', { key, body: validCampaign() });
    case 'list':
      return stack.api.request('POST', '/v2/campaigns', { key, body: {} });
    case 'get':
      return stack.api.request('GET', `/v2/campaign/${id}`, { key });
    case 'delete':
      return stack.api.request('DELETE', `/v2/campaign/${id}`, { key });
    case 'topics':
      return stack.api.request('GET', '/v2/topics', { key });
    case 'countries':
      return stack.api.request('GET', '/v2/countries', { key });
  }
}

describe('e2e: authentication and plans', function () {
  this.timeout(120_000);
  let stack: Stack;
  let full: SiteInfo;

  before(async () => {
    // The test client stands for the trusted proxy in front of the gateway, which names the country.
    stack = await startStack('e2e_auth', { COUNTRY_HEADER: 'x-test-country', TRUSTED_PROXIES: '127.0.0.1,::1' });
    full = await siteWithPermissions(stack, ALL, 'full');
    // One subscriber so that topics/countries are not trivially empty for the full plan.
    await subscribe(stack, full, 'auth-1', ['news'], 'BR');
  });
  after(async () => {
    await stack?.stop();
  });

  for (const endpoint of ENDPOINTS) {
    it(`when the Authorization header is missing on ${endpoint}, then 403 Not authorized`, async () => {
      const res = await call(stack, endpoint, null);
      expect(res.status).to.equal(403);
      expect(res.body).to.deep.equal({ message: 'Not authorized' });
    });
    it(`when the key is unknown, empty or sent with a Bearer prefix on ${endpoint}, then 403 Not authorized`, async () => {
      for (const key of ['wpk_' + 'x'.repeat(43), '', `Bearer ${full.apiKey}`, full.apiKey.slice(0, -1), full.apiKey.toUpperCase()]) {
        const res = await call(stack, endpoint, key);
        expect(res.status, `key ${JSON.stringify(key)}`).to.equal(403);
        expect(res.body).to.deep.equal({ message: 'Not authorized' });
      }
    });
  }

  it('when a request has no key and an invalid JSON body, then the key is checked first (403)', async () => {
    const res = await stack.api.request('POST', '/v2/campaign/create', { rawBody: '{"title":' });
    expect(res.status).to.equal(403);
    expect(res.body).to.deep.equal({ message: 'Not authorized' });
  });

  describe('plan matrix', () => {
    const combos: string[][] = [[], ['create'], ['reports'], ['delete'], ['audience'], ALL];
    const sites = new Map<string, SiteInfo>();
    before(async () => {
      for (const perms of combos) sites.set(perms.join(',') || 'none', await siteWithPermissions(stack, perms, `plan ${perms.join('+') || 'none'}`));
    });

    for (const perms of combos) {
      for (const endpoint of ENDPOINTS) {
        const allowed = perms.includes(NEEDS[endpoint]);
        it(`when the plan has [${perms.join(', ') || 'nothing'}], ${endpoint} is ${allowed ? 'allowed' : 'refused as the spec says'}`, async () => {
          const site = sites.get(perms.join(',') || 'none')!;
          const res = await call(stack, endpoint, site.apiKey);
          if (!allowed && DENIED[endpoint]) {
            expect(res.status).to.equal(403);
            expect(res.body).to.deep.equal({ message: DENIED[endpoint] });
          } else if (!allowed) {
            expect(res.status).to.equal(200);
            expect(res.body).to.deep.equal([]);
          } else if (endpoint === 'get' || endpoint === 'delete') {
            // Past the plan check: a random id of this site is simply not found.
            expect(res.status).to.equal(404);
            expect(res.body).to.deep.equal({ message: 'Campaign not found' });
          } else {
            expect(res.status, res.text).to.equal(200);
          }
        });
      }
    }

    it('when a plan lacks audience access, topics and countries answer [] even though the site has subscribers', async () => {
      const full2 = await stack.api.request('GET', '/v2/topics', { key: full.apiKey });
      expect(full2.body).to.deep.equal([{ name: 'news', users: 1 }]);
      const countries = await stack.api.request('GET', '/v2/countries', { key: full.apiKey });
      expect(countries.body).to.deep.equal([{ name: 'country__br', users: 1 }]);
    });
  });

  it('when an operator moves a site to a plan without create, then create is refused soon after', async () => {
    const site = await siteWithPermissions(stack, ALL, 'moving');
    expect((await call(stack, 'create', site.apiKey)).status).to.equal(200);
    await stack.cli('plans', 'create', `reports_only_${process.pid}`, '--permissions', 'reports');
    await stack.cli('sites', 'set-plan', site.id, `reports_only_${process.pid}`);
    const res = await eventually(async () => {
      const r = await call(stack, 'create', site.apiKey);
      return r.status === 403 ? r : undefined;
    });
    expect(res.body).to.deep.equal({ message: DENIED.create });
  });

  it('when a key is rotated, the old key stops working and the new one works', async () => {
    const site = await siteWithPermissions(stack, ALL, 'rotating');
    const rotated = await stack.cli('keys', 'rotate', site.id);
    expect(rotated.apiKey).to.match(/^wpk_[A-Za-z0-9_-]{43}$/);
    expect(rotated.apiKey).to.not.equal(site.apiKey);
    await eventually(async () => ((await call(stack, 'list', site.apiKey)).status === 403 ? true : undefined));
    expect((await call(stack, 'list', rotated.apiKey)).status).to.equal(200);
  });

  it('when every key of a site is revoked, the site is locked out', async () => {
    const site = await siteWithPermissions(stack, ALL, 'revoked');
    const out = await stack.cli('keys', 'revoke', site.id);
    expect(out.revoked).to.equal(1);
    const res = await eventually(async () => {
      const r = await call(stack, 'topics', site.apiKey);
      return r.status === 403 ? r : undefined;
    });
    expect(res.body).to.deep.equal({ message: 'Not authorized' });
  });
});
