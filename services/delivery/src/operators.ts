// Operator actions (CLI, stack scripts, tests): register a site's VAPID keys, re-encrypt the
// stored VAPID private keys under the current encryption key (key rotation), seed synthetic
// subscribers in bulk, and bring a site over from another push provider (its VAPID key pair and
// its subscriptions), and show or rotate a site's identity secret (people/).
import { createECDH, randomBytes } from 'node:crypto';
import { withTransaction, type Pool } from '@webpush/shared/db.js';
import { capRefusals, countSites, findSiteById, findSiteByPublicId, insertSiteIfAbsent, lockSitesAfter, MAX_CAP_CAMPAIGNS, MAX_CAP_HOURS, quietHoursRefusals, setSiteFrequencyCap, setSiteQuietHours, setSiteTimeZone, storedZone, updateVapidPrivateKeys } from './sites/index.js';
import { insertNewSubscribers, type NewSubscriberRow } from './audience/index.js';
import { DeliveryOperatorError, isUuid, PublicIdTakenError, UnknownSiteError, ValidationError } from './errors.js';
import { normalizeCountryName, normalizeTopic, sortedSet, UNKNOWN_COUNTRY } from './audience/index.js';
import { createSiteImport, VapidKeysInUseError, type ImportReport } from './audience/index.js';
import { exportSubscriptionsForMigration } from './audience/index.js';
import { resealWebhookSecrets } from './webhooks/index.js';
import { createIdentity, createVisitorTags, resealIdentitySecrets } from './people/index.js';
import type { FrequencyCap } from './sending/index.js';
import { canonicalZone, DEFAULT_TIME_ZONE, isKnownZone, type QuietHours } from '@webpush/contracts/local-time.js';
import type { PushHostRules } from './audience/index.js';
import {
  encryptVapidPrivateKey,
  generateVapidKeyPair,
  keyRing,
  openVapidPrivateKey,
  VapidKeyDecryptError,
  type VapidEncryptionKeys,
  type VapidKeyPair,
} from './sites/index.js';

const SEED_BATCH_ROWS = 5000;
const SEED_KEY_POOL = 64;
const SEED_PARALLELISM = 3;
const MAX_SEED_COUNT = 100_000_000;
export const REENCRYPT_DEFAULT_BATCH = 100;
export const REENCRYPT_MAX_BATCH = 10_000;

export interface SeedInput {
  siteId: string;
  count: number;
  topics: string[];
  countries: string[];
  topicsPerSubscriber?: number;
  endpointBase?: string;
  /**
   * Each subscriber gets one of these at random (null: none), stored as a subscribe stores them,
   * so a segment bench needs no UPDATE of every row afterwards; default none.
   */
  languages?: (string | null)[];
  timeZones?: (string | null)[];
  onProgress?: (done: number, total: number) => void;
}

export interface ReencryptCounts {
  /** Sites whose private key was under a previous key (or the legacy layout) and now is under the current one. */
  reencrypted: number;
  /** Sites already under the current key, left as they were. */
  alreadyCurrent: number;
  /** Sites whose private key (or a webhook signing secret) no known key opens: left as they were. */
  failed: { siteId: string; publicId: string; reason: string }[];
  /** Webhook endpoints whose signing secrets were sealed again under the current key (webhooks/secrets.ts). */
  webhookSecretsReencrypted: number;
  /** Sites whose identity secrets were sealed again under the current key (people/identity-secret.ts). */
  identitySecretsReencrypted: number;
}

