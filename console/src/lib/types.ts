// The console API's bodies and answers (docs/console.md), and the /v2 campaign objects it passes
// through unchanged (gateway/openapi/openapi.yaml: Campaign, CampaignPage, CreateCampaignRequest).
import type { Browser, Segment } from '@webpush/contracts/segment.js';

export type Role = 'owner' | 'editor' | 'viewer';

export interface SiteRef {
  id: string;
  name: string;
  role: Role;
}

export interface Session {
  user: { email: string };
  csrfToken: string;
  sites: SiteRef[];
}

export type Permission = 'create' | 'reports' | 'delete' | 'audience' | (string & {});

export interface SiteDetail {
  id: string;
  name: string;
  role: Role;
  plan: { name: string; permissions: Permission[] };
  vapidPublicKey: string;
  publicId: string;
  snippet: { page: string; serviceWorker: string };
}

/** A site's sending settings (GET …/settings). */
export interface SiteSettings {
  defaultThrottlePerMinute: number | null;
  frequencyCap: { campaigns: number; hours: number } | null;
  /** The zone in force: "UTC" when none was set. */
  timeZone: string;
  /** In each subscriber's zone; null: none. */
  quietHours: { from: string; to: string } | null;
}

/** A change (PATCH …/settings): values as typed (the API judges them), null lifts one. */
/** The site plugin's opt-in prompts (docs/site-plugin.md, "Opt-in prompts"), as GET and PATCH …/prompts answer them. */
export interface OptInPrompts {
  kind: 'none' | 'slidedown' | 'modal';
  title: string;
  body: string;
  acceptLabel: string;
  notNowLabel: string;
  trigger: { pageViews: number; delaySeconds: number };
  snoozeDays: number;
  bell: { enabled: boolean; position: 'bottom-right' | 'bottom-left' };
  topics: { name: string; label: string }[];
}

export interface SiteSettingsChange {
  defaultThrottlePerMinute?: number | string | null;
  frequencyCap?: { campaigns: number | string; hours: number | string } | null;
  timeZone?: string | null;
  quietHours?: { from: string; to: string } | null;
}

