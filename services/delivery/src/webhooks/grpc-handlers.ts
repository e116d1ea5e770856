// gRPC adapter for delivery.v1.Webhooks: each call is one use case of endpoints.ts, whose rows
// are answered as the typed messages of webhooks.proto (dates as ISO text, a null column as an
// unset optional field); the gateway builds the API's JSON from them.
import type { WebhooksHandlers } from '@webpush/contracts/generated/delivery/v1/Webhooks.js';
import type { WebhookDelivery } from '@webpush/contracts/generated/delivery/v1/WebhookDelivery.js';
import type { WebhookEndpoint } from '@webpush/contracts/generated/delivery/v1/WebhookEndpoint.js';
import type { WebhookWithSecret } from '@webpush/contracts/generated/delivery/v1/WebhookWithSecret.js';
import type { Logger } from '@webpush/shared/log.js';
import { answer } from '../grpc-answers.js';
import type { WebhookEndpoints, WithSecret } from './endpoints.js';
import type { DeliveryRow, EndpointRow } from './webhook-store.js';

function endpointMessage(e: EndpointRow): WebhookEndpoint {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    events: e.events,
    enabled: e.enabled,
    disabledAt: e.disabledAt?.toISOString(),
    disabledReason: e.disabledReason ?? undefined,
    failingSince: e.failingSince?.toISOString(),
    previousSecretExpiresAt: e.previousSecretExpiresAt?.toISOString(),
    createdAt: e.createdAt.toISOString(),
  };
}

function withSecretMessage(w: WithSecret): WebhookWithSecret {
  return { endpoint: endpointMessage(w.endpoint), secret: w.secret };
}

function deliveryMessage(d: DeliveryRow): WebhookDelivery {
  return {
    eventId: d.eventId,
    type: d.type,
    createdAt: d.createdAt.toISOString(),
    state: d.state,
    attempts: d.attempts,
    nextAttemptAt: d.nextAttemptAt?.toISOString(),
    lastAttemptAt: d.lastAttemptAt?.toISOString(),
    lastStatus: d.lastStatus ?? undefined,
    lastLatencyMs: d.lastLatencyMs ?? undefined,
    lastError: d.lastError ?? undefined,
    deliveredAt: d.deliveredAt?.toISOString(),
  };
}

export function createWebhookHandlers(webhooks: WebhookEndpoints, log: Logger): WebhooksHandlers {
  return {
    ListWebhooks: ({ request: r }, cb) => answer(log, 'ListWebhooks', cb, async () => ({ endpoints: (await webhooks.list(r.siteId)).map(endpointMessage) })),
    CreateWebhook: ({ request: r }, cb) => answer(log, 'CreateWebhook', cb, async () => withSecretMessage(await webhooks.create(r.siteId, r.bodyJson))),
    GetWebhook: ({ request: r }, cb) => answer(log, 'GetWebhook', cb, async () => endpointMessage(await webhooks.get(r.siteId, r.webhookId))),
    UpdateWebhook: ({ request: r }, cb) => answer(log, 'UpdateWebhook', cb, async () => endpointMessage(await webhooks.update(r.siteId, r.webhookId, r.bodyJson))),
    DeleteWebhook: ({ request: r }, cb) => answer(log, 'DeleteWebhook', cb, () => webhooks.remove(r.siteId, r.webhookId)),
    RotateWebhookSecret: ({ request: r }, cb) => answer(log, 'RotateWebhookSecret', cb, async () => withSecretMessage(await webhooks.rotateSecret(r.siteId, r.webhookId, r.bodyJson))),
    ListWebhookDeliveries: ({ request: r }, cb) => answer(log, 'ListWebhookDeliveries', cb, async () => ({ deliveries: (await webhooks.deliveries(r.siteId, r.webhookId)).map(deliveryMessage) })),
    RedeliverWebhookEvent: ({ request: r }, cb) => answer(log, 'RedeliverWebhookEvent', cb, async () => deliveryMessage(await webhooks.redeliver(r.siteId, r.webhookId, r.eventId))),
    PingWebhook: ({ request: r }, cb) => answer(log, 'PingWebhook', cb, async () => deliveryMessage(await webhooks.ping(r.siteId, r.webhookId))),
  };
}
