// The /v2 webhook answers' JSON, built from the delivery service's typed messages
// (packages/contracts/protos/delivery/v1/webhooks.proto) in this one place: the API's objects
// (docs/webhooks.md; gateway/openapi/openapi.yaml, `Webhook`, `WebhookDelivery`) with their fields
// in the documented order, an unset optional field as null. res.json writes them.
import type { DeleteWebhookResponse__Output } from '@webpush/contracts/generated/delivery/v1/DeleteWebhookResponse.js';
import type { ListWebhookDeliveriesResponse__Output } from '@webpush/contracts/generated/delivery/v1/ListWebhookDeliveriesResponse.js';
import type { ListWebhooksResponse__Output } from '@webpush/contracts/generated/delivery/v1/ListWebhooksResponse.js';
import type { WebhookDelivery__Output } from '@webpush/contracts/generated/delivery/v1/WebhookDelivery.js';
import type { WebhookEndpoint__Output } from '@webpush/contracts/generated/delivery/v1/WebhookEndpoint.js';
import type { WebhookWithSecret__Output } from '@webpush/contracts/generated/delivery/v1/WebhookWithSecret.js';

export function webhookJson(e: WebhookEndpoint__Output) {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    events: e.events,
    enabled: e.enabled,
    disabledAt: e.disabledAt ?? null,
    disabledReason: e.disabledReason ?? null,
    failingSince: e.failingSince ?? null,
    previousSecretExpiresAt: e.previousSecretExpiresAt ?? null,
    createdAt: e.createdAt,
  };
}

/** Create's and rotate-secret's answer: the endpoint, then its new secret. */
export function webhookWithSecretJson(w: WebhookWithSecret__Output) {
  // A backend that answers without the endpoint (another version of the contract) is a 500, never a broken body.
  if (w.endpoint === null) throw new Error('delivery service answered without the endpoint');
  return { ...webhookJson(w.endpoint), secret: w.secret };
}

export function webhookListJson(list: ListWebhooksResponse__Output) {
  return list.endpoints.map(webhookJson);
}

export function deletedWebhookJson(d: DeleteWebhookResponse__Output) {
  return { id: d.id, deleted: d.deleted };
}

export function webhookDeliveryJson(d: WebhookDelivery__Output) {
  return {
    eventId: d.eventId,
    type: d.type,
    createdAt: d.createdAt,
    state: d.state,
    attempts: d.attempts,
    nextAttemptAt: d.nextAttemptAt ?? null,
    lastAttemptAt: d.lastAttemptAt ?? null,
    lastStatus: d.lastStatus ?? null,
    lastLatencyMs: d.lastLatencyMs ?? null,
    lastError: d.lastError ?? null,
    deliveredAt: d.deliveredAt ?? null,
  };
}

export function webhookDeliveryListJson(list: ListWebhookDeliveriesResponse__Output) {
  return list.deliveries.map(webhookDeliveryJson);
}
