// A site's subscribers, out: GET /v2/subscribers/export streams them as NDJSON or CSV, filtered
// like a campaign's audience (topics ∪ countries; none: every subscriber), active and retired
// alike. Pages of EXPORT_PAGE_ROWS by keyset on the subscriber id, each encoded to one chunk, so
// memory stays the same for 1,000 or 1,000,000 rows. Never the push keys or the endpoint: those
// let anyone who holds them push to the browser.
import type { Pool } from '@webpush/shared/db.js';
import { csvCell } from '@webpush/shared/csv.js';
import { ValidationError } from '../errors.js';
import { createSiteSlots } from './site-slots.js';
import { countryCode, normalizeCountryName, normalizeTopic } from './names.js';
import { createSitePace, type SitePace } from './site-pace.js';
import { migrationExportPage, subscriberExportPage, type ExportRow } from './subscriber-store.js';

export const EXPORT_FORMATS = ['ndjson', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/**
 * Rows read and encoded together: one page's encoding is one stretch of this process's event
 * loop that other sites' calls wait behind, so pages are small (2,000 made another site's p99 wait).
 */
export const EXPORT_PAGE_ROWS = 500;
/** Names in one topics or countries filter. */
export const MAX_EXPORT_FILTER_NAMES = 1000;
/** Retry-After of an export refused because its site runs its most exports at once: a large export takes a while. */
export const EXPORT_RETRY_AFTER_SECONDS = 30;

export const EXPORT_MESSAGES = Object.freeze({
  format: 'format must be ndjson or csv',
  topics: `topics must be a comma-separated list of at most ${MAX_EXPORT_FILTER_NAMES} topic names`,
  countries: `countries must be a comma-separated list of at most ${MAX_EXPORT_FILTER_NAMES} two-letter country codes`,
  tooMany: 'Too many exports for this site at once; retry after Retry-After seconds',
});

export interface ExportQuery {
  format: ExportFormat;
  /** Stored topic names; empty with `countries` empty: every subscriber. */
  topics: string[];
  /** Stored country names (`country__br`). */
  countries: string[];
}

/** The CSV columns, and the NDJSON fields, in this order. */
export const EXPORT_COLUMNS = ['id', 'createdAt', 'country', 'topics', 'language', 'timeZone', 'browser', 'active', 'lastEngagedAt'] as const;

function names(raw: string | undefined, normalize: (s: string) => string | null): string[] | null {
  if (raw === undefined || raw.trim() === '') return [];
  const parts = raw.split(',');
  if (parts.length > MAX_EXPORT_FILTER_NAMES) return null;
  const out: string[] = [];
  for (const part of parts) {
    const name = normalize(part);
    if (name === null) return null;
    out.push(name);
  }
  return [...new Set(out)];
}

/** The query of GET /v2/subscribers/export (each value as the URL gave it, or absent); throws ValidationError. */
export function parseExportQuery(raw: { format?: string; topics?: string; countries?: string }): ExportQuery {
  const messages: string[] = [];
  const format = raw.format === undefined || raw.format === '' ? 'ndjson' : raw.format;
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) messages.push(EXPORT_MESSAGES.format);
  const topics = names(raw.topics, normalizeTopic);
  if (topics === null) messages.push(EXPORT_MESSAGES.topics);
  const countries = names(raw.countries, (c) => (/^\s*[A-Za-z]{2}\s*$/.test(c) ? normalizeCountryName(c) : null));
  if (countries === null) messages.push(EXPORT_MESSAGES.countries);
  if (messages.length > 0) throw new ValidationError(messages);
  return { format: format as ExportFormat, topics: topics!, countries: countries! };
}


const isoSeconds = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

function record(r: ExportRow) {
  return {
    id: r.public_id,
    createdAt: isoSeconds(r.created_at),
    country: countryCode(r.country),
    topics: r.topics,
    language: r.language,
    timeZone: r.time_zone,
    browser: r.browser,
    active: r.active,
    /** The latest impression or click (migrations/20261126160000_subscriber_engagement.sql), null when none. */
    lastEngagedAt: r.last_engaged_at === null ? null : isoSeconds(r.last_engaged_at),
  };
}

