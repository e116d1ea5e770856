// Automations in the campaign service (src/automations/; docs/api-decisions.md, "Automations"):
// created, listed, paused and deleted per site, refusals writing nothing; events start and end
// runs; the due-step runner sends each (automation, round, step, person) once even when a batch
// dies between its claim and its commit, or three runners race, grouping a batch's steps of one
// (automation, step, values) into one notification from the step's template; a paused or deleted
// automation sends nothing more; a welcome is once per person. Time passing is the due time
// moved back in the database, never a wait.
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Automation__Output } from '@webpush/contracts/generated/campaign/v1/Automation.js';
import type { ListAutomationsResponse__Output } from '@webpush/contracts/generated/campaign/v1/ListAutomationsResponse.js';
import type { Template__Output } from '@webpush/contracts/generated/campaign/v1/Template.js';
import { withTransaction } from '@webpush/shared/db.js';
import { createLogger } from '@webpush/shared/log.js';
import { createCursorCodec } from '../src/campaigns/index.js';
import { templateUseCases } from '../src/templates/index.js';
import { createStepRunner, sendDueSteps } from '../src/automations/index.js';
import { enrolSubscribed } from '../src/automations/automation-store.js';
import { createEventWriter } from '../src/automations/event-writer.js';
import { expectStatus, startHarness, type Harness, type TestSite } from './support/harness.js';

