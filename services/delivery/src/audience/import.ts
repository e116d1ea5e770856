// A site brought over from another push provider: its VAPID key pair — adopted only before its
// first subscriber and first campaign, since browsers' subscriptions are bound to it and senders
// cache it — and its subscriptions, each checked by the same rules as a subscribe from the site
// plugin and inserted in batches. Idempotent on the endpoint: a subscription the site already has
// (imported before, registered since by the plugin, or an earlier item of the same import) is left
// as it is and counted as existing. What is refused is reported by position with the reason, and
// nothing of it is stored. Used by the operator CLI (NDJSON lines) and POST /v2/subscribers/import.
import type { Pool } from '@webpush/shared/db.js';
import { StateConflictError, ValidationError } from '../errors.js';
import { adoptVapidKeys, findSiteById } from '../sites/index.js';
import { encryptVapidPrivateKey, vapidKeyPairProblem } from '../sites/index.js';
import { insertNewSubscribers, type NewSubscriberRow } from './subscriber-store.js';
import { countryFromCode, UNKNOWN_COUNTRY } from './names.js';
import type { PushHostRules } from './push-endpoint.js';
import { createSitePace } from './site-pace.js';
import { createSiteSlots } from './site-slots.js';
import { createSubscriptionInputRules } from './subscription-input.js';

/** Subscriptions in one POST /v2/subscribers/import. */
export const MAX_SUBSCRIPTIONS_PER_REQUEST = 1000;
/** Subscriptions written per statement. */
export const IMPORT_BATCH_ROWS = 1000;
/** Refusals listed in a report (all are counted). */
export const MAX_LISTED_REFUSALS = 100;
/** Retry-After of a request refused because its site runs its most imports at once: one import request takes about a second. */
export const IMPORT_RETRY_AFTER_SECONDS = 5;

export const IMPORT_MESSAGES = Object.freeze({
  notObject: 'a subscription must be a JSON object: {"endpoint", "keys": {"p256dh", "auth"}, "topics", "country", "createdAt"}',
  invalidJson: 'a line must be valid JSON',
  // The gateway's own text for a body that is not a JSON object; it checks before calling.
  invalidBody: 'Invalid JSON body',
  country: 'country must be a two-letter ISO 3166-1 code',
  createdAt: 'createdAt must be an RFC 3339 date-time in the past',
  subscriptions: `subscriptions must be an array of 1 to ${MAX_SUBSCRIPTIONS_PER_REQUEST} subscriptions`,
  vapidKeys: 'vapidKeys must be an object: {"publicKey", "privateKey"}',
  tooMany: 'Too many imports for this site at once; retry after Retry-After seconds',
  keysInUse: 'the site already has subscribers or campaigns bound to its VAPID key: a key pair can be imported only before the first subscriber and the first campaign',
});

/** A key pair refused because the site's current one is already bound to subscriptions or campaigns. */
/** A conflict with the site's state (FAILED_PRECONDITION at the gRPC boundary, grpc-answers.ts). */
export class VapidKeysInUseError extends StateConflictError {
  override name = 'VapidKeysInUseError';
  constructor() {
    super(IMPORT_MESSAGES.keysInUse);
  }
}

export interface ImportRefusal {
  /** 1-based position in the input: the line of a file, the item of a request's array. */
  line: number;
  reason: string;
}

export interface ImportReport {
  /** Items read (blank lines aside). */
  read: number;
  /** New subscribers. */
  imported: number;
  /** Valid items whose endpoint the site already had (or an earlier item of the import): left as they were. */
  existing: number;
  refused: number;
  /** The first MAX_LISTED_REFUSALS refusals. */
  refusals: ImportRefusal[];
}

/** Items checked between two turns of the event loop (about 2 ms of work). */
const ITEMS_BETWEEN_YIELDS = 100;

// RFC 3339 with a zone (Z or ±hh:mm); Date checks the calendar below.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;
/** RFC 3339 allows year 0000, which Postgres refuses (it has no year 0): the earliest instant stored is 0001-01-01 UTC. */
const EARLIEST_CREATED_AT_MS = Date.parse('0001-01-01T00:00:00Z');

/**
 * `pool` is the bulk pool (shared/db.ts); `requestsPerSite` bounds a site's POST
 * /v2/subscribers/import requests running at once in this process (SITE_CONCURRENT_IMPORTS), and
 * `itemsPerSecond` the items they import together (SITE_IMPORT_ITEMS_PER_SECOND, site-pace.ts).
 * The operator's imports (the CLI's `subscribers import`) are not paced.
 */
