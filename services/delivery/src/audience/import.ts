// Subscriptions brought from another push provider: each line the site's old provider exported
// (the browser's PushSubscription JSON — endpoint and keys — with the topics, country and
// creation time it knew) is checked by the same rules as a subscribe from the site plugin, and
// the valid ones are inserted in batches. Idempotent on the endpoint: a subscription the site
// already has (imported before, or registered since by the plugin) is left as it is and counted
// as existing. What is refused is reported by line with the reason; nothing refused is stored.
import type { Pool } from '../../../shared/src/db.js';
import { ValidationError } from '../errors.js';
import { insertNewSubscribers, type NewSubscriberRow } from './subscriber-store.js';
import { countryFromCode, UNKNOWN_COUNTRY } from './names.js';
import type { PushHostRules } from './push-endpoint.js';
import { createSubscriptionInputRules } from './subscription-input.js';

export const IMPORT_MESSAGES = Object.freeze({
  notObject: 'a line must be a JSON object: {"endpoint", "keys": {"p256dh", "auth"}, "topics", "country", "createdAt"}',
  invalidJson: 'a line must be valid JSON',
  country: 'country must be a two-letter ISO 3166-1 code',
  createdAt: 'createdAt must be an RFC 3339 date-time in the past',
});

/** Subscriptions written per statement. */
export const IMPORT_BATCH_ROWS = 1000;
/** Refusals listed in a report (all are counted). */
export const MAX_LISTED_REFUSALS = 100;

export interface ImportRefusal {
  /** 1-based line (or item) number in the input. */
  line: number;
  reason: string;
}

export interface ImportReport {
  /** Lines read (blank lines aside). */
  read: number;
  /** New subscribers. */
  imported: number;
  /** Valid lines whose endpoint the site already had (or an earlier line of the import): left as they were. */
  existing: number;
  refused: number;
  /** The first MAX_LISTED_REFUSALS refusals. */
  refusals: ImportRefusal[];
}

// RFC 3339 with a zone (Z or ±hh:mm); Date checks the calendar below.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

export function createSubscriptionImport(pool: Pool, hosts: PushHostRules) {
  const rules = createSubscriptionInputRules(hosts);

  /** A line's subscriber row, or why it is refused. */
  function parseLine(value: unknown, now: number): NewSubscriberRow | string {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return IMPORT_MESSAGES.notObject;
    const line = value as Record<string, unknown>;
    const messages: string[] = [];
    let parsed: ReturnType<typeof rules.parseSubscribe> | undefined;
    try {
      parsed = rules.parseSubscribe({ subscription: { endpoint: line.endpoint, keys: line.keys }, topics: line.topics });
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      messages.push(...err.messages);
    }
    let country = UNKNOWN_COUNTRY;
    if (line.country !== undefined && line.country !== null) {
      country = typeof line.country === 'string' ? countryFromCode(line.country) : UNKNOWN_COUNTRY;
      if (country === UNKNOWN_COUNTRY) messages.push(IMPORT_MESSAGES.country);
    }
    let createdAt: string | null = null;
    if (line.createdAt !== undefined && line.createdAt !== null) {
      const ms = typeof line.createdAt === 'string' && DATE_TIME.test(line.createdAt) ? Date.parse(line.createdAt) : NaN;
      if (!(ms <= now) || !sameCalendarDay(line.createdAt as string, ms)) messages.push(IMPORT_MESSAGES.createdAt);
      else createdAt = new Date(ms).toISOString();
    }
    if (messages.length > 0 || !parsed) return messages.join(', ');
    return { endpoint: parsed.endpoint, p256dh: parsed.p256dh, auth: parsed.auth, topics: parsed.topics, country, createdAt };
  }

  /**
   * Imports `lines` (each a JSON text, or an already parsed value) into the site's subscribers,
   * in batches of IMPORT_BATCH_ROWS. Reads the iterable once, holding one batch at a time: memory
   * does not grow with the import.
   */
  async function importSubscriptions(siteId: string, lines: AsyncIterable<string | unknown> | Iterable<string | unknown>, onProgress?: (report: ImportReport) => void): Promise<ImportReport> {
    const report: ImportReport = { read: 0, imported: 0, existing: 0, refused: 0, refusals: [] };
    const refuse = (line: number, reason: string) => {
      report.refused += 1;
      if (report.refusals.length < MAX_LISTED_REFUSALS) report.refusals.push({ line, reason });
    };
    let batch: NewSubscriberRow[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const inserted = await insertNewSubscribers(pool, siteId, batch);
      report.imported += inserted;
      report.existing += batch.length - inserted;
      batch = [];
      onProgress?.(report);
    };
    let lineNo = 0;
    const now = Date.now();
    for await (const raw of lines) {
      lineNo += 1;
      if (typeof raw === 'string' && raw.trim() === '') continue;
      report.read += 1;
      let value: unknown = raw;
      if (typeof raw === 'string') {
        try {
          value = JSON.parse(raw);
        } catch {
          refuse(lineNo, IMPORT_MESSAGES.invalidJson);
          continue;
        }
      }
      const row = parseLine(value, now);
      if (typeof row === 'string') {
        refuse(lineNo, row);
        continue;
      }
      batch.push(row);
      if (batch.length >= IMPORT_BATCH_ROWS) await flush();
    }
    await flush();
    return report;
  }

  return { importSubscriptions };
}

/** Date.parse rolls 2026-02-30 into March: the date written must be the date parsed (in its own zone). */
function sameCalendarDay(text: string, ms: number): boolean {
  const zone = /([+-])(\d{2}):(\d{2})$/.exec(text);
  const offsetMs = zone ? (zone[1] === '-' ? -1 : 1) * (Number(zone[2]) * 60 + Number(zone[3])) * 60_000 : 0;
  return new Date(ms + offsetMs).toISOString().slice(0, 10) === text.slice(0, 10);
}
