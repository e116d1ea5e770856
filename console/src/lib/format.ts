// Numbers, percentages and names as the console shows them.
import { instantToWall, showDate } from './time';
import type { Campaign } from './types';

const integer = new Intl.NumberFormat('en-US');

export function count(n: number | null | undefined): string {
  return n == null ? '—' : integer.format(n);
}

/** The API's percentages (two decimals already): `12.5 %`. */
export function percent(n: number | null | undefined): string {
  return n == null ? '—' : `${n.toLocaleString('en-US', { maximumFractionDigits: 2 })} %`;
}

/** A rate of 0 to 1 (the opt-in funnel's): `12.5 %`; null (nothing to divide by) is `—`. */
export function rate(n: number | null | undefined): string {
  return n == null ? '—' : percent(Math.round(n * 10_000) / 100);
}

export const COUNTRY_PREFIX = 'country__';
export const UNKNOWN_COUNTRY = 'country__desconhecido';

let regions: Intl.DisplayNames | null | undefined;

/** `country__br` → `Brazil (BR)`; the unidentified country → `Unknown country`. */
export function countryName(name: string): string {
  if (name === UNKNOWN_COUNTRY) return 'Unknown country';
  const code = name.startsWith(COUNTRY_PREFIX) ? name.slice(COUNTRY_PREFIX.length).toUpperCase() : name.toUpperCase();
  if (regions === undefined) {
    try {
      regions = new Intl.DisplayNames(['en'], { type: 'region' });
    } catch {
      regions = null;
    }
  }
  let label: string | undefined;
  try {
    label = /^[A-Z]{2}$/.test(code) ? regions?.of(code) : undefined;
  } catch {
    label = undefined;
  }
  return label && label !== code ? `${label} (${code})` : code;
}

export const PERMISSION_TEXT: Record<string, string> = {
  create: 'Create campaigns',
  reports: 'Read campaigns and their results',
  delete: 'Delete campaigns before they are sent',
  audience: 'See topics and countries',
};

/** What each role of a site may do (docs/console.md, "Members and roles"): the sites page and the members card say it. */
export const ROLE_TEXT: Record<string, { name: string; does: string }> = {
  owner: { name: 'Owner', does: 'API keys, members, settings, campaigns and topics' },
  editor: { name: 'Editor', does: 'campaigns and topics' },
  viewer: { name: 'Viewer', does: 'read-only access to campaigns, results, the audience and settings' },
};

/** Whether the role may change campaigns and topics (the console API refuses a viewer's changes with 403). */
export const canChange = (role: string) => role === 'owner' || role === 'editor';

export type ListedStatus = 'draft' | 'scheduled' | 'sending' | 'sent' | 'failed';

/**
 * Where a campaign stands, in the list filter's words (plus `sending` while pushes are pending):
 * the campaign's own `status` reads `published` before and after its send.
 */
export function campaignState(c: Campaign, now = Date.now()): ListedStatus {
  if (c.status === 'draft') return 'draft';
  if (c.status === 'failed') return 'failed';
  const last = c.localTime ? Date.parse(c.localTime.lastSendAt) : Date.parse(c.scheduleDate);
  if (c.scheduleMode === 'scheduled' && last > now) return Date.parse(c.scheduleDate) > now ? 'scheduled' : 'sending';
  if ((c.delivery?.pending ?? 0) > 0) return 'sending';
  return 'sent';
}

/** An instant as a clock shows it in `zone`: `14:05` on the day of `now`, `28 Nov 2026, 09:00` on another. */
function clockTime(ms: number, zone: string, now: number): string {
  const at = instantToWall(ms, zone);
  return at.slice(0, 10) === instantToWall(now, zone).slice(0, 10) ? at.slice(11, 16) : showDate(new Date(ms).toISOString(), zone);
}

/**
 * Where a sending campaign's send stands, one short line each (issue 34): `Sending n of N` (the
 * pushes with an outcome, of those planned: `delivery.pending` counts the rest), `Testing: winner
 * at hh:mm` while an A/B test waits for its winner, `Next group at hh:mm` while local-time groups
 * are still to come. None unless it is sending.
 */
export function sendingProgress(c: Campaign, zone: string, now = Date.now()): string[] {
  if (campaignState(c, now) !== 'sending') return [];
  const lines: string[] = [];
  const d = c.delivery;
  if (d) {
    const done = d.sent + d.failed + d.expired + (d.capped ?? 0);
    lines.push(`Sending ${count(done)} of ${count(done + d.pending)}`);
  }
  const windowEnds = c.abTest && c.abTest.winner === null && c.abTest.windowEndsAt ? Date.parse(c.abTest.windowEndsAt) : NaN;
  if (!Number.isNaN(windowEnds)) lines.push(`Testing: winner at ${clockTime(windowEnds, zone, now)}`);
  const next = c.localTime?.sends.map((s) => Date.parse(s.sendAt)).find((at) => at > now);
  if (next !== undefined) lines.push(`Next group at ${clockTime(next, zone, now)}`);
  return lines;
}

/** Impressions and clicks keep arriving after the last push: a campaign is watched this long after it. */
export const REPORTS_WINDOW_MS = 15 * 60_000;

/**
 * Whether a campaign's page keeps refreshing: from its first send until the send is over (every
 * planned push has an outcome: `delivery.pending` 0, however long a throttle, an A/B test's window
 * or local-time groups take; and no A/B winner is awaited), then while reports still come in.
 */
export function isLive(c: Campaign, now = Date.now()): boolean {
  if (c.status !== 'published') return false;
  const first = Date.parse(c.scheduleDate);
  const last = c.localTime ? Date.parse(c.localTime.lastSendAt) : first;
  if (first > now) return false;
  if ((c.delivery?.pending ?? 0) > 0 || (c.abTest !== undefined && c.abTest.winner === null)) return true;
  return now - last < REPORTS_WINDOW_MS;
}

export const STATE_TEXT: Record<ListedStatus, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
};

/** The host a link names, for the notification previews (`shop.example`). */
export function hostOf(link: string): string {
  try {
    return new URL(link).host;
  } catch {
    return '';
  }
}

/** An https:// URL the preview may show as an image (the API refuses any other for icon and image). */
export function previewImage(url: string | null | undefined): string | null {
  return url && /^https:\/\/[^\s]+$/.test(url) ? url : null;
}

let segmenter: Intl.Segmenter | null | undefined;

/** User-perceived characters, as the API counts title, body and button lengths. */
export function graphemes(s: string): number {
  if (segmenter === undefined) segmenter = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter('en', { granularity: 'grapheme' }) : null;
  if (!segmenter) return [...s].length;
  let n = 0;
  for (const _ of segmenter.segment(s)) n++;
  return n;
}

/** `createCampaign` → `create campaign`: the API's operation names, read as words. */
export function actionText(action: string): string {
  return action.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

/** The outcome of the call by its HTTP status. */
export function outcomeText(status: number): string {
  if (status < 400) return `Done (${status})`;
  if (status < 500) return `Refused (${status})`;
  return `Failed (${status})`;
}
