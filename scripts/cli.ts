// Operator CLI: plans, sites, API keys, console users, synthetic and imported subscribers, VAPID keys. `npm run cli -- --help`.
// Works against DATABASE_URL, else the running stack's database, else the embedded one.
import { createReadStream } from 'node:fs';
import { once } from 'node:events';
import { open, readFile, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { migrateCampaignSchema } from '../services/campaign/src/app.js';
import { createOperators, OperatorError, PERMISSIONS, type Permission } from '../services/campaign/src/domain/operators.js';
import { createAccounts, ROLES, type Role } from '../services/campaign/src/console/accounts.js';
import { ValidationError } from '../services/campaign/src/domain/errors.js';
import { migrateDeliverySchema } from '../services/delivery/src/app.js';
import { loadPushHostRules, loadRetentionSettings, loadVapidEncryptionKeys } from '../services/delivery/src/config.js';
import { createRetention, tableSizes } from '../services/delivery/src/retention/retention.js';
import { createDeliveryOperators, REENCRYPT_DEFAULT_BATCH } from '../services/delivery/src/operators.js';
import { encryptionKeyFingerprint } from '../services/delivery/src/sites/vapid-keys.js';
import { ConfigError, httpOrigin } from '../services/shared/src/config.js';
import { DeliveryOperatorError } from '../services/delivery/src/errors.js';
import { createTopicMaintenance } from '../services/delivery/src/audience/topic-maintenance.js';
import { createPool } from '../services/shared/src/db.js';
import { localDatabase, localSecrets, runningStack } from './lib/local-env.js';
import { createKafkaTopics } from './lib/kafka-topics.js';

const HELP = `webpush operator CLI

Usage: npm run cli -- <command> [arguments] [--json]

  plans create <name> --permissions create,reports,delete,audience
                                     create a plan ("none" for no permission)
  plans list
  sites create <name> --plan <plan>  create a site; prints its id, public id, API key
                                     (shown once) and VAPID public key
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
  keys list <site>                   the site's keys: label, prefix, created, last used, revoked
  keys rotate <site> [--keep-old]    issue a new API key; revokes the others unless --keep-old
  keys revoke <site> [--key <id|prefix>]
                                     revoke one key, or every key of the site
  users invite <site> <email> [--role owner|editor]
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
Database: DATABASE_URL, else the running stack's, else the embedded one under .data/.
Links: under PUBLIC_URL (the origin the console is reached at), else the running stack's.`;

class UsageError extends Error {}

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

  const db = await localDatabase();
  const pool = createPool(db.url, { max: 4, applicationName: 'webpush-cli' });
  try {
    await migrateCampaignSchema(pool);
    await migrateDeliverySchema(pool);
    const secrets = await localSecrets();
    const ops = createOperators(pool);
    const vapidKeys = loadVapidEncryptionKeys({
      VAPID_ENCRYPTION_KEY: secrets.VAPID_ENCRYPTION_KEY,
      VAPID_ENCRYPTION_KEY_PREVIOUS: process.env.VAPID_ENCRYPTION_KEY_PREVIOUS,
    });
    const delivery = createDeliveryOperators(pool, vapidKeys, loadPushHostRules(process.env));
    const topics = createTopicMaintenance(pool);
    const accounts = createAccounts(pool);
    const site = async (ref: string | undefined) => {
      if (!ref) throw new UsageError('a site id or public id is required');
      const found = await ops.getSite(ref);
      if (!found) throw new OperatorError(`site "${ref}" does not exist`);
      return found;
    };
    const key = `${group} ${action ?? ''}`.trim();
    switch (key) {
      case 'migrate':
        out('migrations applied', { migrated: true });
        return 0;
      case 'plans create': {
        if (!action || !rest[0]) throw new UsageError('usage: plans create <name> --permissions create,reports,delete,audience');
        const perms = csv(values.permissions, 'permissions').filter((p) => p !== 'none');
        const bad = perms.filter((p) => !PERMISSIONS.includes(p as Permission));
        if (bad.length) throw new UsageError(`unknown permission(s): ${bad.join(', ')} (allowed: ${PERMISSIONS.join(', ')}, none)`);
        const plan = await ops.createPlan(rest[0], perms as Permission[]);
        out(`plan ${plan.name} created: ${PERMISSIONS.filter((p) => plan.permissions[p]).join(', ') || 'no permissions'}`, plan);
        return 0;
      }
      case 'plans list': {
        const plans = await ops.listPlans();
        out(table(plans.map((p) => ({ name: p.name, ...p.permissions }))), plans);
        return 0;
      }
      case 'sites create': {
        if (!rest[0]) throw new UsageError('usage: sites create <name> --plan <plan>');
        if (!values.plan) throw new UsageError('--plan is required');
        const created = await ops.createSite({ name: rest[0], plan: values.plan });
        const { vapidPublicKey } = await delivery.registerSite({ siteId: created.id, publicId: created.publicId });
        const issued = await ops.issueKey(created.id);
        out(
          [
            `site created: ${created.name}`,
            `  id:               ${created.id}`,
            `  public id:        ${created.publicId}`,
            `  plan:             ${created.plan}`,
            `  API key:          ${issued.key}`,
            `  VAPID public key: ${vapidPublicKey}`,
            'The API key is shown only now; store it in your server\'s secrets.',
          ].join('\n'),
          { ...created, apiKey: issued.key, keyId: issued.keyId, vapidPublicKey },
        );
        return 0;
      }
      case 'sites list': {
        const sites = await ops.listSites();
        out(table(sites.map((s) => ({ id: s.id, publicId: s.publicId, name: s.name, plan: s.plan, createdAt: s.createdAt }))), sites);
        return 0;
      }
      case 'sites set-throttle': {
        const s = await site(rest[0]);
        if (!rest[1] || (rest[1] !== 'none' && !/^[0-9]+$/.test(rest[1]))) throw new UsageError('usage: sites set-throttle <site> <pushes per minute | none>');
        const changed = await ops.setThrottle(s.id, rest[1] === 'none' ? null : Number(rest[1]));
        out(
          changed.defaultThrottlePerMinute === null
            ? `site ${changed.id}: no default throttle`
            : `site ${changed.id}: campaigns created without throttlePerMinute send at most ${changed.defaultThrottlePerMinute} pushes per minute`,
          changed,
        );
        return 0;
      }
      case 'sites set-frequency-cap': {
        const s = await site(rest[0]);
        const usage = 'usage: sites set-frequency-cap <site> <campaigns> <hours> | none';
        if (rest[1] === 'none' && rest.length === 2) {
          const lifted = await delivery.setFrequencyCap(s.id, null);
          out(`site ${s.id}: no frequency cap`, lifted);
          return 0;
        }
        if (rest.length !== 3 || !/^[0-9]+$/.test(rest[1]) || !/^[0-9]+$/.test(rest[2])) throw new UsageError(usage);
        const set = await delivery.setFrequencyCap(s.id, { campaigns: Number(rest[1]), hours: Number(rest[2]) });
        out(`site ${s.id}: at most ${rest[1]} campaign(s) per subscriber in any ${rest[2]} hour(s)`, set);
        return 0;
      }
      case 'sites set-time-zone': {
        const s = await site(rest[0]);
        if (!rest[1] || rest.length !== 2) throw new UsageError('usage: sites set-time-zone <site> <IANA zone | none>');
        const set = await delivery.setTimeZone(s.id, rest[1] === 'none' ? null : rest[1]);
        out(`site ${s.id}: local-time campaigns reach subscribers without a known zone at the time in ${set.timeZone}`, set);
        return 0;
      }
      case 'sites set-plan': {
        const s = await site(rest[0]);
        if (!rest[1]) throw new UsageError('usage: sites set-plan <site> <plan>');
        const changed = await ops.changePlan(s.id, rest[1]);
        out(`site ${changed.id} is now on plan ${changed.plan}`, changed);
        return 0;
      }
      case 'keys list': {
        const s = await site(rest[0]);
        const keys = await ops.listKeys(s.id);
        out(table(keys.map((k) => ({ ...k, revokedAt: k.revokedAt ?? '' }))), keys);
        return 0;
      }
      case 'keys rotate': {
        const s = await site(rest[0]);
        const issued = await ops.issueKey(s.id, { revokeOthers: !values['keep-old'] });
        out(
          `new API key for ${s.id}: ${issued.key}\n${values['keep-old'] ? 'Older keys stay valid until revoked.' : 'Every older key is revoked.'} The key is shown only now.`,
          { siteId: s.id, apiKey: issued.key, keyId: issued.keyId, prefix: issued.prefix, olderKeysRevoked: !values['keep-old'] },
        );
        return 0;
      }
      case 'keys revoke': {
        const s = await site(rest[0]);
        const revoked = await ops.revokeKeys(s.id, values.key);
        if (values.key && revoked === 0) throw new OperatorError(`no active key "${values.key}" on site ${s.id}`);
        out(`${revoked} key(s) revoked`, { siteId: s.id, revoked });
        return 0;
      }
      case 'users invite': {
        const s = await site(rest[0]);
        if (!rest[1] || rest.length !== 2) throw new UsageError('usage: users invite <site> <email> [--role owner|editor]');
        const role = (values.role ?? 'owner') as Role;
        if (!ROLES.includes(role)) throw new UsageError('--role must be owner or editor');
        const invite = await accounts.invite({ site: s.id, email: rest[1], role, baseUrl: await consoleBaseUrl() });
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
        if (!action || rest.length !== 1) throw new UsageError('usage: users reset-password <email>');
        const reset = await accounts.resetLink({ email: rest[0], baseUrl: await consoleBaseUrl() });
        out(`password reset for ${reset.email}, valid until ${reset.expiresAt}, usable once:\n  ${reset.link}`, reset);
        return 0;
      }
      case 'users list': {
        const s = await site(rest[0]);
        const { members } = await accounts.members(s.id);
        out(table(members.map((m) => ({ email: m.email, role: m.role, since: m.since }))), { siteId: s.id, members });
        return 0;
      }
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
            ...(report.lockTimeouts > 0 ? [`${report.lockTimeouts} step(s) did not get their lock in time: run again`] : []),
          ].join('\n'),
          report,
        );
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
        // A site may be listed twice in `failed` (its key and a webhook secret): count sites once.
        const sites = result.reencrypted + result.alreadyCurrent + new Set(result.failed.filter((f) => !f.reason.startsWith('its webhook')).map((f) => f.siteId)).size;
        const seconds = (Date.now() - started) / 1000;
        out(
          [
            `${sites} site(s) in ${seconds.toFixed(1)} s: ${result.reencrypted} re-encrypted, ${result.alreadyCurrent} already current, ${result.failed.length} failed to decrypt with any known key; ${result.webhookSecretsReencrypted} webhook secret(s) re-encrypted`,
            ...(result.failed.length > 0
              ? ['Failed (left unchanged):', ...result.failed.map((f) => `  ${f.siteId}  ${f.publicId}  ${f.reason}`)]
              : []),
          ].join('\n'),
          { sites, reencrypted: result.reencrypted, alreadyCurrent: result.alreadyCurrent, failed: result.failed, webhookSecretsReencrypted: result.webhookSecretsReencrypted, currentKeyId, previousKeyIds, seconds },
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

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  if (err instanceof UsageError || err instanceof OperatorError || err instanceof DeliveryOperatorError || err instanceof ConfigError || err instanceof ValidationError) {
    process.stderr.write(`error: ${err.message}\n`);
    process.exitCode = 2;
  } else {
    process.stderr.write(`error: ${(err as Error).message}\n`);
    process.exitCode = 1;
  }
}
