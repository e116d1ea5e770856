// The opt-in funnel (issue 39; docs/site-plugin.md, "Opt-in funnel"; docs/api-decisions.md,
// "Opt-in funnel"): what the site plugin reports of its prompts — shown, accepted, dismissed, and
// the browser's permission denied — counted per site, UTC day, prompt and event; 'subscribed'
// and 'unsubscribed' are counted by the subscribe and unsubscribe calls themselves
// (audience/subscriber-store.ts), which know exactly whether the subscriber changed, so a report
// of them is refused. Read back per day and prompt over a bounded range of days. The statements
// are in funnel-store.ts.
import type { Pool } from '@webpush/shared/db.js';
import { NotFoundError, SiteNotFoundError, ValidationError, isUuid } from '../errors.js';
import { findSiteByPublicId } from '../sites/index.js';
import * as store from './funnel-store.js';

export const FUNNEL_EVENTS = ['shown', 'accepted', 'dismissed', 'denied', 'subscribed', 'unsubscribed'] as const;
export type FunnelEvent = (typeof FUNNEL_EVENTS)[number];
/** What the plugin reports; the other two are the subscription calls'. */
export const REPORTED_EVENTS: readonly FunnelEvent[] = ['shown', 'accepted', 'dismissed', 'denied'];

/** A prompt's id: the prompts' own configuration names them; 'site' is the site's own button or API. */
const PROMPT_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** Where a site's events go once it has MAX_PROMPTS_PER_DAY other prompts that day (not a valid id: never mixed with one). */
export const OTHER_PROMPTS = '(other)';
/** Kept in delivery.count_optin (the migration): a bound on a site's rows per day against made-up ids. */
export const MAX_PROMPTS_PER_DAY = 50;
/** Days of counters kept: a year's range is always whole, with a margin. */
export const FUNNEL_RETENTION_DAYS = 400;
/** The longest range one read may ask for. */
export const MAX_RANGE_DAYS = 366;
/** The range read when none is given: the last 30 days, today included. */
export const DEFAULT_RANGE_DAYS = 30;
/** Rows deleted per purge statement, and statements per retention pass. */
const PURGE_BATCH = 5000;
const PURGE_BATCHES_PER_PASS = 20;

export const FUNNEL_MESSAGES = Object.freeze({
  event: `event must be one of ${REPORTED_EVENTS.join(', ')} (subscribed and unsubscribed are counted from the subscription calls)`,
  promptId: 'promptId must be 1 to 64 letters, digits, "-" or "_"',
  from: 'from must be a date YYYY-MM-DD',
  to: 'to must be a date YYYY-MM-DD',
  prompt: 'prompt must be 1 to 64 letters, digits, "-" or "_"',
  order: 'from must not be after to',
  range: `from and to must be at most ${MAX_RANGE_DAYS} days apart, both included`,
});

/** A prompt id from a request: null when absent (undefined or null), else a valid one or a message. */
export function promptIdOf(value: unknown, messages: string[], message: string = FUNNEL_MESSAGES.promptId): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' && PROMPT_ID.test(value)) return value;
  messages.push(message);
  return null;
}

export type FunnelCounts = Record<FunnelEvent, number>;
export interface FunnelDay extends FunnelCounts {
  day: string;
  promptId: string;
}
export interface FunnelPrompt extends FunnelCounts {
  promptId: string;
}
export interface FunnelReport {
  from: string;
  to: string;
  /** The prompt asked for, '' for all. */
  prompt: string;
  /** One entry per day and prompt with any event, by day then prompt. */
  days: FunnelDay[];
  /** Per prompt over the range, by prompt. */
  prompts: FunnelPrompt[];
  totals: FunnelCounts;
}

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The UTC midnight of a YYYY-MM-DD that is a real date, else null. */
function dayOf(text: string): number | null {
  if (!DATE.test(text)) return null;
  const t = Date.parse(`${text}T00:00:00Z`);
  return Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== text ? null : t;
}

const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);
const noCounts = (): FunnelCounts => ({ shown: 0, accepted: 0, dismissed: 0, denied: 0, subscribed: 0, unsubscribed: 0 });

