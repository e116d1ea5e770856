// A client generated from gateway/openapi/openapi.yaml (openapi-typescript + openapi-fetch, in
// test/clients, a package of its own: openapi-typescript needs TypeScript 5) makes every
// documented call against the real stack: every /v2 operation and every site-plugin one, with
// one base URL. Before the calls, the types are generated from the document and the client
// program is typechecked with that folder's tsc, so a drift between the two fails here. Every
// answer the client gets is also checked against the document.
import { execFile } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import pg from 'pg';
import { ROOT } from '../../scripts/lib/local-env.js';
import { createTrackingTokens, deriveTrackingKey } from '../../services/delivery/src/tracking/tracking-token.js';
import { assertResponseMatchesContract, contractDocument } from '../support/openapi.js';
import { ALL, browserKeys, siteWithPermissions, type SiteInfo } from './support/fixtures.js';
import { eventually, startStack, type Stack } from './support/harness.js';

const run = promisify(execFile);
const CLIENT_DIR = path.join(ROOT, 'test/clients');
const CALL = path.join(CLIENT_DIR, 'dist/src/call.js');

interface Answer {
  status: number;
  requestId: string | null;
  retryAfter: string | null;
  location: string | null;
  body: any;
}

/** Method and path template of each operation, from the document itself. */
function operations(): Map<string, { method: string; template: string }> {
  const out = new Map<string, { method: string; template: string }>();
  for (const [template, item] of Object.entries((contractDocument().paths ?? {}) as Record<string, Record<string, { operationId?: string }>>)) {
    for (const [method, op] of Object.entries(item)) if (op?.operationId) out.set(op.operationId, { method, template });
  }
  return out;
}

