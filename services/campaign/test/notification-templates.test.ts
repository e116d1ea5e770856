// A notification made from a template (POST /v2/notifications with `template`; docs/api-decisions.md,
// "Notifications", "From a template") where it is stored: the template's rules and messages of a
// campaign create, a variable tags may supply allowed only for people, the template's texts and
// the call's values frozen with the notification and carried by its job (a later edit changes no
// notification in flight), anything refused writes nothing.
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import type { CreateNotificationResponse__Output } from '@webpush/contracts/generated/campaign/v1/CreateNotificationResponse.js';
import type { Template__Output } from '@webpush/contracts/generated/campaign/v1/Template.js';
import { createCodecs, TOPICS, type DispatchMessage } from '@webpush/contracts/messages.js';
import { createLogger } from '@webpush/shared/log.js';
import { createOutboxRelay } from '../src/outbox/outbox-relay.js';
import { expectStatus, startHarness, type Harness, type TestSite } from './support/harness.js';

const TEMPLATE = {
  name: 'order shipped',
  title: 'Hi {{ first_name }}, order {{ order }} shipped',
  body: 'It arrives {{ day | "soon" }}',
  link: 'https://shop.example/orders/{{ order }}',
};
const SUBSCRIPTION = '3f1e7c52-9a0b-4c1d-8e2f-5a6b7c8d9e01';

