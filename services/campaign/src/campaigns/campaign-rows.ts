// A campaign read from Postgres as typed rows (campaigns-store.ts selects them), and the typed
// Campaign message built from them (protos/campaign/v1/campaign.proto; its API JSON is built in
// @webpush/contracts campaign-json.ts), plus the position used by cursors.
import type { Campaign } from '@webpush/contracts/campaign-json.js';
import type { AbTest as StoredAbTest, AbWinner, VariantContent, VariantResult } from '@webpush/contracts/ab-test.js';
import { BEST_TIME_MODE, type BestTime, type SlotResult } from '@webpush/contracts/best-time.js';
import type { ResultsByBrowser } from '@webpush/contracts/messages.js';
import { BROWSERS, type Segment } from '@webpush/contracts/segment.js';
import type { NotificationOptions } from '@webpush/contracts/campaign-content.js';
import type { LocalTimePlan } from './local-time-plan.js';

export const SORT_COLUMN = { createdAt: 'created_at', scheduleDate: 'schedule_date' } as const;

/**
 * What changes after the insert: `status`, the counters (0 without a stats row), the delivery
 * service's results (by browser, the A/B test's) and the dates (only tests move them, to age a
 * campaign). Counters are numbers; dates the text Postgres prints for a UTC timestamp
 * ('YYYY-MM-DD HH:MI:SS[.ffffff]'), cut to the second here and kept whole for cursors.
 */
export interface LiveRow {
  id: string;
  status: string;
  schedule_date: string;
  schedule_mode: string;
  created_at: string;
  clicks: number;
  impressions: number;
  sent: number;
  failed: number;
  expired: number;
  pending: number;
  capped: number;
  failed_rejected: number;
  failed_unauthorized: number;
  failed_unreachable: number;
  failed_refused: number;
  /** Once the campaign finished: its outcomes by browser family, in BROWSERS order. */
  by_browser: ResultsByBrowser | null;
  /** The A/B test's counters per variant, as the delivery service reported them (none yet: null). */
  ab_results: VariantResult[] | null;
  ab_winner_variant: number | null;
  ab_winner_decided_at: string | null;
  ab_winner_by: AbWinner['by'] | null;
  ab_window_ends_at: string | null;
  /** A best-time campaign's results by slot, as the delivery service reported them (none yet: null). */
  best_time_results: SlotResult[] | null;
}

/** What nothing updates once the campaign is past draft (only drafts are edited: update-draft.ts): the content and the options. */
export interface FixedRow {
  title: string;
  body: string;
  link: string;
  topics: string[];
  /** Null: not counted yet (the delivery service could not count it at create; audience-recount.ts). */
  total_users: number | null;
  image: string | null;
  icon: string | null;
  call_to_action: string;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  ttl: number;
  segment: Segment | null;
  throttle_per_minute: number | null;
  ignore_frequency_cap: boolean;
  local_time: LocalTimePlan | null;
  ab_test: StoredAbTest | null;
  /** Null: the campaign sets none. */
  notification_options: NotificationOptions | null;
  urgency: string;
  ignore_quiet_hours: boolean;
  best_time: BestTime | null;
}

export type CampaignRow = LiveRow & FixedRow;

/** 'YYYY-MM-DD HH:MI:SS[.ffffff]' → 'YYYY-MM-DDTHH:MI:SSZ', the API's dates (to the second, cut as to_char cuts). */
const apiDate = (utc: string) => `${utc.slice(0, 10)}T${utc.slice(11, 19)}Z`;

/**
 * A campaign's fixed fields in the message's form, made once per campaign read with every column
 * (and kept per id by FixedPartsCache): the live ones are filled in on each read.
 */
