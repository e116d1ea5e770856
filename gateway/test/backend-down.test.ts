// Component tests: a backend that is down (its calls never leave the gateway) gives 503 with
// Retry-After, quickly, on every route — create included, since nothing can have been created —
// and the gateway keeps answering everything that does not need it.
import { expect } from 'chai';
import type { RunningGateway } from '../src/app.js';
import { ALL_PERMISSIONS, request, startStack, validCreateBody, type CallOptions, type Stack, type TestSite } from './support/stack.js';

describe('gateway: when the campaign service is down', () => {
  let stack: Stack;
  let seen: TestSite;
  let unseen: TestSite;
  let gateway: RunningGateway;
  const call = (method: string, path: string, opts?: CallOptions) => request(gateway.url, method, path, opts);

  before(async () => {
    stack = await startStack('gw_down');
    // A long key cache, so "a key seen before the outage" stays cached however slow the stop is.
    gateway = await stack.startGatewayWith({ AUTH_CACHE_TTL_MS: '600000' });
    seen = await stack.newSite(ALL_PERMISSIONS);
    unseen = await stack.newSite(ALL_PERMISSIONS);
    // The first key is in the gateway's cache; the second one will need the (stopped) service.
    expect((await call('POST', '/v2/campaigns', { key: seen.key, body: {} })).status).to.equal(200);
    await stack.stopCampaignService();
  });
  after(async () => {
    await stack?.stop();
  });

  const UNAVAILABLE = { message: 'Service temporarily unavailable. The request was not processed; retry after Retry-After seconds' };

  it('when the campaign service is down, then create answers 503 with Retry-After (nothing was created)', async () => {
    const r = await call('POST', '/v2/campaign/create', { key: seen.key, body: validCreateBody() });
    expect([r.status, r.body, r.headers.get('retry-after')]).to.deep.equal([503, UNAVAILABLE, '5']);
  });

  it('when the campaign service is down, then list, get and delete answer 503 with Retry-After', async () => {
    for (const [method, path, body] of [
      ['POST', '/v2/campaigns', {}],
      ['GET', '/v2/campaign/6f1c2a5e-2b8f-4b8e-9a43-0c6de3f1b7a2', undefined],
      ['DELETE', '/v2/campaign/6f1c2a5e-2b8f-4b8e-9a43-0c6de3f1b7a2', undefined],
    ] as const) {
      const r = await call(method, path, { key: seen.key, body });
      expect([method, r.status, r.body, r.headers.get('retry-after')]).to.deep.equal([method, 503, UNAVAILABLE, '5']);
    }
  });

  it('when the key itself cannot be checked, then 503 (not a 403, not a 500)', async () => {
    for (const [method, path, body] of [
      ['POST', '/v2/campaign/create', validCreateBody()],
      ['POST', '/v2/campaigns', {}],
      ['GET', '/v2/topics', undefined],
    ] as const) {
      const r = await call(method, path, { key: unseen.key, body });
      expect([method, r.status, r.body, r.headers.get('retry-after')]).to.deep.equal([method, 503, UNAVAILABLE, '5']);
    }
  });

  it('when the key was cached, then the audience lists still answer (they do not need the campaign service)', async () => {
    const r = await call('GET', '/v2/countries', { key: seen.key });
    expect([r.status, r.body]).to.deep.equal([200, []]);
  });

  it('checks that need no backend still answer: missing key 403, contract 200', async () => {
    expect((await call('POST', '/v2/campaigns', { body: {} })).status).to.equal(403);
    expect((await call('GET', '/v2/openapi.json')).status).to.equal(200);
  });
});
