// /v2 webhook endpoints (an addition; docs/webhooks.md; their methods and paths are in the /v2
// router, api.ts): a site's endpoints, managed by keys whose plan
// may read campaign reports (webhooks carry the same data). The delivery service owns them and
// answers each call's JSON object, which is passed on as it is.
import type { WebhookCall, WebhooksBackend } from '../grpc/clients.js';
import { MESSAGES } from '../texts.js';
import type { ApiRoute } from './route.js';

export function webhookEndpoints(backend: WebhooksBackend) {
  const endpoint = (operation: string, body: ApiRoute['body'], call: WebhookCall): ApiRoute => ({
    operation,
    permission: 'reports',
    denied: { status: 403, body: { message: MESSAGES.planWebhooks } },
    genericMessage: MESSAGES.internal,
    body,
    handle: async ({ principal, params, bodyJson, ctx }) =>
      JSON.parse((await call({ siteId: principal.siteId, webhookId: params.webhookId ?? '', eventId: params.eventId ?? '', bodyJson }, ctx)).json),
  });
  return {
    list: endpoint('listWebhooks', 'none', backend.listWebhooks),
    create: endpoint('createWebhook', 'json', backend.createWebhook),
    get: endpoint('getWebhook', 'none', backend.getWebhook),
    update: endpoint('updateWebhook', 'json', backend.updateWebhook),
    delete: endpoint('deleteWebhook', 'none', backend.deleteWebhook),
    rotateSecret: endpoint('rotateWebhookSecret', 'json-or-empty', backend.rotateWebhookSecret),
    deliveries: endpoint('listWebhookDeliveries', 'none', backend.listWebhookDeliveries),
    redeliver: endpoint('redeliverWebhookEvent', 'none', backend.redeliverWebhookEvent),
    ping: endpoint('pingWebhook', 'none', backend.pingWebhook),
  };
}