/** `hosts`: where imported subscriptions may point (loadPushHostRules); needed only by importSubscriptions. */
export function createDeliveryOperators(pool: Pool, encryptionKeys: Buffer | VapidEncryptionKeys, hosts?: PushHostRules) {
  const keys = keyRing(encryptionKeys);
  if ([keys.current, ...keys.previous].some((k) => k.length !== 32)) throw new DeliveryOperatorError('the VAPID encryption keys must be 32 bytes');
  const vapidEncryptionKey = keys.current;

  /** Idempotent: a site registered before keeps its key pair. */
  async function registerSite(input: { siteId: string; publicId: string }): Promise<{ vapidPublicKey: string }> {
    if (!isUuid(input.siteId)) throw new DeliveryOperatorError(`site id "${input.siteId}" is not a UUID`);
    if (!/^[A-Za-z0-9_-]{1,100}$/.test(input.publicId)) throw new DeliveryOperatorError(`public id "${input.publicId}" is not valid`);
    const siteId = input.siteId.toLowerCase();
    const keys = generateVapidKeyPair();
    try {
      const site = await insertSiteIfAbsent(pool, {
        siteId,
        publicId: input.publicId,
        vapidPublicKey: keys.publicKey,
        vapidPrivateKeyEnc: encryptVapidPrivateKey(keys.privateKey, siteId, vapidEncryptionKey),
      });
      if (site.publicId !== input.publicId) {
        throw new DeliveryOperatorError(`site ${siteId} is already registered with public id ${site.publicId}`);
      }
      return { vapidPublicKey: site.vapidPublicKey };
    } catch (err) {
      if ((err as { code?: string }).code === '23505') {
        throw new PublicIdTakenError(`public id ${input.publicId} already belongs to another site`);
      }
      throw err;
    }
  }

  async function seedSubscribers(input: SeedInput): Promise<{ inserted: number }> {
    const plan = seedPlan(input);
    if (!(await findSiteById(pool, plan.siteId))) throw new DeliveryOperatorError(`site ${plan.siteId} is not registered`);
    const keyPool = Array.from({ length: SEED_KEY_POOL }, () => {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      return ecdh.getPublicKey().toString('base64url');
    });
    // A few batches in flight at once: Postgres works on one while Node builds the next.
    const batches = Math.ceil(plan.count / SEED_BATCH_ROWS);
    let nextBatch = 0;
    let done = 0;
    let inserted = 0;
    const worker = async () => {
      while (nextBatch < batches) {
        const batch = nextBatch++;
        const size = Math.min(SEED_BATCH_ROWS, plan.count - batch * SEED_BATCH_ROWS);
        const added = await insertNewSubscribers(pool, plan.siteId, seedRows(plan, keyPool, size));
        inserted += added;
        done += size;
        input.onProgress?.(done, plan.count);
      }
    };
    await Promise.all(Array.from({ length: Math.min(SEED_PARALLELISM, batches) }, worker));
    return { inserted };
  }

  /**
   * Re-encrypts every site's VAPID private key under the current key, `batchSize` sites per
   * transaction (rows locked, keyset order). Idempotent: rows already under the current key are
   * only counted. Rows no known key opens are listed and left untouched. Public keys, and so
   * the browsers' subscriptions, do not change.
   */
  async function reencryptVapidKeys(opts: { batchSize?: number; onProgress?: (counts: ReencryptCounts) => void } = {}): Promise<ReencryptCounts> {
    const batchSize = opts.batchSize ?? REENCRYPT_DEFAULT_BATCH;
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > REENCRYPT_MAX_BATCH) {
      throw new DeliveryOperatorError(`batch size must be an integer from 1 to ${REENCRYPT_MAX_BATCH}`);
    }
    const counts: ReencryptCounts = { reencrypted: 0, alreadyCurrent: 0, failed: [], webhookSecretsReencrypted: 0, identitySecretsReencrypted: 0 };
    // Bounded: site ids only grow along the keyset; sites created meanwhile are the only extra rounds.
    const maxRounds = 2 * Math.ceil((await countSites(pool)) / batchSize) + 100;
    let after: string | null = null;
    for (let round = 0; round < maxRounds; round++) {
      const batch = await withTransaction(pool, async (client) => {
        const sites = await lockSitesAfter(client, after, batchSize);
        const updates: { siteId: string; vapidPrivateKeyEnc: Buffer }[] = [];
        const result = { size: sites.length, last: sites.at(-1)?.siteId ?? null, alreadyCurrent: 0, failed: [] as ReencryptCounts['failed'] };
        for (const site of sites) {
          try {
            const opened = openVapidPrivateKey(site.vapidPrivateKeyEnc, site.siteId, keys);
            if (opened.current) result.alreadyCurrent++;
            else updates.push({ siteId: site.siteId, vapidPrivateKeyEnc: encryptVapidPrivateKey(opened.privateKey, site.siteId, keys.current) });
          } catch (err) {
            if (!(err instanceof VapidKeyDecryptError)) throw err;
            result.failed.push({ siteId: site.siteId, publicId: site.publicId, reason: err.reason });
          }
        }
        const webhooks = await resealWebhookSecrets(client, sites.map((s) => s.siteId), keys);
        const identities = await resealIdentitySecrets(client, sites.map((s) => s.siteId), keys);
        const publicIdOf = new Map(sites.map((s) => [s.siteId, s.publicId]));
        result.failed.push(...[...webhooks.failed, ...identities.failed].map((f) => ({ siteId: f.siteId, publicId: publicIdOf.get(f.siteId) ?? '', reason: f.reason })));
        return {
          ...result,
          webhookSecretsReencrypted: webhooks.resealed,
          identitySecretsReencrypted: identities.resealed,
          reencrypted: await updateVapidPrivateKeys(client, updates),
        };
      });
      counts.reencrypted += batch.reencrypted;
      counts.alreadyCurrent += batch.alreadyCurrent;
      counts.webhookSecretsReencrypted += batch.webhookSecretsReencrypted;
      counts.identitySecretsReencrypted += batch.identitySecretsReencrypted;
      counts.failed.push(...batch.failed);
      if (batch.size > 0) opts.onProgress?.({ ...counts, failed: [...counts.failed] });
      if (batch.size < batchSize) return counts;
      after = batch.last;
    }
    throw new DeliveryOperatorError(`re-encryption did not reach the last site within ${maxRounds} batches (sites are being created faster than it runs?); run it again`);
  }

  async function registeredSite(siteId: string) {
    if (!isUuid(siteId)) throw new DeliveryOperatorError(`site id "${siteId}" is not a UUID`);
    const site = await findSiteById(pool, siteId.toLowerCase());
    if (!site) throw new UnknownSiteError(`site ${siteId} is not registered`);
    return site;
  }

  /** The site an operator names by its id or its public id (the CLI's <site>). */
  async function findSite(ref: string) {
    const site = isUuid(ref) ? await findSiteById(pool, ref.toLowerCase()) : await findSiteByPublicId(pool, ref);
    if (!site) throw new UnknownSiteError(`site "${ref}" does not exist`);
    return site;
  }

  // Without push host rules (an operator that never imports subscriptions) none are allowed.
  const siteImport = createSiteImport(pool, hosts ?? { serviceHosts: [], testHosts: [] }, vapidEncryptionKey);

  /**
   * Gives the site the VAPID key pair of its previous provider, so the subscriptions made with it
   * (imported next) can be pushed to. Only before the site's first subscriber and first campaign;
   * importing the pair it already has changes nothing.
   */
  async function importVapidKeys(input: { siteId: string } & VapidKeyPair): Promise<{ vapidPublicKey: string; changed: boolean }> {
    const site = await registeredSite(input.siteId);
    try {
      return await siteImport.adoptKeyPair(site.siteId, input);
    } catch (err) {
      if (err instanceof ValidationError || err instanceof VapidKeysInUseError) throw new DeliveryOperatorError(`VAPID key pair refused: ${err.message}`);
      throw err;
    }
  }

  /** Imports subscriptions exported by another provider (audience/import.ts): one JSON object per line. */
  async function importSubscriptions(input: { siteId: string; lines: AsyncIterable<string> | Iterable<string>; onProgress?: (report: ImportReport) => void }): Promise<ImportReport> {
    if (!hosts) throw new DeliveryOperatorError('importing subscriptions needs the push service host rules (PUSH_SERVICE_HOSTS)');
    const site = await registeredSite(input.siteId);
    return siteImport.importLines(site.siteId, input.lines, input.onProgress);
  }

  /** The site's VAPID key pair in the form `importVapidKeys` reads: for moving the site elsewhere. */
  async function exportVapidKeys(siteId: string): Promise<VapidKeyPair> {
    const site = await registeredSite(siteId);
    return { publicKey: site.vapidPublicKey, privateKey: openVapidPrivateKey(site.vapidPrivateKeyEnc, site.siteId, keys).privateKey };
  }

  /** The site's active subscriptions with their endpoints and keys, in the lines `importSubscriptions` reads (audience/export.ts). */
  async function exportSubscriptions(siteId: string): Promise<AsyncGenerator<string>> {
    const site = await registeredSite(siteId);
    return exportSubscriptionsForMigration(pool, site.siteId);
  }

  /**
   * The site's frequency cap: at most `campaigns` campaigns per subscriber in any `hours` (1 to
   * 720); null lifts it. Applies from the next chunk sent; what counts is history kept while a
   * cap is set (sending/delivery-log-store.ts claimCapped).
   */
  async function setFrequencyCap(siteId: string, cap: FrequencyCap | null): Promise<{ siteId: string; frequencyCap: FrequencyCap | null }> {
    const site = await registeredSite(siteId);
    const refused = cap === null ? [] : capRefusals(cap);
    if (refused.includes('campaigns')) throw new DeliveryOperatorError(`the campaigns of a frequency cap must be a whole number from 1 to ${MAX_CAP_CAMPAIGNS}`);
    if (refused.includes('hours')) throw new DeliveryOperatorError(`the hours of a frequency cap must be a whole number from 1 to ${MAX_CAP_HOURS} (30 days)`);
    await setSiteFrequencyCap(pool, site.siteId, cap);
    return { siteId: site.siteId, frequencyCap: cap };
  }

  /**
   * The site's default zone for local-time campaigns: subscribers without a zone, or with one
   * the platform does not know, are sent at the time in this zone; null sets it back to UTC.
   * Applies to campaigns planned from now on.
   */
  async function setTimeZone(siteId: string, zone: string | null): Promise<{ siteId: string; timeZone: string }> {
    const site = await registeredSite(siteId);
    const name = zone === null ? null : storedZone(zone);
    if (name === undefined) throw new DeliveryOperatorError(`unknown time zone ${JSON.stringify(zone)}: give an IANA name such as Europe/Lisbon or America/Sao_Paulo`);
    await setSiteTimeZone(pool, site.siteId, name);
    return { siteId: site.siteId, timeZone: name ?? DEFAULT_TIME_ZONE };
  }

  const identity = createIdentity({ pool, keys });

  /** The site's identity secret (made on first asking): the operator passes it to the site's owner, whose server signs user ids with it (docs/people.md). */
  async function identitySecret(siteId: string): Promise<{ siteId: string; secret: string; created: boolean }> {
    const site = await registeredSite(siteId);
    return { siteId: site.siteId, ...(await identity.identitySecret(site.siteId)) };
  }

  /** A new identity secret; the previous one stays accepted for `overlapHours`. */
  async function rotateIdentitySecret(siteId: string, overlapHours: number): Promise<{ siteId: string; secret: string; overlapHours: number }> {
    const site = await registeredSite(siteId);
    return { siteId: site.siteId, ...(await identity.rotateSecret(site.siteId, overlapHours)) };
  }

  const visitorTags = createVisitorTags(pool);

  /** The tag keys the site's pages may set for their identified visitor (sorted, each once); [] lets them set none. */
  async function setVisitorTags(siteId: string, keys: readonly string[]): Promise<{ siteId: string; keys: string[] }> {
    const site = await registeredSite(siteId);
    return visitorTags.setKeys(site.siteId, keys);
  }

  /**
   * The site's quiet hours: pushes due inside the window (in each subscriber's zone, the site's
   * for those without one) are held until it ends; null lifts them. Applies to campaigns
   * dispatched from now on.
   */
  async function setQuietHours(siteId: string, quiet: QuietHours | null): Promise<{ siteId: string; quietHours: QuietHours | null }> {
    const site = await registeredSite(siteId);
    const refused = quiet ? quietHoursRefusals(quiet) : [];
    if (refused.length > 0) throw new DeliveryOperatorError(`quiet hours need two different times of day as HH:MM (00:00 to 23:59), e.g. 21:00 08:00; got ${JSON.stringify(quiet!.from)} ${JSON.stringify(quiet!.to)}`);
    await setSiteQuietHours(pool, site.siteId, quiet);
    return { siteId: site.siteId, quietHours: quiet };
  }

  return {
    registerSite,
    findSite,
    identitySecret,
    rotateIdentitySecret,
    setVisitorTags,
    seedSubscribers,
    reencryptVapidKeys,
    importVapidKeys,
    importSubscriptions,
    exportVapidKeys,
    exportSubscriptions,
    setFrequencyCap,
    setTimeZone,
    setQuietHours,
  };
}