describe('Automations', function () {
  this.timeout(60_000);
  let h: Harness;
  let site: TestSite;
  let other: TestSite;
  let templateId: string;
  let cartTemplateId: string;
  let render: ReturnType<typeof templateUseCases>['renderForNotification'];
  let runner: ReturnType<typeof createStepRunner>;

  before(async () => {
    h = await startHarness('campaign_automations');
    site = await h.newSite();
    other = await h.newSite();
    const tpl = (s: TestSite, body: object) => h.call<Template__Output>('CreateTemplate', { siteId: s.siteId, bodyJson: JSON.stringify(body) });
    templateId = (await tpl(site, { name: 'welcome', title: 'Welcome {{ first_name | "friend" }}', body: 'Glad you are here', link: 'https://shop.example/' })).id;
    cartTemplateId = (await tpl(site, { name: 'cart', title: 'Your {{ product }} is waiting', body: 'Finish your order', link: 'https://shop.example/cart' })).id;
    render = templateUseCases({ pool: h.pool, cursors: createCursorCodec(randomBytes(32)) }).renderForNotification;
    runner = createStepRunner({ pool: h.pool, log: createLogger('test', 'error'), render }, { intervalMs: 60_000, batchSize: 3 });
  });
  after(async () => h?.stop());

  const req = (s: TestSite, f: { automationId?: string; body?: unknown; limit?: string; cursor?: string; idempotencyKey?: string } = {}) => ({
    siteId: s.siteId,
    automationId: f.automationId ?? '',
    bodyJson: f.body === undefined ? '' : typeof f.body === 'string' ? f.body : JSON.stringify(f.body),
    limit: f.limit ?? '',
    cursor: f.cursor ?? '',
    idempotencyKey: f.idempotencyKey ?? '',
  });
  const welcome = (overrides: object = {}) => ({ name: 'Welcome', trigger: { type: 'subscribed' }, steps: [{ delaySeconds: 0, templateId }, { delaySeconds: 86_400, templateId, variables: { first_name: 'again' } }], ...overrides });
  const cart = (overrides: object = {}) => ({ name: 'Cart', trigger: { type: 'event', name: 'cart_abandoned' }, steps: [{ delaySeconds: 3600, templateId: cartTemplateId }], exitOn: { events: ['checkout_completed'] }, ...overrides });
  const create = (body: unknown, s = site) => h.call<Automation__Output>('CreateAutomation', req(s, { body }));
  const event = (body: object, s = site, idempotencyKey = '') => h.call<{ id: string }>('RecordEvent', req(s, { body, idempotencyKey }));
  const count = async (table: string, where = 'true', params: unknown[] = []) => Number((await h.pool.query(`SELECT count(*) FROM campaign.${table} WHERE ${where}`, params)).rows[0].count);
  const sendsOf = (automationId: string) => count('automation_sends', 'automation_id = $1', [automationId]);
  /** Time passes for the automation's people: their next step falls due. */
  const makeDue = (automationId: string) => h.pool.query(`UPDATE campaign.automation_enrolments SET due_at = now() - interval '1 second' WHERE automation_id = $1 AND state = 'active'`, [automationId]);
  const enrolment = async (automationId: string, externalId: string) => (await h.pool.query(`SELECT * FROM campaign.automation_enrolments WHERE automation_id = $1 AND external_id = $2`, [automationId, externalId])).rows[0];
  /** Every due step sent: ticks until a tick sends nothing (bounded). */
  const drain = async () => {
    for (let i = 0; i < 20; i++) if ((await runner.tick()) === 0) return;
    expect.fail('the runner did not drain');
  };

  it('when an automation is created, then it is answered with its steps, their results and the enrolments, and read back the same', async () => {
    const a = await create(welcome());
    expect(a).to.deep.include({ name: 'Welcome', status: 'active', exitEvents: [] });
    expect(a.trigger).to.deep.include({ type: 'subscribed', name: '' });
    expect(a.steps.map((s) => [s.delaySeconds, s.templateId, JSON.parse(s.variablesJson), s.results?.sent])).to.deep.equal([
      [0, templateId, {}, 0],
      [86_400, templateId, { first_name: 'again' }, 0],
    ]);
    expect(a.enrolments).to.deep.include({ active: 0, completed: 0, exited: 0 });
    expect(await h.call<Automation__Output>('GetAutomation', req(site, { automationId: a.id }))).to.deep.equal(a);
    await h.call('DeleteAutomation', req(site, { automationId: a.id }));
  });

  it('when a body is not an automation, or a step names another site\'s template, then refused by field and nothing is stored', async () => {
    const before = await count('automations');
    await expectStatus(create({ ...welcome(), extra: 1 }), grpc.status.INVALID_ARGUMENT, 'An automation takes only name, status, trigger, steps, exitOn and throttlePerMinute');
    await expectStatus(create(welcome({ steps: [] })), grpc.status.INVALID_ARGUMENT, 'steps must be an array of 1 to 10 steps');
    await expectStatus(create(welcome({ steps: [{ delaySeconds: -1, templateId }] })), grpc.status.INVALID_ARGUMENT, 'steps[0].delaySeconds must be a whole number of seconds from 0 to 31536000 (365 days)');
    await expectStatus(create(welcome({ trigger: { type: 'event', name: 'bad name' } })), grpc.status.INVALID_ARGUMENT, 'trigger must be {"type": "subscribed"}, {"type": "event", "name": <event name>} or {"type": "tag", "name": <tag key>, "value"?: <string of at most 256 characters, number or boolean>}');
    await expectStatus(create(welcome(), other), grpc.status.INVALID_ARGUMENT, 'steps[0].templateId is not a template of this site, steps[1].templateId is not a template of this site');
    await expectStatus(create('[]'), grpc.status.INVALID_ARGUMENT, 'Invalid JSON body');
    expect(await count('automations')).to.equal(before);
  });

  it('when automations are listed, then newest first by signed cursors, and another site\'s are never found', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await create(welcome({ name: `list ${i}`, status: 'paused' }))).id);
    const first = await h.call<ListAutomationsResponse__Output>('ListAutomations', req(site, { limit: '2' }));
    expect(first.items.map((a) => a.id)).to.deep.equal([ids[2], ids[1]]);
    const second = await h.call<ListAutomationsResponse__Output>('ListAutomations', req(site, { limit: '2', cursor: first.page!.nextCursor }));
    expect(second.items[0].id).to.equal(ids[0]);
    await expectStatus(h.call('ListAutomations', req(other, { limit: '2', cursor: first.page!.nextCursor })), grpc.status.INVALID_ARGUMENT, 'Invalid pagination cursor');
    await expectStatus(h.call('GetAutomation', req(other, { automationId: ids[0] })), grpc.status.NOT_FOUND, 'Automation not found');
    await expectStatus(h.call('DeleteAutomation', req(other, { automationId: ids[0] })), grpc.status.NOT_FOUND, 'Automation not found');
    await expectStatus(h.call('UpdateAutomation', req(other, { automationId: ids[0], body: { status: 'active' } })), grpc.status.NOT_FOUND, 'Automation not found');
    for (const id of ids) await h.call('DeleteAutomation', req(site, { automationId: id }));
  });

  it('when a step is due, then one notification is made with the rendered template; a batch that dies before its commit leaves nothing and the step is sent once after', async () => {
    const a = await create(welcome({ name: 'crash' }));
    await enrolSubscribed(h.pool, site.siteId, 'crash-person', new Date());
    // A runner claims and makes the notification, then dies before its commit.
    const client = await h.pool.connect();
    try {
      await client.query('BEGIN');
      const made = await sendDueSteps(client, render, 100);
      expect(made.sent).to.be.greaterThan(0);
      // While it holds the row, another runner skips it rather than sending it too.
      expect(await runner.tick()).to.equal(0);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    expect(await sendsOf(a.id)).to.equal(0);
    await drain();
    const sends = (await h.pool.query(`SELECT notification_id, step FROM campaign.automation_sends WHERE automation_id = $1`, [a.id])).rows;
    expect(sends.map((s) => s.step)).to.deep.equal([0]);
    const n = (await h.pool.query(`SELECT content, external_ids, subscription_ids::text[] AS subscription_ids, transactional, template FROM campaign.notifications WHERE id = $1`, [sends[0].notification_id])).rows[0];
    expect(n.content.title).to.equal('Welcome friend');
    // Made from the template, frozen with the step's values, for the delivery service to render with the person's tags.
    expect(n.template).to.deep.include({ id: templateId, version: 1, variables: {} });
    expect(n.template.content.title).to.equal('Welcome {{ first_name | "friend" }}');
    // To the person (the delivery service resolves their active subscriptions), under the site's cap.
    expect([n.external_ids, n.subscription_ids, n.transactional]).to.deep.equal([['crash-person'], [], false]);
    expect(await count('outbox', `campaign_id = $1 AND kind = 'notification.dispatch'`, [sends[0].notification_id])).to.equal(1);
    // A day later the second step, with its own variables; then the run is complete.
    await makeDue(a.id);
    await drain();
    expect(await sendsOf(a.id)).to.equal(2);
    expect((await enrolment(a.id, 'crash-person')).state).to.equal('completed');
    const read = await h.call<Automation__Output>('GetAutomation', req(site, { automationId: a.id }));
    expect(read.steps.map((s) => s.results?.sent)).to.deep.equal([1, 1]);
    expect(read.enrolments).to.deep.include({ completed: 1 });
    await h.call('DeleteAutomation', req(site, { automationId: a.id }));
  });

  /** The automation's notifications, each with the people it names and the people whose send keys point at it (both sorted). */
  const notificationsOf = async (automationId: string) =>
    (
      await h.pool.query(
        `SELECT n.id, n.content, n.template, ARRAY(SELECT unnest(n.external_ids) ORDER BY 1) AS named, array_agg(s.external_id ORDER BY s.external_id) AS keyed
           FROM campaign.notifications n JOIN campaign.automation_sends s ON s.notification_id = n.id
          WHERE s.automation_id = $1 GROUP BY n.id ORDER BY min(s.external_id)`,
        [automationId],
      )
    ).rows;

  it('when three runners race over many due steps, then each (step, person) is sent once, in notifications of a batch each that name exactly the people keyed to them', async () => {
    const a = await create(welcome({ name: 'race', steps: [{ delaySeconds: 0, templateId }] }));
    for (let i = 0; i < 40; i++) await enrolSubscribed(h.pool, site.siteId, `race-${String(i).padStart(2, '0')}`, new Date());
    const runners = [1, 2, 3].map(() => createStepRunner({ pool: h.pool, log: createLogger('test', 'error'), render }, { intervalMs: 60_000, batchSize: 4 }));
    await Promise.all(runners.map((r) => r.tick()));
    await drain();
    expect(await sendsOf(a.id)).to.equal(40);
    const made = await notificationsOf(a.id);
    for (const n of made) expect(n.named).to.deep.equal(n.keyed);
    expect(made.flatMap((n) => n.named).sort()).to.deep.equal(Array.from({ length: 40 }, (_, i) => `race-${String(i).padStart(2, '0')}`));
    // Batches of 4 with one value set: 4 people a notification, but for each runner's last, short batch.
    expect(made.every((n) => n.named.length <= 4)).to.equal(true);
    expect(made.length).to.be.within(10, 12);
    await h.call('DeleteAutomation', req(site, { automationId: a.id }));
  });

  it('when a batch holds several automations, steps and event values, then one notification per (automation, step, values), each with the step\'s template and those values', async () => {
    const big = createStepRunner({ pool: h.pool, log: createLogger('test', 'error'), render }, { intervalMs: 60_000, batchSize: 100 });
    const c = await create(cart({ name: 'groups', steps: [{ delaySeconds: 0, templateId: cartTemplateId, variables: { product: 'thing' } }] }));
    const w = await create(welcome({ name: 'groups welcome', steps: [{ delaySeconds: 0, templateId, variables: { first_name: 'pal' } }] }));
    const carts = { mug: ['g-1', 'g-2', 'g-3'], hat: ['g-4', 'g-5'] };
    for (const [product, people] of Object.entries(carts)) for (const p of people) await event({ externalId: p, name: 'cart_abandoned', properties: { product } });
    // No properties: the step's own value.
    await event({ externalId: 'g-6', name: 'cart_abandoned' });
    for (const p of ['g-7', 'g-8']) await enrolSubscribed(h.pool, site.siteId, p, new Date());
    const made = await withTransaction(h.pool, (tx) => sendDueSteps(tx, render, 100));
    expect(made).to.deep.include({ sent: 8, notifications: 4 });
    const cartNotes = await notificationsOf(c.id);
    expect(cartNotes.map((n) => [n.named, n.template.variables, n.content.title])).to.deep.equal([
      [['g-1', 'g-2', 'g-3'], { product: 'mug' }, 'Your mug is waiting'],
      [['g-4', 'g-5'], { product: 'hat' }, 'Your hat is waiting'],
      [['g-6'], { product: 'thing' }, 'Your thing is waiting'],
    ]);
    for (const n of cartNotes) expect(n.named).to.deep.equal(n.keyed);
    const welcomeNotes = await notificationsOf(w.id);
    expect(welcomeNotes.map((n) => [n.named, n.template.variables, n.content.title])).to.deep.equal([[['g-7', 'g-8'], { first_name: 'pal' }, 'Welcome pal']]);
    expect(await big.tick()).to.equal(0);
    for (const id of [c.id, w.id]) await h.call('DeleteAutomation', req(site, { automationId: id }));
  });

  it('when an automation is paused, then its due steps are not sent until it is resumed; once deleted, nothing more', async () => {
    const a = await create(welcome({ name: 'pause' }));
    await enrolSubscribed(h.pool, site.siteId, 'pause-person', new Date());
    const paused = await h.call<Automation__Output>('UpdateAutomation', req(site, { automationId: a.id, body: { status: 'paused' } }));
    expect(paused.status).to.equal('paused');
    await drain();
    expect(await sendsOf(a.id)).to.equal(0);
    await h.call('UpdateAutomation', req(site, { automationId: a.id, body: { status: 'active' } }));
    await drain();
    expect(await sendsOf(a.id)).to.equal(1);
    const sentBefore = await count('notifications');
    await makeDue(a.id);
    await h.call('DeleteAutomation', req(site, { automationId: a.id }));
    await drain();
    expect(await count('notifications')).to.equal(sentBefore);
    await expectStatus(h.call('UpdateAutomation', req(site, { automationId: a.id, body: { status: 'sideways' } })), grpc.status.INVALID_ARGUMENT, 'status must be active or paused');
  });

  it('when cart_abandoned is followed by checkout_completed before the hour, then nothing is sent; without it, the step is sent after the hour with the event\'s properties', async () => {
    const a = await create(cart());
    await event({ externalId: 'buyer', name: 'cart_abandoned', properties: { product: 'red shoes' } });
    await event({ externalId: 'walker', name: 'cart_abandoned', properties: { product: 'blue hat' } });
    // Before the hour nothing is due.
    await drain();
    expect(await sendsOf(a.id)).to.equal(0);
    await event({ externalId: 'buyer', name: 'checkout_completed' });
    await makeDue(a.id);
    await drain();
    const sends = (await h.pool.query(`SELECT s.external_id, n.content FROM campaign.automation_sends s JOIN campaign.notifications n ON n.id = s.notification_id WHERE s.automation_id = $1`, [a.id])).rows;
    expect(sends.map((s) => [s.external_id, s.content.title])).to.deep.equal([['walker', 'Your blue hat is waiting']]);
    expect((await enrolment(a.id, 'buyer'))).to.deep.include({ state: 'exited', exit_reason: 'event' });
    const read = await h.call<Automation__Output>('GetAutomation', req(site, { automationId: a.id }));
    expect(read.steps[0].results).to.deep.include({ sent: 1, exits: 1 });
    // A new abandoned cart after the run ended starts a new round.
    await event({ externalId: 'walker', name: 'cart_abandoned', properties: { product: 'green scarf' } });
    await makeDue(a.id);
    await drain();
    expect(await sendsOf(a.id)).to.equal(2);
    await h.call('DeleteAutomation', req(site, { automationId: a.id }));
  });

  it('when an event repeats its Idempotency-Key, then it is answered the first id and applied once; a hostile event is refused and stores nothing', async () => {
    const a = await create(cart({ name: 'idem', steps: [{ delaySeconds: 0, templateId: cartTemplateId }] }));
    const body = { externalId: 'idem-person', name: 'cart_abandoned', properties: { product: 'mug' } };
    const first = await event(body, site, 'evt-1');
    expect(await event(body, site, 'evt-1')).to.deep.equal(first);
    await expectStatus(event({ ...body, name: 'other' }, site, 'evt-1'), grpc.status.ALREADY_EXISTS, 'Idempotency-Key was already used with a different request body');
    await drain();
    expect(await sendsOf(a.id)).to.equal(1);
    // Another site's event never reaches this site's automation.
    await event({ externalId: 'idem-other', name: 'cart_abandoned', properties: { product: 'x' } }, other);
    expect(await count('automation_enrolments', 'external_id = $1', ['idem-other'])).to.equal(0);
    const before = await count('automation_enrolments');
    await expectStatus(event({ externalId: '', name: 'cart_abandoned' }), grpc.status.INVALID_ARGUMENT, 'externalId must be a string of 1 to 128 characters without control characters');
    await expectStatus(event({ externalId: 'x', name: 'a b', properties: { Bad: 1 } }), grpc.status.INVALID_ARGUMENT, 'name must be an event name: 1 to 64 characters of a-z, A-Z, 0-9, _, ., : and -, properties must be an object of at most 50 names (a-z, 0-9 and _, not starting with a digit, at most 64 characters) with string (at most 1000 characters) or number values');
    expect(await count('automation_enrolments')).to.equal(before);
    await h.call('DeleteAutomation', req(site, { automationId: a.id }));
  });

  it('when events arrive together, then they are written in one transaction, each person\'s in their order, a key held by an earlier one answered as a repeat', async () => {
    const a = await create(cart({ name: 'together' }));
    const write = createEventWriter(h.pool);
    const ev = (externalId: string, name: string, idempotencyKey = '', requestHash = 'h') => write({ siteId: site.siteId, externalId, name, properties: { product: 'mug' }, idempotencyKey, requestHash, id: randomUUID() });
    // The first is written at once, alone; the rest arrive while it is written and go together.
    const first = ev('t-0', 'cart_abandoned');
    const rest = [
      ev('t-a', 'cart_abandoned', 'tk-1'),
      ev('t-a', 'checkout_completed'),
      ev('t-b', 'cart_abandoned', 'tk-1'),
      ev('t-c', 'cart_abandoned'),
      ev('t-c', 'cart_abandoned'),
      ev('t-d', 'cart_abandoned'),
    ];
    expect(await Promise.all([first, ...rest])).to.deep.equal([true, true, true, false, true, true, true]);
    const rows = (await h.pool.query(`SELECT external_id, state, exit_reason, round, enrolled_at FROM campaign.automation_enrolments WHERE automation_id = $1 ORDER BY external_id`, [a.id])).rows;
    expect(rows.map((r) => [r.external_id, r.state, r.exit_reason, r.round])).to.deep.equal([
      ['t-0', 'active', null, 0],
      // Abandoned, then checked out: in that order, so the run started and ended.
      ['t-a', 'exited', 'event', 0],
      // A second abandoned cart while the first run is under way starts nothing new.
      ['t-c', 'active', null, 0],
      ['t-d', 'active', null, 0],
    ]);
    // One transaction (now() is its start) for all but the first.
    expect(new Set(rows.filter((r) => r.external_id !== 't-0').map((r) => r.enrolled_at.getTime())).size).to.equal(1);
    expect(rows[0].enrolled_at.getTime()).to.not.equal(rows[1].enrolled_at.getTime());
    expect((await h.pool.query(`SELECT campaign_id FROM campaign.idempotency_keys WHERE site_id = $1 AND key = 'tk-1'`, [site.siteId])).rowCount).to.equal(1);
    await h.call('DeleteAutomation', req(site, { automationId: a.id }));
  });

  it('when a variable has no value at the step, then it is left for the person\'s tag: the notification is made with the tag standing, and the series goes on', async () => {
    const a = await create(cart({ name: 'by tag', steps: [{ delaySeconds: 0, templateId: cartTemplateId }] }));
    await event({ externalId: 'no-product', name: 'cart_abandoned' });
    await drain();
    const [n] = await notificationsOf(a.id);
    expect([n.named, n.template.variables, n.content.title]).to.deep.equal([['no-product'], {}, 'Your {{ product }} is waiting']);
    expect((await enrolment(a.id, 'no-product')).state).to.equal('completed');
    await h.call('DeleteAutomation', req(site, { automationId: a.id }));
  });

  it('when a step\'s template is gone, or renders no valid notification, then its people leave the series (templateFailed) and nothing is sent', async () => {
    const tpl = (body: object) => h.call<Template__Output>('CreateTemplate', { siteId: site.siteId, bodyJson: JSON.stringify(body) });
    const gone = await tpl({ name: 'gone', title: 'Hello', body: 'There', link: 'https://shop.example/' });
    const badLink = await tpl({ name: 'bad title', title: 'Hello {{ headline }}', body: 'There', link: 'https://shop.example/' });
    const a = await create(cart({ name: 'gone', steps: [{ delaySeconds: 0, templateId: gone.id }] }));
    const b = await create(cart({ name: 'bad title', trigger: { type: 'event', name: 'link_event' }, steps: [{ delaySeconds: 0, templateId: badLink.id }] }));
    await h.call('DeleteTemplate', { siteId: site.siteId, templateId: gone.id });
    const before = await count('notifications');
    for (const p of ['gone-1', 'gone-2']) await event({ externalId: p, name: 'cart_abandoned' });
    // A value that makes the title too long: the creation's content rules refuse it, as POST /v2/notifications would.
    await event({ externalId: 'bad-1', name: 'link_event', properties: { headline: 'x'.repeat(200) } });
    await drain();
    expect(await count('notifications')).to.equal(before);
    for (const [id, p] of [[a.id, 'gone-1'], [a.id, 'gone-2'], [b.id, 'bad-1']]) expect(await enrolment(id, p)).to.deep.include({ state: 'exited', exit_reason: 'templateFailed' });
    const read = await h.call<Automation__Output>('GetAutomation', req(site, { automationId: a.id }));
    expect(read.steps[0].results).to.deep.include({ sent: 0, exits: 2 });
    for (const id of [a.id, b.id]) await h.call('DeleteAutomation', req(site, { automationId: id }));
  });

  it('when a person subscribes again, then a welcome is not started twice', async () => {
    const a = await create(welcome({ name: 'once', steps: [{ delaySeconds: 0, templateId }] }));
    expect(await enrolSubscribed(h.pool, site.siteId, 'once-person', new Date())).to.equal(1);
    await drain();
    expect(await enrolSubscribed(h.pool, site.siteId, 'once-person', new Date())).to.equal(0);
    await drain();
    expect(await sendsOf(a.id)).to.equal(1);
    await h.call('DeleteAutomation', req(site, { automationId: a.id }));
  });
});
