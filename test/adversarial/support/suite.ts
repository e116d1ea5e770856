// Shared state of the adversarial suite: one real stack (gateway, campaign, delivery as child
// processes), the sites it attacks with, the outcome tally printed at the end, and the checks
// every class ends with: no 5xx, `{message}` only, every process alive and still serving, a
// second site unaffected, nothing stored on a 4xx.
import { createECDH, randomBytes } from 'node:crypto';
import pg from 'pg';
import type { ServiceName } from '../../../scripts/lib/services.js';
import { startStack, type Stack } from '../../e2e/support/harness.js';
import type { SiteInfo } from '../../e2e/support/fixtures.js';
import { errorBodyProblem, request, type HeaderList, type RawResult, type RequestSpec } from './http.js';

export const SERVICES: ServiceName[] = ['gateway', 'campaign', 'delivery'];

/** Fixed so a run can be replayed; override with ADVERSARIAL_SEED. */
export const SEED = Number(process.env.ADVERSARIAL_SEED ?? 20261124);

/** Small gateway timeouts so slow clients are cut quickly (class 4 reads them back). */
export const GATEWAY_TIMEOUTS = Object.freeze({ headersMs: 2000, requestMs: 5000, keepAliveMs: 2000 });

/** The country header the stack is configured with (a trusted edge would set it). */
export const COUNTRY_HEADER = 'cf-ipcountry';

/**
 * The one trusted proxy: a loopback address only the console login class connects from (to tell
 * its flood's 200 client addresses). Every other class connects from 127.0.0.1, untrusted.
 */
export const CONSOLE_PROXY = '127.0.0.2';

export const STACK_ENV: Record<string, string> = {
  // The edge: no client the other classes play can name its address or country.
  COUNTRY_HEADER,
  TRUSTED_PROXIES: CONSOLE_PROXY,
  // Loopback is NOT a test push service here, so every spelling of it is an SSRF attempt.
  PUSH_TEST_HOSTS: 'push-test.invalid',
  // Limits high enough that the fuzzers reach validation instead of a 429 (429s still count as 4xx).
  SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '1000000',
  TRACKING_RATE_LIMIT_PER_MINUTE: '1000000',
  API_RATE_LIMIT_PER_MINUTE: '1000000',
  API_KEY_FAILURES_PER_MINUTE: '1000000',
  GATEWAY_HEADERS_TIMEOUT_MS: String(GATEWAY_TIMEOUTS.headersMs),
  GATEWAY_REQUEST_TIMEOUT_MS: String(GATEWAY_TIMEOUTS.requestMs),
  GATEWAY_KEEP_ALIVE_TIMEOUT_MS: String(GATEWAY_TIMEOUTS.keepAliveMs),
};

export interface Row {
  inputs: number;
  ok: number;
  c4xx: number;
  c5xx: number;
  /** No HTTP answer (connection closed or cut), or a refused internal call. */
  closed: number;
  crashes: number;
  violations: number;
}