export type DeliveryOperators = ReturnType<typeof createDeliveryOperators>;

function seedPlan(input: SeedInput) {
  if (!isUuid(input.siteId)) throw new DeliveryOperatorError(`site id "${input.siteId}" is not a UUID`);
  if (!Number.isInteger(input.count) || input.count < 0 || input.count > MAX_SEED_COUNT) {
    throw new DeliveryOperatorError(`count must be an integer between 0 and ${MAX_SEED_COUNT}`);
  }
  const topics = sortedSet(input.topics.map((t) => {
    const name = normalizeTopic(t);
    if (name === null) throw new DeliveryOperatorError(`"${t}" is not a valid topic name`);
    return name;
  }));
  const countries = sortedSet(input.countries.map((c) => {
    const name = normalizeCountryName(c);
    if (name === null) throw new DeliveryOperatorError(`"${c}" is not a valid country name`);
    return name;
  }));
  const topicsPerSubscriber = input.topicsPerSubscriber ?? 2;
  if (!Number.isInteger(topicsPerSubscriber) || topicsPerSubscriber < 0) {
    throw new DeliveryOperatorError('topicsPerSubscriber must be a non-negative integer');
  }
  const endpointBase = input.endpointBase ?? 'https://seed.push.invalid/';
  if (!/^https?:\/\//.test(endpointBase)) throw new DeliveryOperatorError('endpointBase must be an http(s) URL');
  const languages = input.languages ?? [null];
  for (const l of languages) if (l !== null && !/^[A-Za-z0-9-]{1,35}$/.test(l)) throw new DeliveryOperatorError(`"${l}" is not a language tag`);
  const timeZones = (input.timeZones ?? [null]).map((z) => {
    if (z !== null && !isKnownZone(z)) throw new DeliveryOperatorError(`"${z}" is not a known time zone`);
    return z === null ? null : canonicalZone(z);
  });
  if (languages.length === 0 || timeZones.length === 0) throw new DeliveryOperatorError('languages and timeZones, when given, need at least one entry (null: none)');
  return {
    siteId: input.siteId.toLowerCase(),
    count: input.count,
    topics,
    countries: countries.length > 0 ? countries : [UNKNOWN_COUNTRY],
    topicsPerSubscriber: Math.min(topicsPerSubscriber, topics.length),
    endpointBase,
    languages,
    timeZones,
  };
}

type SeedPlan = ReturnType<typeof seedPlan>;

// Synthetic data: Math.random picks names; the endpoint and auth secrets come from one
// crypto buffer per batch (a call per row would dominate the seeding time).
function seedRows(plan: SeedPlan, keyPool: string[], size: number): NewSubscriberRow[] {
  const random = randomBytes(size * 34);
  const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)];
  return Array.from({ length: size }, (_, i) => ({
    endpoint: plan.endpointBase + random.toString('base64url', i * 34, i * 34 + 18),
    p256dh: pick(keyPool),
    auth: random.toString('base64url', i * 34 + 18, i * 34 + 34),
    country: pick(plan.countries),
    topics: pickTopics(plan.topics, plan.topicsPerSubscriber),
    language: pick(plan.languages),
    timeZone: pick(plan.timeZones),
  }));
}

/** `n` distinct topics drawn uniformly (partial Fisher–Yates), sorted like the counters' key. */
function pickTopics(topics: string[], n: number): string[] {
  if (n === 0) return [];
  const pool = [...topics];
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(Math.random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return sortedSet(pool.slice(0, n));
}