export interface ApiKey {
  id: string;
  label: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface IssuedKey {
  key: ApiKey;
  /** The full key: shown once. */
  apiKey: string;
}

export interface RotatedKey extends IssuedKey {
  revoked: ApiKey;
}

export interface Member {
  /** The user's id: how a member is changed or removed. */
  id: string;
  email: string;
  role: Role;
  /** When they joined the site. */
  since: string;
}

export interface Invite {
  id: string;
  email: string;
  role: Role;
  /** The inviting owner's email; null for an operator's (the CLI). */
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
}

export interface CreatedInvite {
  invite: Invite;
  /** The one-time link: shown once. */
  link: string;
}

/** What the invite page may know of a link before it is used. */
export type InvitePreview = { kind: 'invite'; site: { name: string }; invitedBy: string | null } | { kind: 'reset' };

/** One entry of a site's audit log (docs/console.md, "Audit log"). */
export interface AuditEntry {
  id: number;
  at: string;
  /** A console user (`id` their email) or an API key (`id` the key's id, with its prefix and label). */
  actor: { kind: 'user' | 'key'; id: string; prefix: string; label: string };
  action: string;
  target: string;
  status: number;
  clientAddress: string;
  requestId: string;
}

export interface AuditPage {
  items: AuditEntry[];
  /** The `before` of the next page; null after the last. */
  nextBefore: number | null;
}

export interface NameCount {
  name: string;
  users: number;
}

export interface DailyAudience {
  day: string;
  new: number;
  expired: number;
  active: number;
}

export interface BrowserCount {
  browser: string;
  users: number;
}

/** GET /v2/optin/funnel's answer (gateway/src/routes/optin-funnel.ts). */
export interface OptInCounts {
  shown: number;
  accepted: number;
  dismissed: number;
  denied: number;
  subscribed: number;
  unsubscribed: number;
}
export interface OptInRates {
  acceptRate: number | null;
  subscribeRate: number | null;
}
export interface OptInFunnel {
  from: string;
  to: string;
  prompt: string | null;
  days: (OptInCounts & { day: string; promptId: string })[];
  prompts: (OptInCounts & OptInRates & { promptId: string })[];
  totals: OptInCounts & OptInRates;
}

export type ListStatus = 'draft' | 'scheduled' | 'sent' | 'failed';

export interface ListCampaignsRequest {
  startDate?: string;
  endDate?: string;
  dateField?: 'createdAt' | 'scheduleDate';
  status?: ListStatus[];
  limit?: number;
  cursor?: string;
}

export interface Analytics {
  clicks: number;
  impressions: number;
  ctr: number;
  its: number;
  totalUsers: number;
}

export interface BrowserResults {
  sent: number;
  failed: number;
  expired: number;
  capped: number;
}

export interface Delivery {
  sent: number;
  failed: number;
  expired: number;
  pending: number;
  failedBy: Record<string, number>;
  capped?: number;
  byBrowser?: Partial<Record<Browser, BrowserResults>>;
}

// A campaign's segment is the contract's own type (a type-only import: nothing of it is bundled).
export type { Browser, Segment } from '@webpush/contracts/segment.js';

export interface AbVariant {
  title?: string;
  body?: string;
  link?: string;
  icon?: string | null;
  image?: string | null;
  callToAction?: string | null;
}

export interface AbTestRequest {
  variants: AbVariant[];
  testPercent: number;
  winnerMetric: 'ctr' | 'impressions';
  windowMinutes: number;
}

export interface AbVariantResult {
  variant: number;
  sent: number;
  impressions: number;
  clicks: number;
  ctr: number;
  its: number;
}

export interface AbTest extends AbTestRequest {
  results: AbVariantResult[];
  winner: { variant: number; decidedAt: string; by: 'metric' | 'customer' } | null;
  /** When the window ends and the metric picks the winner; null before the test's first push. */
  windowEndsAt: string | null;
}

export interface LocalTimePlan {
  date: string;
  time: string;
  ifPassed: 'nextDay';
  firstSendAt: string;
  lastSendAt: string;
  /** `held`: moved to the end of the site's quiet hours in those zones. */
  sends: { sendAt: string; zones: string[]; users: number; nextDay: boolean; held?: true }[];
}

/**
 * The notification options and the urgency (additions of 2026-12-05, docs/api-decisions.md
 * "Notification options"): on create, and on a campaign each only where it differs from its default.
 */
export interface NotificationOptionsFields {
  actions?: { title: string; link: string }[];
  badge?: string;
  requireInteraction?: boolean;
  renotify?: boolean;
  silent?: boolean;
  vibrate?: number[];
  timestamp?: string;
  dir?: 'auto' | 'ltr' | 'rtl';
  lang?: string;
  urgency?: 'very-low' | 'low' | 'normal' | 'high';
}

export interface Campaign extends NotificationOptionsFields {
  id: string;
  title: string;
  body: string;
  link: string;
  topics: string[];
  status: 'published' | 'draft' | 'failed';
  scheduleDate: string;
  scheduleMode: 'now' | 'scheduled';
  createdAt: string;
  updatedAt: string | null;
  totalUsers: number;
  image: string | null;
  icon: string | null;
  callToAction: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  ttl: number;
  ttlUnit: 'seconds';
  analytics: Analytics;
  delivery?: Delivery;
  segment?: Segment;
  throttlePerMinute?: number;
  ignoreFrequencyCap?: true;
  ignoreQuietHours?: true;
  localTime?: LocalTimePlan;
  abTest?: AbTest;
  sendTime?: SendTime;
}

/** A create's best time (docs/api-decisions.md, "Best time"). */
export interface SendTimeRequest {
  mode: 'bestTime';
  /** Whole hours, `1h` to `72h`. */
  within?: string;
  /** Percent sent at once, 0–50. */
  holdout?: number;
}

export interface SendTimeGroup {
  planned: number;
  sent: number;
  impressions: number;
  clicks: number;
  clickRate: number;
  impressionRate: number;
}

export interface SendTimeHour {
  sendAt: string;
  hour: number | null;
  planned: number;
  sent: number;
  impressions: number;
  clicks: number;
  clickRate: number;
  impressionRate: number;
  ctr: number;
}

export interface RateLift {
  difference: number;
  low: number | null;
  high: number | null;
  relative: number | null;
}

/** A best-time campaign's window, holdout and results. */
export interface SendTime {
  mode: 'bestTime';
  within: string;
  holdout: number;
  results: { holdout: SendTimeGroup; bestTime: SendTimeGroup; byHour: SendTimeHour[]; lift: { clickRate: RateLift; impressionRate: RateLift } };
}

/** POST …/campaigns/plan-preview's answer: the planned distribution before sending. */
export interface PlanPreview {
  totalUsers: number;
  sendTime: { mode: 'bestTime'; within: string; holdout: number };
  start: string;
  holdout: { users: number; share: number };
  byHour: { sendAt: string; hour: number; users: number; share: number }[];
  sampled: boolean;
  sampleSize: number;
}

export interface CampaignPage {
  items: Campaign[];
  limit: number;
  hasMore: boolean;
  nextCursor: string | null;
}

export interface CreateCampaignRequest extends NotificationOptionsFields {
  title: string;
  body: string;
  link: string;
  topics?: string[];
  countries?: string[];
  status: 'published' | 'draft';
  scheduleMode: 'now' | 'scheduled';
  scheduleDate?: string;
  icon?: string;
  image?: string;
  callToAction?: string;
  utmSource?: string;
  utmMedium?: string;
  utmCampaign?: string;
  ttl?: number;
  segment?: Segment;
  throttlePerMinute?: number;
  ignoreFrequencyCap?: boolean;
  ignoreQuietHours?: boolean;
  localTime?: string;
  abTest?: AbTestRequest;
  sendTime?: SendTimeRequest;
}

export interface CreatedCampaign {
  id: string;
  localTime?: LocalTimePlan;
}

export interface DeletedCampaign {
  id: string;
  deleted: true;
}

/** POST /v2/campaign/{campaignId}/update's body: the fields corrected (docs/api-decisions.md, "Update and recall"). */
export interface CampaignUpdate {
  title?: string;
  body?: string;
  link?: string;
  icon?: string | null;
  image?: string | null;
}

/** The answer of an update or recall. */
export interface CampaignRevision {
  id: string;
  revision: number;
  action: 'update' | 'recall';
  revisedAt: string;
}

export interface CampaignSeries {
  resolution: 'minute' | 'hour';
  /** Only minutes (hours) with a report; the chart fills the others with zeros from startedAt. */
  points: { at: string; impressions: number; clicks: number }[];
  /** When the campaign began sending; null before. */
  startedAt?: string | null;
}

/** A PushSubscription as its toJSON() gives it: what the console API takes. */
export interface SubscriptionJson {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** A webhook endpoint as /v2/webhooks answers it (docs/webhooks.md); never its secret. */
export interface Webhook {
  id: string;
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
  disabledAt: string | null;
  disabledReason: string | null;
  failingSince: string | null;
  /** While a rotated-out secret still signs (the overlap), when it stops. */
  previousSecretExpiresAt: string | null;
  createdAt: string;
}

/** Create's and rotate-secret's answer: the endpoint and its new secret, shown this once. */
export interface WebhookWithSecret extends Webhook {
  secret: string;
}

/** One event of an endpoint with its delivery state (GET …/deliveries, ping, redeliver). */
export interface WebhookDelivery {
  eventId: string;
  type: string;
  createdAt: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  /** The last attempt's HTTP status; null when none came (timeout, refused connection). */
  lastStatus: number | null;
  lastLatencyMs: number | null;
  lastError: string | null;
  deliveredAt: string | null;
}

/** What a create or an edit sends (an edit only what changed). */
export interface WebhookFields {
  url?: string;
  events?: string[];
  description?: string;
  enabled?: boolean;
}

/** A template's fields as the console edits them (docs/api-decisions.md, "Templates"): texts with {{ tags }}. */
export interface TemplateFields {
  name?: string;
  title?: string;
  body?: string;
  link?: string;
  icon?: string | null;
  image?: string | null;
  callToAction?: string | null;
}

/** A template as /v2/templates answers it: its fields as saved, the variables its texts use. */
export interface Template extends TemplateFields {
  id: string;
  name: string;
  version: number;
  variables: { name: string; required: boolean }[];
  createdAt: string;
  updatedAt: string;
}

export interface TemplatePage {
  items: Template[];
  limit: number;
  hasMore: boolean;
  nextCursor: string | null;
}

/** A template's preview: what a campaign made from it now with the values would have. */
export interface RenderedTemplate {
  template: { id: string; version: number };
  content: { title: string; body: string; link: string; icon: string | null; image: string | null; callToAction: string; actions: { title: string; link: string }[] };
}

/** A person of the site (the People page; docs/console.md, "People"): /v2/users' answer, each subscription with its country and topics. */
export interface Person {
  externalId: string;
  createdAt: string;
  subscriptions: {
    id: string | null;
    browser: string;
    createdAt: string;
    active: boolean;
    lastEngagedAt: string | null;
    /** ISO code; null unknown. */
    country: string | null;
    topics: string[];
  }[];
  tags: Record<string, string | number | boolean>;
}

/** What was sent to a person's subscriptions, newest first; `more` when older sends were left out. */
export interface PersonSends {
  items: {
    runId: string;
    kind: 'campaign' | 'notification' | 'revision';
    campaignId: string;
    title: string;
    subscriptionId: string | null;
    state: 'claimed' | 'sent' | 'expired' | 'failed';
    at: string;
    finishedAt: string | null;
    impressionAt: string | null;
    clickAt: string | null;
  }[];
  more: boolean;
}

/** The value a tag trigger waits for (absent: any value). */
export type TagTriggerValue = string | number | boolean;

/**
 * What starts an automation's runs (docs/api-decisions.md, "Automations"). Other kinds may be
 * added to the API; the pages show one they do not know by its type and fields.
 */
export type AutomationTrigger =
  | { type: 'subscribed' }
  | { type: 'event'; name: string }
  | { type: 'tag'; name: string; value?: TagTriggerValue }
  | { type: string; [field: string]: unknown };

/** A step's results, as the automation's page answers them; impressions and clicks where the API counts them. */
export interface AutomationStepResults {
  sent: number;
  exits: number;
  impressions?: number;
  clicks?: number;
  /** Clicks per impression in percent, as campaigns' (null: no impression yet). */
  ctr?: number | null;
}

export interface AutomationStep {
  delaySeconds: number;
  templateId: string;
  variables: Record<string, string | number>;
  /** Best time: each subscription at its best hour of the window after the delay (docs/api-decisions.md, "Notifications"). */
  sendTime?: { mode: 'bestTime'; within: string } | null;
  respectQuietHours?: boolean | null;
  results?: AutomationStepResults;
}

/** An automation as /v2/automations answers it; `results` and `enrolments` only on one automation's answer (not the list's). */
export interface Automation {
  id: string;
  name: string;
  status: 'active' | 'paused';
  trigger: AutomationTrigger;
  steps: AutomationStep[];
  exitOn: { events: string[]; click?: boolean };
  /** People a minute its steps are sent to at most; null (or absent, from a service without the field): no limit. */
  throttlePerMinute?: number | null;
  enrolments?: { active: number; completed: number; exited: number };
  createdAt: string;
  updatedAt: string;
}

export interface AutomationPage {
  items: Automation[];
  limit: number;
  hasMore: boolean;
  nextCursor: string | null;
}

/** A create body as the form sends it: numbers as typed (text that is not one goes as it is, for the API to refuse in its words). */
export interface AutomationFields {
  name: string;
  /** A tag's value may be null: a number that did not read as one, for the API to refuse. */
  trigger: { type: 'subscribed' } | { type: 'event'; name: string } | { type: 'tag'; name: string; value?: TagTriggerValue | null };
  steps: {
    delaySeconds: number | string;
    templateId: string;
    variables?: Record<string, string>;
    sendTime?: { mode: 'bestTime'; within: string };
    respectQuietHours?: boolean;
  }[];
  exitOn: { events: string[] };
  throttlePerMinute?: number | string;
}

/** An automation's change (PATCH): its status or its throttle (null lifts it; a text as typed, for the API to refuse). */
export interface AutomationChange {
  status?: Automation['status'];
  throttlePerMinute?: number | string | null;
}
