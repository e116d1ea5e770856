// The campaign's `delivery` counts through /v2 (issue 11, defect 6): after a send to the push
// service simulator, sent / expired / failed by class / pending match what the push service
// answered; a draft shows zeros. Every response is checked against the OpenAPI contract by the
// harness, so `delivery` is also checked against its documented schema.
import { expect } from 'chai';
import { startPushSimulator, type PushSimulator } from '../../tools/push-simulator/src/index.js';
import { ALL, siteWithPermissions, validCampaign, type SiteInfo } from './support/fixtures.js';
import { eventually, startStack, type Stack } from './support/harness.js';

const NO_FAILURES = { rejected: 0, unauthorized: 0, unreachable: 0, refused: 0 };

describe('e2e: delivery counts on campaigns', function () {
  this.timeout(180_000);
  let stack: Stack;
  let sim: PushSimulator;
  let site: SiteInfo;
  const news: string[] = [];
  const sports: string[] = [];

  const subscribeBrowser = async (topics: string[]): Promise<string> => {
    const sub = sim.createSubscription(site.vapidPublicKey);
    const res = await stack.api.request('POST', `/public/v1/sites/${site.publicId}/subscriptions`, {
      body: { subscription: { endpoint: sub.endpoint, keys: sub.keys }, topics },
    });
    expect(res.status, res.text).to.equal(201);
    return sub.id;
  };
  const create = async (body: Record<string, unknown>) => {
    const res = await stack.api.request('POST', '/v2/campaign/create', { key: site.apiKey, body });
    expect(res.status, res.text).to.equal(200);
    return res.body.id as string;
  };
  const get = async (id: string) => (await stack.api.request('GET', `/v2/campaign/${id}`, { key: site.apiKey })).body;
  /** The campaign once its delivery counts are `expected` (they converge; the last ones seen are shown otherwise). */
  const settled = async (id: string, expected: Record<string, unknown>) => {
    let last: unknown;
    try {
      return await eventually(async () => {
        const c = await get(id);
        // The counts; byBrowser (a finished campaign's, published a moment after) is checked on its own.
        const { byBrowser: _, ...counts } = c.delivery;
        last = counts;
        return JSON.stringify(counts) === JSON.stringify(expected) ? c : undefined;
      }, 60_000, 250);
    } catch {
      expect(last, 'delivery counts did not converge').to.deep.equal(expected);
      throw new Error('unreachable');
    }
  };

  before(async () => {
    sim = await startPushSimulator({ seed: 11 });
    stack = await startStack('e2e_delivery_counts', { PUSH_EXTRA_CA_FILE: sim.caCertFile, SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0', STATS_PUBLISH_INTERVAL_MS: '200' });
    site = await siteWithPermissions(stack, ALL, 'counts');
    for (let i = 0; i < 10; i++) news.push(await subscribeBrowser(['news']));
    for (let i = 0; i < 6; i++) sports.push(await subscribeBrowser(['sports']));
  });
  after(async () => {
    await stack?.stop();
    await sim?.close();
  });

  it('when a campaign is a draft, then its delivery counts are all 0 and analytics is as the spec says', async () => {
    const c = await get(await create(validCampaign({ topics: ['news'] })));
    expect(c.delivery).to.deep.equal({ sent: 0, failed: 0, expired: 0, pending: 0, failedBy: NO_FAILURES });
    expect(c.analytics).to.deep.equal({ clicks: 0, impressions: 0, ctr: 0, its: 0, totalUsers: news.length });
    expect(Object.keys(c).slice(-2)).to.deep.equal(['analytics', 'delivery']);
  });

  it('when a campaign is sent and some subscriptions are gone, then sent and expired match the push service and nothing is pending', async () => {
    for (const id of news.slice(0, 2)) sim.expireSubscription(id);
    const id = await create(validCampaign({ status: 'published', topics: ['news'] }));
    const c = await settled(id, { sent: news.length - 2, failed: 0, expired: 2, pending: 0, failedBy: NO_FAILURES });
    expect(c.status).to.equal('published');
    const accepted = sim.received().filter((m) => JSON.parse(m.payload).id === id).length;
    expect(c.delivery.sent).to.equal(accepted);
    // Finished: its results by browser family follow (the simulator's endpoints are "other").
    const done = await eventually(async () => {
      const again = await get(id);
      return again.delivery.byBrowser ? again : undefined;
    }, 20_000, 200);
    expect(done.delivery.byBrowser).to.deep.equal({ other: { sent: news.length - 2, failed: 0, expired: 2, capped: 0 } });
    // The list shows the same counts for the item.
    const listed = await stack.api.request('POST', '/v2/campaigns', { key: site.apiKey, body: { limit: 60 } });
    expect(listed.body.items.find((x: { id: string }) => x.id === id).delivery).to.deep.equal(done.delivery);
    console.log(`      delivery: ${JSON.stringify(c.delivery)} of totalUsers ${c.totalUsers}`);
  });

  it('when the push service refuses some pushes (400, 401), then they are failed by class and the rest sent', async () => {
    sim.setBehaviour({ status: 400, forSubscription: sports[0] });
    sim.setBehaviour({ status: 413, forSubscription: sports[1] });
    sim.setBehaviour({ status: 401, forSubscription: sports[2] });
    try {
      const id = await create(validCampaign({ status: 'published', topics: ['sports'] }));
      const c = await settled(id, {
        sent: sports.length - 3,
        failed: 3,
        expired: 0,
        pending: 0,
        failedBy: { rejected: 2, unauthorized: 1, unreachable: 0, refused: 0 },
      });
      expect(c.status).to.equal('published');
      console.log(`      delivery: ${JSON.stringify(c.delivery)}`);
    } finally {
      sim.clearBehaviours();
    }
  });
});
