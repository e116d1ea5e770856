// One call of the API through the client generated from gateway/openapi/openapi.yaml
// (openapi-typescript types + openapi-fetch), as a customer's program makes it:
//   node dist/src/call.js <operationId> '<json arguments>'
// prints {"status", "requestId", "retryAfter", "location", "body"} as JSON. Every request is
// written against the generated types, so a document that drifts from these calls fails the
// typecheck (tsc of this folder) before test/e2e/generated-client.test.ts runs them.
import createClient from 'openapi-fetch';
import type { components, paths } from '../generated/api.js';

/** What the test passes in: the deployment, the credentials and the ids a call needs. */
interface Args {
  origin: string;
  key?: string;
  requestId?: string;
  idempotencyKey?: string;
  campaignId?: string;
  publicId?: string;
  token?: string;
  endpoint?: string;
  oldEndpoint?: string;
  p256dh?: string;
  auth?: string;
  topics?: string[];
  scheduleDate?: string;
  startDate?: string;
  endDate?: string;
  cursor?: string;
  limit?: number;
  variant?: number;
  webhookId?: string;
  eventId?: string;
  notificationId?: string;
  subscriptionIds?: string[];
  url?: string;
  externalId?: string;
  signature?: string;
  templateId?: string;
  feedId?: string;
  name?: string;
  automationId?: string;
}

const [operation, json] = process.argv.slice(2);
const args = JSON.parse(json ?? '{}') as Args;
// One base URL for every call, /v2 and /public alike: the document's single server.
const client = createClient<paths>({ baseUrl: args.origin });
const apiKey = { Authorization: args.key ?? '' };
const requestId = args.requestId ?? 'client-check';
const need = (value: string | undefined, name: string): string => {
  if (value === undefined) throw new Error(`${operation} needs ${name}`);
  return value;
};

type Create = components['schemas']['CreateCampaignRequest'];
type ListFilter = components['schemas']['ListCampaignsRequest'];
type CreateWebhook = components['schemas']['CreateWebhookRequest'];
type UpdateWebhook = components['schemas']['UpdateWebhookRequest'];
type UpdateUser = components['schemas']['UpdateUserRequest'];
type CreateTemplate = components['schemas']['CreateTemplateRequest'];
type UpdateTemplate = components['schemas']['UpdateTemplateRequest'];
type CreateAutomation = components['schemas']['CreateAutomationRequest'];
type EventRequest = components['schemas']['EventRequest'];
type CreateFeed = components['schemas']['CreateFeedRequest'];
type UpdateFeed = components['schemas']['UpdateFeedRequest'];

