// Operator CLI: plans, sites, API keys, console users, synthetic and imported subscribers, VAPID keys. `npm run cli -- --help`.
// Plans, sites, keys, settings and users go through the services' admin gRPC APIs (each service
// writes its own schema; scripts/lib/admin-clients.ts). The bulk and key-custody tools below
// them work on the delivery service's schema through its own modules, against DATABASE_URL, else
// the running stack's database, else the embedded one (docs/operator-cli.md says why).
import { randomUUID } from 'node:crypto';
import type * as grpc from '@grpc/grpc-js';
import { createReadStream } from 'node:fs';
import { once } from 'node:events';
import { open, readFile, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { migrateCampaignSchema } from '../services/campaign/src/app.js';
import { PERMISSIONS, type Permission } from '../services/campaign/src/sites/operators.js';
import { ROLES, type Role } from '../services/campaign/src/accounts/accounts.js';
import { migrateDeliverySchema } from '../services/delivery/src/app.js';
import { loadPushHostRules, loadRetentionSettings, loadVapidEncryptionKeys } from '../services/delivery/src/config.js';
import { createRetention } from '../services/delivery/src/retention/retention.js';
import { tableSizes } from '../services/delivery/src/retention/retention-store.js';
import { createDeliveryOperators, REENCRYPT_DEFAULT_BATCH } from '../services/delivery/src/operators.js';
import { DEFAULT_IDENTITY_OVERLAP_HOURS } from '../services/delivery/src/people/index.js';
import { encryptionKeyFingerprint } from '../services/delivery/src/sites/vapid-keys.js';
import { ConfigError, httpOrigin } from '@webpush/shared/config.js';
import { DeliveryOperatorError } from '../services/delivery/src/errors.js';
import { createTopicMaintenance } from '../services/delivery/src/audience/topic-maintenance.js';
import { createPool } from '@webpush/shared/db.js';
import { localDatabase, localSecrets, runningStack } from './lib/local-env.js';
import { createKafkaTopics } from './lib/kafka-topics.js';
import type { AdminInvite__Output } from '@webpush/contracts/generated/campaign/v1/AdminInvite.js';
import type { AdminIssuedKey__Output } from '@webpush/contracts/generated/campaign/v1/AdminIssuedKey.js';
import type { AdminKeyList__Output } from '@webpush/contracts/generated/campaign/v1/AdminKeyList.js';
import type { AdminPasswordReset__Output } from '@webpush/contracts/generated/campaign/v1/AdminPasswordReset.js';
import type { AdminPlanList__Output } from '@webpush/contracts/generated/campaign/v1/AdminPlanList.js';
import type { AdminPlan__Output } from '@webpush/contracts/generated/campaign/v1/AdminPlan.js';
import type { AdminSiteList__Output } from '@webpush/contracts/generated/campaign/v1/AdminSiteList.js';
import type { AdminSite__Output } from '@webpush/contracts/generated/campaign/v1/AdminSite.js';
import type { AdminUserList__Output } from '@webpush/contracts/generated/campaign/v1/AdminUserList.js';
import type { CreatedSite__Output } from '@webpush/contracts/generated/campaign/v1/CreatedSite.js';
import type { FrequencyCapAnswer__Output } from '@webpush/contracts/generated/delivery/v1/FrequencyCapAnswer.js';
import type { RevokeKeysAnswer__Output } from '@webpush/contracts/generated/campaign/v1/RevokeKeysAnswer.js';
import type { ThrottleAnswer__Output } from '@webpush/contracts/generated/campaign/v1/ThrottleAnswer.js';
import type { TimeZoneAnswer__Output } from '@webpush/contracts/generated/delivery/v1/TimeZoneAnswer.js';
import type { VisitorTagsAnswer__Output } from '@webpush/contracts/generated/delivery/v1/VisitorTagsAnswer.js';
import type { QuietHoursAnswer__Output } from '@webpush/contracts/generated/delivery/v1/QuietHoursAnswer.js';
import { AdminRefusal, AdminUnavailable, adminClients, call, resolveAdminTargets, type AdminClients } from './lib/admin-clients.js';

const HELP = `webpush operator CLI

Usage: npm run cli -- <command> [arguments] [--json]

  plans create <name> --permissions create,reports,delete,audience
                                     create a plan ("none" for no permission)
  plans list
  sites create <name> --plan <plan> [--site-id <uuid>]
                                     create a site; prints its id, public id, API key
                                     (shown once) and VAPID public key. --site-id finishes a
                                     create that failed (the error says which id)
  sites list
  sites set-plan <site> <plan>       move a site to another plan
  sites set-throttle <site> <N|none> at most N pushes per minute for the site's campaigns
                                     created without throttlePerMinute (none: no default)
  sites set-frequency-cap <site> <N> <hours> | none
                                     at most N campaigns per subscriber in any <hours> (1–720);
                                     campaigns created with ignoreFrequencyCap are exempt
  sites set-time-zone <site> <zone|none>
                                     the zone (IANA, e.g. Europe/Lisbon) local-time campaigns
                                     use for subscribers without a known one (none: UTC)
  sites set-quiet-hours <site> <from> <to> | off
                                     hold pushes due from <from> to <to> (HH:MM, e.g. 21:00 08:00)
                                     in each subscriber's zone until the window ends (off: none)
  keys list <site>                   the site's keys: label, prefix, created, last used, revoked
  keys rotate <site> [--keep-old]    issue a new API key; revokes the others unless --keep-old
  keys revoke <site> [--key <id|prefix>]
                                     revoke one key, or every key of the site
  users invite <site> <email> [--role owner|editor|viewer]
                                     print a one-time link (valid 7 days) to the site's console
                                     for the email (default role: owner): a new user sets a
                                     password there; an existing one adds the site
  users reset-password <email>       print a one-time link (valid 1 hour) to set a new password;
                                     using it ends the user's sessions
  users list <site>                  the site's console users and their roles
  subscribers seed <site> --count N --topics a,b --countries br,us [--per-subscriber 2]
                      [--endpoint-base https://…/]
                                     insert N synthetic subscribers (demos, benchmarks)
  sites import-vapid <site> <keys.json>
                                     give the site the VAPID key pair of its previous push
                                     provider ({"publicKey", "privateKey"}, base64url), before its
                                     first subscriber and first campaign
  subscribers import <site> <file.ndjson | ->
                                     import subscriptions exported by another provider, one JSON
                                     object per line: {"endpoint", "keys": {"p256dh", "auth"},
                                     "topics", "country", "createdAt"}; idempotent on the endpoint;
                                     reports what was refused and why (exits 1 if anything was)
  sites export-vapid <site> <keys.json>
                                     write the site's VAPID key pair (private key included) to a
                                     new file readable by its owner only, in the form
                                     import-vapid reads: for moving the site elsewhere
  sites set-visitor-tags <site> <key,key…|none>
                                     the tags the site's pages may set for their identified
                                     visitor with webpush('tag', key, value) (docs/people.md);
                                     none: only the API sets tags
  sites identity-secret <site> [--rotate [--overlap-hours N]]
                                     the secret the site's server signs user ids with for
                                     webpush('identify', id, signature) (docs/people.md); made on
                                     first asking. --rotate: a new one; the old one is still
                                     accepted for N hours (default 24, 0 to 168)
  retention sizes                    the database's size and the delivery tables' sizes
  retention run                      one retention pass now (what a delivery instance does every
                                     RETENTION_INTERVAL_SEC): expired pieces of detail dropped
  subscribers export <site> <file.ndjson | ->
                                     the site's active subscriptions WITH their push endpoints
                                     and keys, in the lines subscribers import reads (a migration
                                     export: whoever holds it can push to those browsers)
  topics rename <site> <topic> <new-name>
                                     rename a topic on every subscriber (refused if the
                                     new name is in use: merge instead)
  topics merge <site> <topic>[,<topic>…] <into>
                                     replace the listed topics by <into> on every subscriber
  topics delete <site> <topic>       remove a topic from every subscriber
                                     (campaigns keep the topic names they were created with)
  vapid reencrypt [--batch-size N]   re-encrypt every site's stored VAPID private key (and its
                                     webhook signing secrets) with the
                                     current VAPID_ENCRYPTION_KEY after a key rotation (old keys
                                     in VAPID_ENCRYPTION_KEY_PREVIOUS), N sites per transaction
                                     (default ${REENCRYPT_DEFAULT_BATCH}); idempotent; exits 1 listing the sites no
                                     known key decrypts
  migrate                            apply all database migrations and exit
  kafka create-topics                create the Kafka topics (KAFKA_BROKERS, KAFKA_TOPIC_PREFIX)
                                     with their partition counts; existing ones are kept

<site> is a site id or its public id. --json prints machine-readable JSON on stdout.
plans, sites (but import-vapid, export-vapid, identity-secret), keys and users call the services' admin APIs:
  CAMPAIGN_GRPC_TARGET, AUDIENCE_GRPC_TARGET (host:port) and OPERATOR_INTERNAL_TOKEN, else the
  running stack's (npm start).
The other commands work on the database: DATABASE_URL, else the running stack's, else the
  embedded one under .data/.
Links: under PUBLIC_URL (the origin the console is reached at), else the running stack's.`;

class UsageError extends Error {}
/** A request the CLI itself refuses after reading a file (exit 2, like the services' refusals). */
class OperatorError extends Error {}

/** How often, and after how long, `sites create` repeats a call the services could not do. */
const CREATE_RETRY_WAITS_MS = [1000, 2000];

/** A word the shell passes through unchanged, for the command line printed to finish a create. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:@-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A KeyInfo from the admin API's answer: "" there is null here, as the JSON output always had it. */
const keyInfo = (k: { keyId: string; label: string; prefix: string; createdAt: string; lastUsedAt: string; revokedAt: string }) => ({
  keyId: k.keyId,
  label: k.label,
  prefix: k.prefix,
  createdAt: k.createdAt,
  lastUsedAt: k.lastUsedAt || null,
  revokedAt: k.revokedAt || null,
});
const siteInfo = (s: { id: string; name: string; publicId: string; plan: string; createdAt: string } | null) => ({
  id: s!.id,
  name: s!.name,
  publicId: s!.publicId,
  plan: s!.plan,
  createdAt: s!.createdAt,
});

function csv(value: string | undefined, name: string): string[] {
  if (value === undefined) throw new UsageError(`--${name} is required`);
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * The lines of a stream, read as they are consumed. readline emits lines from the moment it
 * exists, and the import first looks the site up: created any earlier, it would drop the first ones.
 */
async function* linesOf(input: NodeJS.ReadableStream): AsyncGenerator<string> {
  yield* createInterface({ input, crlfDelay: Infinity });
}

/** A JSON object from a file, or a usage error saying why not. */
async function readJsonFile(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new OperatorError(`cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // said below
  }
  throw new OperatorError(`${file} must hold one JSON object`);
}

/** Where the console's links point: PUBLIC_URL, else the running stack's gateway. */
async function consoleBaseUrl(): Promise<string> {
  const configured = httpOrigin(process.env, 'PUBLIC_URL');
  if (configured) return configured;
  const stack = await runningStack();
  if (stack?.gatewayUrl) return stack.gatewayUrl;
  throw new UsageError('set PUBLIC_URL to the origin the console is reached at (e.g. https://push.example.net): the link is printed under it');
}

function table(rows: Record<string, unknown>[]): string {
  if (rows.length === 0) return '(none)';
  const cols = Object.keys(rows[0]);
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? '').length)));
  const line = (vals: string[]) => vals.map((v, i) => v.padEnd(width[i])).join('  ').trimEnd();
  return [line(cols), ...rows.map((r) => line(cols.map((c) => String(r[c] ?? ''))))].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
      permissions: { type: 'string' },
      plan: { type: 'string' },
      'keep-old': { type: 'boolean', default: false },
      key: { type: 'string' },
      count: { type: 'string' },
      topics: { type: 'string' },
      countries: { type: 'string' },
      'per-subscriber': { type: 'string' },
      'endpoint-base': { type: 'string' },
      'batch-size': { type: 'string' },
      role: { type: 'string' },
      'site-id': { type: 'string' },
      rotate: { type: 'boolean', default: false },
      'overlap-hours': { type: 'string' },
    },
  });
  const [group, action, ...rest] = positionals;
  if (values.help || !group) {
    process.stdout.write(HELP + '\n');
    return values.help ? 0 : 2;
  }
  const out = (human: string, json: unknown) => process.stdout.write((values.json ? JSON.stringify(json, null, 2) : human) + '\n');
  const progress = (line: string) => {
    if (!values.json) process.stderr.write(line);
  };

  if (group === 'kafka') {
    if (action !== 'create-topics') throw new UsageError('usage: kafka create-topics');
    const result = await createKafkaTopics();
    out(result.topics.map((t) => `${t.name}: ${t.partitions} partition(s)`).join('\n'), result);
    return 0;
  }

  if (ADMIN_COMMANDS.has(`${group} ${action ?? ''}`.trim())) {
    await resolveAdminTargets();
    const admin = adminClients();
    try {
      return await adminCommand(admin, `${group} ${action ?? ''}`.trim(), rest, values, out, progress);
    } finally {
      admin.close();
    }
  }

  const db = await localDatabase();
  const pool = createPool(db.url, { max: 4, applicationName: 'webpush-cli' });
  try {
    const key = `${group} ${action ?? ''}`.trim();
    if (key === 'migrate') {
      await migrateCampaignSchema(pool);
      await migrateDeliverySchema(pool);
      out('migrations applied', { migrated: true });
      return 0;
    }
    // Everything below is the delivery service's: its schema, through its modules.
    await migrateDeliverySchema(pool);
    const vapidKeys = loadVapidEncryptionKeys({
      VAPID_ENCRYPTION_KEY: process.env.VAPID_ENCRYPTION_KEY || (await localSecrets()).VAPID_ENCRYPTION_KEY,
      VAPID_ENCRYPTION_KEY_PREVIOUS: process.env.VAPID_ENCRYPTION_KEY_PREVIOUS,
    });
    const delivery = createDeliveryOperators(pool, vapidKeys, loadPushHostRules(process.env));
    const topics = createTopicMaintenance(pool);
    const site = async (ref: string | undefined) => {
      if (!ref) throw new UsageError('a site id or public id is required');
      const found = await delivery.findSite(ref);
      return { id: found.siteId, publicId: found.publicId };
    };
    switch (key) {
      case 'subscribers seed': {
        const s = await site(rest[0]);
        const count = Number(values.count);
        if (!Number.isInteger(count) || count < 1 || count > 10_000_000) throw new UsageError('--count must be an integer from 1 to 10000000');
        const perSubscriber = values['per-subscriber'] === undefined ? undefined : Number(values['per-subscriber']);
        if (perSubscriber !== undefined && (!Number.isInteger(perSubscriber) || perSubscriber < 0)) throw new UsageError('--per-subscriber must be a non-negative integer');
        const topics = values.topics === undefined ? [] : csv(values.topics, 'topics');
        const countries = values.countries === undefined ? [] : csv(values.countries, 'countries');
        const started = Date.now();
        const result = await delivery.seedSubscribers({
          siteId: s.id,
          count,
          topics,
          countries,
          topicsPerSubscriber: perSubscriber,
          endpointBase: values['endpoint-base'],
          onProgress: (done, total) => {
            const secs = (Date.now() - started) / 1000;
            progress(`\rseeded ${done}/${total} (${Math.round((100 * done) / total)}%, ${Math.round(done / Math.max(secs, 0.001))}/s)`);
          },
        });
        progress('\n');
        const secs = (Date.now() - started) / 1000;
        out(`${result.inserted} subscribers seeded on ${s.id} in ${secs.toFixed(1)} s`, { siteId: s.id, inserted: result.inserted, seconds: secs });
        return 0;
      }
      case 'sites import-vapid': {
        const s = await site(rest[0]);
        if (!rest[1]) throw new UsageError('usage: sites import-vapid <site> <keys.json>');
        const pair = await readJsonFile(rest[1]);
        const result = await delivery.importVapidKeys({ siteId: s.id, publicKey: pair.publicKey as string, privateKey: pair.privateKey as string });
        out(result.changed ? `site ${s.id} now signs with VAPID public key ${result.vapidPublicKey}` : `site ${s.id} already had this VAPID key pair`, { siteId: s.id, ...result });
        return 0;
      }
      case 'subscribers import': {
        const s = await site(rest[0]);
        if (!rest[1]) throw new UsageError('usage: subscribers import <site> <file.ndjson | ->');
        const input = rest[1] === '-' ? process.stdin : createReadStream(rest[1], { encoding: 'utf8' });
        const opened = new Promise<void>((resolve, reject) => {
          if (input === process.stdin) return resolve();
          input.once('open', () => resolve());
          input.once('error', (err) => reject(new OperatorError(`cannot read ${rest[1]}: ${err.message}`)));
        });
        await opened;
        const started = Date.now();
        const report = await delivery.importSubscriptions({
          siteId: s.id,
          lines: linesOf(input),
          onProgress: (r) => progress(`\rread ${r.read}: ${r.imported} imported, ${r.existing} already there, ${r.refused} refused`),
        });
        progress('\n');
        const seconds = (Date.now() - started) / 1000;
        const refusals = report.refusals.map((r) => `  line ${r.line}: ${r.reason}`);
        if (report.refused > report.refusals.length) refusals.push(`  … and ${report.refused - report.refusals.length} more`);
        out(
          [`${report.read} line(s) in ${seconds.toFixed(1)} s: ${report.imported} imported, ${report.existing} already there, ${report.refused} refused`, ...refusals].join('\n'),
          { siteId: s.id, ...report, seconds },
        );
        return report.refused > 0 ? 1 : 0;
      }
      case 'sites export-vapid': {
        const s = await site(rest[0]);
        if (!rest[1]) throw new UsageError('usage: sites export-vapid <site> <keys.json>');
        const pair = await delivery.exportVapidKeys(s.id);
        // A new file only ('wx'), readable by its owner only: it holds a private key.
        await writeFile(rest[1], JSON.stringify(pair, null, 2) + '\n', { flag: 'wx', mode: 0o600 }).catch((err: NodeJS.ErrnoException) => {
          throw new OperatorError(err.code === 'EEXIST' ? `${rest[1]} exists already: give a new file` : `cannot write ${rest[1]}: ${err.message}`);
        });
        out(`site ${s.id}: VAPID key pair written to ${rest[1]}`, { siteId: s.id, vapidPublicKey: pair.publicKey, file: rest[1] });
        return 0;
      }
      case 'subscribers export': {
        const s = await site(rest[0]);
        if (!rest[1]) throw new UsageError('usage: subscribers export <site> <file.ndjson | ->');
        const toStdout = rest[1] === '-';
        // A new file only ('wx'), readable by its owner only: whoever holds it can push to those browsers.
        const file = toStdout
          ? undefined
          : await open(rest[1], 'wx', 0o600).catch((err: NodeJS.ErrnoException) => {
              throw new OperatorError(err.code === 'EEXIST' ? `${rest[1]} exists already: give a new file` : `cannot write ${rest[1]}: ${err.message}`);
            });
        const started = Date.now();
        let exported = 0;
        try {
          for await (const chunk of await delivery.exportSubscriptions(s.id)) {
            exported += chunk.split('\n').length - 1;
            if (file) await file.write(chunk);
            else if (!process.stdout.write(chunk)) await once(process.stdout, 'drain');
            progress(`\rexported ${exported}`);
          }
        } finally {
          await file?.close();
        }
        progress('\n');
        const seconds = (Date.now() - started) / 1000;
        // With `-` the lines are the output; the summary goes to stderr.
        if (toStdout) process.stderr.write(`${exported} subscription(s) exported in ${seconds.toFixed(1)} s\n`);
        else out(`${exported} subscription(s) exported to ${rest[1]} in ${seconds.toFixed(1)} s`, { siteId: s.id, exported, seconds, file: rest[1] });
        return 0;
      }
      case 'topics rename': {
        const s = await site(rest[0]);
        if (!rest[1] || !rest[2]) throw new UsageError('usage: topics rename <site> <topic> <new-name>');
        const changed = await topics.renameTopic({ siteId: s.id, from: rest[1], to: rest[2] });
        out(`topic renamed on ${changed.subscribers} subscriber(s)`, { siteId: s.id, ...changed });
        return 0;
      }
      case 'topics merge': {
        const s = await site(rest[0]);
        if (!rest[1] || !rest[2]) throw new UsageError('usage: topics merge <site> <topic>[,<topic>…] <into>');
        const changed = await topics.mergeTopics({ siteId: s.id, from: csv(rest[1], 'topics'), into: rest[2] });
        out(`topics merged on ${changed.subscribers} subscriber(s)`, { siteId: s.id, ...changed });
        return 0;
      }
      case 'topics delete': {
        const s = await site(rest[0]);
        if (!rest[1]) throw new UsageError('usage: topics delete <site> <topic>');
        const changed = await topics.deleteTopic({ siteId: s.id, topic: rest[1] });
        out(`topic removed from ${changed.subscribers} subscriber(s)`, { siteId: s.id, ...changed });
        return 0;
      }
      case 'retention sizes': {
        if (rest.length > 0) throw new UsageError('usage: retention sizes');
        const sizes = await tableSizes(pool);
        const mb = (b: number) => `${(b / 1_048_576).toFixed(1)} MB`;
        out(
          [`database: ${mb(sizes.databaseBytes)}`, ...sizes.tables.filter((t) => t.bytes > 0).map((t) => `  ${t.table.padEnd(32)} ${mb(t.bytes).padStart(12)}  ~${t.rows} rows`)].join('\n'),
          sizes,
        );
        return 0;
      }
      case 'retention run': {
        if (rest.length > 0) throw new UsageError('usage: retention run');
        const report = await createRetention(pool, loadRetentionSettings(process.env)).pass();
        if (!report) {
          out('another retention pass is running (a delivery instance): try again in a moment', { running: true });
          return 1;
        }
        out(
          [
            `delivery log: ${report.logExpired.length} piece(s) expired, ${report.logDropped.length} dropped${report.legacyLogTruncated ? ', rows from before pieces truncated' : ''}`,
            `tracking: ${report.trackingExpired.length} piece(s) expired, ${report.trackingDropped.length} dropped${report.legacyTrackingTruncated ? ', rows from before pieces truncated' : ''}`,
            `frequency-cap history: ${report.capHistoryDeleted} row(s) deleted`,
            `audit log: ${report.auditDeleted} entr${report.auditDeleted === 1 ? 'y' : 'ies'} past their site's retention deleted`,
            `opt-in funnel: ${report.funnelDeleted} counter row(s) past 400 days deleted`,
            ...(report.lockTimeouts > 0 ? [`${report.lockTimeouts} step(s) did not get their lock in time: run again`] : []),
          ].join('\n'),
          report,
        );
        return 0;
      }
      case 'sites identity-secret': {
        const s = await site(rest[0]);
        if (rest.length > 1 || (!values.rotate && values['overlap-hours'] !== undefined)) {
          throw new UsageError('usage: sites identity-secret <site> [--rotate [--overlap-hours N]]');
        }
        if (!values.rotate) {
          const shown = await delivery.identitySecret(s.id);
          out(`${shown.created ? 'new identity secret' : 'identity secret'} of site ${s.id}: ${shown.secret}`, shown);
          return 0;
        }
        const overlap = values['overlap-hours'] === undefined ? DEFAULT_IDENTITY_OVERLAP_HOURS : Number(values['overlap-hours']);
        const rotated = await delivery.rotateIdentitySecret(s.id, overlap);
        out(`new identity secret of site ${s.id}: ${rotated.secret} (the previous one is accepted for ${rotated.overlapHours} more hour(s))`, rotated);
        return 0;
      }
      case 'vapid reencrypt': {
        if (rest.length > 0) throw new UsageError('usage: vapid reencrypt [--batch-size N]');
        const batchSize = values['batch-size'] === undefined ? undefined : Number(values['batch-size']);
        if (batchSize !== undefined && (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000)) {
          throw new UsageError('--batch-size must be an integer from 1 to 10000');
        }
        const currentKeyId = encryptionKeyFingerprint(vapidKeys.current);
        const previousKeyIds = vapidKeys.previous.map(encryptionKeyFingerprint);
        progress(`current key ${currentKeyId}; previous key(s): ${previousKeyIds.join(', ') || 'none'}\n`);
        const started = Date.now();
        const result = await delivery.reencryptVapidKeys({
          batchSize,
          onProgress: (c) => progress(`\rchecked ${c.reencrypted + c.alreadyCurrent + c.failed.length} site(s): ${c.reencrypted} re-encrypted, ${c.alreadyCurrent} already current, ${c.failed.length} failed`),
        });
        progress('\n');
        // A site may be listed more than once in `failed` (its key, a webhook or identity secret): count sites once.
        const sites = result.reencrypted + result.alreadyCurrent + new Set(result.failed.filter((f) => !/^its (webhook|identity)/.test(f.reason)).map((f) => f.siteId)).size;
        const seconds = (Date.now() - started) / 1000;
        out(
          [
            `${sites} site(s) in ${seconds.toFixed(1)} s: ${result.reencrypted} re-encrypted, ${result.alreadyCurrent} already current, ${result.failed.length} failed to decrypt with any known key; ${result.webhookSecretsReencrypted} webhook secret(s) and ${result.identitySecretsReencrypted} identity secret(s) re-encrypted`,
            ...(result.failed.length > 0
              ? ['Failed (left unchanged):', ...result.failed.map((f) => `  ${f.siteId}  ${f.publicId}  ${f.reason}`)]
              : []),
          ].join('\n'),
          { sites, reencrypted: result.reencrypted, alreadyCurrent: result.alreadyCurrent, failed: result.failed, webhookSecretsReencrypted: result.webhookSecretsReencrypted, identitySecretsReencrypted: result.identitySecretsReencrypted, currentKeyId, previousKeyIds, seconds },
        );
        if (result.failed.length > 0) {
          process.stderr.write(`error: ${result.failed.length} site(s) could not be decrypted with VAPID_ENCRYPTION_KEY or any VAPID_ENCRYPTION_KEY_PREVIOUS; add the key they were encrypted with to VAPID_ENCRYPTION_KEY_PREVIOUS and run again\n`);
          return 1;
        }
        return 0;
      }
      default:
        throw new UsageError(`unknown command "${key}"; see --help`);
    }
  } finally {
    await pool.end().catch(() => {});
    await db.server.stop();
  }
}