describe('e2e: the generated TypeScript client (openapi-typescript + openapi-fetch) makes every documented call', function () {
  this.timeout(240_000);
  let stack: Stack;
  let site: SiteInfo;
  const called = new Set<string>();
  const ops = operations();

  /** One call through the generated client (a process of its own), its answer checked against the document. */
  async function client(operation: string, args: Record<string, unknown> = {}): Promise<Answer> {
    const { stdout } = await run(process.execPath, [CALL, operation, JSON.stringify({ origin: stack.services.gatewayUrl, ...args })], { timeout: 30_000 });
    const answer = JSON.parse(stdout) as Answer;
    const op = ops.get(operation);
    if (!op) throw new Error(`${operation} is not an operation of the document`);
    const concrete = op.template.replace(/\{(\w+)\}/g, (_, name: string) => String(args[name] ?? 'x'));
    assertResponseMatchesContract(op.method, concrete, answer.status, answer.body === null ? undefined : answer.body);
    called.add(operation);
    return answer;
  }

  before(async function () {
    if (!existsSync(path.join(CLIENT_DIR, 'node_modules/.bin/openapi-typescript'))) {
      throw new Error('test/clients has no packages: run `npm run clients` (npm test does it)');
    }
    // Generate the types from the document and typecheck + compile the client with TypeScript 5.
    await run('npm', ['run', '-s', '--prefix', CLIENT_DIR, 'build'], { timeout: 120_000 });
    stack = await startStack('e2e_client');
    site = await siteWithPermissions(stack, ALL, 'client');
  });
  after(async () => {
    await stack?.stop();
  });

  const endpointA = `https://127.0.0.1/push/client-a-${randomBytes(4).toString('hex')}`;
  const endpointB = `https://127.0.0.1/push/client-b-${randomBytes(4).toString('hex')}`;
  let scheduledId: string;

  it('the contract: JSON and YAML, from the same base URL as every other call', async () => {
    const json = await client('getOpenApiJson');
    expect([json.status, json.body.openapi]).to.deep.equal([200, '3.1.0']);
    const yaml = await client('getOpenApiYaml');
    expect(yaml.status).to.equal(200);
    expect(yaml.body).to.match(/^openapi: 3\.1\.0/);
  });

  it('site plugin: scripts, config, subscribe (201), page view, subscription change and unsubscribe reach /public through the one base URL', async () => {
    for (const op of ['getSnippet', 'getServiceWorker', 'getPromptScript']) {
      const r = await client(op);
      expect([op, r.status]).to.deep.equal([op, 200]);
      expect(r.body).to.be.a('string').and.not.equal('');
    }
    const config = await client('getSiteConfig', { publicId: site.publicId });
    expect([config.status, config.body]).to.deep.equal([200, { publicId: site.publicId, vapidPublicKey: site.vapidPublicKey }]);
    const subscribed = await client('subscribe', { publicId: site.publicId, endpoint: endpointA, topics: ['news'], ...browserKeys() });
    expect([subscribed.status, subscribed.body.created]).to.deep.equal([201, true]);
    const viewed = await client('recordPageView', { publicId: site.publicId, endpoint: endpointA, topics: ['sports'] });
    expect([viewed.status, viewed.body]).to.deep.equal([200, { updated: true }]);
    expect((await client('subscribe', { publicId: site.publicId, endpoint: endpointB, topics: [], ...browserKeys() })).status).to.equal(201);
    const changed = await client('recordSubscriptionChange', { publicId: site.publicId, oldEndpoint: endpointA, endpoint: endpointB });
    expect([changed.status, changed.body]).to.deep.equal([200, { replaced: true }]);
    // The successor now holds the topics; endpointA was deactivated by the change.
    const gone = await client('unsubscribe', { publicId: site.publicId, endpoint: endpointA });
    expect([gone.status, gone.body]).to.deep.equal([200, { deactivated: false }]);
    const shown = await client('recordOptInEvent', { publicId: site.publicId });
    expect([shown.status, shown.body]).to.deep.equal([200, { counted: true }]);
    const funnel = await client('getOptInFunnel', { key: site.apiKey });
    expect([funnel.status, funnel.body.prompt, funnel.body.totals.shown]).to.deep.equal([200, 'slide-down', 1]);
  });

  it('audience: topics and countries, an import of subscriptions and an export', async () => {
    const topics = await client('listTopics', { key: site.apiKey });
    expect([topics.status, topics.body.map((t: { name: string }) => t.name).sort()]).to.deep.equal([200, ['news', 'sports']]);
    const countries = await client('listCountries', { key: site.apiKey });
    expect([countries.status, countries.body]).to.deep.equal([200, [{ name: 'country__desconhecido', users: 1 }]]);
    const imported = await client('importSubscribers', { key: site.apiKey, endpoint: `https://127.0.0.1/push/client-import-${randomBytes(4).toString('hex')}`, topics: ['imported'], ...browserKeys() });
    expect([imported.status, imported.body]).to.deep.equal([200, { received: 1, imported: 1, existing: 0, refused: 0, refusals: [], vapidPublicKey: site.vapidPublicKey }]);
    const exported = await client('exportSubscribers', { key: site.apiKey, topics: ['imported'] });
    expect(exported.status).to.equal(200);
    expect(exported.body.split('\r\n')).to.have.length(3); // header, the imported subscriber, and after the last CRLF
    expect(exported.body).to.match(/,PT,imported,,,other,true,\r\n$/); // lastEngagedAt empty: never engaged
  });

  it('people: the page identifies the browser and tags its visitor, the server reads, tags and exports the user, the page logs out, the server deletes the user', async () => {
    // The site's server signs the user's id with the identity secret the operator handed over
    // (docs/people.md); the page may set `lang` only.
    const { secret } = await stack.cli('sites', 'identity-secret', site.id);
    await stack.cli('sites', 'set-visitor-tags', site.id, 'lang');
    const externalId = `client-user-${randomBytes(4).toString('hex')}`;
    const signature = createHmac('sha256', secret).update(externalId).digest('hex');
    const identified = await client('identifySubscription', { publicId: site.publicId, endpoint: endpointB, externalId, signature });
    expect([identified.status, identified.body]).to.deep.equal([200, { identified: true }]);
    const tagged = await client('tagVisitor', { publicId: site.publicId, endpoint: endpointB });
    expect([tagged.status, tagged.body]).to.deep.equal([200, { tagged: true }]);

    const user = await client('getUser', { key: site.apiKey, externalId });
    expect([user.status, user.body.externalId, user.body.subscriptions.length, user.body.subscriptions[0].active, user.body.tags]).to.deep.equal([200, externalId, 1, true, { lang: 'pt' }]);
    const changed = await client('updateUser', { key: site.apiKey, externalId });
    expect([changed.status, changed.body.tags]).to.deep.equal([200, { lang: 'pt', plan: 'gold', score: 7, signed_up_at: '2026-01-15T00:00:00.000Z' }]);
    const exported = await client('exportUser', { key: site.apiKey, externalId });
    expect([exported.status, exported.body.externalId, exported.body.tags.plan, exported.body.subscriptions.length]).to.deep.equal([200, externalId, 'gold', 1]);
    expect(JSON.stringify(exported.body)).to.not.contain(endpointB);

    // Logged out: the browser belongs to nobody, so deleting the user leaves its subscription
    // (the tracking check below still uses it).
    const forgotten = await client('forgetSubscriptionIdentity', { publicId: site.publicId, endpoint: endpointB });
    expect([forgotten.status, forgotten.body]).to.deep.equal([200, { unlinked: true }]);
    const deleted = await client('deleteUser', { key: site.apiKey, externalId });
    expect([deleted.status, deleted.body]).to.deep.equal([200, { externalId, deleted: true, subscriptions: 0 }]);
    const missing = await client('getUser', { key: site.apiKey, externalId });
    expect([missing.status, missing.body]).to.deep.equal([404, { message: 'User not found' }]);
  });

  it('create with a 9-digit fraction (Java/Go) and Idempotency-Key; the request id comes back; get shows the date to the second', async () => {
    const created = await client('createCampaign', { key: site.apiKey, idempotencyKey: 'client-check-1', requestId: 'client-req-1', scheduleDate: '2031-06-01T10:30:00.123456789Z', topics: ['news'] });
    expect([created.status, created.requestId]).to.deep.equal([200, 'client-req-1']);
    scheduledId = created.body.id;
    const again = await client('createCampaign', { key: site.apiKey, idempotencyKey: 'client-check-1', scheduleDate: '2031-06-01T10:30:00.123456789Z', topics: ['news'] });
    expect([again.status, again.body.id]).to.deep.equal([200, scheduledId]);
    const got = await client('getCampaign', { key: site.apiKey, campaignId: scheduledId });
    expect([got.status, got.body.scheduleDate, got.body.scheduleMode]).to.deep.equal([200, '2031-06-01T10:30:00Z', 'scheduled']);
  });

  it('list with Python-style (+00:00) and .NET-style (7 digits) dates, paging with the cursor', async () => {
    await client('createCampaign', { key: site.apiKey, idempotencyKey: 'client-check-2', scheduleDate: '2031-06-02T10:30:00.1234567+00:00' });
    const filter = { key: site.apiKey, startDate: '2031-06-01T00:00:00+00:00', endDate: '2031-06-30T23:59:59.9999999Z', limit: 1 };
    const first = await client('listCampaigns', filter);
    expect([first.status, first.body.items.length, first.body.hasMore]).to.deep.equal([200, 1, true]);
    const second = await client('listCampaigns', { ...filter, cursor: first.body.nextCursor });
    expect([second.status, second.body.items[0].id, second.body.hasMore]).to.deep.equal([200, scheduledId, false]);
    const exported = await client('exportCampaigns', { key: site.apiKey });
    expect(exported.status).to.equal(200);
    expect(exported.body.split('\r\n')).to.have.length(4); // header, the two scheduled campaigns, and after the last CRLF
    const bad = await client('listCampaigns', { key: site.apiKey, startDate: '2031-06-01T00:00:00+01:00' });
    expect([bad.status, bad.body]).to.deep.equal([400, { message: 'Invalid startDate format. Use ISO format (e.g. 2025-01-01T12:00:00Z)' }]);
  });

  it("a best-time campaign's plan before sending: every hour of the window and the holdout, adding up to the audience", async () => {
    const plan = await client('planCampaignPreview', { key: site.apiKey });
    expect(plan.status).to.equal(200);
    expect(plan.body.byHour).to.have.length(3);
    expect(plan.body.byHour.reduce((n: number, h: { users: number }) => n + h.users, 0) + plan.body.holdout.users).to.equal(plan.body.totalUsers);
  });

  it('pick an A/B test\'s winner: a campaign without one answers 409 with the ErrorResponse body', async () => {
    const picked = await client('pickCampaignWinner', { key: site.apiKey, campaignId: scheduledId, variant: 1 });
    expect([picked.status, picked.body]).to.deep.equal([409, { message: 'The campaign has no A/B test' }]);
  });

  it('update and recall: a campaign not sent yet answers 409 with the ErrorResponse body', async () => {
    for (const operation of ['updateCampaign', 'recallCampaign']) {
      const answer = await client(operation, { key: site.apiKey, campaignId: scheduledId });
      expect([answer.status, answer.body], operation).to.deep.equal([409, { message: 'Only a sent campaign can be updated or recalled' }]);
    }
  });

  it('notifications: a create to an unknown subscription (202, the same id again with its key), read back with its result, listed', async () => {
    const unknown = '00000000-0000-4000-8000-000000000001';
    const idempotencyKey = `client-notify-${randomBytes(4).toString('hex')}`;
    const created = await client('createNotification', { key: site.apiKey, idempotencyKey, subscriptionIds: [unknown] });
    expect(created.status).to.equal(202);
    const again = await client('createNotification', { key: site.apiKey, idempotencyKey, subscriptionIds: [unknown] });
    expect([again.status, again.body]).to.deep.equal([202, created.body]);
    const done = await eventually(async () => {
      const got = await client('getNotification', { key: site.apiKey, notificationId: created.body.id });
      return got.body.status === 'completed' ? got : undefined;
    }, 60_000, 250);
    expect(done.body.results).to.deep.equal([{ subscriptionId: unknown, outcome: 'noSubscription' }]);
    const listed = await client('listNotifications', { key: site.apiKey, limit: 10 });
    expect([listed.status, listed.body.items.map((n: { id: string }) => n.id)]).to.deep.equal([200, [created.body.id]]);
  });

  it('delete, then get answers 404 with the ErrorResponse body', async () => {
    const deleted = await client('deleteCampaign', { key: site.apiKey, campaignId: scheduledId });
    expect([deleted.status, deleted.body]).to.deep.equal([200, { id: scheduledId, deleted: true }]);
    const missing = await client('getCampaign', { key: site.apiKey, campaignId: scheduledId });
    expect([missing.status, missing.body]).to.deep.equal([404, { message: 'Campaign not found' }]);
  });

  it('tracking: a sent campaign\'s token is reported (202) and its click link redirects (302) to the link with UTM', async () => {
    const sent = await client('createCampaign', { key: site.apiKey, idempotencyKey: 'client-check-3', topics: ['news'] });
    expect(sent.status).to.equal(200);
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    let subscriberId: string;
    try {
      // The delivery service has taken the send (its run holds the link the redirect goes to).
      await eventually(async () => ((await db.query('SELECT 1 FROM delivery.campaign_runs WHERE campaign_id = $1', [sent.body.id])).rowCount ? true : undefined), 30_000, 100);
      subscriberId = String((await db.query('SELECT id FROM delivery.subscribers WHERE endpoint = $1', [endpointB])).rows[0].id);
    } finally {
      await db.end();
    }
    // The token the push payload carries, made as the delivery service makes it.
    const token = createTrackingTokens(deriveTrackingKey(Buffer.from(stack.vapidEncryptionKey, 'base64'))).sign({ campaignId: sent.body.id, subscriberId });
    const reported = await client('reportEvent', { token });
    expect([reported.status, reported.body]).to.deep.equal([202, { accepted: true }]);
    const clicked = await client('clickRedirect', { token });
    expect([clicked.status, clicked.location]).to.deep.equal([302, 'https://shop.example/client?utm_source=client']);
  });

  it('templates: create (version 1, its variables), list with paging, get, change (version 2), render with a visitor\'s values, delete, then 404', async () => {
    const created = await client('createTemplate', { key: site.apiKey, name: 'Back in stock', requestId: 'client-template-1' });
    expect([created.status, created.requestId, created.body.name, created.body.version]).to.deep.equal([200, 'client-template-1', 'Back in stock', 1]);
    expect(created.body.variables).to.deep.equal([{ name: 'first_name', required: false }, { name: 'product', required: true }, { name: 'product_id', required: true }]);
    const templateId: string = created.body.id;
    const second = await client('createTemplate', { key: site.apiKey, name: 'Price drop' });
    expect(second.status).to.equal(200);
    const first = await client('listTemplates', { key: site.apiKey, limit: 1 });
    expect([first.status, first.body.items.length, first.body.hasMore]).to.deep.equal([200, 1, true]);
    const rest = await client('listTemplates', { key: site.apiKey, limit: 1, cursor: first.body.nextCursor });
    expect([rest.status, rest.body.hasMore, [first.body.items[0].id, rest.body.items[0].id].sort()]).to.deep.equal([200, false, [templateId, second.body.id].sort()]);
    const got = await client('getTemplate', { key: site.apiKey, templateId });
    expect([got.status, got.body]).to.deep.equal([200, created.body]);
    const changed = await client('updateTemplate', { key: site.apiKey, templateId });
    expect([changed.status, changed.body.version, changed.body.body]).to.deep.equal([200, 2, 'Only {{ left | "a few" }} {{ product }} left']);
    const rendered = await client('renderTemplate', { key: site.apiKey, templateId });
    expect([rendered.status, rendered.body.template]).to.deep.equal([200, { id: templateId, version: 2 }]);
    expect(rendered.body.content).to.include({ title: 'Hi Ana', body: 'Only 3 red boots left', link: 'https://shop.example/p/b%2F42' });
    for (const id of [templateId, second.body.id]) {
      const deleted = await client('deleteTemplate', { key: site.apiKey, templateId: id });
      expect([deleted.status, deleted.body]).to.deep.equal([200, { id, deleted: true }]);
    }
    const missing = await client('getTemplate', { key: site.apiKey, templateId });
    expect([missing.status, missing.body]).to.deep.equal([404, { message: 'Template not found' }]);
  });

  it('automations: create, list, get with its step results, pause, an event (202, its Idempotency-Key), delete, then 404', async () => {
    const template = await client('createTemplate', { key: site.apiKey, name: 'Cart reminder' });
    const templateId: string = template.body.id;
    const created = await client('createAutomation', { key: site.apiKey, templateId, requestId: 'client-automation-1' });
    expect([created.status, created.requestId, created.body.status, created.body.trigger]).to.deep.equal([200, 'client-automation-1', 'active', { type: 'event', name: 'cart_abandoned' }]);
    expect(created.body.steps).to.deep.equal([{ delaySeconds: 3600, templateId, variables: { first_name: 'there' }, results: { sent: 0, exits: 0, impressions: 0, clicks: 0, ctr: 0 } }]);
    const automationId: string = created.body.id;
    const listed = await client('listAutomations', { key: site.apiKey, limit: 5 });
    expect([listed.status, listed.body.items.map((a: { id: string }) => a.id)]).to.deep.equal([200, [automationId]]);
    const event = await client('recordEvent', { key: site.apiKey, externalId: 'client-user', idempotencyKey: 'client-event-1' });
    const again = await client('recordEvent', { key: site.apiKey, externalId: 'client-user', idempotencyKey: 'client-event-1' });
    expect([event.status, again.status, again.body]).to.deep.equal([202, 202, event.body]);
    const got = await client('getAutomation', { key: site.apiKey, automationId });
    expect([got.status, got.body.enrolments]).to.deep.equal([200, { active: 1, completed: 0, exited: 0, exitReasons: {} }]);
    const paused = await client('updateAutomation', { key: site.apiKey, automationId });
    expect([paused.status, paused.body.status]).to.deep.equal([200, 'paused']);
    const deleted = await client('deleteAutomation', { key: site.apiKey, automationId });
    expect([deleted.status, deleted.body]).to.deep.equal([200, { id: automationId, deleted: true }]);
    const missing = await client('getAutomation', { key: site.apiKey, automationId });
    expect([missing.status, missing.body]).to.deep.equal([404, { message: 'Automation not found' }]);
    await client('deleteTemplate', { key: site.apiKey, templateId });
  });

  it('webhooks: create (its secret once), list, get, change, ping, deliveries, redeliver the ping, rotate the secret, delete', async () => {
    // A name that need not resolve: accepted at create (no DNS in the sandbox); its deliveries
    // fail and wait. Its events are ones the earlier steps no longer raise: only the ping is listed.
    const url = 'https://hooks.example.com/push';
    const created = await client('createWebhook', { key: site.apiKey, url, requestId: 'client-webhook-1' });
    expect([created.status, created.requestId]).to.deep.equal([200, 'client-webhook-1']);
    expect(created.body).to.include({ url, description: 'Generated client', enabled: true, disabledAt: null, previousSecretExpiresAt: null });
    expect(created.body.events).to.deep.equal(['notification.clicks', 'subscriber.created']);
    expect(created.body.secret).to.match(/^whsec_[A-Za-z0-9_-]{43}$/);
    const webhookId: string = created.body.id;
    const { secret, ...endpoint } = created.body;

    const listed = await client('listWebhooks', { key: site.apiKey });
    expect([listed.status, listed.body]).to.deep.equal([200, [endpoint]]);
    const got = await client('getWebhook', { key: site.apiKey, webhookId });
    expect([got.status, got.body]).to.deep.equal([200, endpoint]);
    const changed = await client('updateWebhook', { key: site.apiKey, webhookId });
    expect([changed.status, changed.body]).to.deep.equal([200, { ...endpoint, events: ['notification.impressions', 'subscriber.created'], description: 'Generated client, changed' }]);

    const pinged = await client('pingWebhook', { key: site.apiKey, webhookId });
    expect([pinged.status, pinged.body.type, pinged.body.state, pinged.body.attempts]).to.deep.equal([200, 'webhook.ping', 'pending', 0]);
    const eventId: string = pinged.body.eventId;
    const deliveries = await client('listWebhookDeliveries', { key: site.apiKey, webhookId });
    expect(deliveries.status).to.equal(200);
    expect(deliveries.body.map((d: { eventId: string; type: string }) => [d.eventId, d.type])).to.deep.equal([[eventId, 'webhook.ping']]);
    const redelivered = await client('redeliverWebhookEvent', { key: site.apiKey, webhookId, eventId });
    expect([redelivered.status, redelivered.body.eventId, redelivered.body.state]).to.deep.equal([200, eventId, 'pending']);

    const rotated = await client('rotateWebhookSecret', { key: site.apiKey, webhookId });
    expect(rotated.status).to.equal(200);
    expect(rotated.body.secret).to.match(/^whsec_/).and.not.equal(secret);
    expect(rotated.body.previousSecretExpiresAt).to.be.a('string');

    const deleted = await client('deleteWebhook', { key: site.apiKey, webhookId });
    expect([deleted.status, deleted.body]).to.deep.equal([200, { id: webhookId, deleted: true }]);
    const missing = await client('getWebhook', { key: site.apiKey, webhookId });
    expect([missing.status, missing.body]).to.deep.equal([404, { message: 'Webhook not found' }]);
  });

  it('feeds: create (due for its first poll), list with paging, get, pause, delete, then 404', async () => {
    const url = 'https://feeds.example.com/client.xml';
    const created = await client('createFeed', { key: site.apiKey, url, requestId: 'client-feed-1' });
    expect([created.status, created.requestId, created.body.url, created.body.paused, created.body.pollIntervalMinutes, created.body.topics]).to.deep.equal([200, 'client-feed-1', url, false, 15, ['news']]);
    const feedId: string = created.body.id;
    const second = await client('createFeed', { key: site.apiKey, url: 'https://feeds.example.com/second.xml' });
    expect(second.status).to.equal(200);
    const first = await client('listFeeds', { key: site.apiKey, limit: 1 });
    expect([first.status, first.body.items.length, first.body.hasMore]).to.deep.equal([200, 1, true]);
    const rest = await client('listFeeds', { key: site.apiKey, limit: 1, cursor: first.body.nextCursor });
    expect([rest.status, rest.body.hasMore, [first.body.items[0].id, rest.body.items[0].id].sort()]).to.deep.equal([200, false, [feedId, second.body.id].sort()]);
    const got = await client('getFeed', { key: site.apiKey, feedId });
    expect([got.status, got.body.id, got.body.utmSource]).to.deep.equal([200, feedId, 'feed']);
    const paused = await client('updateFeed', { key: site.apiKey, feedId });
    expect([paused.status, paused.body.paused, paused.body.pollIntervalMinutes, paused.body.nextPollAt]).to.deep.equal([200, true, 60, null]);
    for (const id of [feedId, second.body.id]) {
      const deleted = await client('deleteFeed', { key: site.apiKey, feedId: id });
      expect([deleted.status, deleted.body]).to.deep.equal([200, { id, deleted: true }]);
    }
    const missing = await client('getFeed', { key: site.apiKey, feedId });
    expect([missing.status, missing.body]).to.deep.equal([404, { message: 'Feed not found' }]);
  });

  it('every operation of the document was called through the generated client', () => {
    expect([...called].sort()).to.deep.equal([...ops.keys()].sort());
  });
});
