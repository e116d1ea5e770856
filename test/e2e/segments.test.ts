// Segments through the real stack (docs/api-decisions.md, "Segments"): browsers subscribe with
// their language and time zone; a campaign created with a segment counts exactly the narrowed
// audience, shows its segment, and reaches exactly those browsers at the push-service simulator;
// engagement (an impression) makes a browser part of "engaged within 1 day"; a wrong segment is
// a 400 naming it.
import { expect } from 'chai';
import { startPushSimulator, type PushSimulator } from '../../tools/push-simulator/src/index.js';
import { ALL, siteWithPermissions, subscribeSimulated, validCampaign, type SiteInfo } from './support/fixtures.js';
import { eventually, startStack, type Stack } from './support/harness.js';

const LANGUAGES = ['pt-BR', 'en-US', 'pt', 'es'];
const ZONES = ['America/Sao_Paulo', 'Asia/Tokyo', null];

describe('e2e: segments', function () {
  this.timeout(180_000);
  let stack: Stack;
  let sim: PushSimulator;
  let site: SiteInfo;
  const browsers: { simId: string; language: string; timeZone: string | null }[] = [];

  before(async () => {
    sim = await startPushSimulator({ seed: 23 });
    stack = await startStack('e2e_segments', { PUSH_EXTRA_CA_FILE: sim.caCertFile, SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0' });
    site = await siteWithPermissions(stack, ALL, 'segmented');
    const fields = (i: number) => ({ language: LANGUAGES[i % LANGUAGES.length], timeZone: ZONES[i % ZONES.length] });
    const subscribed = await subscribeSimulated(stack, sim, site, 36, (i) => {
      const { language, timeZone } = fields(i);
      return { topics: ['seg'], language, ...(timeZone ? { timeZone } : {}) };
    });
    subscribed.forEach((b, i) => browsers.push({ simId: b.simId, ...fields(i) }));
  });
  after(async () => {
    await stack?.stop();
    await sim?.close();
  });

  async function send(segment: unknown): Promise<{ id: string; totalUsers: number; reached: () => string[] }> {
    const created = await stack.api.request('POST', '/v2/campaign/create', { key: site.apiKey, body: validCampaign({ status: 'published', topics: ['seg'], segment }) });
    expect(created.status, created.text).to.equal(200);
    const id = created.body.id as string;
    const got = await stack.api.request('GET', `/v2/campaign/${id}`, { key: site.apiKey });
    return { id, totalUsers: got.body.totalUsers, reached: () => sim.received().filter((m) => JSON.parse(m.payload).id === id).map((m) => m.subscriptionId) };
  }

  it('when a campaign is created with languages and time zones, then totalUsers is the narrowed audience, the campaign shows its segment, and exactly those browsers get it', async () => {
    const expected = browsers.filter((b) => b.language.toLowerCase().split('-')[0] === 'pt' && b.timeZone === 'America/Sao_Paulo').map((b) => b.simId);
    expect(expected.length).to.be.within(3, 20);
    const c = await send({ timeZones: ['America/Sao_Paulo'], languages: ['PT'] });
    expect(c.totalUsers).to.equal(expected.length);
    const shown = await stack.api.request('GET', `/v2/campaign/${c.id}`, { key: site.apiKey });
    expect(shown.body.segment).to.deep.equal({ languages: ['pt'], timeZones: ['America/Sao_Paulo'] });
    await eventually(async () => (c.reached().length >= expected.length ? true : undefined), 60_000, 100);
    await new Promise((r) => setTimeout(r, 500));
    expect(c.reached().sort()).to.deep.equal([...expected].sort());
    // A campaign without a segment is answered exactly as before: no `segment` field.
    const plain = await send(undefined);
    const plainShown = await stack.api.request('GET', `/v2/campaign/${plain.id}`, { key: site.apiKey });
    expect(plainShown.body).to.not.have.property('segment');
    expect(plain.totalUsers).to.equal(browsers.length);
  });

  it('when some browsers showed a notification, then "engaged within 1 day" reaches them and "not engaged for 1 day" the others', async () => {
    const first = await send({ languages: ['es'] });
    const spanish = browsers.filter((b) => b.language === 'es').map((b) => b.simId);
    await eventually(async () => (first.reached().length >= spanish.length ? true : undefined), 60_000, 100);
    const pushes = sim.received().filter((m) => JSON.parse(m.payload).id === first.id);
    const shown = pushes.slice(0, 4);
    for (const m of shown) {
      const res = await stack.api.request('POST', '/public/v1/events', { body: { type: 'impression', token: JSON.parse(m.payload).token } });
      expect(res.status).to.equal(202);
    }
    const engaged = shown.map((m) => m.subscriptionId).sort();
    await eventually(async () => {
      const c = await stack.api.request('POST', '/v2/campaign/create', { key: site.apiKey, body: validCampaign({ status: 'draft', topics: ['seg'], segment: { engagedWithinDays: 1 } }) });
      const got = await stack.api.request('GET', `/v2/campaign/${c.body.id}`, { key: site.apiKey });
      return got.body.totalUsers === engaged.length ? true : undefined;
    }, 20_000, 200);
    const within = await send({ engagedWithinDays: 1 });
    await eventually(async () => (within.reached().length >= engaged.length ? true : undefined), 60_000, 100);
    expect(within.reached().sort()).to.deep.equal(engaged);
    const notEngaged = await send({ notEngagedForDays: 1 });
    expect(notEngaged.totalUsers).to.equal(browsers.length - engaged.length);
  });

  it('when a segment is wrong, then 400 names each wrong condition after the spec\'s messages, and nothing is created', async () => {
    const before = (await stack.api.request('POST', '/v2/campaigns', { key: site.apiKey, body: { limit: 60 } })).body.items.length;
    const res = await stack.api.request('POST', '/v2/campaign/create', {
      key: site.apiKey,
      body: validCampaign({ title: 'x', segment: { browsers: ['netscape'], utcOffset: { min: 900, max: 0 } } }),
    });
    expect(res.status).to.equal(400);
    expect(res.body.message).to.equal(
      'Title must be between 3 and 100 characters, segment.utcOffset must be {"min", "max"}: whole minutes from -720 to 840, min not above max, segment.browsers must be a non-empty array of: chrome, edge, firefox, safari, other',
    );
    expect((await stack.api.request('POST', '/v2/campaigns', { key: site.apiKey, body: { limit: 60 } })).body.items.length).to.equal(before);
  });
});