/** The commands the services' admin APIs carry (the rest work on the delivery schema). */
const ADMIN_COMMANDS = new Set([
  'plans create',
  'plans list',
  'sites create',
  'sites list',
  'sites set-plan',
  'sites set-throttle',
  'sites set-frequency-cap',
  'sites set-time-zone',
  'sites set-visitor-tags',
  'sites set-quiet-hours',
  'keys list',
  'keys rotate',
  'keys revoke',
  'users invite',
  'users reset-password',
  'users list',
]);

async function adminCommand(
  admin: AdminClients,
  key: string,
  rest: string[],
  values: { plan?: string; permissions?: string; 'keep-old'?: boolean; key?: string; role?: string; 'site-id'?: string },
  out: (human: string, json: unknown) => void,
  progress: (line: string) => void,
): Promise<number> {
  type Invoke<Res> = (options: grpc.CallOptions, callback: grpc.requestCallback<Res>) => void;
  const campaign = <Res>(invoke: Invoke<Res>) => call<Res>('campaign', invoke);
  const delivery = <Res>(invoke: Invoke<Res>) => call<Res>('delivery', invoke);
  const site = async (ref: string | undefined) => {
    if (!ref) throw new UsageError('a site id or public id is required');
    return siteInfo(await campaign<AdminSite__Output>((o, cb) => admin.campaign().getSite({ site: ref }, o, cb)));
  };
  switch (key) {
    case 'plans create': {
      if (!rest[0]) throw new UsageError('usage: plans create <name> --permissions create,reports,delete,audience');
      const perms = csv(values.permissions, 'permissions').filter((p) => p !== 'none');
      const bad = perms.filter((p) => !PERMISSIONS.includes(p as Permission));
      if (bad.length) throw new UsageError(`unknown permission(s): ${bad.join(', ')} (allowed: ${PERMISSIONS.join(', ')}, none)`);
      const made = await campaign<AdminPlan__Output>((o, cb) => admin.campaign().createPlan({ name: rest[0], permissions: perms }, o, cb));
      const plan = { id: made.id, name: made.name, permissions: made.permissions! };
      out(`plan ${plan.name} created: ${PERMISSIONS.filter((p) => plan.permissions[p]).join(', ') || 'no permissions'}`, plan);
      return 0;
    }
    case 'plans list': {
      const plans = (await campaign<AdminPlanList__Output>((o, cb) => admin.campaign().listPlans({}, o, cb))).plans.map((p) => ({ id: p.id, name: p.name, permissions: p.permissions! }));
      out(table(plans.map((p) => ({ name: p.name, ...p.permissions }))), plans);
      return 0;
    }
    case 'sites create': {
      if (!rest[0]) throw new UsageError('usage: sites create <name> --plan <plan>');
      if (!values.plan) throw new UsageError('--plan is required');
      const request = { siteId: values['site-id'] ?? randomUUID(), name: rest[0], plan: values.plan };
      // The same site id on every attempt: a repeat finishes what the one before began (site_admin.proto).
      const create = () => campaign<CreatedSite__Output>((o, cb) => admin.campaign().createSite(request, o, cb));
      let answer;
      for (let attempt = 0; ; attempt++) {
        try {
          answer = await create();
          break;
        } catch (err) {
          if (!(err instanceof AdminUnavailable)) throw err;
          if (attempt >= CREATE_RETRY_WAITS_MS.length) {
            throw new AdminUnavailable(
              `${err.message}\nThe site is not created. Once the services answer, finish it (the same site, nothing made twice) with:\n` +
                `  npm run cli -- sites create ${shellWord(request.name)} --plan ${shellWord(request.plan)} --site-id ${request.siteId}`,
            );
          }
          progress(`${err.message}; trying again\n`);
          await new Promise((r) => setTimeout(r, CREATE_RETRY_WAITS_MS[attempt]));
        }
      }
      const created = siteInfo(answer.site);
      out(
        [
          `site created: ${created.name}`,
          `  id:               ${created.id}`,
          `  public id:        ${created.publicId}`,
          `  plan:             ${created.plan}`,
          `  API key:          ${answer.apiKey}`,
          `  VAPID public key: ${answer.vapidPublicKey}`,
          'The API key is shown only now; store it in your server\'s secrets.',
        ].join('\n'),
        { ...created, apiKey: answer.apiKey, keyId: answer.keyId, vapidPublicKey: answer.vapidPublicKey },
      );
      return 0;
    }
    case 'sites list': {
      const sites = (await campaign<AdminSiteList__Output>((o, cb) => admin.campaign().listSites({}, o, cb))).sites.map(siteInfo);
      out(table(sites.map((s) => ({ id: s.id, publicId: s.publicId, name: s.name, plan: s.plan, createdAt: s.createdAt }))), sites);
      return 0;
    }
    case 'sites set-throttle': {
      const s = await site(rest[0]);
      if (!rest[1] || (rest[1] !== 'none' && !/^[0-9]+$/.test(rest[1]))) throw new UsageError('usage: sites set-throttle <site> <pushes per minute | none>');
      // Digits beyond int32 would wrap on the wire: sent as an out-of-range value the service refuses.
      const perMinute = rest[1] === 'none' ? undefined : Math.min(Number(rest[1]), 2 ** 31 - 1);
      const answer = await campaign<ThrottleAnswer__Output>((o, cb) => admin.campaign().setThrottle({ site: s.id, perMinute }, o, cb));
      const changed = { id: answer.siteId, defaultThrottlePerMinute: answer.defaultThrottlePerMinute ?? null };
      out(
        changed.defaultThrottlePerMinute === null
          ? `site ${changed.id}: no default throttle`
          : `site ${changed.id}: campaigns created without throttlePerMinute send at most ${changed.defaultThrottlePerMinute} pushes per minute`,
        changed,
      );
      return 0;
    }
    case 'sites set-frequency-cap': {
      const usage = 'usage: sites set-frequency-cap <site> <campaigns> <hours> | none';
      if (!rest[0]) throw new UsageError('a site id or public id is required');
      const lift = rest[1] === 'none' && rest.length === 2;
      if (!lift && (rest.length !== 3 || !/^[0-9]+$/.test(rest[1]) || !/^[0-9]+$/.test(rest[2]))) throw new UsageError(usage);
      const int32 = (digits: string) => Math.min(Number(digits), 2 ** 31 - 1);
      const cap = lift ? null : { campaigns: int32(rest[1]), hours: int32(rest[2]) };
      const answer = await delivery<FrequencyCapAnswer__Output>((o, cb) => admin.delivery().setFrequencyCap({ site: rest[0], cap }, o, cb));
      const set = { siteId: answer.siteId, frequencyCap: answer.frequencyCap && { campaigns: answer.frequencyCap.campaigns, hours: answer.frequencyCap.hours } };
      out(lift ? `site ${set.siteId}: no frequency cap` : `site ${set.siteId}: at most ${rest[1]} campaign(s) per subscriber in any ${rest[2]} hour(s)`, set);
      return 0;
    }
    case 'sites set-time-zone': {
      if (!rest[0]) throw new UsageError('a site id or public id is required');
      if (!rest[1] || rest.length !== 2) throw new UsageError('usage: sites set-time-zone <site> <IANA zone | none>');
      const set = await delivery<TimeZoneAnswer__Output>((o, cb) => admin.delivery().setTimeZone({ site: rest[0], timeZone: rest[1] === 'none' ? undefined : rest[1] }, o, cb));
      out(`site ${set.siteId}: local-time campaigns reach subscribers without a known zone at the time in ${set.timeZone}`, { siteId: set.siteId, timeZone: set.timeZone });
      return 0;
    }
    case 'sites set-visitor-tags': {
      if (!rest[0]) throw new UsageError('a site id or public id is required');
      if (!rest[1] || rest.length !== 2) throw new UsageError('usage: sites set-visitor-tags <site> <key,key… | none>');
      const keys = rest[1] === 'none' ? [] : csv(rest[1], 'keys');
      const set = await delivery<VisitorTagsAnswer__Output>((o, cb) => admin.delivery().setVisitorTags({ site: rest[0], keys }, o, cb));
      out(`site ${set.siteId}: pages may set ${set.keys.length > 0 ? `the tags ${set.keys.join(', ')}` : 'no tags'} of their identified visitor`, { siteId: set.siteId, keys: set.keys });
      return 0;
    }
    case 'sites set-quiet-hours': {
      if (!rest[0]) throw new UsageError('a site id or public id is required');
      const off = rest.length === 2 && rest[1] === 'off';
      if (!off && rest.length !== 3) throw new UsageError('usage: sites set-quiet-hours <site> <from HH:MM> <to HH:MM> | off');
      const quietHours = off ? null : { from: rest[1], to: rest[2] };
      const set = await delivery<QuietHoursAnswer__Output>((o, cb) => admin.delivery().setQuietHours({ site: rest[0], quietHours }, o, cb));
      const quiet = set.quietHours ? { from: set.quietHours.from, to: set.quietHours.to } : null;
      out(quiet ? `site ${set.siteId}: pushes due from ${quiet.from} to ${quiet.to} in a subscriber's zone are held until ${quiet.to}` : `site ${set.siteId}: no quiet hours`, { siteId: set.siteId, quietHours: quiet });
      return 0;
    }
    case 'sites set-plan': {
      const s = await site(rest[0]);
      if (!rest[1]) throw new UsageError('usage: sites set-plan <site> <plan>');
      const changed = siteInfo(await campaign<AdminSite__Output>((o, cb) => admin.campaign().changePlan({ site: s.id, plan: rest[1] }, o, cb)));
      out(`site ${changed.id} is now on plan ${changed.plan}`, changed);
      return 0;
    }
    case 'keys list': {
      const s = await site(rest[0]);
      const keys = (await campaign<AdminKeyList__Output>((o, cb) => admin.campaign().listKeys({ site: s.id }, o, cb))).keys.map(keyInfo);
      out(table(keys.map((k) => ({ ...k, revokedAt: k.revokedAt ?? '' }))), keys);
      return 0;
    }
    case 'keys rotate': {
      const s = await site(rest[0]);
      const issued = await campaign<AdminIssuedKey__Output>((o, cb) => admin.campaign().issueKey({ site: s.id, keepOthers: values['keep-old'] }, o, cb));
      out(
        `new API key for ${s.id}: ${issued.apiKey}\n${values['keep-old'] ? 'Older keys stay valid until revoked.' : 'Every older key is revoked.'} The key is shown only now.`,
        { siteId: s.id, apiKey: issued.apiKey, keyId: issued.keyId, prefix: issued.prefix, olderKeysRevoked: !values['keep-old'] },
      );
      return 0;
    }
    case 'keys revoke': {
      const s = await site(rest[0]);
      const { revoked } = await campaign<RevokeKeysAnswer__Output>((o, cb) => admin.campaign().revokeKeys({ site: s.id, key: values.key ?? '' }, o, cb));
      if (values.key && revoked === 0) throw new OperatorError(`no active key "${values.key}" on site ${s.id}`);
      out(`${revoked} key(s) revoked`, { siteId: s.id, revoked });
      return 0;
    }
    case 'users invite': {
      const s = await site(rest[0]);
      if (!rest[1] || rest.length !== 2) throw new UsageError(`usage: users invite <site> <email> [--role ${ROLES.join('|')}]`);
      const role = (values.role ?? 'owner') as Role;
      if (!ROLES.includes(role)) throw new UsageError(`--role must be ${ROLES.slice(0, -1).join(', ')} or ${ROLES.at(-1)}`);
      const baseUrl = await consoleBaseUrl();
      const answer = await campaign<AdminInvite__Output>((o, cb) => admin.campaign().inviteUser({ site: s.id, email: rest[1], role, baseUrl }, o, cb));
      const invite = { siteId: answer.siteId, email: answer.email, role: answer.role, existingUser: answer.existingUser, link: answer.link, expiresAt: answer.expiresAt };
      out(
        [
          `invite for ${invite.email} (${invite.role} of ${s.name}, ${s.id}), valid until ${invite.expiresAt}, usable once:`,
          `  ${invite.link}`,
          invite.existingUser ? 'They already have an account: opening the link and giving their password adds the site.' : 'Opening it, they choose their password.',
        ].join('\n'),
        invite,
      );
      return 0;
    }
    case 'users reset-password': {
      if (rest.length !== 1) throw new UsageError('usage: users reset-password <email>');
      const baseUrl = await consoleBaseUrl();
      const answer = await campaign<AdminPasswordReset__Output>((o, cb) => admin.campaign().resetPasswordLink({ email: rest[0], baseUrl }, o, cb));
      const reset = { email: answer.email, link: answer.link, expiresAt: answer.expiresAt };
      out(`password reset for ${reset.email}, valid until ${reset.expiresAt}, usable once:\n  ${reset.link}`, reset);
      return 0;
    }
    case 'users list': {
      const s = await site(rest[0]);
      const answer = await campaign<AdminUserList__Output>((o, cb) => admin.campaign().listUsers({ site: s.id }, o, cb));
      const members = answer.users.map((m) => ({ email: m.email, role: m.role, since: m.since }));
      out(table(members.map((m) => ({ email: m.email, role: m.role, since: m.since }))), { siteId: answer.siteId, members });
      return 0;
    }
    default:
      throw new UsageError(`unknown command "${key}"; see --help`);
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  if (err instanceof UsageError || err instanceof OperatorError || err instanceof AdminRefusal || err instanceof DeliveryOperatorError || err instanceof ConfigError) {
    process.stderr.write(`error: ${err.message}\n`);
    process.exitCode = 2;
  } else {
    process.stderr.write(`error: ${(err as Error).message}\n`);
    process.exitCode = 1;
  }
}