export class Tally {
  readonly rows = new Map<string, Row>();
  row(cls: string): Row {
    let r = this.rows.get(cls);
    if (!r) this.rows.set(cls, (r = { inputs: 0, ok: 0, c4xx: 0, c5xx: 0, closed: 0, crashes: 0, violations: 0 }));
    return r;
  }
  /** Counts one input by its first answer. */
  http(cls: string, result: RawResult): void {
    const r = this.row(cls);
    r.inputs++;
    const status = result.responses[0]?.status;
    if (status === undefined) r.closed++;
    else if (status >= 500) r.c5xx++;
    else if (status >= 400) r.c4xx++;
    else r.ok++;
  }
  other(cls: string, kind: 'ok' | 'c4xx' | 'closed'): void {
    const r = this.row(cls);
    r.inputs++;
    r[kind]++;
  }
  table(): string {
    const head = ['class', 'inputs', '2xx/3xx', '4xx', '5xx', 'closed/refused', 'crashes', 'violations'];
    const lines = [...this.rows.entries()].map(([cls, r]) => [cls, r.inputs, r.ok, r.c4xx, r.c5xx, r.closed, r.crashes, r.violations].map(String));
    const total = [...this.rows.values()].reduce(
      (t, r) => ({ inputs: t.inputs + r.inputs, ok: t.ok + r.ok, c4xx: t.c4xx + r.c4xx, c5xx: t.c5xx + r.c5xx, closed: t.closed + r.closed, crashes: t.crashes + r.crashes, violations: t.violations + r.violations }),
      { inputs: 0, ok: 0, c4xx: 0, c5xx: 0, closed: 0, crashes: 0, violations: 0 },
    );
    lines.push(['total', total.inputs, total.ok, total.c4xx, total.c5xx, total.closed, total.crashes, total.violations].map(String));
    const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
    const fmt = (cells: string[]) => '| ' + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ') + ' |';
    return [fmt(head), '|' + widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|') + '|', ...lines.map(fmt)].join('\n');
  }
}

export interface Sites {
  /** The fuzzed site (also "site A" of the cross-site class). */
  fuzz: SiteInfo;
  /** The bystander: its calls must keep working whatever happens to the others ("site B"). */
  other: SiteInfo;
  /** A campaign of the bystander, for its known-good reads. */
  otherCampaignId: string;
}

export interface Ctx {
  stack: Stack;
  sites: Sites;
  db: pg.Pool;
  tally: Tally;
  /** Violations per class, reported by that class's test. */
  violations: Map<string, string[]>;
  gatewayPort: number;
}

let ctx: Ctx | undefined;
export function getCtx(): Ctx {
  if (!ctx) throw new Error('the adversarial stack is not running');
  return ctx;
}

export async function startSuite(): Promise<Ctx> {
  const stack = await startStack('adversarial', STACK_ENV);
  try {
    const plan = `adv_${process.pid}_${randomBytes(3).toString('hex')}`;
    await stack.cli('plans', 'create', plan, '--permissions', 'create,reports,delete,audience');
    const fuzz: SiteInfo = await stack.cli('sites', 'create', 'adversarial-fuzz', '--plan', plan);
    const other: SiteInfo = await stack.cli('sites', 'create', 'adversarial-bystander', '--plan', plan);
    const db = new pg.Pool({ connectionString: stack.databaseUrl, max: 3 });
    const gatewayPort = stack.services.ports.gateway;
    const created = await request(gatewayPort, jsonRequest('POST', '/v2/campaign/create', { title: 'Bystander', body: 'A campaign of the other site', link: 'https://shop.example/', topics: ['news'], status: 'draft', scheduleMode: 'now' }, other.apiKey));
    const id = JSON.parse(created.responses[0]?.text ?? '{}').id;
    if (typeof id !== 'string') throw new Error(`bystander campaign not created: ${created.responses[0]?.status} ${created.responses[0]?.text}`);
    ctx = { stack, sites: { fuzz, other, otherCampaignId: id }, db, tally: new Tally(), violations: new Map(), gatewayPort };
    return ctx;
  } catch (err) {
    await stack.stop();
    throw err;
  }
}

export async function stopSuite(): Promise<void> {
  if (!ctx) return;
  const c = ctx;
  ctx = undefined;
  await c.db.end().catch(() => {});
  await c.stack.stop();
}

export function jsonRequest(method: string, path: string, body: unknown, key?: string, headers: HeaderList = []): RequestSpec {
  const h: HeaderList = [['Content-Type', 'application/json'], ...headers];
  if (key !== undefined) h.push(['Authorization', key]);
  return { method, path, headers: h, body: body === undefined ? undefined : JSON.stringify(body) };
}

/** Records a violation of `cls` (`counted: false` for context lines such as log excerpts). */
export function violation(cls: string, text: string, counted = true): void {
  const c = getCtx();
  const list = c.violations.get(cls) ?? [];
  list.push(text);
  c.violations.set(cls, list);
  if (counted) c.tally.row(cls).violations++;
}

const testStart = new Map<string, number>();

/** Call inside a class's describe: each test then reports only the violations it caused. */
export function trackViolations(cls: string): void {
  beforeEach(() => {
    testStart.set(cls, ctx?.violations.get(cls)?.length ?? 0);
  });
}

/** Shown input, bounded, with invisible characters escaped. */
export function show(value: unknown, max = 160): string {
  let s: string;
  if (Buffer.isBuffer(value)) s = `<${value.length} bytes> ` + JSON.stringify(value.subarray(0, max).toString('latin1'));
  else if (typeof value === 'string') s = JSON.stringify(value);
  else {
    try {
      s = JSON.stringify(value) ?? String(value);
    } catch {
      s = String(value);
    }
  }
  s = s.replace(/[\u0000-\u001f\u007f-\u009f\u200d\u202e\ufeff\ud800-\udfff]/g, (ch) => '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0'));
  return s.length > max ? `${s.slice(0, max)}… (${s.length} chars)` : s;
}

