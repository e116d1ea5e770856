// Component tests: the gateway against the real campaign and delivery services.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Permission } from '../../services/campaign/src/sites/operators.js';
import { ALL_PERMISSIONS, startStack, validCreateBody, type Stack, type TestSite } from './support/stack.js';

const PLAN = {
  create: 'This plan does not have permission to create campaigns with API',
  reports: 'This plan does not have permission to access campaign reports via API',
  delete: 'This plan does not have permission to delete campaigns via API',
};

interface Endpoint {
  name: string;
  method: string;
  path: () => string;
  body?: unknown;
  permission: Permission;
  /** What a plan with the permission gets. */
  allowed: (status: number, body: unknown) => void;
  /** What a plan without it gets. */
  denied: { status: number; body: unknown };
}

const SEED = { count: 3, topics: ['sports'], countries: ['br'] };

const ENDPOINTS: Endpoint[] = [
  {
    name: 'POST /campaign/create',
    method: 'POST',
    path: () => '/v2/campaign/create',
    body: validCreateBody(),
    permission: 'create',
    allowed: (status, body) => expect([status, Object.keys(body as object)]).to.deep.equal([200, ['id']]),
    denied: { status: 403, body: { message: PLAN.create } },
  },
  {
    name: 'POST /campaigns',
    method: 'POST',
    path: () => '/v2/campaigns',
    body: {},
    permission: 'reports',
    allowed: (status, body) => expect([status, (body as { limit: number }).limit]).to.deep.equal([200, 10]),
    denied: { status: 403, body: { message: PLAN.reports } },
  },
  {
    name: 'GET /campaign/{campaignId}',
    method: 'GET',
    path: () => `/v2/campaign/${randomUUID()}`,
    permission: 'reports',
    allowed: (status, body) => expect([status, body]).to.deep.equal([404, { message: 'Campaign not found' }]),
    denied: { status: 403, body: { message: PLAN.reports } },
  },
  {
    name: 'DELETE /campaign/{campaignId}',
    method: 'DELETE',
    path: () => `/v2/campaign/${randomUUID()}`,
    permission: 'delete',
    allowed: (status, body) => expect([status, body]).to.deep.equal([404, { message: 'Campaign not found' }]),
    denied: { status: 403, body: { message: PLAN.delete } },
  },
  {
    name: 'POST /campaign/{campaignId}/winner',
    method: 'POST',
    path: () => `/v2/campaign/${randomUUID()}/winner`,
    body: { variant: 0 },
    permission: 'create',
    allowed: (status, body) => expect([status, body]).to.deep.equal([404, { message: 'Campaign not found' }]),
    denied: { status: 403, body: { message: PLAN.create } },
  },
  ...(['update', 'recall'] as const).map(
    (action): Endpoint => ({
      name: `POST /campaign/{campaignId}/${action}`,
      method: 'POST',
      path: () => `/v2/campaign/${randomUUID()}/${action}`,
      body: action === 'update' ? { title: 'Corrected title' } : {},
      permission: 'create',
      allowed: (status, body) => expect([status, body]).to.deep.equal([404, { message: 'Campaign not found' }]),
      denied: { status: 403, body: { message: PLAN.create } },
    }),
  ),
  {
    name: 'GET /topics',
    method: 'GET',
    path: () => '/v2/topics',
    permission: 'audience',
    allowed: (status, body) => expect([status, body]).to.deep.equal([200, [{ name: 'sports', users: 3 }]]),
    denied: { status: 200, body: [] },
  },
  {
    name: 'GET /countries',
    method: 'GET',
    path: () => '/v2/countries',
    permission: 'audience',
    allowed: (status, body) => expect([status, body]).to.deep.equal([200, [{ name: 'country__br', users: 3 }]]),
    denied: { status: 200, body: [] },
  },
];