export type FixedFields = Pick<Campaign, 'title' | 'body' | 'link' | 'topics' | 'totalUsers' | 'image' | 'icon' | 'callToAction' | 'utmSource' | 'utmMedium' | 'utmCampaign' | 'ttl' | 'segment' | 'throttlePerMinute' | 'ignoreFrequencyCap' | 'localTime' | 'options' | 'urgency' | 'ignoreQuietHours'> & {
  /** The test as stored, without its results. */
  abTest: Pick<NonNullable<Campaign['abTest']>, 'variants' | 'testPercent' | 'winnerMetric' | 'windowMinutes'> | null;
  /** The window and holdout, without results. */
  sendTime: Omit<NonNullable<Campaign['sendTime']>, 'slots'> | null;
};

export function fixedFieldsOf(r: FixedRow): FixedFields {
  return {
    title: r.title,
    body: r.body,
    link: r.link,
    topics: r.topics,
    totalUsers: r.total_users ?? 0,
    // The API shows an empty image or icon as null, like an unset one.
    image: r.image || undefined,
    icon: r.icon || undefined,
    callToAction: r.call_to_action,
    utmSource: r.utm_source,
    utmMedium: r.utm_medium,
    utmCampaign: r.utm_campaign,
    ttl: r.ttl,
    segment: r.segment === null ? null : segmentMessage(r.segment),
    throttlePerMinute: r.throttle_per_minute ?? undefined,
    ignoreFrequencyCap: r.ignore_frequency_cap,
    // A send's `held` is stored only when true; the message's is a boolean.
    localTime: r.local_time === null ? null : { ...r.local_time, sends: r.local_time.sends.map((s) => ({ ...s, held: s.held === true })) },
    abTest: r.ab_test === null ? null : { variants: r.ab_test.variants.map(variantMessage), testPercent: r.ab_test.testPercent, winnerMetric: r.ab_test.winnerMetric, windowMinutes: r.ab_test.windowMinutes },
    options: r.notification_options === null ? null : optionsMessage(r.notification_options),
    urgency: r.urgency,
    ignoreQuietHours: r.ignore_quiet_hours,
    sendTime: r.best_time === null ? null : { mode: BEST_TIME_MODE, withinHours: r.best_time.withinHours, holdoutPercent: r.best_time.holdoutPercent },
  };
}

/** The options in the message's form: an unset badge or timestamp is absent (the API's null). */
function optionsMessage(o: NotificationOptions): NonNullable<Campaign['options']> {
  return {
    actions: o.actions.map((a) => ({ title: a.title, link: a.link })),
    badge: o.badge ?? undefined,
    requireInteraction: o.requireInteraction,
    renotify: o.renotify,
    silent: o.silent,
    vibrate: o.vibrate,
    timestamp: o.timestamp ?? undefined,
    dir: o.dir,
    lang: o.lang,
  };
}

function segmentMessage(s: Segment): NonNullable<Campaign['segment']> {
  return {
    languages: s.languages ?? [],
    timeZones: s.timeZones ?? [],
    utcOffset: s.utcOffset ?? null,
    browsers: s.browsers ?? [],
    subscribedAfter: s.subscribedAfter,
    subscribedBefore: s.subscribedBefore,
    engagedWithinDays: s.engagedWithinDays,
    notEngagedForDays: s.notEngagedForDays,
    tags: (s.tags ?? []).map((c) => ({ key: c.key, operator: c.operator, values: ('values' in c ? c.values : 'value' in c ? [c.value] : []).map(tagValueMessage) })),
  };
}

function tagValueMessage(v: string | number | boolean) {
  return typeof v === 'string' ? { text: v } : typeof v === 'number' ? { number: v } : { boolean: v };
}

/** A variant's null icon or image (it removes the campaign's) travels as ''. */
function variantMessage(v: VariantContent): NonNullable<Campaign['abTest']>['variants'][number] {
  return {
    title: v.title,
    body: v.body,
    link: v.link,
    icon: v.icon === null ? '' : v.icon,
    image: v.image === null ? '' : v.image,
    callToAction: v.callToAction,
  };
}

