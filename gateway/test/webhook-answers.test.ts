// Every /v2 webhook answer, byte for byte, against the objects the delivery service built before
// the answers became typed messages (kept below verbatim as the reference, over the same rows):
// every route, with each nullable field both null and set, and text that JSON escapes. Through the
// real gateway, delivery service (gRPC) and Postgres; every answer is also checked against the
// OpenAPI contract (support/stack.ts).
import { expect } from 'chai';
import { findEndpoint, listEndpoints, recentDeliveries, type DeliveryRow, type EndpointRow } from '../../services/delivery/src/webhooks/webhook-store.js';
import { ALL_PERMISSIONS, startStack, type Reply, type Stack, type TestSite } from './support/stack.js';

// ---- The reference: services/delivery/src/webhooks/endpoints.ts before the typed answers. ----

function iso(d: Date | null): string | null {
  return d === null ? null : d.toISOString();
}

function endpointJson(e: EndpointRow) {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    events: e.events,
    enabled: e.enabled,
    disabledAt: iso(e.disabledAt),
    disabledReason: e.disabledReason,
    failingSince: iso(e.failingSince),
    previousSecretExpiresAt: iso(e.previousSecretExpiresAt),
    createdAt: e.createdAt.toISOString(),
  };
}

function deliveryJson(d: DeliveryRow) {
  return {
    eventId: d.eventId,
    type: d.type,
    createdAt: d.createdAt.toISOString(),
    state: d.state,
    attempts: d.attempts,
    nextAttemptAt: iso(d.nextAttemptAt),
    lastAttemptAt: iso(d.lastAttemptAt),
    lastStatus: d.lastStatus,
    lastLatencyMs: d.lastLatencyMs,
    lastError: d.lastError,
    deliveredAt: iso(d.deliveredAt),
  };
}

// ---- The test. ----

const NULLABLE = ['disabledAt', 'disabledReason', 'failingSince', 'previousSecretExpiresAt', 'nextAttemptAt', 'lastAttemptAt', 'lastStatus', 'lastLatencyMs', 'lastError', 'deliveredAt'];
/** Text JSON escapes or that is more than one UTF-16 unit: quote, backslash, a control character, a line separator, an emoji with a modifier. */
const AWKWARD = 'CRM "sync" \\ \u0001 \u2028 👍🏽 ação';