function csvLine(r: ReturnType<typeof record>): string {
  return [r.id, r.createdAt, r.country ?? '', r.topics.join(';'), r.language ?? '', r.timeZone ?? '', r.browser, String(r.active), r.lastEngagedAt ?? ''].map(csvCell).join(',') + '\r\n';
}

/**
 * Pages of EXPORT_PAGE_ROWS of a site's subscribers in id order, each read by `readPage` (the rows
 * after a subscriber id, at most a limit). Bounded: each page moves past at least one row, or ends.
 */
async function* pages<R extends { id: string }>(readPage: (after: string, limit: number) => Promise<R[]>, beforePage?: (rows: number) => Promise<void>): AsyncGenerator<R[]> {
  let after = '0';
  for (;;) {
    await beforePage?.(EXPORT_PAGE_ROWS);
    const rows = await readPage(after, EXPORT_PAGE_ROWS);
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < EXPORT_PAGE_ROWS) return;
    after = rows[rows.length - 1].id;
  }
}

/** The export, chunk by chunk: the CSV header first, then one chunk per page of rows. Stops when the consumer stops pulling. */
export async function* exportSubscribers(pool: Pool, siteId: string, query: ExportQuery, pace?: SitePace): AsyncGenerator<Buffer> {
  if (query.format === 'csv') yield Buffer.from(EXPORT_COLUMNS.join(',') + '\r\n');
  const everyone = query.topics.length === 0 && query.countries.length === 0;
  const beforePage = pace ? (rows: number) => pace.take(siteId, rows) : undefined;
  const readPage = (after: string, limit: number) => subscriberExportPage(pool, siteId, { everyone, topics: query.topics, countries: query.countries }, after, limit);
  for await (const rows of pages(readPage, beforePage)) {
    const records = rows.map(record);
    yield Buffer.from(query.format === 'csv' ? records.map(csvLine).join('') : records.map((r) => JSON.stringify(r) + '\n').join(''));
  }
}

/**
 * GET /v2/subscribers/export as this process serves it: from `pool` (the bulk pool, shared/db.ts),
 * at most `perSite` of a site's exports at once (SITE_CONCURRENT_EXPORTS); one more is refused
 * with RateLimitedError when its first chunk is pulled, before anything is read. The slot is
 * held until the export ends or its consumer stops pulling (return()). A site's exports together
 * read at most `rowsPerSecond` rows a second (SITE_EXPORT_ROWS_PER_SECOND, site-pace.ts).
 */
export function createSubscriberExport(pool: Pool, { perSite = 2, rowsPerSecond = 10_000 } = {}) {
  const pace = createSitePace(rowsPerSecond);
  const slots = createSiteSlots(perSite, { message: EXPORT_MESSAGES.tooMany, retryAfterSeconds: EXPORT_RETRY_AFTER_SECONDS });
  return async function* exportOf(siteId: string, query: ExportQuery): AsyncGenerator<Buffer> {
    const release = slots.take(siteId);
    try {
      yield* exportSubscribers(pool, siteId, query, pace);
    } finally {
      release();
    }
  };
}

export type SubscriberExport = ReturnType<typeof createSubscriberExport>;

/**
 * The migration export, for an operator moving a site (the CLI's `subscribers export`): the
 * site's active subscriptions WITH their push endpoints and keys, one JSON object per line in
 * exactly the format `subscribers import` reads, so a site moves between two instances (or to
 * another provider, with `sites export-vapid`) without a conversion. Never served over /v2.
 */
export async function* exportSubscriptionsForMigration(pool: Pool, siteId: string): AsyncGenerator<string> {
  for await (const rows of pages((after, limit) => migrationExportPage(pool, siteId, after, limit))) {
    yield rows
      .map((r) =>
        JSON.stringify({
          endpoint: r.endpoint,
          keys: { p256dh: r.p256dh, auth: r.auth },
          topics: r.topics,
          country: countryCode(r.country),
          createdAt: r.created_at.toISOString(),
        }),
      )
      .join('\n') + '\n';
  }
}