/**
 * The checks on one answer: no 5xx, and an error body of exactly `{message: string}`. Returns
 * the first answer's status (undefined: no answer).
 */
export function checkAnswer(cls: string, what: string, result: RawResult, method: string): number | undefined {
  const res = result.responses[0];
  if (!res) {
    if (result.ended === 'timeout') violation(cls, `${what}: no answer within ${result.ms} ms`);
    return undefined;
  }
  if (res.status >= 500) violation(cls, `${what}: ${res.status} ${res.text.slice(0, 160)}`);
  const problem = errorBodyProblem(res, method);
  if (problem) violation(cls, `${what}: ${res.status} ${problem}`);
  return res.status;
}

/** Services that have exited. */
export function deadServices(): ServiceName[] {
  const c = getCtx();
  return SERVICES.filter((s) => c.stack.services.exitCode(s) !== undefined);
}

let restartsLeft = 6;

/**
 * Records any exited service as a crash of `cls` caused by `what`, then starts it again (a
 * bounded number of times) so the next inputs and classes still test something.
 */
export async function checkAlive(cls: string, what: string): Promise<boolean> {
  const c = getCtx();
  const dead = deadServices();
  if (dead.length === 0) return true;
  for (const name of dead) {
    c.tally.row(cls).crashes++;
    violation(cls, `${what}: the ${name} process exited (code ${c.stack.services.exitCode(name)})`);
  }
  const logs = c.stack.logs
    .slice(-4)
    .map((l) => l.slice(0, 300))
    .join('\n');
  if (logs) violation(cls, `last log lines:\n${logs}`, false);
  for (const name of dead) {
    if (restartsLeft-- <= 0) continue;
    try {
      await c.stack.services.restart(name);
    } catch (err) {
      violation(cls, `restart of ${name} failed: ${(err as Error).message}`);
    }
  }
  return false;
}

