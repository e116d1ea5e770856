// Calls every operation of gateway/openapi/openapi.yaml through the typescript-fetch client that
// OpenAPI Generator's CLI made from it, as a customer's program would, and prints one JSON line:
// each step's status, X-Request-Id, Location and body. test/e2e/generated-cli-clients.test.ts
// generates the client, compiles both with this folder's TypeScript 5 and runs this against the
// real stack (the same steps as the Python program):
//   node dist/cli/typescript-fetch/call-every-operation.js '<json arguments>'
import {
  AudienceApi,
  AutomationsApi,
  CampaignsApi,
  Configuration,
  ContractApi,
  FeedsApi,
  NotificationsApi,
  ResponseError,
  SitePluginApi,
  TemplatesApi,
  UsersApi,
  WebhooksApi,
  type ApiResponse,
} from '../generated/cli/typescript-fetch/index.js';

interface Args {
  origin: string;
  key: string;
  publicId: string;
  token: string;
  runId: string;
  endpointA: string;
  endpointB: string;
  endpointImport: string;
  externalId: string;
  signature: string;
  p256dh: string;
  auth: string;
}

interface Step {
  operation: string;
  status: number | null;
  ok: boolean;
  body?: unknown;
  requestId?: string | null;
  location?: string | null;
  error?: string;
}

const args = JSON.parse(process.argv[2] ?? '{}') as Args;
const config = new Configuration({ basePath: args.origin, apiKey: args.key });
const campaigns = new CampaignsApi(config);
const audience = new AudienceApi(config);
const users = new UsersApi(config);
const templates = new TemplatesApi(config);
const automations = new AutomationsApi(config);
const feeds = new FeedsApi(config);
const webhooks = new WebhooksApi(config);
const contract = new ContractApi(config);
const plugin = new SitePluginApi(config);
const steps: Record<string, Step> = {};

