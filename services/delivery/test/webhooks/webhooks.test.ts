// Webhooks in the delivery service (docs/webhooks.md), against a real Postgres and a local HTTPS
// receiver that verifies every signature as customers are told to: endpoints managed over the
// gRPC Webhooks service, events written by the changes themselves (a subscribe, an unsubscribe,
// a campaign run, impressions), retried with backoff, given up after the retry window, an
// endpoint disabled after failing for its window, redelivery, and secret rotation.
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import type { WebhookRequest } from '@webpush/contracts/generated/delivery/v1/WebhookRequest.js';
import { startWebhookReceiver, verifiedByDocsCode, type WebhookReceiver } from '../../../../test/support/webhook-receiver.js';
import { recordTracking } from '../../src/tracking/counter-store.js';
import { failRun, runFor } from '../../src/sending/run-store.js';
import { MAX_WEBHOOKS_PER_SITE, WEBHOOK_EVENTS, WEBHOOK_MESSAGES } from '../../src/webhooks/endpoints.js';
import { retryDelayMs } from '../../src/webhooks/delivery-loop.js';
import { browserKeys, dispatchMessage, newSite, pushEndpoint, request, startTestDelivery, type TestDelivery } from '../support.js';

type Method = 'ListWebhooks' | 'CreateWebhook' | 'GetWebhook' | 'UpdateWebhook' | 'DeleteWebhook' | 'RotateWebhookSecret' | 'ListWebhookDeliveries' | 'RedeliverWebhookEvent' | 'PingWebhook';

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('delivery: webhooks', function () {
  this.timeout(120_000);
  let t: TestDelivery;
  let receiver: WebhookReceiver;

  before(async () => {
    receiver = await startWebhookReceiver();
    t = await startTestDelivery('webhooks', {
      WEBHOOK_TEST_HOSTS: '127.0.0.1',
      WEBHOOK_EXTRA_CA_FILE: receiver.caFile,
      WEBHOOK_POLL_INTERVAL_MS: '20',
      WEBHOOK_BATCH_INTERVAL_MS: '100',
      WEBHOOK_RETRY_BASE_MS: '40',
      WEBHOOK_TIMEOUT_MS: '300',
      // Retries of an event run for 3 s; an endpoint failing for 1 s is disabled (24 h each by default).
      WEBHOOK_RETRY_FOR_SEC: '3',
      WEBHOOK_DISABLE_AFTER_SEC: '1',
    });
  });
  after(async () => {
    await t?.stop();
    await receiver?.close();
  });
  beforeEach(() => {
    receiver.answer = () => 200;
  });

  /** The call's typed answer (webhooks.proto): an unset optional field is absent. */
  function call(method: Method, req: Partial<WebhookRequest>): Promise<any> {
    const client = t.webhooks as unknown as Record<Method, (r: WebhookRequest, cb: (err: grpc.ServiceError | null, res?: unknown) => void) => void>;
    return new Promise((resolve, reject) =>
      client[method].call(t.webhooks, { siteId: '', webhookId: '', eventId: '', bodyJson: '', ...req }, (err, res) => (err ? reject(err) : resolve(res))),
    );
  }
  const deliveries = async (siteId: string, webhookId: string) => (await call('ListWebhookDeliveries', { siteId, webhookId })).deliveries;
  const refusal = (p: Promise<unknown>) => p.then(() => expect.fail('expected a refusal'), (err: grpc.ServiceError) => ({ code: err.code, details: err.details }));

  /** A new site with one endpoint on the receiver (a path of its own) for `events`; its secret is trusted by the receiver. */
  async function siteWithHook(events: readonly string[]) {
    const site = await newSite(t);
    const hookPath = `/${randomUUID()}`;
    const created = await call('CreateWebhook', { siteId: site.siteId, bodyJson: JSON.stringify({ url: receiver.url + hookPath, events }) });
    const hook = { ...created.endpoint, secret: created.secret };
    receiver.secrets.push(hook.secret);
    const got = () => receiver.received.filter((w) => w.path === hookPath);
    return { site, hook, hookPath, got };
  }

  async function subscribe(publicId: string, topics: string[] = ['news']) {
    const endpoint = pushEndpoint();
    const res = await request(t, 'POST', `/public/v1/sites/${publicId}/subscriptions`, { body: { subscription: { endpoint, keys: browserKeys() }, topics }, country: 'BR' });
    expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 201]);
    return { endpoint, id: (res.body as { id: string }).id };
  }

  describe('managing endpoints', () => {
    it('creates an endpoint whose secret is shown once and kept only sealed', async () => {
      const site = await newSite(t);
      const created = await call('CreateWebhook', {
        siteId: site.siteId,
        bodyJson: JSON.stringify({ url: `${receiver.url}/a`, events: ['subscriber.expired', 'campaign.completed', 'campaign.completed'], description: 'CRM' }),
      });
      expect(created.secret).to.match(/^whsec_[A-Za-z0-9_-]{43}$/);
      expect(created.endpoint).to.include({ url: `${receiver.url}/a`, description: 'CRM', enabled: true });
      expect(created.endpoint).to.not.have.any.keys('disabledAt', 'disabledReason', 'failingSince', 'previousSecretExpiresAt');
      expect(created.endpoint.events).to.deep.equal(['campaign.completed', 'subscriber.expired']);
      const listed = (await call('ListWebhooks', { siteId: site.siteId })).endpoints;
      expect(listed).to.deep.equal([created.endpoint]);
      expect(await call('GetWebhook', { siteId: site.siteId, webhookId: created.endpoint.id })).to.deep.equal(listed[0]);
      const { rows } = await t.pool.query('SELECT secret_enc FROM delivery.webhook_endpoints WHERE id = $1', [created.endpoint.id]);
      expect(Buffer.from(rows[0].secret_enc).includes(Buffer.from(created.secret.slice(6), 'base64url'))).to.equal(false);
      expect(rows[0].secret_enc.toString()).to.not.include(created.secret);
    });

    it('refuses wrong fields with every message at once, and writes nothing', async () => {
      const site = await newSite(t);
      const r = await refusal(call('CreateWebhook', { siteId: site.siteId, bodyJson: JSON.stringify({ url: 'http://example.com/x', events: ['nope'], description: 5 }) }));
      expect(r.code).to.equal(grpc.status.INVALID_ARGUMENT);
      expect(r.details).to.equal(`url must be an https URL of at most 2048 characters, ${WEBHOOK_MESSAGES.events}, ${WEBHOOK_MESSAGES.description}`);
      expect((await refusal(call('CreateWebhook', { siteId: site.siteId, bodyJson: '{}' }))).details).to.equal(`url is required, ${WEBHOOK_MESSAGES.eventsRequired}`);
      expect((await refusal(call('CreateWebhook', { siteId: site.siteId, bodyJson: '[1]' }))).details).to.equal(WEBHOOK_MESSAGES.invalidJson);
      // Text Postgres cannot store (NUL) or that would be altered (an unpaired surrogate): refused, never a 500.
      for (const [field, value, message] of [
        ['url', `${receiver.url}/a\u0000b`, 'url must be an https URL of at most 2048 characters'],
        ['url', `${receiver.url}/\ud800`, 'url must be an https URL of at most 2048 characters'],
        ['description', 'CRM\u0000', WEBHOOK_MESSAGES.description],
        ['description', '\udc00', WEBHOOK_MESSAGES.description],
      ] as const) {
        const body = { url: `${receiver.url}/ok`, events: ['campaign.completed'], [field]: value };
        const r = await refusal(call('CreateWebhook', { siteId: site.siteId, bodyJson: JSON.stringify(body) }));
        expect(r, `${field} ${JSON.stringify(value)}`).to.deep.equal({ code: grpc.status.INVALID_ARGUMENT, details: message });
      }
      expect(await call('ListWebhooks', { siteId: site.siteId })).to.deep.equal({ endpoints: [] });
    });

    it('refuses a URL that points to a private, loopback, link-local or metadata address (a name that resolves to one too)', async () => {
      const site = await newSite(t);
      for (const url of ['https://10.1.2.3/h', 'https://169.254.169.254/latest/meta-data', 'https://[::1]:8443/h', `https://localhost:${receiver.port}/h`]) {
        const r = await refusal(call('CreateWebhook', { siteId: site.siteId, bodyJson: JSON.stringify({ url, events: ['campaign.completed'] }) }));
        expect(r, url).to.deep.equal({ code: grpc.status.INVALID_ARGUMENT, details: 'url must not point to a private, loopback, link-local or metadata address' });
      }
    });

    it(`keeps a site at ${MAX_WEBHOOKS_PER_SITE} endpoints, even when more are created at once`, async () => {
      const site = await newSite(t);
      const body = JSON.stringify({ url: `${receiver.url}/many`, events: ['campaign.completed'] });
      const results = await Promise.allSettled(Array.from({ length: MAX_WEBHOOKS_PER_SITE + 3 }, () => call('CreateWebhook', { siteId: site.siteId, bodyJson: body })));
      expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(MAX_WEBHOOKS_PER_SITE);
      for (const r of results.filter((x) => x.status === 'rejected')) expect((r as PromiseRejectedResult).reason.details).to.equal(WEBHOOK_MESSAGES.tooMany);
      expect((await call('ListWebhooks', { siteId: site.siteId })).endpoints).to.have.length(MAX_WEBHOOKS_PER_SITE);
    });

    it("answers 'Webhook not found' for another site's endpoint, an unknown id and an id that is not one, whatever the call", async () => {
      const { hook } = await siteWithHook(['campaign.completed']);
      const other = await newSite(t);
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(hook.id, randomUUID(), 'x', "'; DROP TABLE x; --", ''), fc.constantFrom<Method>('GetWebhook', 'UpdateWebhook', 'DeleteWebhook', 'RotateWebhookSecret', 'ListWebhookDeliveries', 'PingWebhook'), async (id, method) => {
          const r = await refusal(call(method, { siteId: other.siteId, webhookId: id, bodyJson: '{}' }));
          expect(r).to.deep.equal({ code: grpc.status.NOT_FOUND, details: WEBHOOK_MESSAGES.notFound });
        }),
        { numRuns: 30 },
      );
    });

    it('changes only the fields given, and deletes', async () => {
      const { site, hook } = await siteWithHook(['campaign.completed']);
      const changed = await call('UpdateWebhook', { siteId: site.siteId, webhookId: hook.id, bodyJson: JSON.stringify({ events: ['subscriber.created'], description: 'x' }) });
      expect(changed).to.include({ url: hook.url, description: 'x' });
      expect(changed.events).to.deep.equal(['subscriber.created']);
      expect((await refusal(call('UpdateWebhook', { siteId: site.siteId, webhookId: hook.id, bodyJson: '{"enabled":"yes"}' }))).details).to.equal(WEBHOOK_MESSAGES.enabled);
      expect(await call('DeleteWebhook', { siteId: site.siteId, webhookId: hook.id })).to.deep.equal({ id: hook.id, deleted: true });
      expect((await refusal(call('GetWebhook', { siteId: site.siteId, webhookId: hook.id }))).code).to.equal(grpc.status.NOT_FOUND);
    });
  });

  describe('events', () => {
    it('posts subscriber.created and subscriber.expired, signed, each with its own id, only to endpoints that want them', async () => {
      const { site, got } = await siteWithHook(['subscriber.created', 'subscriber.expired']);
      const { got: gotCampaignsOnly } = await siteWithHook(['campaign.completed']);
      const sub = await subscribe(site.publicId, ['news', 'sport']);
      const del = await request(t, 'DELETE', `/public/v1/sites/${site.publicId}/subscriptions`, { body: { endpoint: sub.endpoint } });
      expect(del.status).to.be.oneOf([200, 204]);
      await until('two events', async () => (got().length >= 2 ? true : undefined));
      const [created, expired] = [got().find((w) => w.event.type === 'subscriber.created')!, got().find((w) => w.event.type === 'subscriber.expired')!];
      expect(created.verified && expired.verified).to.equal(true);
      expect(created.event.data).to.deep.equal({ subscriberId: sub.id, country: 'BR', topics: ['news', 'sport'], language: null, timeZone: null });
      expect(expired.event.data).to.deep.equal({ subscriberId: sub.id });
      expect(created.event.id).to.not.equal(expired.event.id);
      expect(created.headers['webhook-id']).to.equal(created.event.id);
      expect(created.headers['webhook-event']).to.equal('subscriber.created');
      expect(Date.parse(created.event.createdAt)).to.be.closeTo(Date.now(), 60_000);
      expect(gotCampaignsOnly()).to.deep.equal([]);
    });

    it('posts campaign.dispatched when a run starts and campaign.failed (with the reason and counts) when it ends', async () => {
      const { site, got } = await siteWithHook(['campaign.dispatched', 'campaign.failed', 'campaign.completed']);
      const job = dispatchMessage(site.siteId, ['news']);
      await runFor(t.pool, job);
      await runFor(t.pool, job); // a repeated dispatch: the same run, no second event
      await failRun(t.pool, job.campaignId, 'the site has no VAPID keys');
      await until('two events', async () => (got().length >= 2 ? true : undefined));
      await new Promise((r) => setTimeout(r, 200));
      expect(got().map((w) => w.event.type).sort()).to.deep.equal(['campaign.dispatched', 'campaign.failed']);
      const failed = got().find((w) => w.event.type === 'campaign.failed')!;
      expect(failed.event.data).to.deep.equal({
        campaignId: job.campaignId, audience: 0, sent: 0, failed: 0, expired: 0, impressions: 0, clicks: 0,
        failedBy: { rejected: 0, unauthorized: 0, unreachable: 0, refused: 0 }, reason: 'the site has no VAPID keys',
      });
    });

    it('batches impressions and clicks: one event per kind for many reports, never one request per report', async () => {
      const { site, got } = await siteWithHook(['notification.impressions', 'notification.clicks']);
      const job = dispatchMessage(site.siteId, ['news']);
      await runFor(t.pool, job);
      const subs = [];
      for (let i = 0; i < 30; i++) subs.push(await subscribe(site.publicId));
      const ids = (await t.pool.query(`SELECT id::text, public_id::text FROM delivery.subscribers WHERE site_id = $1 ORDER BY id`, [site.siteId])).rows;
      const client = await t.pool.connect();
      try {
        await recordTracking(client, ids.map((r) => ({ campaignId: job.campaignId, subscriberId: r.id, kind: 'impression' as const })));
        await recordTracking(client, ids.slice(0, 4).map((r) => ({ campaignId: job.campaignId, subscriberId: r.id, kind: 'click' as const })));
      } finally {
        client.release();
      }
      await until('both batches', async () => (got().length >= 2 ? true : undefined));
      await new Promise((r) => setTimeout(r, 300));
      const impressions = got().filter((w) => w.event.type === 'notification.impressions');
      const clicks = got().filter((w) => w.event.type === 'notification.clicks');
      expect(impressions).to.have.length(1);
      expect(clicks).to.have.length(1);
      expect(impressions[0].event.data.count).to.equal(30);
      expect(impressions[0].event.data.items.map((i: any) => i.subscriberId).sort()).to.deep.equal(ids.map((r) => r.public_id).sort());
      expect(clicks[0].event.data.items.map((i: any) => i.campaignId)).to.deep.equal(Array(4).fill(job.campaignId));
      expect((await t.pool.query('SELECT count(*)::int AS n FROM delivery.webhook_tracking_buffer WHERE site_id = $1', [site.siteId])).rows[0].n).to.equal(0);
    });

    it('writes nothing at all for a site without an endpoint that wants the event', async () => {
      const site = await newSite(t);
      await subscribe(site.publicId);
      const job = dispatchMessage(site.siteId, ['news']);
      await runFor(t.pool, job);
      const { rows } = await t.pool.query(
        `SELECT count(*)::int AS n FROM delivery.webhook_deliveries d JOIN delivery.webhook_endpoints e ON e.id = d.endpoint_id WHERE e.site_id = $1`,
        [site.siteId],
      );
      expect(rows[0].n).to.equal(0);
    });
  });

  describe('delivery', () => {
    it('retries an event after 500s and a timeout until the receiver takes it, with the same id and body', async () => {
      const { site, hook, hookPath, got } = await siteWithHook(['subscriber.created']);
      receiver.answer = (w) => (w.path !== hookPath ? 200 : w.seen === 1 ? 500 : w.seen === 2 ? 'hang' : w.seen === 3 ? 503 : 200);
      await subscribe(site.publicId);
      await until('the fourth attempt', async () => (got().length >= 4 ? true : undefined));
      const attempts = got();
      expect(new Set(attempts.map((w) => w.body)).size).to.equal(1);
      expect(attempts.every((w) => w.verified)).to.equal(true);
      const [delivery] = await until('delivered', async () => {
        const list = await deliveries(site.siteId, hook.id);
        return list[0]?.state === 'delivered' ? list : undefined;
      });
      expect(delivery).to.include({ eventId: attempts[0].event.id, type: 'subscriber.created', attempts: 4, lastStatus: 200 });
      expect(delivery).to.not.have.any.keys('lastError', 'nextAttemptAt');
      expect(delivery.deliveredAt).to.be.a('string');
      const after = await call('GetWebhook', { siteId: site.siteId, webhookId: hook.id });
      expect(after.enabled).to.equal(true);
      expect(after).to.not.have.property('failingSince');
      const metrics = await (await fetch(`${t.opsUrl}/metrics`)).text();
      const counted = (outcome: string) => Number(new RegExp(`^delivery_webhook_attempts_total\\{outcome="${outcome}"[^}]*\\} (\\d+)`, 'm').exec(metrics)?.[1] ?? 0);
      expect(counted('failed')).to.be.at.least(3);
      expect(counted('delivered')).to.be.at.least(1);
    });

    it('disables an endpoint failing for its window (its event waits, new ones are not kept), gives the event up once re-enabled past its retry window, and a redelivery reaches it', async () => {
      const { site, hook, hookPath, got } = await siteWithHook(['subscriber.created']);
      receiver.answer = (w) => (w.path === hookPath ? 500 : 200);
      await subscribe(site.publicId);
      const disabled = await until('disabled', async () => {
        const h = await call('GetWebhook', { siteId: site.siteId, webhookId: hook.id });
        return h.enabled ? undefined : h;
      });
      expect(disabled.disabledReason).to.match(/^every delivery failed since \d{4}-/);
      expect(disabled.disabledAt).to.be.a('string');
      const [waiting] = await deliveries(site.siteId, hook.id);
      expect(waiting).to.include({ lastStatus: 500, lastError: 'HTTP 500' });
      // Pending, or already given up when the disabling attempt was also the last its window allowed.
      expect(waiting.state).to.be.oneOf(['pending', 'failed']);
      // Disabled: nothing is sent, and new events are not kept for it.
      await subscribe(site.publicId);
      const sentWhenDisabled = got().length;
      await new Promise((r) => setTimeout(r, 3200)); // past the event's retry window
      expect(got().length).to.equal(sentWhenDisabled);
      expect(await deliveries(site.siteId, hook.id)).to.have.length(1);

      const enabled = await call('UpdateWebhook', { siteId: site.siteId, webhookId: hook.id, bodyJson: '{"enabled":true}' });
      expect(enabled.enabled).to.equal(true);
      expect(enabled).to.not.have.any.keys('disabledAt', 'disabledReason', 'failingSince');
      const [failed] = await until('given up', async () => {
        const list = await deliveries(site.siteId, hook.id);
        return list[0]?.state === 'failed' ? list : undefined;
      });
      expect(failed).to.include({ eventId: waiting.eventId, attempts: waiting.attempts + (waiting.state === 'pending' ? 1 : 0) });
      expect(failed).to.not.have.property('nextAttemptAt');

      receiver.answer = () => 200;
      const again = await call('RedeliverWebhookEvent', { siteId: site.siteId, webhookId: hook.id, eventId: failed.eventId });
      expect(again).to.include({ eventId: failed.eventId, state: 'pending' });
      const [delivered] = await until('delivered', async () => {
        const list = await deliveries(site.siteId, hook.id);
        return list[0]?.state === 'delivered' ? list : undefined;
      });
      expect(delivered.eventId).to.equal(failed.eventId);
      expect(got().at(-1)!.event.id).to.equal(failed.eventId);
      expect((await refusal(call('RedeliverWebhookEvent', { siteId: site.siteId, webhookId: hook.id, eventId: randomUUID() }))).details).to.equal(WEBHOOK_MESSAGES.eventNotFound);
    });

    it('signs with both secrets during a rotation overlap, and with the new one alone after a rotation without overlap', async () => {
      const { site, hook, got } = await siteWithHook(['subscriber.created']);
      const rotated = await call('RotateWebhookSecret', { siteId: site.siteId, webhookId: hook.id, bodyJson: '{"overlapHours":2}' });
      receiver.secrets.push(rotated.secret);
      expect(rotated.secret).to.not.equal(hook.secret);
      expect(Date.parse(rotated.endpoint.previousSecretExpiresAt) - Date.now()).to.be.closeTo(2 * 3600_000, 60_000);
      const signedBy = (w: { headers: Record<string, unknown>; body: string }, secret: string) => verifiedByDocsCode(w.headers['webhook-signature'] as string, w.body, secret);

      const ping = await call('PingWebhook', { siteId: site.siteId, webhookId: hook.id });
      const first = await until('the ping', async () => got().find((w) => w.event.id === ping.eventId));
      expect(first.event).to.deep.include({ type: 'webhook.ping', data: { webhookId: hook.id } });
      expect([signedBy(first, hook.secret), signedBy(first, rotated.secret)]).to.deep.equal([true, true]);

      const again = await call('RotateWebhookSecret', { siteId: site.siteId, webhookId: hook.id, bodyJson: '{"overlapHours":0}' });
      receiver.secrets.push(again.secret);
      expect(again.endpoint).to.not.have.property('previousSecretExpiresAt');
      const ping2 = await call('PingWebhook', { siteId: site.siteId, webhookId: hook.id });
      const second = await until('the second ping', async () => got().find((w) => w.event.id === ping2.eventId));
      expect([signedBy(second, rotated.secret), signedBy(second, again.secret)]).to.deep.equal([false, true]);
      expect((await refusal(call('RotateWebhookSecret', { siteId: site.siteId, webhookId: hook.id, bodyJson: '{"overlapHours":169}' }))).details).to.equal(WEBHOOK_MESSAGES.overlapHours);
    });

    it('retries later and later: exponential, capped, jittered within [0.5, 1) of the step', () => {
      const opts = { retryBaseMs: 10_000, retryMaxMs: 3_600_000 };
      expect([1, 2, 3, 4].map((a) => retryDelayMs(a, opts, () => 0.999999))).to.deep.equal([10_000, 20_000, 40_000, 80_000]);
      expect(retryDelayMs(40, opts, () => 0)).to.equal(1_800_000);
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 10_000 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, r) => {
          const d = retryDelayMs(attempt, opts, () => r);
          return d >= 5_000 && d <= 3_600_000;
        }),
      );
    });
  });

  it('knows the events the docs list', () => {
    expect([...WEBHOOK_EVENTS]).to.deep.equal([
      'campaign.dispatched', 'campaign.completed', 'campaign.failed', 'subscriber.created', 'subscriber.expired', 'notification.impressions', 'notification.clicks', 'audit.entry', 'notification.sent', 'person.deleted', 'person.exported',
    ]);
  });
});
