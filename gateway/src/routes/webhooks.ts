// /v2 webhook endpoints (an addition; docs/webhooks.md; their methods and paths are in the /v2
// router, api.ts): a site's endpoints, managed by keys whose plan
// may read campaign reports (webhooks carry the same data). The delivery service owns them and
// answers each call's typed message, whose API JSON webhook-json.ts builds.
import type { WebhookCall, WebhooksBackend } from '../grpc/clients.js';
import { MESSAGES } from '../texts.js';
import type { ApiRoute } from './route.js';
import { deletedWebhookJson, webhookDeliveryJson, webhookDeliveryListJson, webhookJson, webhookListJson, webhookWithSecretJson } from './webhook-json.js';

export function webhookEndpoints(backend: WebhooksBackend) {
  const endpoint = <Answer>(operation: string, body: ApiRoute['body'], call: WebhookCall<Answer>, json: (answer: Answer) => unknown): ApiRoute => ({
    operation,
    permission: 'reports',
    denied: { status: 403, body: { message: MESSAGES.planWebhooks } },
    genericMessage: MESSAGES.internal,
    body,
    handle: async ({ principal, params, bodyJson, ctx }) =>
      json(await call({ siteId: principal.siteId, webhookId: params.webhookId ?? '', eventId: params.eventId ?? '', bodyJson }, ctx)),
  });
  return {
    list: endpoint('listWebhooks', 'none', backend.listWebhooks, webhookListJson),
    create: endpoint('createWebhook', 'json', backend.createWebhook, webhookWithSecretJson),
    get: endpoint('getWebhook', 'none', backend.getWebhook, webhookJson),
    update: endpoint('updateWebhook', 'json', backend.updateWebhook, webhookJson),
    delete: endpoint('deleteWebhook', 'none', backend.deleteWebhook, deletedWebhookJson),
    rotateSecret: endpoint('rotateWebhookSecret', 'json-or-empty', backend.rotateWebhookSecret, webhookWithSecretJson),
    deliveries: endpoint('listWebhookDeliveries', 'none', backend.listWebhookDeliveries, webhookDeliveryListJson),
    redeliver: endpoint('redeliverWebhookEvent', 'none', backend.redeliverWebhookEvent, webhookDeliveryJson),
    ping: endpoint('pingWebhook', 'none', backend.pingWebhook, webhookDeliveryJson),
  };
}