/** The range asked for ('' = not given), checked, with the defaults: to today (UTC), from DEFAULT_RANGE_DAYS back. */
export function funnelRange(query: { from: string; to: string; prompt: string }, now: Date = new Date()): { from: string; to: string; prompt: string | null } {
  const messages: string[] = [];
  const to = query.to === '' ? Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) : dayOf(query.to);
  if (to === null) messages.push(FUNNEL_MESSAGES.to);
  const from = query.from === '' ? (to === null ? null : to - (DEFAULT_RANGE_DAYS - 1) * DAY_MS) : dayOf(query.from);
  if (from === null && query.from !== '') messages.push(FUNNEL_MESSAGES.from);
  const prompt = query.prompt === '' ? null : promptIdOf(query.prompt, messages, FUNNEL_MESSAGES.prompt);
  if (from !== null && to !== null) {
    if (from > to) messages.push(FUNNEL_MESSAGES.order);
    else if ((to - from) / DAY_MS + 1 > MAX_RANGE_DAYS) messages.push(FUNNEL_MESSAGES.range);
  }
  if (messages.length > 0) throw new ValidationError(messages);
  return { from: isoDay(from!), to: isoDay(to!), prompt };
}

export function createOptInFunnel(pool: Pool) {
  return {
    /** The plugin's report of one event: the site by its public id (404), then the body (400), then counted. */
    async report(publicId: string, body: Record<string, unknown>): Promise<{ counted: true }> {
      const site = await findSiteByPublicId(pool, publicId);
      if (!site) throw new SiteNotFoundError();
      const messages: string[] = [];
      const event = REPORTED_EVENTS.find((e) => e === body.event);
      if (event === undefined) messages.push(FUNNEL_MESSAGES.event);
      const promptId = promptIdOf(body.promptId, messages);
      if (promptId === null && !messages.includes(FUNNEL_MESSAGES.promptId)) messages.push(FUNNEL_MESSAGES.promptId);
      if (messages.length > 0) throw new ValidationError(messages);
      await store.countEvent(pool, site.siteId, promptId!, event!);
      return { counted: true };
    },

    /** GET /v2/optin/funnel: the site's counters over the range, per day and prompt, per prompt, and in all. */
    async read(siteId: string, query: { from: string; to: string; prompt: string }): Promise<FunnelReport> {
      if (!isUuid(siteId)) throw new NotFoundError('Site not found');
      const range = funnelRange(query);
      const rows = await store.funnelRows(pool, siteId, range.from, range.to, range.prompt);
      const days = new Map<string, FunnelDay>();
      const prompts = new Map<string, FunnelPrompt>();
      const totals = noCounts();
      for (const r of rows) {
        const key = `${r.day} ${r.promptId}`;
        const day = days.get(key) ?? days.set(key, { day: r.day, promptId: r.promptId, ...noCounts() }).get(key)!;
        const prompt = prompts.get(r.promptId) ?? prompts.set(r.promptId, { promptId: r.promptId, ...noCounts() }).get(r.promptId)!;
        day[r.event] += r.count;
        prompt[r.event] += r.count;
        totals[r.event] += r.count;
      }
      return {
        from: range.from,
        to: range.to,
        prompt: range.prompt ?? '',
        days: [...days.values()],
        prompts: [...prompts.values()].sort((a, b) => (a.promptId < b.promptId ? -1 : a.promptId > b.promptId ? 1 : 0)),
        totals,
      };
    },
  };
}

export type OptInFunnel = ReturnType<typeof createOptInFunnel>;

/** Counters of days past FUNNEL_RETENTION_DAYS, PURGE_BATCH at a time, at most PURGE_BATCHES_PER_PASS statements: how many went. */
export async function purgeOptInFunnel(pool: Pool, now: Date = new Date()): Promise<number> {
  const keepFrom = isoDay(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - FUNNEL_RETENTION_DAYS * DAY_MS);
  let deleted = 0;
  for (let i = 0; i < PURGE_BATCHES_PER_PASS; i++) {
    const n = await store.purgeDaysBefore(pool, keepFrom, PURGE_BATCH);
    deleted += n;
    if (n < PURGE_BATCH) break;
  }
  return deleted;
}