describe('notifications from a template', function () {
  this.timeout(60_000);
  let h: Harness;
  let site: TestSite;
  let other: TestSite;
  let template: Template__Output;
  const log = createLogger('test', 'error');

  before(async () => {
    h = await startHarness('campaign_notify_template');
    site = await h.newSite();
    other = await h.newSite();
    template = await newTemplate(site, TEMPLATE);
  });
  after(async () => h?.stop());

  function newTemplate(s: TestSite, body: unknown): Promise<Template__Output> {
    return h.call<Template__Output>('CreateTemplate', { siteId: s.siteId, templateId: '', bodyJson: JSON.stringify(body), limit: '', cursor: '' });
  }
  const create = (body: unknown, s = site, idempotencyKey = '') =>
    h.call<CreateNotificationResponse__Output>('CreateNotification', { siteId: s.siteId, bodyJson: typeof body === 'string' ? body : JSON.stringify(body), idempotencyKey });
  const stored = async () => Number((await h.pool.query(`SELECT count(*) FROM campaign.notifications`)).rows[0].count);
  const relayed = async (): Promise<DispatchMessage[]> => {
    const values: Buffer[] = [];
    const relay = createOutboxRelay({ pool: h.pool, log, publish: async (topic, messages) => void (topic === TOPICS.notifications && values.push(...messages.map((m) => m.value))) }, { intervalMs: 1000, batchSize: 1000 });
    await relay.publishBatch();
    return values.map((v) => createCodecs().dispatch.decode(v));
  };

  it('when people are named, then a variable only their tags can give stands as its tag, and the job carries the texts and the values', async () => {
    await relayed();
    const { id } = await create({ externalIds: ['user-1', 'user-2'], template: { id: template.id, variables: { order: 1234 } } });
    const { rows } = await h.pool.query(`SELECT content, template FROM campaign.notifications WHERE id = $1`, [id]);
    expect(rows[0].content).to.deep.include({ title: 'Hi {{ first_name }}, order 1234 shipped', body: 'It arrives soon', link: 'https://shop.example/orders/1234' });
    expect(rows[0].template).to.deep.equal({
      id: template.id,
      version: 1,
      content: { title: TEMPLATE.title, body: TEMPLATE.body, link: TEMPLATE.link },
      variables: { order: 1234 },
    });
    const jobs = (await relayed()).filter((m) => m.campaignId === id);
    expect(jobs).to.have.length(1);
    expect(jobs[0].notification).to.deep.equal({
      externalIds: ['user-1', 'user-2'],
      template: { content: { title: TEMPLATE.title, body: TEMPLATE.body, link: TEMPLATE.link }, variables: { order: 1234 } },
    });
    expect(jobs[0].content.title).to.equal('Hi {{ first_name }}, order 1234 shipped');
  });

  it('when people are named beside an empty subscriptionIds (a client that sends both lists), then tags may still supply a variable', async () => {
    const { id } = await create({ externalIds: ['user-1'], subscriptionIds: [], template: { id: template.id, variables: { order: 2 } } });
    const { rows } = await h.pool.query(`SELECT content, external_ids FROM campaign.notifications WHERE id = $1`, [id]);
    expect([rows[0].content.title, rows[0].external_ids]).to.deep.equal(['Hi {{ first_name }}, order 2 shipped', ['user-1']]);
  });

  it('when the template is edited after the create, then the notification keeps the texts it was made with', async () => {
    const t = await newTemplate(site, { ...TEMPLATE, name: 'edited later' });
    const { id } = await create({ externalIds: ['user-1'], template: { id: t.id, variables: { order: 7 } } });
    await h.call('UpdateTemplate', { siteId: site.siteId, templateId: t.id, bodyJson: JSON.stringify({ body: 'Changed {{ day }}' }), limit: '', cursor: '' });
    await h.call('DeleteTemplate', { siteId: site.siteId, templateId: t.id, bodyJson: '', limit: '', cursor: '' });
    const { rows } = await h.pool.query(`SELECT template FROM campaign.notifications WHERE id = $1`, [id]);
    expect(rows[0].template.content.body).to.equal(TEMPLATE.body);
    expect(rows[0].template.version).to.equal(1);
  });

  it('when subscriptions are named, then every variable without a default needs a value in the call, and with them it is stored rendered', async () => {
    const before = await stored();
    await expectStatus(
      create({ subscriptionIds: [SUBSCRIPTION], template: { id: template.id, variables: { order: 1 } } }),
      grpc.status.INVALID_ARGUMENT,
      'Template variable first_name has no value and no default',
    );
    expect(await stored()).to.equal(before);
    const { id } = await create({ subscriptionIds: [SUBSCRIPTION], template: { id: template.id, variables: { order: 1, first_name: 'Ana', day: 'Monday' } } });
    const { rows } = await h.pool.query(`SELECT content, template FROM campaign.notifications WHERE id = $1`, [id]);
    expect(rows[0].content).to.deep.include({ title: 'Hi Ana, order 1 shipped', body: 'It arrives Monday' });
    expect(rows[0].template.variables).to.deep.equal({ order: 1, first_name: 'Ana', day: 'Monday' });
  });

  it('when the template or its variables are wrong, then 400 with the campaign create\'s messages, and nothing is stored', async () => {
    const foreign = await newTemplate(other, { ...TEMPLATE, name: 'theirs' });
    const long = await newTemplate(site, { ...TEMPLATE, name: 'long title', title: 'Order {{ order }}' });
    const before = await stored();
    const people = { externalIds: ['user-1'] };
    const refusals: [unknown, string][] = [
      [{ ...people, template: { id: foreign.id } }, 'template.id is not a template of this site'],
      [{ ...people, template: { id: 'not-a-uuid' } }, 'template.id is not a template of this site'],
      [{ ...people, template: { id: '00000000-0000-4000-8000-000000000000' } }, 'template.id is not a template of this site'],
      [{ ...people, template: 'x' }, 'template must be an object with id (a template of this site) and optional variables'],
      [{ ...people, template: { id: template.id, extra: 1 } }, 'template must be an object with id (a template of this site) and optional variables'],
      [{ ...people, template: { id: template.id, variables: [] } }, 'variables must be an object of at most 100 names (a-z, 0-9 and _, not starting with a digit, at most 64 characters) with their values'],
      [{ ...people, template: { id: template.id, variables: { order: { a: 1 } } } }, 'variables.order must be a string of at most 1000 characters or a finite number'],
      [{ ...people, template: { id: template.id, variables: { order: '\u0000' } } }, 'variables.order must not contain NUL characters or unpaired surrogates'],
      [{ ...people, template: { id: template.id }, title: 'Inline title' }, 'A notification takes either template or content fields (title, body, link, icon, image, callToAction, utm parameters, notification options), not both'],
      [{ ...people, template: { id: long.id, variables: { order: 'x'.repeat(200) } } }, 'Title must be between 3 and 100 characters'],
      [{ template: { id: template.id, variables: { order: 1, first_name: 'Ana' } } }, 'A notification names either subscriptionIds or externalIds (exactly one of them)'],
    ];
    for (const [body, message] of refusals) await expectStatus(create(body), grpc.status.INVALID_ARGUMENT, message);
    expect(await stored()).to.equal(before);
  });

  it('when an Idempotency-Key is replayed, then the first answer stands even after the template is gone', async () => {
    const t = await newTemplate(site, { ...TEMPLATE, name: 'replayed' });
    const body = { externalIds: ['user-3'], template: { id: t.id, variables: { order: 3 } } };
    const first = await create(body, site, 'tmpl-key-1');
    await h.call('DeleteTemplate', { siteId: site.siteId, templateId: t.id, bodyJson: '', limit: '', cursor: '' });
    expect(await create(body, site, 'tmpl-key-1')).to.deep.equal(first);
  });
});
