// The console API's client (docs/console.md): JSON in and out, the session cookie sent by the
// browser (same origin), the session's CSRF token in `X-CSRF-Token` on every state change, and
// errors as ApiError with the API's own `message`. A 401 on anything but logging in or accepting
// an invite means the session is gone: the handler set with onUnauthorized (the app sends the user
// to the login page) is called before the error is thrown.
import type {
  ApiKey,
  AuditPage,
  Automation,
  AutomationChange,
  AutomationFields,
  AutomationPage,
  BrowserCount,
  Campaign,
  CampaignPage,
  CampaignSeries,
  CreateCampaignRequest,
  CreatedCampaign,
  CreatedInvite,
  DailyAudience,
  CampaignRevision,
  CampaignUpdate,
  DeletedCampaign,
  Invite,
  InvitePreview,
  IssuedKey,
  ListCampaignsRequest,
  Member,
  NameCount,
  OptInFunnel,
  Person,
  PersonSends,
  Role,
  RotatedKey,
  PlanPreview,
  Segment,
  SendTimeRequest,
  Session,
  SiteDetail,
  OptInPrompts,
  SiteSettings,
  SiteSettingsChange,
  SubscriptionJson,
  RenderedTemplate,
  Template,
  TemplateFields,
  TemplatePage,
  Webhook,
  WebhookDelivery,
  WebhookFields,
  WebhookWithSecret,
} from './types';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Seconds, from a 429's Retry-After. */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Where the API is, relative to the page (/console/ → /console/api/). */
const BASE = 'api/';
const STATE_CHANGING = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

let csrfToken: string | null = null;
let unauthorized: (() => void) | null = null;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

export function onUnauthorized(handler: () => void): void {
  unauthorized = handler;
}

const enc = encodeURIComponent;