/** After a 5xx the process may still be on its way out: look again shortly after. */
export async function checkAliveAfter(cls: string, what: string, status: number | undefined): Promise<boolean> {
  if (status === undefined || status >= 500) await sleep(250);
  return checkAlive(cls, what);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** A valid browser subscription on an allowed production push host (never contacted here). */
export function validSubscription(tag: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `https://fcm.googleapis.com/fcm/send/${tag}-${randomBytes(6).toString('hex')}`,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

export interface Snapshot {
  campaigns: string;
  subscribers: string;
  /** The site's webhook endpoints (count and a hash of what they hold). */
  webhooks: string;
  /** The site's members with their roles, and its invites (used or not). */
  members: string;
  /** The site's people, their tags and which subscription is whose (docs/people.md). */
  people: string;
  /** The site's notifications (POST /v2/notifications). */
  notifications: string;
}

/** What is stored for a site: its campaigns and its subscribers (with their state), as digests. */
export async function snapshot(siteId: string): Promise<Snapshot> {
  const { db } = getCtx();
  const [campaigns, subscribers, webhooks, members, people, notifications] = await Promise.all([
    // With each campaign's revisions (update and recall), which a refused call must not add.
    db.query(
      `SELECT count(*)::int AS n,
              coalesce(md5(string_agg(c.id::text || ':' || c.title || ':' || c.body || ':' || (SELECT count(*) FROM campaign.campaign_revisions r WHERE r.campaign_id = c.id), ',' ORDER BY c.id)), '') AS h
         FROM campaign.campaigns c WHERE c.site_id = $1`,
      [siteId],
    ),
    db.query(
      `SELECT count(*)::int AS n, coalesce(md5(string_agg(concat_ws(':', endpoint, array_to_string(topics, '|'), active::text, country, language, time_zone), ',' ORDER BY id)), '') AS h
         FROM delivery.subscribers WHERE site_id = $1`,
      [siteId],
    ),
    db.query(
      `SELECT count(*)::int AS n, coalesce(md5(string_agg(concat_ws(':', id, url, description, array_to_string(events, '|'), enabled::text), ',' ORDER BY id)), '') AS h
         FROM delivery.webhook_endpoints WHERE site_id = $1`,
      [siteId],
    ),
    db.query(
      `SELECT (SELECT count(*) FROM campaign.site_members WHERE site_id = $1)::int + (SELECT count(*) FROM campaign.one_time_links WHERE site_id = $1)::int AS n,
              md5(concat((SELECT string_agg(user_id || ':' || role, ',' ORDER BY user_id) FROM campaign.site_members WHERE site_id = $1), '/',
                         (SELECT string_agg(concat_ws(':', token_hash, role, used_at), ',' ORDER BY token_hash) FROM campaign.one_time_links WHERE site_id = $1))) AS h`,
      [siteId],
    ),
    db.query(
      `SELECT count(*)::int AS n,
              coalesce(md5(string_agg(concat_ws(':', p.id, p.external_id, l.subscriber_id,
                (SELECT string_agg(concat_ws('=', t.key, t.kind, t.string_value, t.number_value, t.date_value, t.boolean_value), ',' ORDER BY t.key) FROM delivery.person_tags t WHERE t.person_id = p.id)),
                ',' ORDER BY p.id, l.subscriber_id)), '') AS h
         FROM delivery.people p LEFT JOIN delivery.person_subscriptions l ON l.person_id = p.id WHERE p.site_id = $1`,
      [siteId],
    ),
    db.query(
      `SELECT count(*)::int AS n, coalesce(md5(string_agg(id::text || ':' || content::text, ',' ORDER BY id)), '') AS h FROM campaign.notifications WHERE site_id = $1`,
      [siteId],
    ),
  ]);
  return {
    campaigns: `${campaigns.rows[0].n}/${campaigns.rows[0].h}`,
    subscribers: `${subscribers.rows[0].n}/${subscribers.rows[0].h}`,
    webhooks: `${webhooks.rows[0].n}/${webhooks.rows[0].h}`,
    members: `${members.rows[0].n}/${members.rows[0].h}`,
    people: `${people.rows[0].n}/${people.rows[0].h}`,
    notifications: `${notifications.rows[0].n}/${notifications.rows[0].h}`,
  };
}

export function sameSnapshot(a: Snapshot, b: Snapshot): boolean {
  return (Object.keys(a) as (keyof Snapshot)[]).every((k) => a[k] === b[k]);
}

/**
 * The known-good calls of the bystander site, through the gateway: list, get, topics, the
 * public config and a subscribe. Returns the problems found (empty: all served).
 */
export async function bystanderProblems(): Promise<string[]> {
  const c = getCtx();
  const { other, otherCampaignId } = c.sites;
  const port = c.gatewayPort;
  const checks: [string, RequestSpec, (status: number, body: any) => boolean][] = [
    ['list', jsonRequest('POST', '/v2/campaigns', {}, other.apiKey), (s, b) => s === 200 && Array.isArray(b?.items)],
    ['get', { method: 'GET', path: `/v2/campaign/${otherCampaignId}`, headers: [['Authorization', other.apiKey]] }, (s, b) => s === 200 && b?.id === otherCampaignId],
    ['topics', { method: 'GET', path: '/v2/topics', headers: [['Authorization', other.apiKey]] }, (s, b) => s === 200 && Array.isArray(b)],
    ['public config', { method: 'GET', path: `/public/v1/sites/${other.publicId}/config` }, (s, b) => s === 200 && b?.publicId === other.publicId],
    ['subscribe', jsonRequest('POST', `/public/v1/sites/${other.publicId}/subscriptions`, { subscription: validSubscription('bystander'), topics: ['news'] }), (s) => s === 201],
  ];
  const results = await Promise.all(checks.map(([, spec]) => request(port, spec, { timeoutMs: 5000 })));
  const problems: string[] = [];
  results.forEach((r, i) => {
    const res = r.responses[0];
    let body: unknown;
    try {
      body = res ? JSON.parse(res.text) : undefined;
    } catch {
      body = undefined;
    }
    if (!res || !checks[i][2](res.status, body)) problems.push(`bystander ${checks[i][0]}: ${res ? `${res.status} ${res.text.slice(0, 160)}` : `no answer (${r.ended}, ${r.ms} ms)`}`);
  });
  return problems;
}

/**
 * The end of every class: every process alive (restarted and reported if not) and the
 * bystander's calls served. Problems are recorded as violations of `cls`.
 */
export async function endOfClassChecks(cls: string): Promise<void> {
  await sleep(100);
  await checkAlive(cls, 'end of class');
  for (const p of await bystanderProblems()) violation(cls, p);
}

/** Fails the running test with the violations of `cls`, if any. */
export function assertNoViolations(cls: string): void {
  const list = (getCtx().violations.get(cls) ?? []).slice(testStart.get(cls) ?? 0);
  if (list.length === 0) return;
  const shown = list.slice(0, 25).map((v) => `  - ${v}`).join('\n');
  throw new Error(`${list.length} violation(s) in "${cls}" (seed ${SEED}):\n${shown}${list.length > 25 ? `\n  … ${list.length - 25} more` : ''}`);
}
