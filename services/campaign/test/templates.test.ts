// /v2/templates in the campaign service (src/templates/; docs/api-decisions.md, "Templates"):
// created, listed with signed cursors, read, updated as a new version, deleted and rendered, per
// site only; a create with `template` stores the rendered content and the template's id and
// version; every refusal writes nothing.
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import type { ListTemplatesResponse__Output } from '@webpush/contracts/generated/campaign/v1/ListTemplatesResponse.js';
import type { RenderTemplateResponse__Output } from '@webpush/contracts/generated/campaign/v1/RenderTemplateResponse.js';
import type { Template__Output } from '@webpush/contracts/generated/campaign/v1/Template.js';
import { expectStatus, getCampaign, startHarness, validCampaign, type Harness, type TestSite } from './support/harness.js';

const TEMPLATE = {
  name: 'Back in stock',
  title: 'Hi {{ first_name | "there" }}',
  body: 'Your {{ product }} is back',
  link: 'https://shop.example/p/{{ product_id }}',
  icon: 'https://shop.example/icon.png',
  actions: [{ title: 'Buy {{ product }}', link: 'https://shop.example/cart?add={{ product_id }}' }],
  requireInteraction: true,
};

describe('Templates', function () {
  this.timeout(60_000);
  let h: Harness;
  let site: TestSite;
  let other: TestSite;

  before(async () => {
    h = await startHarness('campaign_templates');
    site = await h.newSite({ subscribers: [{ count: 2, topics: ['sports'], countries: ['br'] }] });
    other = await h.newSite();
  });
  after(async () => h?.stop());

  const req = (s: TestSite, fields: { templateId?: string; body?: unknown; limit?: string; cursor?: string } = {}) => ({
    siteId: s.siteId,
    templateId: fields.templateId ?? '',
    bodyJson: fields.body === undefined ? '' : typeof fields.body === 'string' ? fields.body : JSON.stringify(fields.body),
    limit: fields.limit ?? '',
    cursor: fields.cursor ?? '',
  });
  const create = (body: unknown = TEMPLATE, s = site) => h.call<Template__Output>('CreateTemplate', req(s, { body }));
  const count = async (s = site) => Number((await h.pool.query('SELECT count(*) FROM campaign.templates WHERE site_id = $1', [s.siteId])).rows[0].count);
  const named = (name: string) => ({ ...TEMPLATE, name });

  it('when a template is created, then it is answered with version 1, its content as given and the variables it uses', async () => {
    const t = await create(named('created'));
    expect(t).to.deep.include({ name: 'created', version: 1 });
    const { name: _, ...content } = named('created');
    expect(JSON.parse(t.contentJson)).to.deep.equal(content);
    expect(t.variables).to.deep.equal([
      { name: 'first_name', required: false },
      { name: 'product', required: true },
      { name: 'product_id', required: true },
    ]);
    expect(t.createdAt).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(await h.call<Template__Output>('GetTemplate', req(site, { templateId: t.id }))).to.deep.equal(t);
  });

  it('when a body is not a template, or its name is taken, then refused and nothing is stored', async () => {
    await create(named('taken'));
    const before = await count();
    await expectStatus(create(named('taken')), grpc.status.FAILED_PRECONDITION, 'A template of this name already exists');
    await expectStatus(create({ ...named('bad'), title: 'Hi {{ Name }}' }), grpc.status.INVALID_ARGUMENT, 'title has a malformed tag at character 3: a tag is {{ name }} or {{ name | "default" }}, a name of a-z, 0-9 and _ (at most 64)');
    await expectStatus(create('[]'), grpc.status.INVALID_ARGUMENT, 'Invalid JSON body');
    await expectStatus(create({ ...named('bad'), link: 'https://{{ host }}/' }), grpc.status.INVALID_ARGUMENT, "link may use variables only after its address's host and the /, ? or # that ends it");
    expect(await count()).to.equal(before);
  });

  it('when a template is updated, then its version goes up and the fields given replace the stored ones; a refused update changes nothing', async () => {
    const t = await create(named('updated'));
    await create(named('updated-other'));
    const next = await h.call<Template__Output>('UpdateTemplate', req(site, { templateId: t.id, body: { body: 'Only {{ n | "few" }} left', icon: null } }));
    expect(next.version).to.equal(2);
    expect(JSON.parse(next.contentJson)).to.deep.include({ body: 'Only {{ n | "few" }} left', title: TEMPLATE.title }).and.not.have.property('icon');
    await expectStatus(h.call('UpdateTemplate', req(site, { templateId: t.id, body: { name: 'updated-other' } })), grpc.status.FAILED_PRECONDITION, 'A template of this name already exists');
    await expectStatus(h.call('UpdateTemplate', req(site, { templateId: t.id, body: { title: 'x' } })), grpc.status.INVALID_ARGUMENT, 'Title must be between 3 and 100 characters');
    expect(await h.call<Template__Output>('GetTemplate', req(site, { templateId: t.id }))).to.deep.equal(next);
  });

  it('when another site, a random id or a malformed id is named, then "Template not found" on every call, and nothing changes', async () => {
    const t = await create(named('mine'));
    for (const [s, id] of [[other, t.id], [site, '7d9f3c1e-0000-4000-8000-000000000000'], [site, "' OR 1=1 --"], [site, '']] as const) {
      await expectStatus(h.call('GetTemplate', req(s, { templateId: id })), grpc.status.NOT_FOUND, 'Template not found');
      await expectStatus(h.call('UpdateTemplate', req(s, { templateId: id, body: { name: 'stolen' } })), grpc.status.NOT_FOUND, 'Template not found');
      await expectStatus(h.call('DeleteTemplate', req(s, { templateId: id })), grpc.status.NOT_FOUND, 'Template not found');
      await expectStatus(h.call('RenderTemplate', req(s, { templateId: id, body: {} })), grpc.status.NOT_FOUND, 'Template not found');
    }
    expect((await h.call<Template__Output>('GetTemplate', req(site, { templateId: t.id }))).version).to.equal(1);
    const otherPage = await h.call<ListTemplatesResponse__Output>('ListTemplates', req(other));
    expect(otherPage.items).to.deep.equal([]);
  });

  it('when templates are listed, then newest first, paged by cursors bound to the site and the limit', async () => {
    const s = await h.newSite();
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await create(named(`page ${i}`), s)).id);
    const first = await h.call<ListTemplatesResponse__Output>('ListTemplates', req(s, { limit: '2' }));
    expect(first.items.map((t) => t.id)).to.deep.equal([ids[4], ids[3]]);
    expect(first.page).to.deep.include({ limit: 2, hasMore: true });
    const cursor = first.page!.nextCursor!;
    const second = await h.call<ListTemplatesResponse__Output>('ListTemplates', req(s, { limit: '2', cursor }));
    expect(second.items.map((t) => t.id)).to.deep.equal([ids[2], ids[1]]);
    const last = await h.call<ListTemplatesResponse__Output>('ListTemplates', req(s, { limit: '2', cursor: second.page!.nextCursor! }));
    expect(last.items.map((t) => t.id)).to.deep.equal([ids[0]]);
    expect(last.page).to.deep.include({ hasMore: false });
    await expectStatus(h.call('ListTemplates', req(other, { limit: '2', cursor })), grpc.status.INVALID_ARGUMENT, 'Invalid pagination cursor');
    await expectStatus(h.call('ListTemplates', req(s, { limit: '3', cursor })), grpc.status.INVALID_ARGUMENT, 'Invalid pagination cursor');
    await expectStatus(h.call('ListTemplates', req(s, { limit: '0' })), grpc.status.INVALID_ARGUMENT, 'limit must be a positive number');
    expect((await h.call<ListTemplatesResponse__Output>('ListTemplates', req(s, { limit: '1000' }))).page!.limit).to.equal(100);
  });

  it('when a template is rendered, then the content a campaign would have, or the refusal naming the variable or field', async () => {
    const t = await create(named('preview'));
    const render = (body: unknown) => h.call<RenderTemplateResponse__Output>('RenderTemplate', req(site, { templateId: t.id, body }));
    const r = await render({ variables: { product: 'red shoes', product_id: 'a/b c' } });
    expect(r.template).to.deep.include({ id: t.id, version: 1 });
    expect(JSON.parse(r.contentJson)).to.deep.include({
      title: 'Hi there',
      body: 'Your red shoes is back',
      link: 'https://shop.example/p/a%2Fb%20c',
      icon: 'https://shop.example/icon.png',
      actions: [{ title: 'Buy red shoes', link: 'https://shop.example/cart?add=a%2Fb%20c' }],
      requireInteraction: true,
      callToAction: '',
    });
    await expectStatus(render({ variables: { product: 'x' } }), grpc.status.INVALID_ARGUMENT, 'Template variable product_id has no value and no default');
    await expectStatus(render({ variables: { product: 'p'.repeat(290), product_id: 1 } }), grpc.status.INVALID_ARGUMENT, 'Body must be between 3 and 300 characters, actions[0].title must be 1 to 20 characters');
    await expectStatus(render({ variables: [] }), grpc.status.INVALID_ARGUMENT, 'variables must be an object of at most 100 names (a-z, 0-9 and _, not starting with a digit, at most 64 characters) with their values');
  });

  it('when a campaign is created with a template, then it stores the rendered content and the template id and version', async () => {
    const t = await create(named('for campaigns'));
    const body = validCampaign({ title: undefined, body: undefined, link: undefined, template: { id: t.id, variables: { first_name: 'Ana', product: 'boots', product_id: 42 } } });
    const { id } = await h.call<{ id: string }>('CreateCampaign', { siteId: site.siteId, bodyJson: JSON.stringify(body), idempotencyKey: '' });
    const campaign = await getCampaign(h, site.siteId, id);
    expect(campaign).to.deep.include({ title: 'Hi Ana', body: 'Your boots is back', link: 'https://shop.example/p/42', icon: 'https://shop.example/icon.png' });
    const stored = (await h.pool.query('SELECT template FROM campaign.campaigns WHERE id = $1', [id])).rows[0].template;
    expect(stored).to.deep.equal({ id: t.id, version: 1 });
    // Edited later, the template does not change the campaign.
    await h.call('UpdateTemplate', req(site, { templateId: t.id, body: { body: 'Changed {{ product }}' } }));
    expect((await getCampaign(h, site.siteId, id)).body).to.equal('Your boots is back');
  });

  it("when a create's template is wrong, or comes with content fields, then refused and no campaign is stored", async () => {
    const t = await create(named('refusals'));
    const mine = await create(named('of the other site'), other);
    const campaigns = async () => Number((await h.pool.query('SELECT count(*) FROM campaign.campaigns WHERE site_id = $1', [site.siteId])).rows[0].count);
    const before = await campaigns();
    const createWith = (extra: Record<string, unknown>) =>
      h.call('CreateCampaign', { siteId: site.siteId, bodyJson: JSON.stringify({ topics: ['sports'], status: 'published', scheduleMode: 'now', ...extra }), idempotencyKey: '' });
    await expectStatus(createWith({ template: { id: t.id, variables: { product: 'x', product_id: 1 } }, title: 'Inline too' }), grpc.status.INVALID_ARGUMENT, 'A campaign takes either template or content fields (title, body, link, icon, image, callToAction, utm parameters, notification options), not both');
    await expectStatus(createWith({ template: { id: mine.id, variables: { product: 'x', product_id: 1 } } }), grpc.status.INVALID_ARGUMENT, 'template.id is not a template of this site');
    await expectStatus(createWith({ template: { id: 'nope' } }), grpc.status.INVALID_ARGUMENT, 'template.id is not a template of this site');
    await expectStatus(createWith({ template: 'x' }), grpc.status.INVALID_ARGUMENT, 'template must be an object with id (a template of this site) and optional variables');
    await expectStatus(createWith({ template: { id: t.id } }), grpc.status.INVALID_ARGUMENT, 'Template variable product has no value and no default, Template variable product_id has no value and no default');
    await expectStatus(createWith({ template: { id: t.id, variables: { product: 'x', product_id: 'y'.repeat(999) + '\u0000' } } }), grpc.status.INVALID_ARGUMENT, 'variables.product_id must not contain NUL characters or unpaired surrogates');
    await expectStatus(createWith({ template: { id: t.id, variables: { product: 'x'.repeat(300), product_id: 1 } } }), grpc.status.INVALID_ARGUMENT, 'Body must be between 3 and 300 characters, actions[0].title must be 1 to 20 characters');
    expect(await campaigns()).to.equal(before);
  });

  it('when a create with a template is replayed with its Idempotency-Key after the template was deleted, then the first answer comes back', async () => {
    const t = await create(named('replayed'));
    const bodyJson = JSON.stringify(validCampaign({ title: undefined, body: undefined, link: undefined, template: { id: t.id, variables: { product: 'caps', product_id: 3 } } }));
    const first = await h.call<{ id: string }>('CreateCampaign', { siteId: site.siteId, bodyJson, idempotencyKey: 'template-replay-1' });
    await h.call('DeleteTemplate', req(site, { templateId: t.id }));
    expect((await h.call<{ id: string }>('CreateCampaign', { siteId: site.siteId, bodyJson, idempotencyKey: 'template-replay-1' })).id).to.equal(first.id);
    await expectStatus(h.call('CreateCampaign', { siteId: site.siteId, bodyJson, idempotencyKey: 'template-replay-2' }), grpc.status.INVALID_ARGUMENT, 'template.id is not a template of this site');
  });

  it('when a template is deleted, then it is gone, and the campaigns made from it keep their content', async () => {
    const t = await create(named('deleted'));
    const body = validCampaign({ title: undefined, body: undefined, link: undefined, template: { id: t.id, variables: { product: 'hats', product_id: 7 } } });
    const { id } = await h.call<{ id: string }>('CreateCampaign', { siteId: site.siteId, bodyJson: JSON.stringify(body), idempotencyKey: '' });
    expect(await h.call('DeleteTemplate', req(site, { templateId: t.id }))).to.deep.equal({ id: t.id });
    await expectStatus(h.call('GetTemplate', req(site, { templateId: t.id })), grpc.status.NOT_FOUND, 'Template not found');
    expect((await getCampaign(h, site.siteId, id)).title).to.equal('Hi there');
  });
});
