// A campaign's notification options and urgency through the campaign service (docs/api-decisions.md,
// "Notification options"): stored as validated and shown by get and list only where they differ
// from their defaults; a refused create stores nothing; a draft's edit sets or clears them; the
// dispatch message carries them, still written as version 1 (the previous release's delivery
// reads it and sends without them).
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { createLogger } from '@webpush/shared/log.js';
import { createCodecs } from '@webpush/contracts/messages.js';
import { createOutboxRelay } from '../src/outbox/outbox-relay.js';
import { expectStatus, getCampaign, listCampaigns, startHarness, validCampaign, type Harness, type TestSite } from './support/harness.js';

const OPTIONS = {
  actions: [{ title: 'Scores', link: 'https://shop.example/scores' }],
  badge: 'https://cdn.example/badge.png',
  requireInteraction: true,
  renotify: true,
  vibrate: [200, 100, 200],
  timestamp: '2026-12-05T10:00:00.5Z',
  dir: 'rtl',
  lang: 'pt-br',
};

describe('notification options and urgency', function () {
  let h: Harness;
  let site: TestSite;

  before(async () => {
    h = await startHarness('campaign_options');
    site = await h.newSite({ subscribers: [{ count: 2, topics: ['sports'], countries: ['br'] }] });
  });
  after(async () => h?.stop());

  const create = (body: Record<string, unknown>, siteId = site.siteId) => h.call<{ id: string }>('CreateCampaign', { siteId, bodyJson: JSON.stringify(validCampaign(body)), idempotencyKey: '' });
  const published = async (ids: string[]) => {
    const sent: Buffer[] = [];
    const relay = createOutboxRelay({ pool: h.pool, log: createLogger('test', 'error'), publish: async (_t, messages) => void sent.push(...messages.map((m) => m.value)) }, { intervalMs: 1000, batchSize: 1000 });
    await relay.publishBatch();
    return sent.map((v) => JSON.parse(v.toString('utf8'))).filter((m) => ids.includes(m.campaignId));
  };

  it('when created with options and urgency, then get and list show them normalised, after the other fields', async () => {
    const { id } = await create({ ...OPTIONS, urgency: 'high', callToAction: 'Buy' });
    const c = await getCampaign(h, site.siteId, id);
    const keys = Object.keys(c);
    expect(keys.slice(keys.indexOf('delivery') + 1)).to.deep.equal(['actions', 'badge', 'requireInteraction', 'renotify', 'vibrate', 'timestamp', 'dir', 'lang', 'urgency']);
    expect(c).to.deep.include({
      callToAction: 'Buy',
      actions: [{ title: 'Scores', link: 'https://shop.example/scores' }],
      badge: 'https://cdn.example/badge.png',
      requireInteraction: true,
      renotify: true,
      vibrate: [200, 100, 200],
      timestamp: '2026-12-05T10:00:00Z',
      dir: 'rtl',
      lang: 'pt-BR',
      urgency: 'high',
    });
    const listed = (await listCampaigns(h, site.siteId, JSON.stringify({ limit: 60 }))).items.find((x) => x.id === id);
    expect(listed).to.deep.equal(c);
  });

  it('when created without options (or with each at its default), then the campaign shows none of them', async () => {
    for (const body of [{}, { actions: [], silent: false, dir: 'auto', urgency: 'normal', lang: '' }]) {
      const { id } = await create(body);
      const c = await getCampaign(h, site.siteId, id);
      for (const field of ['actions', 'badge', 'requireInteraction', 'renotify', 'silent', 'vibrate', 'timestamp', 'dir', 'lang', 'urgency']) expect(c).to.not.have.property(field);
    }
  });

  it('when an option is wrong, then INVALID_ARGUMENT with its message and nothing is stored', async () => {
    const s = await h.newSite();
    await expectStatus(create({ silent: true, vibrate: [100], urgency: 'now' }, s.siteId), grpc.status.INVALID_ARGUMENT, 'vibrate cannot be used with silent, urgency must be very-low, low, normal or high');
    const { rows } = await h.pool.query('SELECT count(*)::int AS n FROM campaign.campaigns WHERE site_id = $1', [s.siteId]);
    expect(rows[0].n).to.equal(0);
  });

  it("when a draft is edited (the console's UpdateDraft), then its options and urgency are the new body's: set, changed or cleared", async () => {
    const update = (id: string, body: Record<string, unknown>) => h.call('UpdateDraft', { siteId: site.siteId, campaignId: id, bodyJson: JSON.stringify(validCampaign(body)) });
    const { id } = await create({});
    await update(id, { ...OPTIONS, urgency: 'low' });
    expect(await getCampaign(h, site.siteId, id)).to.deep.include({ renotify: true, lang: 'pt-BR', urgency: 'low' });
    await update(id, { silent: true });
    const cleared = await getCampaign(h, site.siteId, id);
    expect(cleared).to.include({ silent: true });
    for (const field of ['actions', 'badge', 'requireInteraction', 'renotify', 'vibrate', 'timestamp', 'dir', 'lang', 'urgency']) expect(cleared).to.not.have.property(field);
  });

  it('when dispatched, then the message carries the options in its content and the urgency; without them it is what it was (version 1, no urgency)', async () => {
    const s = await h.newSite();
    const withOptions = (await create({ ...OPTIONS, silent: true, vibrate: undefined, urgency: 'very-low', status: 'published', scheduleMode: 'now' }, s.siteId)).id;
    const plain = (await create({ status: 'published', scheduleMode: 'now' }, s.siteId)).id;
    const messages = await published([withOptions, plain]);
    const wire = messages.find((m) => m.campaignId === withOptions);
    expect(wire).to.include({ version: 1, urgency: 'very-low' });
    expect(wire.options).to.deep.equal({
      actions: [{ title: 'Scores', link: 'https://shop.example/scores' }],
      badge: 'https://cdn.example/badge.png',
      requireInteraction: true,
      renotify: true,
      silent: true,
      vibrate: [],
      timestamp: '2026-12-05T10:00:00Z',
      dir: 'rtl',
      lang: 'pt-BR',
    });
    const decoded = createCodecs().dispatch.decode(Buffer.from(JSON.stringify(wire)));
    expect(decoded.urgency).to.equal('very-low');
    expect(decoded.content.options).to.deep.equal(wire.options);
    const old = messages.find((m) => m.campaignId === plain);
    expect(old.version).to.equal(1);
    expect(old).to.not.have.property('urgency');
    expect(old.options).to.equal(null);
  });
});