describe('gateway: API keys and plans', () => {
  let stack: Stack;
  let full: TestSite;
  const bySinglePermission = new Map<string, TestSite>();

  before(async () => {
    stack = await startStack('gw_auth');
    full = await stack.newSite(ALL_PERMISSIONS, SEED);
    for (const p of [...ALL_PERMISSIONS, 'none']) {
      bySinglePermission.set(p, await stack.newSite(p === 'none' ? [] : [p as Permission], SEED));
    }
  });
  after(async () => {
    await stack?.stop();
  });

  describe('the Authorization header', () => {
    for (const e of ENDPOINTS) {
      it(`when it is missing on ${e.name}, then 403 Not authorized`, async () => {
        const r = await stack.call(e.method, e.path(), { body: e.body });
        expect([r.status, r.body]).to.deep.equal([403, { message: 'Not authorized' }]);
      });
    }

    it('when it is empty, then 403 Not authorized', async () => {
      const r = await stack.call('POST', '/v2/campaigns', { key: '', body: {} });
      expect([r.status, r.body]).to.deep.equal([403, { message: 'Not authorized' }]);
    });

    it('when the key is unknown, then 403 Not authorized', async () => {
      const r = await stack.call('GET', '/v2/topics', { key: 'wpk_' + 'x'.repeat(43) });
      expect([r.status, r.body]).to.deep.equal([403, { message: 'Not authorized' }]);
    });

    it('when the key is revoked, then 403 Not authorized', async () => {
      const site = await stack.newSite(ALL_PERMISSIONS);
      await stack.revokeKeys(site.siteId);
      const r = await stack.call('POST', '/v2/campaigns', { key: site.key, body: {} });
      expect([r.status, r.body]).to.deep.equal([403, { message: 'Not authorized' }]);
    });

    it('when the key carries a "Bearer " prefix, then 403 Not authorized (the key must be sent exactly as copied)', async () => {
      const r = await stack.call('POST', '/v2/campaigns', { key: `Bearer ${full.key}`, body: {} });
      expect([r.status, r.body]).to.deep.equal([403, { message: 'Not authorized' }]);
    });

    it('when the key is sent exactly as copied, then the call goes through (also from the key cache on a repeat)', async () => {
      for (let i = 0; i < 2; i++) {
        const r = await stack.call('POST', '/v2/campaigns', { key: full.key, body: {} });
        expect(r.status).to.equal(200);
      }
    });
  });

  describe('the plan matrix on every endpoint above', () => {
    for (const e of ENDPOINTS) {
      it(`${e.name}: a plan with "${e.permission}" is served`, async () => {
        const r = await stack.call(e.method, e.path(), { key: bySinglePermission.get(e.permission)!.key, body: e.body });
        e.allowed(r.status, r.body);
      });

      it(`${e.name}: a plan with every permission is served`, async () => {
        const r = await stack.call(e.method, e.path(), { key: full.key, body: e.body });
        e.allowed(r.status, r.body);
      });

      for (const other of [...ALL_PERMISSIONS.filter((p) => p !== e.permission), 'none']) {
        it(`${e.name}: a plan with only "${other}" gets ${e.denied.status} ${JSON.stringify(e.denied.body)}`, async () => {
          const r = await stack.call(e.method, e.path(), { key: bySinglePermission.get(other)!.key, body: e.body });
          expect([r.status, r.body]).to.deep.equal([e.denied.status, e.denied.body]);
        });
      }
    }
  });

  describe('order of checks: key, then plan, then body size, then JSON', () => {
    it('when the JSON is broken and there is no key, then 403 Not authorized', async () => {
      const r = await stack.call('POST', '/v2/campaign/create', { body: '{"title":', headers: { 'Content-Type': 'application/json' } });
      expect([r.status, r.body]).to.deep.equal([403, { message: 'Not authorized' }]);
    });

    it('when the JSON is broken and the plan lacks the method, then 403 with the plan message', async () => {
      const r = await stack.call('POST', '/v2/campaign/create', { key: bySinglePermission.get('reports')!.key, body: '{"title":' });
      expect([r.status, r.body]).to.deep.equal([403, { message: PLAN.create }]);
    });

    it('when the body is too large and there is no key, then 403 Not authorized', async () => {
      const r = await stack.call('POST', '/v2/campaigns', { body: ' '.repeat(200_000) });
      expect([r.status, r.body]).to.deep.equal([403, { message: 'Not authorized' }]);
    });

    it('when the body is too large and the plan lacks the method, then 403 with the plan message', async () => {
      const r = await stack.call('POST', '/v2/campaigns', { key: bySinglePermission.get('create')!.key, body: ' '.repeat(200_000) });
      expect([r.status, r.body]).to.deep.equal([403, { message: PLAN.reports }]);
    });

    it('when the body is too large and broken, then 413 comes before Invalid JSON body', async () => {
      const r = await stack.call('POST', '/v2/campaign/create', { key: full.key, body: '{' + 'x'.repeat(200_000) });
      expect([r.status, r.body]).to.deep.equal([413, { message: 'Request body too large' }]);
    });

    it('when the id is missing from the URL and there is no key, then 403 comes first', async () => {
      const r = await stack.call('GET', '/v2/campaign/');
      expect([r.status, r.body]).to.deep.equal([403, { message: 'Not authorized' }]);
    });

    it('when the id is missing from the URL and the plan lacks the method, then 403 with the plan message', async () => {
      const get = await stack.call('GET', '/v2/campaign', { key: bySinglePermission.get('create')!.key });
      expect([get.status, get.body]).to.deep.equal([403, { message: PLAN.reports }]);
      const del = await stack.call('DELETE', '/v2/campaign/', { key: bySinglePermission.get('reports')!.key });
      expect([del.status, del.body]).to.deep.equal([403, { message: PLAN.delete }]);
    });
  });

  describe('isolation', () => {
    it("when a key asks for another site's campaign, then 404 Campaign not found, and delete removes nothing", async () => {
      const created = await stack.call('POST', '/v2/campaign/create', { key: full.key, body: validCreateBody() });
      const id = (created.body as { id: string }).id;
      const other = bySinglePermission.get('reports')!;
      const r = await stack.call('GET', `/v2/campaign/${id}`, { key: other.key });
      expect([r.status, r.body]).to.deep.equal([404, { message: 'Campaign not found' }]);
      const d = await stack.call('DELETE', `/v2/campaign/${id}`, { key: bySinglePermission.get('delete')!.key });
      expect([d.status, d.body]).to.deep.equal([404, { message: 'Campaign not found' }]);
      const own = await stack.call('GET', `/v2/campaign/${id}`, { key: full.key });
      expect(own.status).to.equal(200);
    });
  });
});
