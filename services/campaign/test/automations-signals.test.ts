// People's signals in automations (docs/api-decisions.md, "Automations", "People's signals"): what
// the delivery service stores — a person's last subscription unsubscribed, a person deleted, a tag
// set, a click on a step's notification — reaches the campaign service through the delivery
// service's outbox and Kafka (delivery.people.v1), and runs exit, end or start. Real Postgres,
// Kafka and both services; the facts are made through the delivery service's own plugin endpoints
// and use cases. A site's signals are consumed in order (keyed by site), so a last signal whose
// effect is seen shows the ones before it were applied; the waits are bounded polls for a row.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Automation__Output } from '@webpush/contracts/generated/campaign/v1/Automation.js';
import type { Template__Output } from '@webpush/contracts/generated/campaign/v1/Template.js';
import { withTransaction } from '@webpush/shared/db.js';
import { createLogger } from '@webpush/shared/log.js';
import { INTERNAL_AUTH_HEADER } from '@webpush/shared/internal-auth.js';
import { CLIENT_ADDRESS_HEADER } from '@webpush/shared/edge-headers.js';
import { createPeople, identitySignature } from '../../delivery/src/people/index.js';
import { recordTracking } from '../../delivery/src/tracking/counter-store.js';
import { INTERNAL_TOKENS } from '../../../test/support/internal-tokens.js';
import { TEST_CLIENT_ADDRESS } from '../../delivery/test/support.js';
import { browserSubscription } from '../../../gateway/test/support/stack.js';
import { createCursorCodec } from '../src/campaigns/index.js';
import { templateUseCases } from '../src/templates/index.js';
import { createStepRunner } from '../src/automations/index.js';
import { startHarness, type Harness, type TestSite } from './support/harness.js';

