// gRPC adapter for delivery.v1.Webhooks: each call is one use case of endpoints.ts, whose answer
// (the API's JSON object) travels as text for the gateway to pass on.
import type { WebhooksHandlers } from '@webpush/contracts/generated/delivery/v1/Webhooks.js';
import type { WebhookAnswer } from '@webpush/contracts/generated/delivery/v1/WebhookAnswer.js';
import type { Logger } from '@webpush/shared/log.js';
import { answer, type Callback } from '../grpc-answers.js';
import type { WebhookEndpoints } from './endpoints.js';

export function createWebhookHandlers(webhooks: WebhookEndpoints, log: Logger): WebhooksHandlers {
  const json = (method: string, callback: Callback<WebhookAnswer>, work: () => Promise<unknown>) =>
    answer(log, method, callback, async () => ({ json: JSON.stringify(await work()) }));
  return {
    ListWebhooks: ({ request: r }, cb) => json('ListWebhooks', cb, () => webhooks.list(r.siteId)),
    CreateWebhook: ({ request: r }, cb) => json('CreateWebhook', cb, () => webhooks.create(r.siteId, r.bodyJson)),
    GetWebhook: ({ request: r }, cb) => json('GetWebhook', cb, () => webhooks.get(r.siteId, r.webhookId)),
    UpdateWebhook: ({ request: r }, cb) => json('UpdateWebhook', cb, () => webhooks.update(r.siteId, r.webhookId, r.bodyJson)),
    DeleteWebhook: ({ request: r }, cb) => json('DeleteWebhook', cb, () => webhooks.remove(r.siteId, r.webhookId)),
    RotateWebhookSecret: ({ request: r }, cb) => json('RotateWebhookSecret', cb, () => webhooks.rotateSecret(r.siteId, r.webhookId, r.bodyJson)),
    ListWebhookDeliveries: ({ request: r }, cb) => json('ListWebhookDeliveries', cb, () => webhooks.deliveries(r.siteId, r.webhookId)),
    RedeliverWebhookEvent: ({ request: r }, cb) => json('RedeliverWebhookEvent', cb, () => webhooks.redeliver(r.siteId, r.webhookId, r.eventId)),
    PingWebhook: ({ request: r }, cb) => json('PingWebhook', cb, () => webhooks.ping(r.siteId, r.webhookId)),
  };
}