/** The Campaign message from a campaign's fixed fields and its live row. */
export function campaignOf(f: FixedFields, r: LiveRow): Campaign {
  return {
    id: r.id,
    title: f.title,
    body: f.body,
    link: f.link,
    topics: f.topics,
    status: r.status,
    scheduleDate: apiDate(r.schedule_date),
    scheduleMode: r.schedule_mode,
    createdAt: apiDate(r.created_at),
    totalUsers: f.totalUsers,
    image: f.image,
    icon: f.icon,
    callToAction: f.callToAction,
    utmSource: f.utmSource,
    utmMedium: f.utmMedium,
    utmCampaign: f.utmCampaign,
    ttl: f.ttl,
    analytics: { clicks: r.clicks, impressions: r.impressions },
    delivery: {
      sent: r.sent,
      failed: r.failed,
      expired: r.expired,
      pending: r.pending,
      failedBy: { rejected: r.failed_rejected, unauthorized: r.failed_unauthorized, unreachable: r.failed_unreachable, refused: r.failed_refused },
      capped: r.capped,
      byBrowser: r.by_browser === null ? [] : byBrowserOf(r.by_browser),
    },
    segment: f.segment,
    throttlePerMinute: f.throttlePerMinute,
    ignoreFrequencyCap: f.ignoreFrequencyCap,
    localTime: f.localTime,
    abTest: f.abTest === null ? null : { ...f.abTest, ...abOutcomeOf(f.abTest.variants.length, r) },
    options: f.options,
    urgency: f.urgency,
    ignoreQuietHours: f.ignoreQuietHours,
    sendTime: f.sendTime === null ? null : { ...f.sendTime, slots: slotsOf(r.best_time_results) },
  };
}

/** The reported slots in order, each with its send moment as the API writes dates. */
function slotsOf(results: SlotResult[] | null): NonNullable<Campaign['sendTime']>['slots'] {
  return [...(results ?? [])]
    .sort((a, b) => a.slot - b.slot)
    .map((s) => ({ slot: s.slot, sendAt: s.sendAt === '' ? '' : `${s.sendAt.slice(0, 19)}Z`, planned: s.planned, sent: s.sent, impressions: s.impressions, clicks: s.clicks }));
}

function byBrowserOf(results: ResultsByBrowser): NonNullable<Campaign['delivery']>['byBrowser'] {
  return BROWSERS.flatMap((browser) => {
    const r = results[browser];
    return r === undefined ? [] : [{ browser, sent: r.sent, failed: r.failed, expired: r.expired, capped: r.capped }];
  });
}

/**
 * `results`, one per variant in order (zeros before the delivery service reported any, and for a
 * variant it did not report; the greatest counters of a variant reported twice), `winner` (null
 * until chosen) and `windowEndsAt` (unset before the test's first send).
 */
function abOutcomeOf(variants: number, r: LiveRow): Pick<NonNullable<Campaign['abTest']>, 'results' | 'winner' | 'windowEndsAt'> {
  const results = Array.from({ length: variants }, (_, variant) => ({ variant, sent: 0, impressions: 0, clicks: 0 }));
  for (const reported of r.ab_results ?? []) {
    const v = results[reported.variant];
    if (v === undefined) continue;
    v.sent = Math.max(v.sent, reported.sent);
    v.impressions = Math.max(v.impressions, reported.impressions);
    v.clicks = Math.max(v.clicks, reported.clicks);
  }
  return {
    results,
    winner: r.ab_winner_variant === null ? null : { variant: r.ab_winner_variant, decidedAt: apiDate(r.ab_winner_decided_at!), by: r.ab_winner_by! },
    windowEndsAt: r.ab_window_ends_at === null ? undefined : apiDate(r.ab_window_ends_at),
  };
}

/** The row's sort date at full precision, 'YYYY-MM-DDTHH:MI:SS.ffffffZ': a cursor's position. */
export function sortKeyOf(r: LiveRow, column: (typeof SORT_COLUMN)[keyof typeof SORT_COLUMN]): string {
  const utc = r[column];
  const fraction = utc.length > 20 ? utc.slice(20, 26) : '';
  return `${utc.slice(0, 10)}T${utc.slice(11, 19)}.${fraction.padEnd(6, '0')}Z`;
}