/** Sends one call; a network failure is an ApiError with status 0. */
async function send(method: string, path: string, body?: unknown, accept = 'application/json'): Promise<Response> {
  const headers: Record<string, string> = { Accept: accept };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (STATE_CHANGING.has(method) && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  try {
    return await fetch(BASE + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, 'Could not reach the server. Check the connection and try again.');
  }
}

const parsed = (text: string): unknown => {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
};

/** A refusal as an ApiError in the API's words; a 401 (but a login's) ends the page's session first. */
function refusal(res: Response, data: unknown, opts: { loginCall?: boolean }): ApiError {
  const message =
    data && typeof data === 'object' && typeof (data as { message?: unknown }).message === 'string'
      ? (data as { message: string }).message
      : `The server answered ${res.status} ${res.statusText}`.trim();
  const retry = Number(res.headers.get('Retry-After'));
  if (res.status === 401 && !opts.loginCall) {
    csrfToken = null;
    unauthorized?.();
  }
  return new ApiError(res.status, message, Number.isFinite(retry) && retry > 0 ? retry : undefined);
}

async function call<T>(method: string, path: string, body?: unknown, opts: { loginCall?: boolean } = {}): Promise<T> {
  const res = await send(method, path, body);
  const data = parsed(await res.text());
  if (!res.ok) throw refusal(res, data, opts);
  if (data === undefined) throw new ApiError(res.status, 'The server answered something that is not JSON');
  return data as T;
}

/**
 * An export, streamed (docs/console.md, "Exports"): the answer once it is a 200, its body still
 * to be read; a refusal (the API answers those as JSON, before anything is streamed) thrown as
 * call() throws it.
 */
async function download(method: string, path: string, body?: unknown): Promise<Response> {
  const res = await send(method, path, body, 'text/csv, application/json');
  if (!res.ok) throw refusal(res, parsed(await res.text()), {});
  return res;
}

/** Remembers the CSRF token of an answer that carries one (login, session, invite). */
function keepToken<T extends { csrfToken: string }>(p: Promise<T>): Promise<T> {
  return p.then((s) => {
    csrfToken = s.csrfToken;
    return s;
  });
}

const site = (siteId: string) => `sites/${enc(siteId)}`;

export const api = {
  login: (email: string, password: string) => keepToken(call<Session>('POST', 'login', { email, password }, { loginCall: true })),
  logout: () =>
    call<{ loggedOut: true }>('POST', 'logout').finally(() => {
      csrfToken = null;
    }),
  session: () => keepToken(call<Session>('GET', 'session')),
  lookupInvite: (token: string) => call<InvitePreview>('POST', 'invites/lookup', { token }, { loginCall: true }),
  acceptInvite: (token: string, password?: string) =>
    keepToken(call<Session>('POST', 'invites/accept', password ? { token, password } : { token }, { loginCall: true })),

  site: (siteId: string) => call<SiteDetail>('GET', site(siteId)),
  keys: (siteId: string) => call<ApiKey[]>('GET', `${site(siteId)}/keys`),
  createKey: (siteId: string, label: string) => call<IssuedKey>('POST', `${site(siteId)}/keys`, { label }),
  revokeKey: (siteId: string, keyId: string) => call<{ key: ApiKey }>('POST', `${site(siteId)}/keys/${enc(keyId)}/revoke`),
  rotateKey: (siteId: string, keyId: string) => call<RotatedKey>('POST', `${site(siteId)}/keys/${enc(keyId)}/rotate`),
  members: (siteId: string) => call<Member[]>('GET', `${site(siteId)}/members`),
  settings: (siteId: string) => call<SiteSettings>('GET', `${site(siteId)}/settings`),
  updateSettings: (siteId: string, change: SiteSettingsChange) => call<SiteSettings>('PATCH', `${site(siteId)}/settings`, change),
  prompts: (siteId: string) => call<OptInPrompts>('GET', `${site(siteId)}/prompts`),
  /** Numbers typed that are not numbers go as the text typed, for the API to say why it refuses them. */
  updatePrompts: (siteId: string, change: unknown) => call<OptInPrompts>('PATCH', `${site(siteId)}/prompts`, change),
  exportSubscribers: (siteId: string) => download('GET', `${site(siteId)}/subscribers/export?format=csv`),
  exportCampaigns: (siteId: string) => download('POST', `${site(siteId)}/campaigns/export?format=csv`, {}),
  changeRole: (siteId: string, memberId: string, role: Role) => call<Member>('PATCH', `${site(siteId)}/members/${enc(memberId)}`, { role }),
  removeMember: (siteId: string, memberId: string) => call<{ removed: true }>('DELETE', `${site(siteId)}/members/${enc(memberId)}`),
  invites: (siteId: string) => call<Invite[]>('GET', `${site(siteId)}/invites`),
  invite: (siteId: string, email: string, role: Role) => call<CreatedInvite>('POST', `${site(siteId)}/invites`, { email, role }),
  revokeInvite: (siteId: string, inviteId: string) => call<{ revoked: true }>('DELETE', `${site(siteId)}/invites/${enc(inviteId)}`),
  exportAuditLog: (siteId: string) => download('GET', `${site(siteId)}/audit/export`),
  auditLog: (siteId: string, before: number | null) => call<AuditPage>('GET', `${site(siteId)}/audit${before === null ? '' : `?before=${before}`}`),
  auditSettings: (siteId: string) => call<{ retentionDays: number }>('GET', `${site(siteId)}/audit/settings`),
  /** A text that is not a number is sent as it is, for the API to say why it refuses it. */
  setAuditSettings: (siteId: string, retentionDays: number | string) => call<{ retentionDays: number }>('PATCH', `${site(siteId)}/audit/settings`, { retentionDays }),
  testNotification: (siteId: string, subscription: SubscriptionJson) => call<{ sent: true }>('POST', `${site(siteId)}/test-notification`, { subscription }),

  topics: (siteId: string) => call<NameCount[]>('GET', `${site(siteId)}/topics`),
  countries: (siteId: string) => call<NameCount[]>('GET', `${site(siteId)}/countries`),
  renameTopic: (siteId: string, from: string, to: string) => call<{ subscribers: number }>('POST', `${site(siteId)}/topics/rename`, { from, to }),
  mergeTopics: (siteId: string, from: string[], to: string) => call<{ subscribers: number }>('POST', `${site(siteId)}/topics/merge`, { from, to }),
  deleteTopic: (siteId: string, name: string) => call<{ subscribers: number }>('POST', `${site(siteId)}/topics/delete`, { name }),
  daily: (siteId: string, days: number) => call<DailyAudience[]>('GET', `${site(siteId)}/audience/daily?days=${days}`),
  browsers: (siteId: string) => call<BrowserCount[]>('GET', `${site(siteId)}/audience/browsers`),
  person: (siteId: string, externalId: string) => call<Person>('GET', `${site(siteId)}/people/${enc(externalId)}`),
  personSends: (siteId: string, externalId: string) => call<PersonSends>('GET', `${site(siteId)}/people/${enc(externalId)}/sends`),
  /** Everything stored about the person, as /v2/users/{externalId}/export answers it (JSON). */
  exportPerson: (siteId: string, externalId: string) => download('GET', `${site(siteId)}/people/${enc(externalId)}/export`),
  deletePerson: (siteId: string, externalId: string) =>
    call<{ externalId: string; deleted: true; subscriptions: number }>('DELETE', `${site(siteId)}/people/${enc(externalId)}`),
  optInFunnel: (siteId: string, from: string, to: string) => call<OptInFunnel>('GET', `${site(siteId)}/optin/funnel?from=${from}&to=${to}`),

  listCampaigns: (siteId: string, body: ListCampaignsRequest) => call<CampaignPage>('POST', `${site(siteId)}/campaigns/list`, body),
  campaign: (siteId: string, campaignId: string) => call<Campaign>('GET', `${site(siteId)}/campaigns/${enc(campaignId)}`),
  series: (siteId: string, campaignId: string) => call<CampaignSeries>('GET', `${site(siteId)}/campaigns/${enc(campaignId)}/series`),
  createCampaign: (siteId: string, body: CreateCampaignRequest) => call<CreatedCampaign>('POST', `${site(siteId)}/campaigns`, body),
  updateDraft: (siteId: string, campaignId: string, body: CreateCampaignRequest) => call<CreatedCampaign>('PATCH', `${site(siteId)}/campaigns/${enc(campaignId)}`, body),
  estimate: (siteId: string, body: { topics: string[]; countries: string[]; segment?: Segment }) =>
    call<{ totalUsers: number }>('POST', `${site(siteId)}/campaigns/estimate`, body),
  /** A best-time campaign's planned distribution: the create body (its audience, sendTime, schedule) → by hour. */
  planPreview: (siteId: string, body: { topics: string[]; countries: string[]; segment?: Segment; sendTime: SendTimeRequest; scheduleMode: 'now' | 'scheduled'; scheduleDate?: string }) =>
    call<PlanPreview>('POST', `${site(siteId)}/campaigns/plan-preview`, body),
  deleteCampaign: (siteId: string, campaignId: string) => call<DeletedCampaign>('DELETE', `${site(siteId)}/campaigns/${enc(campaignId)}`),
  pickWinner: (siteId: string, campaignId: string, variant: number) =>
    call<{ id: string; winner: { variant: number; decidedAt: string; by: string } }>('POST', `${site(siteId)}/campaigns/${enc(campaignId)}/winner`, { variant }),
  updateSent: (siteId: string, campaignId: string, body: CampaignUpdate) => call<CampaignRevision>('POST', `${site(siteId)}/campaigns/${enc(campaignId)}/update`, body),
  recall: (siteId: string, campaignId: string) => call<CampaignRevision>('POST', `${site(siteId)}/campaigns/${enc(campaignId)}/recall`, {}),

  /** A page of the site's templates: the API's default size, or `limit` (it answers at most 100). */
  templates: (siteId: string, cursor: string | null, limit?: number) => {
    const query = [limit === undefined ? '' : `limit=${limit}`, cursor === null ? '' : `cursor=${enc(cursor)}`].filter(Boolean).join('&');
    return call<TemplatePage>('GET', `${site(siteId)}/templates${query ? `?${query}` : ''}`);
  },
  template: (siteId: string, templateId: string) => call<Template>('GET', `${site(siteId)}/templates/${enc(templateId)}`),
  createTemplate: (siteId: string, fields: TemplateFields) => call<Template>('POST', `${site(siteId)}/templates`, fields),
  updateTemplate: (siteId: string, templateId: string, fields: TemplateFields) => call<Template>('PATCH', `${site(siteId)}/templates/${enc(templateId)}`, fields),
  deleteTemplate: (siteId: string, templateId: string) => call<{ id: string; deleted: true }>('DELETE', `${site(siteId)}/templates/${enc(templateId)}`),
  renderTemplate: (siteId: string, templateId: string, variables: Record<string, string>) =>
    call<RenderedTemplate>('POST', `${site(siteId)}/templates/${enc(templateId)}/render`, { variables }),

  automations: (siteId: string, cursor: string | null) => call<AutomationPage>('GET', `${site(siteId)}/automations${cursor === null ? '' : `?cursor=${enc(cursor)}`}`),
  automation: (siteId: string, automationId: string) => call<Automation>('GET', `${site(siteId)}/automations/${enc(automationId)}`),
  createAutomation: (siteId: string, fields: AutomationFields) => call<Automation>('POST', `${site(siteId)}/automations`, fields),
  updateAutomation: (siteId: string, automationId: string, change: AutomationChange) => call<Automation>('PATCH', `${site(siteId)}/automations/${enc(automationId)}`, change),
  deleteAutomation: (siteId: string, automationId: string) => call<{ id: string; deleted: true }>('DELETE', `${site(siteId)}/automations/${enc(automationId)}`),

  webhooks: (siteId: string) => call<Webhook[]>('GET', `${site(siteId)}/webhooks`),
  webhook: (siteId: string, webhookId: string) => call<Webhook>('GET', `${site(siteId)}/webhooks/${enc(webhookId)}`),
  createWebhook: (siteId: string, fields: WebhookFields) => call<WebhookWithSecret>('POST', `${site(siteId)}/webhooks`, fields),
  updateWebhook: (siteId: string, webhookId: string, fields: WebhookFields) => call<Webhook>('PATCH', `${site(siteId)}/webhooks/${enc(webhookId)}`, fields),
  deleteWebhook: (siteId: string, webhookId: string) => call<{ id: string; deleted: true }>('DELETE', `${site(siteId)}/webhooks/${enc(webhookId)}`),
  rotateWebhookSecret: (siteId: string, webhookId: string, overlapHours: number | string) =>
    call<WebhookWithSecret>('POST', `${site(siteId)}/webhooks/${enc(webhookId)}/rotate-secret`, { overlapHours }),
  webhookDeliveries: (siteId: string, webhookId: string) => call<WebhookDelivery[]>('GET', `${site(siteId)}/webhooks/${enc(webhookId)}/deliveries`),
  redeliverWebhookEvent: (siteId: string, webhookId: string, eventId: string) =>
    call<WebhookDelivery>('POST', `${site(siteId)}/webhooks/${enc(webhookId)}/deliveries/${enc(eventId)}/redeliver`),
  pingWebhook: (siteId: string, webhookId: string) => call<WebhookDelivery>('POST', `${site(siteId)}/webhooks/${enc(webhookId)}/ping`),
};

/** The message to show for a failure: the API's own words (with the wait a 429 asks: a login's is often seconds), or what went wrong in the page. */
export function messageOf(err: unknown): string {
  if (err instanceof ApiError && err.retryAfter) return `${err.message} (about ${err.retryAfter < 60 ? `${err.retryAfter} s` : `${Math.ceil(err.retryAfter / 60)} min`})`;
  if (err instanceof ApiError) return err.message;
  return err instanceof Error ? err.message : String(err);
}
