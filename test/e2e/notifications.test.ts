// Notifications to chosen subscriptions or people (docs/api-decisions.md, "Notifications") through
// the real stack: gateway → campaign service → outbox → Kafka (the notifications' own topics) →
// delivery → web push to the push-service simulator. Each named subscription of the site (each
// active subscription of a named person of the site) gets the notification once; the results say what happened to each name, another site's subscriptions
// and unknown ids included (never reached: no subscription); a retry with the same
// Idempotency-Key is the same notification; the frequency cap holds back all but transactional ones.
import { createHmac, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { startPushSimulator, type PushSimulator } from '../../tools/push-simulator/src/index.js';
import { assertResponseMatchesContract } from '../support/openapi.js';
import { ALL, siteWithPermissions, subscribeSimulated, type SiteInfo } from './support/fixtures.js';
import { eventually, startStack, type Stack } from './support/harness.js';

const content = { title: 'Your order shipped', body: 'Parcel 1234 is on its way', link: 'https://shop.example/orders/1234' };

describe('e2e: notifications to chosen subscriptions', function () {
  // The stack's start (Kafka, the build) alone took over 180 s on the shared machine.
  this.timeout(300_000);
  let stack: Stack;
  let sim: PushSimulator;
  let site: SiteInfo;
  let bystander: SiteInfo;
  let mine: { simId: string; subscriberId: string }[];
  let theirs: { simId: string; subscriberId: string }[];

  before(async () => {
    sim = await startPushSimulator({ seed: 37 });
    stack = await startStack('e2e_notify', { PUSH_EXTRA_CA_FILE: sim.caCertFile, SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0', CLAIM_BATCH_SIZE: '10', CHUNK_SIZE: '10' });
    site = await siteWithPermissions(stack, ALL, 'notifier');
    bystander = await siteWithPermissions(stack, ALL, 'bystander');
    mine = await subscribeSimulated(stack, sim, site, 25, () => ({ topics: ['news'] }));
    theirs = await subscribeSimulated(stack, sim, bystander, 3, () => ({ topics: ['news'] }));
  });
  after(async () => {
    await stack?.stop();
    await sim?.close();
  });

  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>, key = site.apiKey) => stack.api.request(method, path, { key, body, headers });

  /** A browser of site `s` subscribed and identified as `externalId` (the plugin's endpoints, signed with the site's identity secret). */
  async function identifiedBrowser(s: SiteInfo, secret: string, externalId: string) {
    const sub = sim.createSubscription(s.vapidPublicKey);
    const created = await stack.api.request('POST', `/public/v1/sites/${s.publicId}/subscriptions`, { body: { subscription: { endpoint: sub.endpoint, keys: sub.keys }, topics: ['news'] } });
    expect(created.status, created.text).to.equal(201);
    const signature = createHmac('sha256', secret).update(externalId).digest('hex');
    const res = await stack.api.request('POST', `/public/v1/sites/${s.publicId}/identity`, { body: { endpoint: sub.endpoint, externalId, signature } });
    expect(res.body).to.deep.equal({ identified: true });
    return { simId: sub.id, subscriberId: created.body.id as string };
  }
  const pushesOf = (id: string) => sim.received().filter((m) => JSON.parse(m.payload).id === id);
  /** The notification once none of its targets is pending, every page of its results read. */
  const finished = (id: string) =>
    eventually(async () => {
      const res = await call('GET', `/v2/notifications/${id}?limit=1000`);
      expect(res.status, res.text).to.equal(200);
      return res.body.status === 'completed' || res.body.status === 'failed' ? res.body : undefined;
    }, 60_000, 200);

  it('when subscriptions of the site, an unknown id and another site\'s subscription are named, then each of the site\'s gets one push, the others none, and the results say so per name', async () => {
    const unknown = randomUUID();
    const named = [...mine.slice(0, 20).map((s) => s.subscriberId), unknown, theirs[0].subscriberId];
    const created = await call('POST', '/v2/notifications', { subscriptionIds: named, ...content });
    expect(created.status, created.text).to.equal(202);
    const id = created.body.id as string;
    const n = await finished(id);
    expect(n).to.deep.include({ id, status: 'completed', targets: 22, transactional: false });
    expect(n.counts).to.deep.equal({ sent: 20, noSubscription: 2, capped: 0, failed: 0, pending: 0 });
    expect(n.results.map((r: { subscriptionId: string }) => r.subscriptionId), 'in the order named').to.deep.equal(named);
    expect(n.results.slice(20)).to.deep.equal([
      { subscriptionId: unknown, outcome: 'noSubscription' },
      { subscriptionId: theirs[0].subscriberId, outcome: 'noSubscription' },
    ]);
    expect(n.content).to.deep.include({ ...content, ttl: 2419200, urgency: 'normal' });
    const pushes = pushesOf(id);
    expect(pushes.map((p) => p.subscriptionId).sort(), 'once each').to.deep.equal(mine.slice(0, 20).map((s) => s.simId).sort());
    expect(JSON.parse(pushes[0].payload)).to.deep.include({ title: content.title, body: content.body });
    for (const s of theirs) expect(sim.received(s.simId)).to.deep.equal([]);
    // The results page by page, in the order named.
    const first = await call('GET', `/v2/notifications/${id}?limit=15`);
    expect(first.body.results).to.have.length(15);
    const second = await call('GET', `/v2/notifications/${id}?limit=15&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect([...first.body.results, ...second.body.results]).to.deep.equal(n.results);
    expect(second.body.nextCursor).to.equal(null);
    // Another site neither reads it nor lists it.
    const theirView = await call('GET', `/v2/notifications/${id}`, undefined, undefined, bystander.apiKey);
    expect([theirView.status, theirView.body]).to.deep.equal([404, { message: 'Notification not found' }]);
    expect((await call('GET', '/v2/notifications', undefined, undefined, bystander.apiKey)).body.items).to.deep.equal([]);
    const listed = await call('GET', '/v2/notifications');
    expect(listed.body.items.map((i: { id: string }) => i.id)).to.include(id);
  });

  it("when people are named by externalIds, then each of the site's person's browsers gets one push, another site's person of the same id none, and the results are per person", async () => {
    const { secret } = await stack.cli('sites', 'identity-secret', site.id);
    const { secret: theirSecret } = await stack.cli('sites', 'identity-secret', bystander.id);
    const customer = 'customer-1';
    const phone = await identifiedBrowser(site, secret, customer);
    const laptop = await identifiedBrowser(site, secret, customer);
    const namesake = await identifiedBrowser(bystander, theirSecret, customer);
    // transactional: the cap test may have capped the site already.
    const created = await call('POST', '/v2/notifications', { externalIds: [customer, 'nobody'], ...content, transactional: true });
    expect(created.status, created.text).to.equal(202);
    const id = created.body.id as string;
    const queued = await call('GET', `/v2/notifications/${id}`);
    assertResponseMatchesContract('GET', `/v2/notifications/${id}`, queued.status, queued.body);
    const n = await finished(id);
    assertResponseMatchesContract('GET', `/v2/notifications/${id}`, 200, n);
    expect(n).to.deep.include({ id, status: 'completed', targets: 2 });
    expect(n.counts).to.deep.equal({ sent: 1, noSubscription: 1, capped: 0, failed: 0, pending: 0 });
    expect(n.results).to.deep.equal([
      { externalId: customer, outcome: 'sent' },
      { externalId: 'nobody', outcome: 'noSubscription' },
    ]);
    expect(pushesOf(id).map((p) => p.subscriptionId).sort(), 'once each').to.deep.equal([phone.simId, laptop.simId].sort());
    expect(sim.received(namesake.simId)).to.deep.equal([]);
  });

  it("when a template is named with people, then each person's browsers get the template rendered with that person's tags (the call's variables over them), and a person it cannot be rendered for is failed with the reason", async () => {
    const { secret } = await stack.cli('sites', 'identity-secret', site.id);
    const tmpl = await call('POST', '/v2/templates', { name: 'shipped to a person', title: 'Hi {{ first_name }}', body: 'Order {{ order }}: {{ points }} points', link: 'https://shop.example/o/{{ order }}' });
    expect(tmpl.status, tmpl.text).to.equal(200);
    const tagged = await identifiedBrowser(site, secret, 'tagged-1');
    await identifiedBrowser(site, secret, 'untagged-1');
    const patched = await call('PATCH', '/v2/users/tagged-1', { tags: { first_name: 'Ana', points: 12.5, order: 'not this' } });
    expect(patched.status, patched.text).to.equal(200);
    const created = await call('POST', '/v2/notifications', { externalIds: ['tagged-1', 'untagged-1'], template: { id: tmpl.body.id, variables: { order: 77 } }, transactional: true });
    expect(created.status, created.text).to.equal(202);
    const id = created.body.id as string;
    // An edit after the create changes nothing in flight.
    await call('PATCH', `/v2/templates/${tmpl.body.id}`, { title: 'Changed {{ first_name }}' });
    const n = await finished(id);
    assertResponseMatchesContract('GET', `/v2/notifications/${id}`, 200, n);
    expect(n.counts).to.deep.equal({ sent: 1, noSubscription: 0, capped: 0, failed: 1, pending: 0 });
    expect(n.results).to.deep.equal([
      { externalId: 'tagged-1', outcome: 'sent' },
      { externalId: 'untagged-1', outcome: 'failed', reason: "the template's variables first_name, points had no value for this person (no tag, no call variable, no default)" },
    ]);
    const pushes = pushesOf(id);
    expect(pushes.map((p) => p.subscriptionId)).to.deep.equal([tagged.simId]);
    expect(JSON.parse(pushes[0].payload)).to.deep.include({ title: 'Hi Ana', body: 'Order 77: 12.5 points', url: 'https://shop.example/o/77' });
    // Subscriptions named: a variable with no value and no default is refused at create; another site's template is not this site's.
    const refused = await call('POST', '/v2/notifications', { subscriptionIds: [mine[0].subscriberId], template: { id: tmpl.body.id, variables: { order: 1 } } });
    expect([refused.status, refused.body]).to.deep.equal([400, { message: 'Template variable first_name has no value and no default, Template variable points has no value and no default' }]);
    const foreign = await call('POST', '/v2/notifications', { externalIds: ['tagged-1'], template: { id: tmpl.body.id } }, undefined, bystander.apiKey);
    expect([foreign.status, foreign.body]).to.deep.equal([400, { message: 'template.id is not a template of this site' }]);
  });

  it("when an automation's step reaches a person and their browser shows it and clicks it, then the impression and the click are counted on the step's notification and on the step (delivery → Kafka → campaign service)", async () => {
    const { secret } = await stack.cli('sites', 'identity-secret', site.id);
    const browser = await identifiedBrowser(site, secret, 'series-1');
    const tmpl = await call('POST', '/v2/templates', { name: 'series step', title: 'Your cart is waiting', body: 'Finish your order', link: 'https://shop.example/cart' });
    expect(tmpl.status, tmpl.text).to.equal(200);
    const created = await call('POST', '/v2/automations', { name: 'Cart', trigger: { type: 'event', name: 'cart_abandoned' }, steps: [{ delaySeconds: 0, templateId: tmpl.body.id }] });
    expect(created.status, created.text).to.equal(200);
    const automationId = created.body.id as string;
    expect((await call('POST', '/v2/events', { externalId: 'series-1', name: 'cart_abandoned' })).status).to.equal(202);
    // The step falls due at once: the runner makes its notification, the delivery service pushes it.
    const push = await eventually(async () => sim.received(browser.simId).find((m) => JSON.parse(m.payload).title === 'Your cart is waiting'), 60_000, 200);
    const { id: notificationId, token } = JSON.parse(push.payload) as { id: string; token: string };
    // The browser shows it and it is clicked; a report the worker repeats counts once.
    for (const type of ['impression', 'click', 'impression', 'click']) {
      const res = await stack.api.request('POST', '/public/v1/events', { body: { type, token } });
      expect(res.status, res.text).to.equal(202);
    }
    const results = await eventually(async () => {
      const a = await call('GET', `/v2/automations/${automationId}`);
      expect(a.status, a.text).to.equal(200);
      return a.body.steps[0].results.clicks >= 1 ? a.body.steps[0].results : undefined;
    }, 30_000, 200);
    expect(results).to.deep.equal({ sent: 1, exits: 0, impressions: 1, clicks: 1, ctr: 100 });
    const n = await call('GET', `/v2/notifications/${notificationId}`);
    expect(n.body).to.deep.include({ impressions: 1, clicks: 1, ctr: 100 });
    const listed = (await call('GET', '/v2/notifications?limit=1000')).body.items.find((i: { id: string }) => i.id === notificationId);
    expect(listed).to.deep.include({ impressions: 1, clicks: 1, ctr: 100 });
    // A notification no browser showed: 0 each, listed and read.
    const unseen = (await call('POST', '/v2/notifications', { subscriptionIds: [randomUUID()], ...content })).body.id as string;
    expect((await finished(unseen))).to.deep.include({ impressions: 0, clicks: 0, ctr: 0 });
    expect((await call('GET', '/v2/notifications?limit=1000')).body.items.find((i: { id: string }) => i.id === unseen)).to.deep.include({ impressions: 0, clicks: 0, ctr: 0 });
  });

  it('when the same Idempotency-Key is sent again, then the first notification is answered and nothing is sent twice; with another body, 422', async () => {
    const key = `notify-${randomUUID()}`;
    const body = { subscriptionIds: [mine[20].subscriberId], ...content, transactional: true };
    const [a, b] = await Promise.all([call('POST', '/v2/notifications', body, { 'Idempotency-Key': key }), call('POST', '/v2/notifications', body, { 'Idempotency-Key': key })]);
    expect([a.status, b.status]).to.deep.equal([202, 202]);
    expect(b.body.id).to.equal(a.body.id);
    await finished(a.body.id);
    const again = await call('POST', '/v2/notifications', body, { 'Idempotency-Key': key });
    expect([again.status, again.body]).to.deep.equal([202, { id: a.body.id }]);
    const other = await call('POST', '/v2/notifications', { ...body, title: 'Another title' }, { 'Idempotency-Key': key });
    expect(other.status, other.text).to.equal(422);
    await new Promise((r) => setTimeout(r, 1000));
    expect(pushesOf(a.body.id)).to.have.length(1);
  });

  it('when the site caps pushes at one a day, then a notification to someone already notified is capped, and a transactional one reaches them', async () => {
    expect(await stack.cli('sites', 'set-frequency-cap', site.publicId, '1', '24')).to.deep.include({ frequencyCap: { campaigns: 1, hours: 24 } });
    const first = await finished((await call('POST', '/v2/notifications', { subscriptionIds: [mine[22].subscriberId], ...content })).body.id);
    expect(first.counts).to.deep.include({ sent: 1 });
    // mine[22] has had its one push of the day; mine[23] has not.
    const target = [mine[22].subscriberId, mine[23].subscriberId];
    const capped = await finished((await call('POST', '/v2/notifications', { subscriptionIds: target, ...content })).body.id);
    expect(capped.counts).to.deep.equal({ sent: 1, noSubscription: 0, capped: 1, failed: 0, pending: 0 });
    expect(capped.results).to.deep.equal([
      { subscriptionId: mine[22].subscriberId, outcome: 'capped' },
      { subscriptionId: mine[23].subscriberId, outcome: 'sent' },
    ]);
    expect(pushesOf(capped.id).map((p) => p.subscriptionId)).to.deep.equal([mine[23].simId]);
    const transactional = await finished((await call('POST', '/v2/notifications', { subscriptionIds: target, ...content, transactional: true })).body.id);
    expect(transactional).to.deep.include({ transactional: true });
    expect(transactional.counts).to.deep.equal({ sent: 2, noSubscription: 0, capped: 0, failed: 0, pending: 0 });
    expect(pushesOf(transactional.id)).to.have.length(2);
  });

  it('when the body is wrong, then 400 names what is wrong and nothing is stored', async () => {
    const before = (await call('GET', '/v2/notifications?limit=1000')).body.items.length;
    const refusals: [unknown, string][] = [
      [{ ...content }, 'A notification names either subscriptionIds or externalIds (exactly one of them)'],
      [{ subscriptionIds: [mine[0].subscriberId], externalIds: ['customer-1'], ...content }, 'A notification names either subscriptionIds or externalIds (exactly one of them)'],
      [{ subscriptionIds: [], ...content }, 'subscriptionIds must be a non-empty array of subscription ids'],
      [{ subscriptionIds: Array.from({ length: 10_001 }, () => randomUUID()), ...content }, 'subscriptionIds may name at most 10000 subscriptions'],
      [{ subscriptionIds: ['not-an-id'], ...content }, 'subscriptionIds must contain only subscription ids (UUIDs)'],
      [{ subscriptionIds: [mine[0].subscriberId, mine[0].subscriberId.toUpperCase()], ...content }, 'subscriptionIds must not name a subscription twice'],
      [{ externalIds: [], ...content }, 'externalIds must be a non-empty array of external ids'],
      [{ externalIds: 'customer-1', ...content }, 'externalIds must be a non-empty array of external ids'],
      [{ externalIds: Array.from({ length: 10_001 }, (_, i) => `c-${i}`), ...content }, 'externalIds may name at most 10000 people'],
      [{ externalIds: ['ok', 'bad\u0007id'], ...content }, 'externalIds must contain only external ids: strings of 1 to 128 characters without control characters'],
      [{ externalIds: ['x'.repeat(129)], ...content }, 'externalIds must contain only external ids: strings of 1 to 128 characters without control characters'],
      [{ externalIds: [''], ...content }, 'externalIds must contain only external ids: strings of 1 to 128 characters without control characters'],
      [{ externalIds: [7], ...content }, 'externalIds must contain only external ids: strings of 1 to 128 characters without control characters'],
      [{ externalIds: ['a', 'b', 'a'], ...content }, 'externalIds must not name a person twice'],
      [{ externalIds: ['customer-1'], ...content, title: 'x' }, 'Title must be between 3 and 100 characters'],
      [{ subscriptionIds: [mine[0].subscriberId], ...content, transactional: 'yes' }, 'transactional must be true or false'],
      [{ subscriptionIds: [mine[0].subscriberId], ...content, title: 'x' }, 'Title must be between 3 and 100 characters'],
    ];
    for (const [body, message] of refusals) {
      const res = await call('POST', '/v2/notifications', body);
      expect([res.status, res.body], JSON.stringify(body).slice(0, 200)).to.deep.equal([400, { message }]);
    }
    const bad = await call('GET', `/v2/notifications/${randomUUID()}?limit=0`);
    expect([bad.status, bad.body]).to.deep.equal([400, { message: 'limit must be a whole number from 1 to 1000' }]);
    const cursor = await call('GET', '/v2/notifications?cursor=nonsense');
    expect([cursor.status, cursor.body]).to.deep.equal([400, { message: 'Invalid pagination cursor' }]);
    const missing = await call('GET', '/v2/notifications/not-an-id');
    expect([missing.status, missing.body]).to.deep.equal([404, { message: 'Notification not found' }]);
    expect((await call('GET', '/v2/notifications?limit=1000')).body.items.length).to.equal(before);
  });
});