describe("Automations: people's signals from the delivery service (Kafka)", function () {
  this.timeout(240_000);
  let h: Harness;
  let site: TestSite;
  let secret: string;
  let templateId: string;
  let people: ReturnType<typeof createPeople>;
  let runner: ReturnType<typeof createStepRunner>;
  let sentinel: Automation__Output;
  let pushService: http.Server;

  before(async () => {
    // The steps' pushes go to a local push service that takes every one (201): none waits on a real one.
    pushService = http.createServer((req, res) => req.resume().on('end', () => res.writeHead(201).end()));
    await new Promise<void>((resolve) => pushService.listen(0, '127.0.0.1', resolve));
    h = await startHarness('campaign_signals', {}, { kafka: true, deliveryEnv: { PUSH_TEST_HOSTS: '127.0.0.1' } });
    site = await h.newSite();
    ({ secret } = await h.deliveryOperators.identitySecret(site.siteId));
    templateId = (await h.call<Template__Output>('CreateTemplate', { siteId: site.siteId, bodyJson: JSON.stringify({ name: 'cart', title: 'Still thinking?', body: 'Your cart is waiting', link: 'https://shop.example/cart' }) })).id;
    people = createPeople(h.pool);
    const render = templateUseCases({ pool: h.pool, cursors: createCursorCodec(randomBytes(32)) }).renderForNotification;
    runner = createStepRunner({ pool: h.pool, log: createLogger('test', 'error'), render }, { intervalMs: 60_000, batchSize: 50 });
    sentinel = await create({ name: 'sentinel', trigger: { type: 'tag', name: 'sentinel' }, steps: [{ delaySeconds: 86_400, templateId }] });
  });
  after(async () => {
    await h?.stop();
    pushService?.close();
  });

  const req = (body: unknown, automationId = '') => ({ siteId: site.siteId, automationId, bodyJson: JSON.stringify(body), limit: '', cursor: '', idempotencyKey: '' });
  const create = (body: object) => h.call<Automation__Output>('CreateAutomation', req(body));
  const get = (id: string) => h.call<Automation__Output>('GetAutomation', req(undefined, id));
  const event = (externalId: string, name: string) => h.call('RecordEvent', req({ externalId, name }));
  const series = (name: string, overrides: object = {}) => ({
    name,
    trigger: { type: 'event', name: 'cart_abandoned' },
    steps: [{ delaySeconds: 0, templateId }, { delaySeconds: 3600, templateId }],
    ...overrides,
  });

  /** As the gateway's /public proxy calls the delivery service. */
  const plugin = async (method: string, path: string, body: object) => {
    const headers = { 'content-type': 'text/plain', [INTERNAL_AUTH_HEADER]: INTERNAL_TOKENS.GATEWAY_INTERNAL_TOKEN, [CLIENT_ADDRESS_HEADER]: TEST_CLIENT_ADDRESS };
    const res = await fetch(`${h.deliveryHttpUrl}${path}`, { method, headers, body: JSON.stringify(body) });
    expect(res.status, await res.clone().text()).to.be.oneOf([200, 201]);
    return (await res.json()) as Record<string, unknown>;
  };
  /** A browser's subscription at the local push service. */
  const localSubscription = () => {
    const { keys } = browserSubscription();
    return { endpoint: `http://127.0.0.1:${(pushService.address() as AddressInfo).port}/push/${randomBytes(12).toString('base64url')}`, expirationTime: null, keys };
  };
  /** A new subscription identified as `externalId`; answers its endpoint. */
  const subscribedAs = async (externalId: string) => {
    const subscription = localSubscription();
    await plugin('POST', `/public/v1/sites/${site.publicId}/subscriptions`, { subscription });
    expect(await plugin('POST', `/public/v1/sites/${site.publicId}/identity`, { endpoint: subscription.endpoint, externalId, signature: identitySignature(secret, externalId) })).to.deep.equal({ identified: true });
    return subscription.endpoint;
  };
  const unsubscribe = (endpoint: string) => plugin('DELETE', `/public/v1/sites/${site.publicId}/subscriptions`, { endpoint });
  const tag = (externalId: string, tags: object) => people.update(site.siteId, externalId, JSON.stringify({ tags }));

  const enrolment = async (automationId: string, externalId: string) =>
    (await h.pool.query(`SELECT state, exit_reason, round, next_step FROM campaign.automation_enrolments WHERE automation_id = $1 AND external_id = $2`, [automationId, externalId])).rows[0];
  const until = async (what: string, check: () => Promise<boolean>) => {
    for (let i = 0; i < 600; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect.fail(`never: ${what}`);
  };
  /** Every signal of the site written so far has been applied: a new sentinel tag's run has started. */
  let sentinels = 0;
  const applied = async () => {
    const who = `sentinel-${++sentinels}`;
    await tag(who, { sentinel: true });
    await until(`${who} enrolled`, async () => (await enrolment(sentinel.id, who)) !== undefined);
  };
  const drain = async () => {
    for (let i = 0; i < 20; i++) if ((await runner.tick()) === 0) return;
    expect.fail('the runner did not drain');
  };
  const makeDue = (automationId: string) => h.pool.query(`UPDATE campaign.automation_enrolments SET due_at = now() - interval '1 second' WHERE automation_id = $1 AND state = 'active'`, [automationId]);
  const sendsOf = async (automationId: string, externalId: string) =>
    (await h.pool.query(`SELECT step, notification_id FROM campaign.automation_sends WHERE automation_id = $1 AND external_id = $2 ORDER BY step`, [automationId, externalId])).rows as { step: number; notification_id: string }[];

  it("when the person's last active subscription ends, then their runs exit as unsubscribed; while another is active they go on", async () => {
    const cart = await create(series('cart unsub'));
    const [first, second] = [await subscribedAs('uma'), await subscribedAs('uma')];
    await event('uma', 'cart_abandoned');
    await unsubscribe(first);
    await applied();
    expect(await enrolment(cart.id, 'uma')).to.include({ state: 'active' });
    await unsubscribe(second);
    await until('uma exited', async () => (await enrolment(cart.id, 'uma')).state === 'exited');
    expect(await enrolment(cart.id, 'uma')).to.include({ exit_reason: 'unsubscribed', next_step: 0 });
    const read = await get(cart.id);
    expect(read.steps[0].results).to.deep.include({ exits: 1 });
    expect(read.enrolments).to.deep.include({ exited: 1, exitReasons: { unsubscribed: 1 } });
  });

  it('when a subscription is replaced by the browser, then its person keeps it and their runs go on', async () => {
    const cart = await create(series('cart change'));
    const endpoint = await subscribedAs('vic');
    await event('vic', 'cart_abandoned');
    const next = localSubscription();
    await plugin('POST', `/public/v1/sites/${site.publicId}/subscriptions`, { subscription: next });
    expect(await plugin('POST', `/public/v1/sites/${site.publicId}/subscription-changes`, { oldEndpoint: endpoint, endpoint: next.endpoint })).to.deep.equal({ replaced: true });
    await applied();
    expect(await enrolment(cart.id, 'vic')).to.include({ state: 'active' });
    await unsubscribe(next.endpoint);
    await until('vic exited', async () => (await enrolment(cart.id, 'vic')).state === 'exited');
  });

  it("when a step's notification is clicked, then that series exits (its next step is never sent), another series of the person goes on, and one with exitOn.click false goes on", async () => {
    const clicky = await create(series('cart click'));
    const keeps = await create(series('cart no click', { exitOn: { events: [], click: false } }));
    expect(clicky.exitOnClick).to.equal(true);
    expect(keeps.exitOnClick).to.equal(false);
    await subscribedAs('cleo');
    await event('cleo', 'cart_abandoned');
    await drain();
    const [sent] = await sendsOf(clicky.id, 'cleo');
    const [keptSent] = await sendsOf(keeps.id, 'cleo');
    // The delivery service takes the notification's job and resolves the person to their subscription.
    const targetOf = async (notificationId: string) =>
      (await h.pool.query(`SELECT subscriber_id::text FROM delivery.notification_targets WHERE notification_id = $1 AND subscriber_id IS NOT NULL`, [notificationId])).rows[0]?.subscriber_id as string | undefined;
    await until('the targets resolved', async () => (await targetOf(sent.notification_id)) !== undefined && (await targetOf(keptSent.notification_id)) !== undefined);
    // The click report as the tracking route stores it.
    const click = async (notificationId: string) => {
      const subscriberId = (await targetOf(notificationId))!;
      await withTransaction(h.pool, (tx) => recordTracking(tx, [{ campaignId: notificationId, subscriberId, kind: 'click' }]));
    };
    await click(sent.notification_id);
    await click(keptSent.notification_id);
    await until('cleo exited the clicked series', async () => (await enrolment(clicky.id, 'cleo')).state === 'exited');
    await applied();
    expect(await enrolment(clicky.id, 'cleo')).to.include({ exit_reason: 'clicked', next_step: 1 });
    expect(await enrolment(keeps.id, 'cleo')).to.include({ state: 'active', next_step: 1 });
    await makeDue(clicky.id);
    await makeDue(keeps.id);
    await drain();
    expect((await sendsOf(clicky.id, 'cleo')).map((s) => s.step)).to.deep.equal([0]);
    expect((await sendsOf(keeps.id, 'cleo')).map((s) => s.step)).to.deep.equal([0, 1]);
    expect((await get(clicky.id)).steps[1].results).to.deep.include({ sent: 0, exits: 1 });
  });

  it('when a person is deleted, then their runs end, their send keys and the notifications that named them name nobody, and the counts stay', async () => {
    const cart = await create(series('cart delete'));
    await subscribedAs('dora');
    await event('dora', 'cart_abandoned');
    await drain();
    expect(await sendsOf(cart.id, 'dora')).to.have.length(1);
    const { id: notificationId } = await h.call<{ id: string }>('CreateNotification', { siteId: site.siteId, bodyJson: JSON.stringify({ externalIds: ['eve', 'dora'], title: 'Hello there', body: 'A note', link: 'https://shop.example/' }), idempotencyKey: '' });
    await people.remove(site.siteId, 'dora');
    await until('dora forgotten', async () => (await enrolment(cart.id, 'dora')) === undefined);
    const names = async (sql: string, params: unknown[]) => (await h.pool.query(sql, params)).rows;
    expect(await names(`SELECT external_ids FROM campaign.notifications WHERE id = $1`, [notificationId])).to.deep.equal([{ external_ids: ['eve', ''] }]);
    expect(await names(`SELECT count(*)::int AS n FROM campaign.automation_sends WHERE external_id = 'dora'`, [])).to.deep.equal([{ n: 0 }]);
    const keys = await names(`SELECT external_id FROM campaign.automation_sends WHERE automation_id = $1`, [cart.id]);
    expect(keys).to.have.length(1);
    expect(keys[0].external_id).to.match(/^\u0001[0-9a-f-]{36}$/);
    expect((await get(cart.id)).steps[0].results).to.deep.include({ sent: 1 });
  });

  it('when a tag is set to the value a tag automation waits for, then the person starts it once; the same value again, another value, or a run under way start nothing more', async () => {
    const pro = await create({ name: 'went pro', trigger: { type: 'tag', name: 'plan', value: 'pro' }, steps: [{ delaySeconds: 3600, templateId }] });
    expect(pro.trigger).to.deep.include({ type: 'tag', name: 'plan', valueJson: '"pro"' });
    await tag('tina', { plan: 'free' });
    await tag('tina', { plan: 'pro', seats: 3 });
    await until('tina enrolled', async () => (await enrolment(pro.id, 'tina')) !== undefined);
    await tag('tina', { plan: 'pro' });
    await tag('tina', { plan: 'free' });
    await tag('tina', { plan: 'pro' });
    await applied();
    expect(await enrolment(pro.id, 'tina')).to.include({ state: 'active', round: 0 });
    expect((await get(pro.id)).enrolments).to.deep.include({ active: 1 });
  });
});
