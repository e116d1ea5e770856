// /v2 webhooks (an addition; docs/webhooks.md): a site's endpoints, managed by keys whose plan
// may read campaign reports (webhooks carry the same data). The delivery service owns them and
// answers each call's JSON object, which is passed on as it is.
import type { WebhookCall, WebhooksBackend } from '../grpc/clients.js';
import { MESSAGES } from '../texts.js';
import type { ApiRoute, Method } from './route.js';

const ID = '([^/]+)';

export function webhookRoutes(backend: WebhooksBackend): ApiRoute[] {
  const route = (
    method: Method,
    path: string,
    operation: string,
    body: ApiRoute['body'],
    call: WebhookCall,
  ): ApiRoute => ({
    method,
    pattern: new RegExp(`^/v2/webhooks${path}/?$`),
    operation,
    permission: 'reports',
    denied: { status: 403, body: { message: MESSAGES.planWebhooks } },
    genericMessage: MESSAGES.internal,
    body,
    handle: async ({ principal, params, bodyJson, ctx }) =>
      JSON.parse((await call({ siteId: principal.siteId, webhookId: params[0] ?? '', eventId: params[1] ?? '', bodyJson }, ctx)).json),
  });
  return [
    route('GET', '', 'listWebhooks', 'none', backend.listWebhooks),
    route('POST', '', 'createWebhook', 'json', backend.createWebhook),
    route('GET', `/${ID}`, 'getWebhook', 'none', backend.getWebhook),
    route('PATCH', `/${ID}`, 'updateWebhook', 'json', backend.updateWebhook),
    route('DELETE', `/${ID}`, 'deleteWebhook', 'none', backend.deleteWebhook),
    route('POST', `/${ID}/rotate-secret`, 'rotateWebhookSecret', 'json-or-empty', backend.rotateWebhookSecret),
    route('GET', `/${ID}/deliveries`, 'listWebhookDeliveries', 'none', backend.listWebhookDeliveries),
    route('POST', `/${ID}/deliveries/${ID}/redeliver`, 'redeliverWebhookEvent', 'none', backend.redeliverWebhookEvent),
    route('POST', `/${ID}/ping`, 'pingWebhook', 'none', backend.pingWebhook),
  ];
}
