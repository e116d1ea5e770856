// Frequency caps through the real stack (docs/api-decisions.md, "Frequency caps"): with a cap of
// one campaign per subscriber a day, two campaigns created at the same moment reach each browser
// once between them (the push-service simulator counts), the rest is counted as `capped`; an
// urgent campaign (ignoreFrequencyCap) reaches everyone; a wrong flag is a 400.
import { expect } from 'chai';
import { startPushSimulator, type PushSimulator } from '../../tools/push-simulator/src/index.js';
import { ALL, siteWithPermissions, subscribeSimulated, validCampaign, type SiteInfo } from './support/fixtures.js';
import { eventually, startStack, type Stack } from './support/harness.js';

const BROWSERS = 40;

describe('e2e: frequency caps', function () {
  this.timeout(180_000);
  let stack: Stack;
  let sim: PushSimulator;
  let site: SiteInfo;

  before(async () => {
    sim = await startPushSimulator({ seed: 31 });
    stack = await startStack('e2e_caps', { PUSH_EXTRA_CA_FILE: sim.caCertFile, SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0', CLAIM_BATCH_SIZE: '10', CHUNK_SIZE: '10' });
    site = await siteWithPermissions(stack, ALL, 'capped');
    await subscribeSimulated(stack, sim, site, BROWSERS, () => ({ topics: ['cap'] }));
    expect(await stack.cli('sites', 'set-frequency-cap', site.publicId, '1', '24')).to.deep.include({ frequencyCap: { campaigns: 1, hours: 24 } });
  });
  after(async () => {
    await stack?.stop();
    await sim?.close();
  });

  const create = (extra: Record<string, unknown> = {}) =>
    stack.api.request('POST', '/v2/campaign/create', { key: site.apiKey, body: validCampaign({ status: 'published', topics: ['cap'], ...extra }) });
  const get = async (id: string) => (await stack.api.request('GET', `/v2/campaign/${id}`, { key: site.apiKey })).body;
  /** The campaign once every subscriber is accounted for (sent or capped). */
  const finished = (id: string) =>
    eventually(async () => {
      const c = await get(id);
      return c.delivery.sent + (c.delivery.capped ?? 0) + c.delivery.failed === BROWSERS && c.delivery.pending === 0 ? c : undefined;
    }, 60_000, 200);

  it('when two campaigns are created at the same moment under a cap of one a day, then each browser gets exactly one of them, and the other counts it capped', async () => {
    const [a, b] = await Promise.all([create({ title: 'First of two' }), create({ title: 'Second of two' })]);
    expect([a.status, b.status]).to.deep.equal([200, 200]);
    const [ca, cb] = [await finished(a.body.id), await finished(b.body.id)];
    const pushes = sim.received().filter((m) => [a.body.id, b.body.id].includes(JSON.parse(m.payload).id));
    expect(pushes.length, 'one push per browser').to.equal(BROWSERS);
    expect(new Set(pushes.map((m) => m.subscriptionId)).size).to.equal(BROWSERS);
    expect(ca.delivery.sent + cb.delivery.sent).to.equal(BROWSERS);
    expect((ca.delivery.capped ?? 0) + (cb.delivery.capped ?? 0)).to.equal(BROWSERS);
  });

  it('when the next campaign goes out, then nobody gets it (all capped); an urgent one with ignoreFrequencyCap reaches everyone', async () => {
    const next = await create({ title: 'Third today' });
    const c = await finished(next.body.id);
    expect(c.delivery).to.include({ sent: 0, capped: BROWSERS, pending: 0 });
    expect(c).to.not.have.property('ignoreFrequencyCap');
    expect(sim.received().filter((m) => JSON.parse(m.payload).id === next.body.id)).to.deep.equal([]);
    // Once finished, its results by browser family (the simulator's endpoints are "other").
    const byBrowser = await eventually(async () => (await get(next.body.id)).delivery.byBrowser, 20_000, 200);
    expect(byBrowser).to.deep.equal({ other: { sent: 0, failed: 0, expired: 0, capped: BROWSERS } });

    const urgent = await create({ title: 'Urgent: store closed', ignoreFrequencyCap: true });
    const u = await finished(urgent.body.id);
    expect(u.ignoreFrequencyCap).to.equal(true);
    expect(u.delivery.sent).to.equal(BROWSERS);
    expect(u.delivery).to.not.have.property('capped');
  });

  it('when ignoreFrequencyCap is not a boolean, then 400 says so', async () => {
    const res = await create({ ignoreFrequencyCap: 'yes' });
    expect([res.status, res.body.message]).to.deep.equal([400, 'ignoreFrequencyCap must be a boolean']);
  });
});