export function createSiteImport(pool: Pool, hosts: PushHostRules, vapidEncryptionKey: Buffer, { requestsPerSite = 2, itemsPerSecond = 2000 } = {}) {
  const rules = createSubscriptionInputRules(hosts);
  const pace = createSitePace(itemsPerSecond);
  const slots = createSiteSlots(requestsPerSite, { message: IMPORT_MESSAGES.tooMany, retryAfterSeconds: IMPORT_RETRY_AFTER_SECONDS });

  /** A subscription's row, or why it is refused. */
  function parseItem(value: unknown, now: number): NewSubscriberRow | string {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return IMPORT_MESSAGES.notObject;
    const item = value as Record<string, unknown>;
    const messages: string[] = [];
    let parsed: ReturnType<typeof rules.parseSubscribe> | undefined;
    try {
      parsed = rules.parseSubscribe({ subscription: { endpoint: item.endpoint, keys: item.keys }, topics: item.topics });
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      messages.push(...err.messages);
    }
    let country = UNKNOWN_COUNTRY;
    if (item.country !== undefined && item.country !== null) {
      country = typeof item.country === 'string' ? countryFromCode(item.country) : UNKNOWN_COUNTRY;
      if (country === UNKNOWN_COUNTRY) messages.push(IMPORT_MESSAGES.country);
    }
    let createdAt: string | null = null;
    if (item.createdAt !== undefined && item.createdAt !== null) {
      const ms = typeof item.createdAt === 'string' && DATE_TIME.test(item.createdAt) ? Date.parse(item.createdAt) : NaN;
      if (!(ms <= now && ms >= EARLIEST_CREATED_AT_MS) || !sameCalendarDay(item.createdAt as string, ms)) messages.push(IMPORT_MESSAGES.createdAt);
      else createdAt = new Date(ms).toISOString();
    }
    if (messages.length > 0 || !parsed) return messages.join(', ');
    return { endpoint: parsed.endpoint, p256dh: parsed.p256dh, auth: parsed.auth, topics: parsed.topics, country, createdAt };
  }

  /**
   * Imports the items one by one as `decode` makes them values (or refuses them with its
   * reason), in batches of IMPORT_BATCH_ROWS. Reads the iterable once, holding one batch at a
   * time: memory does not grow with the import.
   */
  async function importEach<T>(
    siteId: string,
    items: AsyncIterable<T> | Iterable<T>,
    decode: (item: T) => { skip: true } | { value: unknown } | { refused: string },
    onProgress?: (report: ImportReport) => void,
    beforeBatch?: (rows: number) => Promise<void>,
  ): Promise<ImportReport> {
    const report: ImportReport = { read: 0, imported: 0, existing: 0, refused: 0, refusals: [] };
    let batch: NewSubscriberRow[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      await beforeBatch?.(batch.length);
      const inserted = await insertNewSubscribers(pool, siteId, batch);
      report.imported += inserted;
      report.existing += batch.length - inserted;
      batch = [];
      onProgress?.(report);
    };
    let position = 0;
    const now = Date.now();
    for await (const item of items) {
      position += 1;
      // Checking an item (its key on the curve among others) is CPU: the loop lets other calls
      // run every ITEMS_BETWEEN_YIELDS items, so one import is never a long stretch of the event loop.
      if (position % ITEMS_BETWEEN_YIELDS === 0) await new Promise<void>((r) => setImmediate(r));
      const decoded = decode(item);
      if ('skip' in decoded) continue;
      report.read += 1;
      const row = 'value' in decoded ? parseItem(decoded.value, now) : decoded.refused;
      if (typeof row === 'string') {
        report.refused += 1;
        if (report.refusals.length < MAX_LISTED_REFUSALS) report.refusals.push({ line: position, reason: row });
        continue;
      }
      batch.push(row);
      if (batch.length >= IMPORT_BATCH_ROWS) await flush();
    }
    await flush();
    return report;
  }

  /** Lines of JSON (an NDJSON export); blank lines are skipped. */
  function importLines(siteId: string, lines: AsyncIterable<string> | Iterable<string>, onProgress?: (report: ImportReport) => void): Promise<ImportReport> {
    return importEach(
      siteId,
      lines,
      (line) => {
        if (line.trim() === '') return { skip: true };
        try {
          return { value: JSON.parse(line) as unknown };
        } catch {
          return { refused: IMPORT_MESSAGES.invalidJson };
        }
      },
      onProgress,
    );
  }

  /**
   * Gives the site the key pair (VapidKeysInUseError once it has subscribers or campaigns; the
   * pair it already has changes nothing). Answers the site's public key and whether it changed.
   */
  async function adoptKeyPair(siteId: string, pair: { publicKey: unknown; privateKey: unknown }, fieldPrefix = ''): Promise<{ vapidPublicKey: string; changed: boolean }> {
    const problem = vapidKeyPairProblem(pair, fieldPrefix);
    if (problem) throw new ValidationError([problem]);
    const site = await findSiteById(pool, siteId);
    if (!site) throw new Error(`site ${siteId} is not registered in the delivery service`);
    const publicKey = pair.publicKey as string;
    if (site.vapidPublicKey === publicKey) return { vapidPublicKey: publicKey, changed: false };
    if (!(await adoptVapidKeys(pool, siteId, publicKey, encryptVapidPrivateKey(pair.privateKey as string, siteId, vapidEncryptionKey)))) throw new VapidKeysInUseError();
    return { vapidPublicKey: publicKey, changed: true };
  }

  /**
   * POST /v2/subscribers/import: `{ "vapidKeys"?: {publicKey, privateKey}, "subscriptions": [...] }`.
   * The key pair, when given, is adopted first (so every request of a long import may carry it);
   * the subscriptions are then imported as the CLI imports lines. A valid request beyond the
   * site's `requestsPerSite` running ones is refused (RateLimitedError) before anything is read.
   */
  async function importRequest(siteId: string, bodyJson: string): Promise<ImportReport & { vapidPublicKey: string }> {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(bodyJson) as Record<string, unknown>;
    } catch {
      throw new ValidationError([IMPORT_MESSAGES.invalidBody]);
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ValidationError([IMPORT_MESSAGES.invalidBody]);
    const messages: string[] = [];
    const { subscriptions, vapidKeys } = body;
    if (!Array.isArray(subscriptions) || subscriptions.length < 1 || subscriptions.length > MAX_SUBSCRIPTIONS_PER_REQUEST) messages.push(IMPORT_MESSAGES.subscriptions);
    const keysGiven = vapidKeys !== undefined && vapidKeys !== null;
    if (keysGiven && (typeof vapidKeys !== 'object' || Array.isArray(vapidKeys))) messages.push(IMPORT_MESSAGES.vapidKeys);
    else if (keysGiven) {
      const problem = vapidKeyPairProblem(vapidKeys as { publicKey: unknown; privateKey: unknown }, 'vapidKeys.');
      if (problem) messages.push(problem);
    }
    if (messages.length > 0) throw new ValidationError(messages);
    const release = slots.take(siteId);
    try {
      return await importChecked(siteId, subscriptions as unknown[], keysGiven ? (vapidKeys as { publicKey: unknown; privateKey: unknown }) : null);
    } finally {
      release();
    }
  }

  async function importChecked(siteId: string, subscriptions: unknown[], vapidKeys: { publicKey: unknown; privateKey: unknown } | null): Promise<ImportReport & { vapidPublicKey: string }> {
    let vapidPublicKey: string;
    if (vapidKeys) vapidPublicKey = (await adoptKeyPair(siteId, vapidKeys, 'vapidKeys.')).vapidPublicKey;
    else {
      const site = await findSiteById(pool, siteId);
      if (!site) throw new Error(`site ${siteId} is not registered in the delivery service`);
      vapidPublicKey = site.vapidPublicKey;
    }
    const report = await importEach(siteId, subscriptions, (value) => ({ value }), undefined, (rows) => pace.take(siteId, rows));
    return { ...report, vapidPublicKey };
  }

  return { importLines, adoptKeyPair, importRequest };
}

export type SiteImport = ReturnType<typeof createSiteImport>;

/** Date.parse rolls 2026-02-30 into March: the date written must be the date parsed (in its own zone). */
function sameCalendarDay(text: string, ms: number): boolean {
  const zone = /([+-])(\d{2}):(\d{2})$/.exec(text);
  const offsetMs = zone ? (zone[1] === '-' ? -1 : 1) * (Number(zone[2]) * 60 + Number(zone[3])) * 60_000 : 0;
  return new Date(ms + offsetMs).toISOString().slice(0, 10) === text.slice(0, 10);
}