describe('gateway: webhook answers, byte for byte as the delivery service built them before', function () {
  this.timeout(120_000);
  let stack: Stack;
  let site: TestSite;
  /** For each nullable field: whether an answer compared had it null, and set. */
  const seen = new Map<string, Set<'null' | 'set'>>(NULLABLE.map((f) => [f, new Set()]));

  before(async () => {
    // Nothing answers on port 9 of 127.0.0.1: the enabled endpoints' attempts (if any) fail.
    stack = await startStack('gw_webhook_answers', { delivery: { WEBHOOK_TEST_HOSTS: '127.0.0.1' } });
    site = await stack.newSite(ALL_PERMISSIONS);
  });
  after(async () => {
    await stack?.stop();
  });

  const api = (method: string, path: string, body?: unknown) => stack.call(method, path, { key: site.key, body });
  const endpointRow = async (id: string) => (await findEndpoint(stack.pool, site.siteId, id))!;
  const deliveryRows = (id: string) => recentDeliveries(stack.pool, id, 100);

  /** The answer is 200 and exactly the reference's JSON text (what Express's res.json wrote from it). */
  function same(res: Reply, reference: unknown) {
    expect(res.status, res.text).to.equal(200);
    expect(res.text).to.equal(JSON.stringify(reference));
    for (const item of Array.isArray(reference) ? reference : [reference]) {
      for (const [field, value] of Object.entries(item as object)) seen.get(field)?.add(value === null ? 'null' : 'set');
    }
  }

  async function create(description?: string) {
    const res = await api('POST', '/v2/webhooks', { url: 'https://127.0.0.1:9/hook?a=1&b="2"', events: ['subscriber.expired', 'campaign.completed'], ...(description === undefined ? {} : { description }) });
    const body = res.body as { id: string; secret: string };
    same(res, { ...endpointJson(await endpointRow(body.id)), secret: body.secret });
    return body.id;
  }

  /** An endpoint turned off through the API (nothing is sent to it, so its rows stay as the test sets them) with one delivery row in each state. */
  async function disabledWithDeliveries(): Promise<{ id: string; events: string[] }> {
    const id = await create(AWKWARD);
    same(await api('PATCH', `/v2/webhooks/${id}`, { enabled: false }), endpointJson(await endpointRow(id)));
    const events: string[] = [];
    for (let i = 0; i < 4; i++) events.push(((await api('POST', `/v2/webhooks/${id}/ping`)).body as { eventId: string }).eventId);
    await stack.pool.query(`UPDATE delivery.webhook_endpoints SET failing_since = now() - interval '3 hours' WHERE id = $1`, [id]);
    const set = (eventId: string, sql: string) => stack.pool.query(`UPDATE delivery.webhook_deliveries SET ${sql} WHERE endpoint_id = $1 AND event_id = $2`, [id, eventId]);
    await set(events[0], `state = 'delivered', attempts = 2, last_attempt_at = now(), last_status = 200, last_latency_ms = 37, delivered_at = now()`);
    await set(events[1], `state = 'failed', attempts = 9, last_attempt_at = now(), last_status = NULL, last_latency_ms = 10000, last_error = 'timeout: no answer within 10 s'`);
    await set(events[2], `attempts = 1, last_attempt_at = now(), last_status = 500, last_latency_ms = 12, last_error = 'HTTP 500', next_attempt_at = now() + interval '5 minutes'`);
    return { id, events };
  }

  it('when endpoints are created, then the answer is the endpoint with its secret', async () => {
    await create();
    await create(AWKWARD);
  });

  it('when endpoints are listed, got, changed, turned off and on, then the answers are the same, [] for a site with none', async () => {
    const other = await stack.newSite(ALL_PERMISSIONS);
    expect((await stack.call('GET', '/v2/webhooks', { key: other.key })).text).to.equal('[]');
    const id = await create('');
    await stack.pool.query(`UPDATE delivery.webhook_endpoints SET failing_since = now() - interval '1 hour' WHERE id = $1`, [id]);
    same(await api('GET', `/v2/webhooks/${id}`), endpointJson(await endpointRow(id)));
    same(await api('GET', `/v2/webhooks/${id.toUpperCase()}`), endpointJson(await endpointRow(id)));
    same(await api('PATCH', `/v2/webhooks/${id}`, { description: AWKWARD, events: ['notification.clicks'] }), endpointJson(await endpointRow(id)));
    same(await api('PATCH', `/v2/webhooks/${id}`, { enabled: false }), endpointJson(await endpointRow(id)));
    same(await api('PATCH', `/v2/webhooks/${id}`, { enabled: true }), endpointJson(await endpointRow(id)));
    await disabledWithDeliveries();
    same(await api('GET', '/v2/webhooks'), (await listEndpoints(stack.pool, site.siteId)).map(endpointJson));
  });

  it('when a secret is rotated with an overlap, without one, and with no body, then the answer is the endpoint with its new secret', async () => {
    const id = await create();
    for (const body of [{ overlapHours: 2 }, { overlapHours: 0 }, undefined]) {
      const res = await api('POST', `/v2/webhooks/${id}/rotate-secret`, body);
      same(res, { ...endpointJson(await endpointRow(id)), secret: (res.body as { secret: string }).secret });
    }
  });

  it('when deliveries are listed, redelivered and pinged, then the answers are the same, [] for an endpoint with none', async () => {
    expect((await api('GET', `/v2/webhooks/${await create()}/deliveries`)).text).to.equal('[]');
    const { id, events } = await disabledWithDeliveries();
    same(await api('GET', `/v2/webhooks/${id}/deliveries`), (await deliveryRows(id)).map(deliveryJson));
    const res = await api('POST', `/v2/webhooks/${id}/deliveries/${events[1].toUpperCase()}/redeliver`);
    same(res, deliveryJson((await deliveryRows(id)).find((d) => d.eventId === events[1])!));
    const ping = await api('POST', `/v2/webhooks/${id}/ping`);
    same(ping, deliveryJson((await deliveryRows(id)).find((d) => d.eventId === (ping.body as { eventId: string }).eventId)!));
    same(await api('GET', `/v2/webhooks/${id}/deliveries`), (await deliveryRows(id)).map(deliveryJson));
  });

  it('when an endpoint is deleted by its id in capitals, then the answer names the id as given', async () => {
    const id = (await create()).toUpperCase();
    same(await api('DELETE', `/v2/webhooks/${id}`), { id, deleted: true });
  });

  it('compared every nullable field both null and set (in the answers of the tests above)', () => {
    expect(Object.fromEntries([...seen].map(([field, kinds]) => [field, [...kinds].sort()]))).to.deep.equal(Object.fromEntries(NULLABLE.map((f) => [f, ['null', 'set']])));
  });
});
