// Real processes: a gateway whose campaign or delivery service is stopped answers 503 with
// Retry-After (the call never reached the service, so nothing happened and a retry is safe),
// never crashes, and answers normally again once the service is back.
import { expect } from 'chai';
import { ALL, siteWithPermissions, validCampaign, type SiteInfo } from './support/fixtures.js';
import { eventually, startStack, type Stack } from './support/harness.js';

const UNAVAILABLE = { message: 'Service temporarily unavailable. The request was not processed; retry after Retry-After seconds' };

describe('e2e: a stopped backend service answers 503 with Retry-After', function () {
  this.timeout(180_000);
  let stack: Stack;
  let site: SiteInfo;
  let campaignId: string;

  before(async () => {
    stack = await startStack('e2e_unavailable');
    site = await siteWithPermissions(stack, ALL, 'unavailable');
    const created = await stack.api.request('POST', '/v2/campaign/create', { key: site.apiKey, body: validCampaign() });
    expect(created.status).to.equal(200);
    campaignId = created.body.id;
  });
  after(async () => {
    await stack?.stop();
  });

  async function stop(name: 'campaign' | 'delivery') {
    stack.services.signal(name, 'SIGTERM');
    await eventually(async () => (stack.services.exitCode(name) !== undefined ? true : undefined), 30_000, 50);
  }

  it('when the campaign service is stopped, then create, list, get and delete answer 503 with Retry-After; the gateway stays up', async () => {
    await stop('campaign');
    const before = await stack.api.request('POST', '/v2/campaigns', { key: site.apiKey, body: {} });
    for (const [method, path, body] of [
      ['POST', '/v2/campaign/create', validCampaign()],
      ['POST', '/v2/campaigns', {}],
      ['GET', `/v2/campaign/${campaignId}`, undefined],
      ['DELETE', `/v2/campaign/${campaignId}`, undefined],
    ] as const) {
      const r = await stack.api.request(method, path, { key: site.apiKey, body });
      expect([method, r.status, r.body, r.headers.get('retry-after')]).to.deep.equal([method, 503, UNAVAILABLE, '5']);
    }
    expect(before.status).to.equal(503);
    expect((await fetch(`${stack.services.gatewayUrl}/healthz`)).status).to.equal(200);
    expect(stack.services.exitCode('gateway')).to.equal(undefined);
  });

  it('when the campaign service is back, then the same calls answer 200 and nothing was created or deleted meanwhile', async () => {
    await stack.services.restart('campaign');
    const page = await eventually(async () => {
      const r = await stack.api.request('POST', '/v2/campaigns', { key: site.apiKey, body: {} });
      return r.status === 200 ? r.body : undefined;
    }, 30_000, 200);
    expect(page.items.map((c: { id: string }) => c.id)).to.deep.equal([campaignId]);
  });

  it('when the delivery service is stopped, then topics and countries answer 503 with Retry-After', async () => {
    await stop('delivery');
    for (const path of ['/v2/topics', '/v2/countries']) {
      const r = await stack.api.request('GET', path, { key: site.apiKey });
      expect([path, r.status, r.body, r.headers.get('retry-after')]).to.deep.equal([path, 503, UNAVAILABLE, '5']);
    }
    expect(stack.services.exitCode('gateway')).to.equal(undefined);
  });
});