const calls: Record<string, () => Promise<{ data?: unknown; error?: unknown; response: Response }>> = {
  createCampaign: () => {
    const body: Create = {
      title: 'Generated client',
      body: 'Sent through openapi-fetch',
      link: 'https://shop.example/client',
      topics: args.topics ?? ['news'],
      countries: [],
      status: 'published',
      scheduleMode: args.scheduleDate ? 'scheduled' : 'now',
      scheduleDate: args.scheduleDate ?? null,
      callToAction: 'Open',
      utmSource: 'client',
      ttl: 3600,
    };
    return client.POST('/v2/campaign/create', {
      params: { header: { 'Idempotency-Key': need(args.idempotencyKey, 'idempotencyKey'), 'X-Request-Id': requestId } },
      headers: apiKey,
      body,
    });
  },
  listCampaigns: () => {
    const body: ListFilter = { dateField: 'scheduleDate', status: ['scheduled', 'sent', 'draft', 'failed'] };
    if (args.startDate !== undefined) body.startDate = args.startDate;
    if (args.endDate !== undefined) body.endDate = args.endDate;
    if (args.limit !== undefined) body.limit = args.limit;
    if (args.cursor !== undefined) body.cursor = args.cursor;
    return client.POST('/v2/campaigns', { params: { header: { 'X-Request-Id': requestId } }, headers: apiKey, body });
  },
  exportCampaigns: () =>
    client.POST('/v2/campaigns/export', { params: { query: { format: 'csv' } }, headers: apiKey, body: { dateField: 'scheduleDate', status: ['scheduled'] }, parseAs: 'text' }),
  getCampaign: () => client.GET('/v2/campaign/{campaignId}', { params: { path: { campaignId: need(args.campaignId, 'campaignId') }, header: { 'X-Request-Id': requestId } }, headers: apiKey }),
  deleteCampaign: () => client.DELETE('/v2/campaign/{campaignId}', { params: { path: { campaignId: need(args.campaignId, 'campaignId') } }, headers: apiKey }),
  updateCampaign: () =>
    client.POST('/v2/campaign/{campaignId}/update', { params: { path: { campaignId: need(args.campaignId, 'campaignId') } }, headers: apiKey, body: { title: 'Corrected title' } }),
  recallCampaign: () => client.POST('/v2/campaign/{campaignId}/recall', { params: { path: { campaignId: need(args.campaignId, 'campaignId') } }, headers: apiKey }),
  createNotification: () =>
    client.POST('/v2/notifications', {
      params: { header: { 'Idempotency-Key': need(args.idempotencyKey, 'idempotencyKey') } },
      headers: apiKey,
      body: { subscriptionIds: args.subscriptionIds ?? [], title: 'Your order shipped', body: 'Sent through openapi-fetch', link: 'https://shop.example/orders/1', transactional: true },
    }),
  listNotifications: () => client.GET('/v2/notifications', { params: { query: args.limit === undefined ? {} : { limit: args.limit } }, headers: apiKey }),
  getNotification: () => client.GET('/v2/notifications/{notificationId}', { params: { path: { notificationId: need(args.notificationId, 'notificationId') } }, headers: apiKey }),
  planCampaignPreview: () =>
    client.POST('/v2/campaign/plan-preview', { headers: apiKey, body: { topics: args.topics ?? ['news'], sendTime: { mode: 'bestTime', within: '3h', holdout: 20 } } }),
  pickCampaignWinner: () =>
    client.POST('/v2/campaign/{campaignId}/winner', { params: { path: { campaignId: need(args.campaignId, 'campaignId') } }, headers: apiKey, body: { variant: args.variant ?? 0 } }),
  listTopics: () => client.GET('/v2/topics', { headers: apiKey }),
  listCountries: () => client.GET('/v2/countries', { headers: apiKey }),
  exportSubscribers: () =>
    client.GET('/v2/subscribers/export', { params: { query: args.topics ? { format: 'csv', topics: args.topics.join(',') } : { format: 'csv' } }, headers: apiKey, parseAs: 'text' }),
  importSubscribers: () =>
    client.POST('/v2/subscribers/import', {
      headers: apiKey,
      body: {
        subscriptions: [
          {
            endpoint: need(args.endpoint, 'endpoint'),
            keys: { p256dh: need(args.p256dh, 'p256dh'), auth: need(args.auth, 'auth') },
            topics: args.topics ?? [],
            country: 'PT',
            createdAt: '2025-06-01T12:00:00Z',
          },
        ],
      },
    }),
  // People: the customer's server reads, tags, exports and deletes a user its pages identified.
  getUser: () => client.GET('/v2/users/{externalId}', { params: { path: { externalId: need(args.externalId, 'externalId') } }, headers: apiKey }),
  updateUser: () => {
    const body: UpdateUser = { tags: { plan: 'gold', score: 7, signed_up_at: '2026-01-15' } };
    return client.PATCH('/v2/users/{externalId}', { params: { path: { externalId: need(args.externalId, 'externalId') } }, headers: apiKey, body });
  },
  exportUser: () => client.GET('/v2/users/{externalId}/export', { params: { path: { externalId: need(args.externalId, 'externalId') } }, headers: apiKey }),
  deleteUser: () => client.DELETE('/v2/users/{externalId}', { params: { path: { externalId: need(args.externalId, 'externalId') } }, headers: apiKey }),
  // Templates: the texts with variables, a visitor's values to render them with.
  createTemplate: () => {
    const body: CreateTemplate = {
      name: need(args.name, 'name'),
      title: 'Hi {{ first_name | "there" }}',
      body: 'Your {{ product }} is back',
      link: 'https://shop.example/p/{{ product_id }}',
    };
    return client.POST('/v2/templates', { params: { header: { 'X-Request-Id': requestId } }, headers: apiKey, body });
  },
  listTemplates: () => client.GET('/v2/templates', { params: { query: args.cursor ? { limit: args.limit ?? 20, cursor: args.cursor } : { limit: args.limit ?? 20 } }, headers: apiKey }),
  getTemplate: () => client.GET('/v2/templates/{templateId}', { params: { path: { templateId: need(args.templateId, 'templateId') } }, headers: apiKey }),
  updateTemplate: () => {
    const body: UpdateTemplate = { body: 'Only {{ left | "a few" }} {{ product }} left' };
    return client.PATCH('/v2/templates/{templateId}', { params: { path: { templateId: need(args.templateId, 'templateId') } }, headers: apiKey, body });
  },
  renderTemplate: () =>
    client.POST('/v2/templates/{templateId}/render', {
      params: { path: { templateId: need(args.templateId, 'templateId') } },
      headers: apiKey,
      body: { variables: { first_name: 'Ana', product: 'red boots', product_id: 'b/42', left: 3 } },
    }),
  deleteTemplate: () => client.DELETE('/v2/templates/{templateId}', { params: { path: { templateId: need(args.templateId, 'templateId') } }, headers: apiKey }),
  // Automations: an abandoned cart's reminder an hour later, cancelled by the checkout.
  createAutomation: () => {
    const body: CreateAutomation = {
      name: args.name ?? 'Abandoned cart',
      trigger: { type: 'event', name: 'cart_abandoned' },
      steps: [{ delaySeconds: 3600, templateId: need(args.templateId, 'templateId'), variables: { first_name: 'there' } }],
      exitOn: { events: ['checkout_completed'] },
    };
    return client.POST('/v2/automations', { params: { header: { 'X-Request-Id': requestId } }, headers: apiKey, body });
  },
  listAutomations: () => client.GET('/v2/automations', { params: { query: args.cursor ? { limit: args.limit ?? 20, cursor: args.cursor } : { limit: args.limit ?? 20 } }, headers: apiKey }),
  getAutomation: () => client.GET('/v2/automations/{automationId}', { params: { path: { automationId: need(args.automationId, 'automationId') } }, headers: apiKey }),
  updateAutomation: () => client.PATCH('/v2/automations/{automationId}', { params: { path: { automationId: need(args.automationId, 'automationId') } }, headers: apiKey, body: { status: 'paused' } }),
  deleteAutomation: () => client.DELETE('/v2/automations/{automationId}', { params: { path: { automationId: need(args.automationId, 'automationId') } }, headers: apiKey }),
  recordEvent: () => {
    const body: EventRequest = { externalId: args.externalId ?? 'user-123', name: args.name ?? 'cart_abandoned', properties: { product: 'red boots', total: 89.9 } };
    return client.POST('/v2/events', { params: { header: args.idempotencyKey ? { 'Idempotency-Key': args.idempotencyKey } : {} }, headers: apiKey, body });
  },
  // Feeds: one at a name that need not resolve (accepted when saved; its polls fail and say so).
  createFeed: () => {
    const body: CreateFeed = { url: need(args.url, 'url'), topics: ['news'], utmSource: 'feed' };
    return client.POST('/v2/feeds', { params: { header: { 'X-Request-Id': requestId } }, headers: apiKey, body });
  },
  listFeeds: () => client.GET('/v2/feeds', { params: { query: args.cursor ? { limit: args.limit ?? 20, cursor: args.cursor } : { limit: args.limit ?? 20 } }, headers: apiKey }),
  getFeed: () => client.GET('/v2/feeds/{feedId}', { params: { path: { feedId: need(args.feedId, 'feedId') } }, headers: apiKey }),
  updateFeed: () => {
    const body: UpdateFeed = { paused: true, pollIntervalMinutes: 60 };
    return client.PATCH('/v2/feeds/{feedId}', { params: { path: { feedId: need(args.feedId, 'feedId') } }, headers: apiKey, body });
  },
  deleteFeed: () => client.DELETE('/v2/feeds/{feedId}', { params: { path: { feedId: need(args.feedId, 'feedId') } }, headers: apiKey }),
  // Webhooks: an endpoint at a name that need not resolve (accepted at create; its deliveries
  // fail and are retried), for events the other calls of the check do not raise once it exists.
  createWebhook: () => {
    const body: CreateWebhook = { url: args.url ?? 'https://hooks.example.com/push', events: ['subscriber.created', 'notification.clicks'], description: 'Generated client' };
    return client.POST('/v2/webhooks', { params: { header: { 'X-Request-Id': requestId } }, headers: apiKey, body });
  },
  listWebhooks: () => client.GET('/v2/webhooks', { headers: apiKey }),
  getWebhook: () => client.GET('/v2/webhooks/{webhookId}', { params: { path: { webhookId: need(args.webhookId, 'webhookId') } }, headers: apiKey }),
  updateWebhook: () => {
    const body: UpdateWebhook = { events: ['subscriber.created', 'notification.impressions'], description: 'Generated client, changed', enabled: true };
    return client.PATCH('/v2/webhooks/{webhookId}', { params: { path: { webhookId: need(args.webhookId, 'webhookId') } }, headers: apiKey, body });
  },
  pingWebhook: () => client.POST('/v2/webhooks/{webhookId}/ping', { params: { path: { webhookId: need(args.webhookId, 'webhookId') } }, headers: apiKey }),
  listWebhookDeliveries: () => client.GET('/v2/webhooks/{webhookId}/deliveries', { params: { path: { webhookId: need(args.webhookId, 'webhookId') } }, headers: apiKey }),
  redeliverWebhookEvent: () =>
    client.POST('/v2/webhooks/{webhookId}/deliveries/{eventId}/redeliver', {
      params: { path: { webhookId: need(args.webhookId, 'webhookId'), eventId: need(args.eventId, 'eventId') } },
      headers: apiKey,
    }),
  rotateWebhookSecret: () =>
    client.POST('/v2/webhooks/{webhookId}/rotate-secret', { params: { path: { webhookId: need(args.webhookId, 'webhookId') } }, headers: apiKey, body: { overlapHours: 1 } }),
  deleteWebhook: () => client.DELETE('/v2/webhooks/{webhookId}', { params: { path: { webhookId: need(args.webhookId, 'webhookId') } }, headers: apiKey }),
  getOpenApiJson: () => client.GET('/v2/openapi.json'),
  getOpenApiYaml: () => client.GET('/v2/openapi.yaml', { parseAs: 'text' }),
  subscribe: () =>
    client.POST('/public/v1/sites/{publicId}/subscriptions', {
      params: { path: { publicId: need(args.publicId, 'publicId') } },
      body: {
        subscription: { endpoint: need(args.endpoint, 'endpoint'), expirationTime: null, keys: { p256dh: need(args.p256dh, 'p256dh'), auth: need(args.auth, 'auth') } },
        topics: args.topics ?? [],
        language: 'en-US',
        timeZone: 'UTC',
      },
    }),
  unsubscribe: () =>
    client.DELETE('/public/v1/sites/{publicId}/subscriptions', {
      params: { path: { publicId: need(args.publicId, 'publicId') } },
      body: { endpoint: need(args.endpoint, 'endpoint') },
    }),
  getSnippet: () => client.GET('/public/v1/webpush.js', { parseAs: 'text' }),
  getServiceWorker: () => client.GET('/public/v1/webpush-sw.js', { parseAs: 'text' }),
  getPromptScript: () => client.GET('/public/v1/webpush-prompt.js', { parseAs: 'text' }),
  getSiteConfig: () => client.GET('/public/v1/sites/{publicId}/config', { params: { path: { publicId: need(args.publicId, 'publicId') } } }),
  recordPageView: () =>
    client.POST('/public/v1/sites/{publicId}/pageviews', {
      params: { path: { publicId: need(args.publicId, 'publicId') } },
      body: { endpoint: need(args.endpoint, 'endpoint'), topics: args.topics ?? [] },
    }),
  recordSubscriptionChange: () =>
    client.POST('/public/v1/sites/{publicId}/subscription-changes', {
      params: { path: { publicId: need(args.publicId, 'publicId') } },
      body: { oldEndpoint: need(args.oldEndpoint, 'oldEndpoint'), endpoint: need(args.endpoint, 'endpoint') },
    }),
  // The page's identify (the signature made by the site's server), its tags, and the logout.
  identifySubscription: () =>
    client.POST('/public/v1/sites/{publicId}/identity', {
      params: { path: { publicId: need(args.publicId, 'publicId') } },
      body: { endpoint: need(args.endpoint, 'endpoint'), externalId: need(args.externalId, 'externalId'), signature: need(args.signature, 'signature') },
    }),
  tagVisitor: () =>
    client.POST('/public/v1/sites/{publicId}/tags', {
      params: { path: { publicId: need(args.publicId, 'publicId') } },
      body: { endpoint: need(args.endpoint, 'endpoint'), tags: { lang: 'pt' } },
    }),
  forgetSubscriptionIdentity: () =>
    client.DELETE('/public/v1/sites/{publicId}/identity', {
      params: { path: { publicId: need(args.publicId, 'publicId') } },
      body: { endpoint: need(args.endpoint, 'endpoint') },
    }),
  recordOptInEvent: () =>
    client.POST('/public/v1/sites/{publicId}/optin-events', {
      params: { path: { publicId: need(args.publicId, 'publicId') } },
      body: { event: 'shown', promptId: 'slide-down' },
    }),
  getOptInFunnel: () => client.GET('/v2/optin/funnel', { params: { query: { prompt: 'slide-down' } }, headers: apiKey }),
  reportEvent: () => client.POST('/public/v1/events', { body: { type: 'impression', token: need(args.token, 'token') } }),
  // The browser would follow the redirect; the check looks at where it points.
  clickRedirect: () => client.GET('/public/v1/r/{token}', { params: { path: { token: need(args.token, 'token') } }, redirect: 'manual', parseAs: 'text' }),
};

const call = operation === undefined ? undefined : calls[operation];
if (!call) throw new Error(`unknown operation ${operation}; known: ${Object.keys(calls).join(', ')}`);
const { data, error, response } = await call();
process.stdout.write(
  JSON.stringify({
    status: response.status,
    requestId: response.headers.get('x-request-id'),
    retryAfter: response.headers.get('retry-after'),
    location: response.headers.get('location'),
    body: data ?? error ?? null,
  }),
);