async function bodyOf(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Runs one call (a …Raw method) and records what it answered; returns the parsed value. */
async function step<T>(name: string, operation: string, call: () => Promise<ApiResponse<T>>): Promise<T | undefined> {
  try {
    const r = await call();
    const value = await r.value();
    // format: binary (CSV, NDJSON, YAML, JavaScript) arrives as a Blob.
    // A uniqueItems array arrives as a Set (an automation's exitOn.events), which JSON.stringify would write as {}.
    const body = value instanceof Blob ? await value.text() : JSON.parse(JSON.stringify(value ?? null, (_key, v: unknown) => (v instanceof Set ? [...v] : v)));
    steps[name] = { operation, status: r.raw.status, ok: true, body, requestId: r.raw.headers.get('x-request-id'), location: r.raw.headers.get('location') };
    return value;
  } catch (err) {
    if (err instanceof ResponseError) {
      const res = err.response;
      steps[name] = { operation, status: res.status, ok: false, body: await bodyOf(res), requestId: res.headers.get('x-request-id'), location: res.headers.get('location') };
    } else {
      steps[name] = { operation, status: null, ok: false, error: String(err) };
    }
    return undefined;
  }
}

const keys = { p256dh: args.p256dh, auth: args.auth };
const publicId = args.publicId;

await step('getOpenApiJson', 'getOpenApiJson', () => contract.getOpenApiJsonRaw());
await step('getOpenApiYaml', 'getOpenApiYaml', () => contract.getOpenApiYamlRaw());
await step('getSnippet', 'getSnippet', () => plugin.getSnippetRaw({}));
await step('getServiceWorker', 'getServiceWorker', () => plugin.getServiceWorkerRaw({}));
await step('getPromptScript', 'getPromptScript', () => plugin.getPromptScriptRaw({}));
await step('getSiteConfig', 'getSiteConfig', () => plugin.getSiteConfigRaw({ publicId }));
await step('subscribe', 'subscribe', () =>
  plugin.subscribeRaw({ publicId, subscribeRequest: { subscription: { endpoint: args.endpointA, expirationTime: null, keys }, topics: ['news'], language: 'en-US', timeZone: 'UTC' } }),
);
await step('recordPageView', 'recordPageView', () => plugin.recordPageViewRaw({ publicId, pageViewRequest: { endpoint: args.endpointA, topics: ['sports'] } }));
await step('subscribeSuccessor', 'subscribe', () => plugin.subscribeRaw({ publicId, subscribeRequest: { subscription: { endpoint: args.endpointB, expirationTime: null, keys }, topics: [] } }));
await step('recordSubscriptionChange', 'recordSubscriptionChange', () =>
  plugin.recordSubscriptionChangeRaw({ publicId, subscriptionChangeRequest: { oldEndpoint: args.endpointA, endpoint: args.endpointB } }),
);
await step('unsubscribe', 'unsubscribe', () => plugin.unsubscribeRaw({ publicId, unsubscribeRequest: { endpoint: args.endpointA } }));
await step('recordOptInEvent', 'recordOptInEvent', () => plugin.recordOptInEventRaw({ publicId, optInEventRequest: { event: 'shown', promptId: 'slide-down' } }));

await step('listTopics', 'listTopics', () => audience.listTopicsRaw({}));
await step('listCountries', 'listCountries', () => audience.listCountriesRaw({}));
await step('getOptInFunnel', 'getOptInFunnel', () => audience.getOptInFunnelRaw({ prompt: 'slide-down' }));
await step('importSubscribers', 'importSubscribers', () =>
  audience.importSubscribersRaw({
    importSubscribersRequest: { subscriptions: [{ endpoint: args.endpointImport, keys, topics: ['imported'], country: 'PT', createdAt: '2025-06-01T12:00:00Z' }] },
  }),
);
await step('exportSubscribers', 'exportSubscribers', () => audience.exportSubscribersRaw({ format: 'csv', topics: 'imported' }));

// People: the page identifies the browser (the signature made by the site's server) and sets the
// visitor's `lang`; the server reads, tags and exports the user; the page logs out; the server
// deletes the user (the logged-out subscription stays).
const externalId = args.externalId;
await step('identifySubscription', 'identifySubscription', () =>
  plugin.identifySubscriptionRaw({ publicId, identifyRequest: { endpoint: args.endpointB, externalId, signature: args.signature } }),
);
await step('tagVisitor', 'tagVisitor', () => plugin.tagVisitorRaw({ publicId, visitorTagsRequest: { endpoint: args.endpointB, tags: { lang: 'pt' } } }));
await step('getUser', 'getUser', () => users.getUserRaw({ externalId }));
await step('updateUser', 'updateUser', () => users.updateUserRaw({ externalId, updateUserRequest: { tags: { plan: 'gold', score: 7, signed_up_at: '2026-01-15' } } }));
await step('exportUser', 'exportUser', () => users.exportUserRaw({ externalId }));
await step('forgetSubscriptionIdentity', 'forgetSubscriptionIdentity', () => plugin.forgetSubscriptionIdentityRaw({ publicId, unsubscribeRequest: { endpoint: args.endpointB } }));
await step('deleteUser', 'deleteUser', () => users.deleteUserRaw({ externalId }));
await step('getDeletedUser', 'getUser', () => users.getUserRaw({ externalId }));

const created = await step('createCampaign', 'createCampaign', () =>
  campaigns.createCampaignRaw({
    createCampaignRequest: {
      title: 'TypeScript client',
      body: 'Sent through the generated typescript-fetch client',
      link: 'https://shop.example/typescript',
      topics: ['news'],
      status: 'published',
      scheduleMode: 'scheduled',
      scheduleDate: new Date('2031-06-01T10:30:00Z'),
      ignoreFrequencyCap: true,
      utmSource: 'typescript',
    },
    idempotencyKey: `typescript-fetch-${args.runId}`,
    xRequestId: `typescript-fetch-create-${args.runId}`,
  }),
);
const campaignId = created?.id ?? '';
await step('getCampaign', 'getCampaign', () => campaigns.getCampaignRaw({ campaignId }));
const filters = { startDate: new Date('2031-06-01T00:00:00Z'), endDate: new Date('2031-06-30T23:59:59Z'), dateField: 'scheduleDate' as const, status: ['scheduled' as const] };
await step('listCampaigns', 'listCampaigns', () => campaigns.listCampaignsRaw({ listCampaignsRequest: filters }));
await step('exportCampaigns', 'exportCampaigns', () => campaigns.exportCampaignsRaw({ format: 'ndjson', listCampaignsRequest: filters }));
await step('planCampaignPreview', 'planCampaignPreview', () =>
  campaigns.planCampaignPreviewRaw({ planPreviewRequest: { topics: ['news'], sendTime: { mode: 'bestTime' as const, within: '3h', holdout: 20 } } }),
);
await step('pickCampaignWinner', 'pickCampaignWinner', () => campaigns.pickCampaignWinnerRaw({ campaignId, pickWinnerRequest: { variant: 1 } }));
await step('updateCampaign', 'updateCampaign', () => campaigns.updateCampaignRaw({ campaignId, campaignUpdateRequest: { title: 'Corrected title' } }));
await step('recallCampaign', 'recallCampaign', () => campaigns.recallCampaignRaw({ campaignId }));
await step('deleteCampaign', 'deleteCampaign', () => campaigns.deleteCampaignRaw({ campaignId }));
await step('getDeletedCampaign', 'getCampaign', () => campaigns.getCampaignRaw({ campaignId }));

// Templates: save one, list, read, change its body (version 2), render it with a visitor's
// values, delete it; then reading it answers 404.
const template = await step('createTemplate', 'createTemplate', () =>
  templates.createTemplateRaw({
    createTemplateRequest: { name: `Back in stock ${args.runId}`, title: 'Hi {{ first_name | "there" }}', body: 'Your {{ product }} is back', link: 'https://shop.example/p/{{ product_id }}' },
  }),
);
const templateId = template?.id ?? '';
await step('listTemplates', 'listTemplates', () => templates.listTemplatesRaw({ limit: 10 }));
await step('getTemplate', 'getTemplate', () => templates.getTemplateRaw({ templateId }));
await step('updateTemplate', 'updateTemplate', () => templates.updateTemplateRaw({ templateId, updateTemplateRequest: { body: 'Only {{ left | "a few" }} {{ product }} left' } }));
await step('renderTemplate', 'renderTemplate', () =>
  templates.renderTemplateRaw({ templateId, renderTemplateRequest: { variables: { first_name: 'Ana', product: 'red boots', product_id: 'b/42', left: 3 } } }),
);
// Automations: an abandoned cart's reminder an hour later through the template, cancelled by the
// checkout; list, the person's event (202: they are enrolled), read it with its enrolments, pause,
// delete; then reading it answers 404 (before the template goes).
const automation = await step('createAutomation', 'createAutomation', () =>
  automations.createAutomationRaw({
    createAutomationRequest: {
      name: `Abandoned cart ${args.runId}`,
      trigger: { type: 'event', name: 'cart_abandoned' },
      steps: [{ delaySeconds: 3600, templateId, variables: { first_name: 'there' } }],
      exitOn: { events: new Set(['checkout_completed']) },
    },
    xRequestId: `typescript-fetch-automation-${args.runId}`,
  }),
);
const automationId = automation?.id ?? '';
await step('listAutomations', 'listAutomations', () => automations.listAutomationsRaw({ limit: 10 }));
await step('recordEvent', 'recordEvent', () =>
  automations.recordEventRaw({
    eventRequest: { externalId: args.externalId, name: 'cart_abandoned', properties: { product: 'red boots', total: 89.9 } },
    idempotencyKey: `typescript-fetch-event-${args.runId}`,
  }),
);
await step('getAutomation', 'getAutomation', () => automations.getAutomationRaw({ automationId }));
await step('updateAutomation', 'updateAutomation', () => automations.updateAutomationRaw({ automationId, updateAutomationRequest: { status: 'paused' } }));
await step('deleteAutomation', 'deleteAutomation', () => automations.deleteAutomationRaw({ automationId }));
await step('getDeletedAutomation', 'getAutomation', () => automations.getAutomationRaw({ automationId }));

await step('deleteTemplate', 'deleteTemplate', () => templates.deleteTemplateRaw({ templateId }));
await step('getDeletedTemplate', 'getTemplate', () => templates.getTemplateRaw({ templateId }));

const notifications = new NotificationsApi(config);
const notified = await step('createNotification', 'createNotification', () =>
  notifications.createNotificationRaw({
    createNotificationRequest: {
      subscriptionIds: new Set(['00000000-0000-4000-8000-000000000001']),
      title: 'Your order shipped',
      body: 'Sent through the generated typescript-fetch client',
      link: 'https://shop.example/orders/1',
    },
    idempotencyKey: `typescript-fetch-notify-${args.runId}`,
  }),
);
await step('getNotification', 'getNotification', () => notifications.getNotificationRaw({ notificationId: notified?.id ?? '' }));
await step('listNotifications', 'listNotifications', () => notifications.listNotificationsRaw({ limit: 10 }));

// Feeds: add one at a name that need not resolve (its polls fail and say so), list, read, pause
// it, delete it; then reading it answers 404.
const feed = await step('createFeed', 'createFeed', () => feeds.createFeedRaw({ createFeedRequest: { url: `https://feeds.example.com/${args.runId}.xml`, topics: ['news'], utmSource: 'feed' } }));
const feedId = feed?.id ?? '';
await step('listFeeds', 'listFeeds', () => feeds.listFeedsRaw({ limit: 10 }));
await step('getFeed', 'getFeed', () => feeds.getFeedRaw({ feedId }));
await step('updateFeed', 'updateFeed', () => feeds.updateFeedRaw({ feedId, updateFeedRequest: { paused: true, pollIntervalMinutes: 60 } }));
await step('deleteFeed', 'deleteFeed', () => feeds.deleteFeedRaw({ feedId }));
await step('getDeletedFeed', 'getFeed', () => feeds.getFeedRaw({ feedId }));

const hook = await step('createWebhook', 'createWebhook', () =>
  webhooks.createWebhookRaw({ createWebhookRequest: { url: 'https://hooks.example.com/typescript', events: ['subscriber.created', 'notification.clicks'], description: 'TypeScript client' } }),
);
const webhookId = hook?.id ?? '';
await step('listWebhooks', 'listWebhooks', () => webhooks.listWebhooksRaw({}));
await step('getWebhook', 'getWebhook', () => webhooks.getWebhookRaw({ webhookId }));
await step('updateWebhook', 'updateWebhook', () => webhooks.updateWebhookRaw({ webhookId, updateWebhookRequest: { description: 'TypeScript client, changed' } }));
const ping = await step('pingWebhook', 'pingWebhook', () => webhooks.pingWebhookRaw({ webhookId }));
await step('listWebhookDeliveries', 'listWebhookDeliveries', () => webhooks.listWebhookDeliveriesRaw({ webhookId }));
await step('redeliverWebhookEvent', 'redeliverWebhookEvent', () => webhooks.redeliverWebhookEventRaw({ webhookId, eventId: ping?.eventId ?? '' }));
await step('rotateWebhookSecret', 'rotateWebhookSecret', () => webhooks.rotateWebhookSecretRaw({ webhookId, rotateWebhookSecretRequest: { overlapHours: 1 } }));
await step('deleteWebhook', 'deleteWebhook', () => webhooks.deleteWebhookRaw({ webhookId }));

await step('reportEvent', 'reportEvent', () => plugin.reportEventRaw({ reportEventRequest: { type: 'impression', token: args.token } }));
// A program that wants a redirect's Location, not its target: fetch follows redirects unless told.
await step('clickRedirect', 'clickRedirect', () => plugin.clickRedirectRaw({ token: args.token }, { redirect: 'manual' }));

process.stdout.write(`${JSON.stringify({ runId: args.runId, steps })}\n`);
