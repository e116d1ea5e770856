// A stand-in for the console API (docs/console.md), in memory: a development aid for the console's
// pages while the real API is built, and nothing more (the browser test, test/browser/console.test.ts,
// runs against the real stack). It follows the contract's routes, bodies, answers, statuses and
// messages: session cookie and CSRF token, 401 `Not logged in`, 404 for other sites, owner-only
// routes, the plan's permissions, cursor paging, create validation with /v2's messages joined by
// ", ", a sent campaign whose impressions and clicks arrive over some seconds, and webhooks whose
// test events are delivered a second later.
//
//   npx tsx console/test/serve-fixture.ts      # then open the URL it prints (demo@example.com / demo password 1)
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { isValidZone } from '../src/lib/time';

export const FIXTURE_USER = { email: 'demo@example.com', password: 'demo password 1' };
export const FIXTURE_INVITE = 'fixture-invite-token';

type Role = 'owner' | 'editor';
interface Sub {
  topics: string[];
  country: string;
  browser: string;
  createdAt: number;
  active: boolean;
}
interface Key {
  id: string;
  label: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}
interface Stored {
  campaign: Record<string, any>;
  audience: number;
  events: { at: number; kind: 'impression' | 'click' }[];
  sendAt: number;
}
interface Site {
  id: string;
  name: string;
  publicId: string;
  plan: { name: string; permissions: string[] };
  members: Map<string, Role>;
  keys: Key[];
  subs: Sub[];
  campaigns: Stored[];
  settings: { defaultThrottlePerMinute: number | null; frequencyCap: { campaigns: number; hours: number } | null; timeZone: string; quietHours: { from: string; to: string } | null };
  webhooks: Hook[];
}
/** A webhook endpoint as /v2 answers it, and its events' deliveries, newest first. */
interface Hook {
  endpoint: Record<string, any>;
  deliveries: Record<string, any>[];
}

const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
const DATE_IN = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]00:00)$/;
const EXAMPLE = '2026-11-20T10:00:00Z';

function makeSite(name: string, permissions: string[], members: [string, Role][], seed: number): Site {
  const topics = ['news', 'sports', 'tech', 'culture', 'economy'];
  const countries = ['country__br', 'country__pt', 'country__us', 'country__de', 'country__desconhecido'];
  const browsers = ['chrome', 'chrome', 'firefox', 'edge', 'safari'];
  const subs: Sub[] = [];
  const day = 86_400_000;
  for (let i = 0; i < 100; i++) {
    subs.push({
      topics: [...new Set([topics[(i + seed) % 5], topics[(i * 7 + 3) % 5]])],
      country: countries[i % 5],
      browser: browsers[(i * 3) % 5],
      createdAt: Date.now() - ((i * 37) % 30) * day - 3600_000,
      active: i % 17 !== 0,
    });
  }
  return {
    id: randomUUID(),
    name,
    publicId: randomBytes(8).toString('base64url'),
    plan: { name: permissions.length === 4 ? 'demo' : 'reports-only', permissions },
    members: new Map(members),
    keys: [{ id: randomUUID(), label: 'demo key', prefix: 'wpk_' + randomBytes(4).toString('hex'), createdAt: iso(Date.now() - 5 * day), lastUsedAt: iso(Date.now() - 3600_000), revokedAt: null }],
    subs,
    campaigns: [],
    settings: { defaultThrottlePerMinute: null, frequencyCap: null, timeZone: 'UTC', quietHours: null },
    webhooks: [],
  };
}

export interface FixtureApi {
  router: express.Router;
  sites: Site[];
}

export function createFixtureApi(opts: { impressionDelayMs?: number } = {}): FixtureApi {
  const spread = opts.impressionDelayMs ?? 20_000;
  const users = new Map<string, { password: string | null }>([[FIXTURE_USER.email, { password: FIXTURE_USER.password }]]);
  const invites = new Map<string, { id: string; email: string; siteId: string; role: Role; used: boolean; invitedBy: string | null; createdAt: number }>();
  const sessions = new Map<string, { email: string; csrf: string }>();
  const sites = [
    makeSite('Demo site', ['create', 'reports', 'delete', 'audience'], [[FIXTURE_USER.email, 'owner']], 0),
    makeSite('Team blog', ['reports', 'audience'], [[FIXTURE_USER.email, 'editor']], 2),
  ];
  invites.set(FIXTURE_INVITE, { id: randomUUID(), email: 'new@example.com', siteId: sites[0].id, role: 'editor', used: false, invitedBy: FIXTURE_USER.email, createdAt: Date.now() });
  seedCampaigns(sites[0]);
  seedWebhook(sites[0]);

  const router = express.Router();
  router.use(express.json({ limit: '256kb' }));

  const fail = (res: Response, status: number, message: string) => res.status(status).set('Cache-Control', 'no-store').json({ message });
  const sessionOf = (req: Request) => {
    const m = /(?:^|;\s*)console_session=([^;]+)/.exec(req.headers.cookie ?? '');
    const id = m?.[1];
    return id ? sessions.get(createHash('sha256').update(id).digest('hex')) : undefined;
  };
  const sitesOf = (email: string) => sites.filter((s) => s.members.has(email)).map((s) => ({ id: s.id, name: s.name, role: s.members.get(email)! }));
  const startSession = (res: Response, email: string) => {
    const id = randomBytes(32).toString('base64url');
    const csrf = randomBytes(24).toString('base64url');
    sessions.set(createHash('sha256').update(id).digest('hex'), { email, csrf });
    res.cookie('console_session', id, { httpOnly: true, sameSite: 'strict', path: '/console' });
    return { user: { email }, csrfToken: csrf, sites: sitesOf(email) };
  };

  // Session and CSRF, for every route but logging in and accepting a link.
  router.use((req: Request, res: Response, next: NextFunction) => {
    res.set('Cache-Control', 'no-store');
    if (req.path === '/login' || req.path === '/invites/accept' || req.path === '/invites/lookup') return next();
    const s = sessionOf(req);
    if (!s) return fail(res, 401, 'Not logged in');
    if (req.method !== 'GET') {
      const given = Buffer.from(String(req.headers['x-csrf-token'] ?? ''));
      const want = Buffer.from(s.csrf);
      if (given.length !== want.length || !timingSafeEqual(given, want)) return fail(res, 403, 'Invalid CSRF token');
    }
    res.locals.session = s;
    next();
  });

  router.post('/login', (req, res) => {
    const { email, password } = req.body ?? {};
    const user = typeof email === 'string' ? users.get(email.toLowerCase()) : undefined;
    if (!user || user.password !== password) return fail(res, 401, 'Wrong email or password');
    res.json(startSession(res, email.toLowerCase()));
  });
  router.post('/logout', (req, res) => {
    const m = /(?:^|;\s*)console_session=([^;]+)/.exec(req.headers.cookie ?? '');
    if (m) sessions.delete(createHash('sha256').update(m[1]).digest('hex'));
    res.clearCookie('console_session', { path: '/console' });
    res.json({ loggedOut: true });
  });
  router.get('/session', (_req, res) => {
    const s = res.locals.session as { email: string; csrf: string };
    res.json({ user: { email: s.email }, csrfToken: s.csrf, sites: sitesOf(s.email) });
  });
  router.post('/invites/lookup', (req, res) => {
    const invite = typeof req.body?.token === 'string' ? invites.get(req.body.token) : undefined;
    if (!invite || invite.used) return fail(res, 404, 'This link is invalid, used or expired');
    res.json({ kind: 'invite', site: { name: sites.find((s) => s.id === invite.siteId)!.name }, invitedBy: invite.invitedBy });
  });
  router.post('/invites/accept', (req, res) => {
    const { token, password } = req.body ?? {};
    const invite = typeof token === 'string' ? invites.get(token) : undefined;
    if (!invite || invite.used) return fail(res, 404, 'This link is invalid, used or expired');
    const existing = users.get(invite.email);
    if (existing?.password) {
      // An existing user: their current password, or their own session.
      const mine = sessionOf(req)?.email === invite.email;
      if (!mine && existing.password !== password) return fail(res, 401, 'Wrong email or password');
    } else {
      if (typeof password !== 'string' || [...password].length < 10 || [...password].length > 200) return fail(res, 400, 'Password must be 10 to 200 characters');
      users.set(invite.email, { password });
    }
    invite.used = true;
    sites.find((s) => s.id === invite.siteId)!.members.set(invite.email, invite.role);
    res.json(startSession(res, invite.email));
  });

  // The path's site: a member's, else 404 as a missing one.
  router.use('/sites/:siteId', (req, res, next) => {
    const s = res.locals.session as { email: string };
    const site = sites.find((x) => x.id === req.params.siteId);
    if (!site || !site.members.has(s.email)) return fail(res, 404, 'Site not found');
    res.locals.site = site;
    res.locals.role = site.members.get(s.email);
    next();
  });
  const site = (res: Response) => res.locals.site as Site;
  const owner = (res: Response) => (res.locals.role === 'owner' ? true : (fail(res, 403, "Only the site's owners can do this"), false));
  const plan = (res: Response, p: string, message: string) => (site(res).plan.permissions.includes(p) ? true : (fail(res, 403, message), false));
  const REPORTS = 'This plan does not have permission to access campaign reports via API';

  router.get('/sites/:siteId', (_req, res) => {
    const s = site(res);
    res.json({
      id: s.id,
      name: s.name,
      role: res.locals.role,
      plan: s.plan,
      vapidPublicKey: 'BOr' + randomBytes(60).toString('base64url').slice(0, 84),
      publicId: s.publicId,
      snippet: {
        page: `<script src="http://127.0.0.1:8080/public/v1/webpush.js" data-site="${s.publicId}" async></script>`,
        serviceWorker: `importScripts('http://127.0.0.1:8080/public/v1/webpush-sw.js');`,
      },
    });
  });
  router.get('/sites/:siteId/keys', (_req, res) => owner(res) && res.json(site(res).keys));
  router.post('/sites/:siteId/keys', (req, res) => {
    if (!owner(res)) return;
    const label = req.body?.label;
    if (typeof label !== 'string' || label.length < 1 || label.length > 100) return fail(res, 400, 'Label must be 1 to 100 characters');
    const apiKey = 'wpk_' + randomBytes(24).toString('base64url');
    const key: Key = { id: randomUUID(), label, prefix: apiKey.slice(0, 12), createdAt: iso(Date.now()), lastUsedAt: null, revokedAt: null };
    site(res).keys.push(key);
    res.json({ key, apiKey });
  });
  router.post('/sites/:siteId/keys/:keyId/:action', (req, res) => {
    if (!owner(res)) return;
    const key = site(res).keys.find((k) => k.id === req.params.keyId);
    if (!key || !['revoke', 'rotate'].includes(String(req.params.action))) return fail(res, 404, 'Key not found');
    if (key.revokedAt) return fail(res, 409, 'The key is already revoked');
    key.revokedAt = iso(Date.now());
    if (req.params.action === 'revoke') return res.json({ key });
    const apiKey = 'wpk_' + randomBytes(24).toString('base64url');
    const fresh: Key = { id: randomUUID(), label: key.label, prefix: apiKey.slice(0, 12), createdAt: iso(Date.now()), lastUsedAt: null, revokedAt: null };
    site(res).keys.push(fresh);
    res.json({ key: fresh, apiKey, revoked: key });
  });
  // Members are named by their email here (the API names them by user id); the last owner is kept.
  const memberJson = ([email, role]: [string, Role]) => ({ id: email, email, role, since: iso(Date.UTC(2026, 0, 5)) });
  router.get('/sites/:siteId/members', (_req, res) => owner(res) && res.json([...site(res).members].map(memberJson)));
  const lastOwner = (s: Site, email: string) => s.members.get(email) === 'owner' && [...s.members.values()].filter((r) => r === 'owner').length === 1;
  router.patch('/sites/:siteId/members/:memberId', (req, res) => {
    if (!owner(res)) return;
    const s = site(res);
    const email = String(req.params.memberId);
    const role = req.body?.role;
    if (!['owner', 'editor', 'viewer'].includes(role)) return fail(res, 400, 'role must be owner, editor or viewer');
    if (!s.members.has(email)) return fail(res, 404, 'Member not found');
    if (role !== 'owner' && lastOwner(s, email)) return fail(res, 409, 'A site must keep at least one owner');
    s.members.set(email, role);
    res.json(memberJson([email, role]));
  });
  router.delete('/sites/:siteId/members/:memberId', (req, res) => {
    if (!owner(res)) return;
    const s = site(res);
    const email = String(req.params.memberId);
    if (!s.members.has(email)) return fail(res, 404, 'Member not found');
    if (lastOwner(s, email)) return fail(res, 409, 'A site must keep at least one owner');
    s.members.delete(email);
    res.json({ removed: true });
  });
  const pending = (siteId: string) => [...invites.values()].filter((i) => i.siteId === siteId && !i.used);
  const inviteJson = (i: { id: string; email: string; role: Role; invitedBy: string | null; createdAt: number }) => ({
    id: i.id,
    email: i.email,
    role: i.role,
    invitedBy: i.invitedBy,
    createdAt: iso(i.createdAt),
    expiresAt: iso(i.createdAt + 7 * 86_400_000),
  });
  router.get('/sites/:siteId/invites', (_req, res) => owner(res) && res.json(pending(site(res).id).map(inviteJson).reverse()));
  router.post('/sites/:siteId/invites', (req, res) => {
    if (!owner(res)) return;
    const { email, role } = req.body ?? {};
    if (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(email.trim())) return fail(res, 400, 'email must be an email address of at most 254 characters');
    if (!['owner', 'editor', 'viewer'].includes(role)) return fail(res, 400, 'role must be owner, editor or viewer');
    const token = randomBytes(32).toString('base64url');
    const invite = { id: randomUUID(), email: email.trim().toLowerCase(), siteId: site(res).id, role, used: false, invitedBy: (res.locals.session as { email: string }).email, createdAt: Date.now() };
    invites.set(token, invite);
    res.json({ invite: inviteJson(invite), link: `http://127.0.0.1:8080/console/#/invite/${token}` });
  });
  router.delete('/sites/:siteId/invites/:inviteId', (req, res) => {
    if (!owner(res)) return;
    const found = [...invites].find(([, i]) => i.id === req.params.inviteId && i.siteId === site(res).id && !i.used);
    if (!found) return fail(res, 404, 'Invite not found');
    invites.delete(found[0]);
    res.json({ revoked: true });
  });
  // The test notification: the subscription's shape is checked, nothing is pushed (no push service here).
  router.post('/sites/:siteId/test-notification', (req, res) => {
    const sub = req.body?.subscription;
    if (typeof sub?.endpoint !== 'string' || !sub.endpoint.startsWith('https://')) return fail(res, 400, 'subscription.endpoint must be an https URL of a push service');
    res.json({ sent: true });
  });

  // The sending settings, with the API's messages (docs/console.md, "Site settings"); nothing written on a refusal.
  router.get('/sites/:siteId/settings', (_req, res) => res.json(site(res).settings));
  router.patch('/sites/:siteId/settings', (req, res) => {
    if (!owner(res)) return;
    const b = (req.body ?? {}) as Record<string, unknown>;
    const whole = (v: unknown, max: number) => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= max;
    const cap = b.frequencyCap as { campaigns?: unknown; hours?: unknown } | null | undefined;
    const quiet = b.quietHours as { from?: unknown; to?: unknown } | null | undefined;
    const time = (v: unknown) => typeof v === 'string' && /^([01][0-9]|2[0-3]):[0-5][0-9]$/.test(v);
    const messages = [
      ...('defaultThrottlePerMinute' in b && b.defaultThrottlePerMinute !== null && !whole(b.defaultThrottlePerMinute, 1_000_000) ? ['defaultThrottlePerMinute must be a whole number from 1 to 1000000, or null'] : []),
      ...(cap && !whole(cap.campaigns, 1000) ? ['frequencyCap.campaigns must be a whole number from 1 to 1000'] : []),
      ...(cap && !whole(cap.hours, 720) ? ['frequencyCap.hours must be a whole number from 1 to 720 (30 days)'] : []),
      ...(typeof b.timeZone === 'string' && !isValidZone(b.timeZone) ? ['timeZone must be an IANA time zone such as Europe/Lisbon, or null'] : []),
      ...(quiet && !time(quiet.from) ? ['quietHours.from must be a time of day as HH:MM (00:00 to 23:59)'] : []),
      ...(quiet && (!time(quiet.to) || quiet.to === quiet.from) ? ['quietHours.to must be a time of day as HH:MM (00:00 to 23:59), not the same as quietHours.from'] : []),
    ];
    if (messages.length) return fail(res, 400, messages.join(', '));
    const now = site(res).settings;
    if ('defaultThrottlePerMinute' in b) now.defaultThrottlePerMinute = b.defaultThrottlePerMinute as number | null;
    if ('frequencyCap' in b) now.frequencyCap = cap ? { campaigns: cap.campaigns as number, hours: cap.hours as number } : null;
    if ('timeZone' in b) now.timeZone = typeof b.timeZone === 'string' ? b.timeZone : 'UTC';
    if ('quietHours' in b) now.quietHours = quiet ? { from: quiet.from as string, to: quiet.to as string } : null;
    res.json(now);
  });
  // The exports: the stand-in's rows as CSV, in chunks.
  const csvDownload = (res: Response, filename: string, lines: string[]) => {
    res.status(200).set({ 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${filename}"`, 'Cache-Control': 'no-store' });
    for (const line of lines) res.write(line + '\n');
    res.end();
  };
  router.get('/sites/:siteId/subscribers/export', (_req, res) => {
    if (!owner(res)) return;
    csvDownload(res, 'subscribers.csv', ['id,createdAt,country,topics,browser,active', ...site(res).subs.map((x, i) => [i + 1, iso(x.createdAt), x.country, `"${x.topics.join(',')}"`, x.browser, x.active].join(','))]);
  });
  router.post('/sites/:siteId/campaigns/export', (_req, res) => {
    if (!plan(res, 'reports', REPORTS)) return;
    csvDownload(res, 'campaigns.csv', ['id,title,status', ...site(res).campaigns.map((c) => [c.campaign.id, JSON.stringify(String(c.campaign.title ?? '')), c.campaign.status].join(','))]);
  });

  const counts = (s: Site, of: (x: Sub) => string[]) => {
    const m = new Map<string, number>();
    for (const x of s.subs) if (x.active) for (const n of of(x)) m.set(n, (m.get(n) ?? 0) + 1);
    return [...m].map(([name, users]) => ({ name, users })).sort((a, b) => b.users - a.users || a.name.localeCompare(b.name));
  };
  const audienceAllowed = (s: Site) => s.plan.permissions.includes('audience');
  router.get('/sites/:siteId/topics', (_req, res) => res.json(audienceAllowed(site(res)) ? counts(site(res), (x) => x.topics) : []));
  router.get('/sites/:siteId/countries', (_req, res) => res.json(audienceAllowed(site(res)) ? counts(site(res), (x) => [x.country]) : []));
  const topicName = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : '');
  router.post('/sites/:siteId/topics/rename', (req, res) => {
    const from = topicName(req.body?.from);
    const to = topicName(req.body?.to);
    if (!from || !to) return fail(res, 400, 'from and to must be topic names');
    let n = 0;
    for (const x of site(res).subs) if (x.topics.includes(from)) (n += x.active ? 1 : 0), (x.topics = [...new Set(x.topics.map((t) => (t === from ? to : t)))]);
    res.json({ subscribers: n });
  });
  router.post('/sites/:siteId/topics/merge', (req, res) => {
    const from: string[] = Array.isArray(req.body?.from) ? req.body.from.map(topicName) : [];
    const to = topicName(req.body?.to);
    if (from.length === 0 || !to) return fail(res, 400, 'from must list topics and to must be a topic name');
    let n = 0;
    for (const x of site(res).subs) if (x.topics.some((t) => from.includes(t))) (n += x.active ? 1 : 0), (x.topics = [...new Set(x.topics.map((t) => (from.includes(t) ? to : t)))]);
    res.json({ subscribers: n });
  });
  router.post('/sites/:siteId/topics/delete', (req, res) => {
    const name = topicName(req.body?.name);
    let n = 0;
    for (const x of site(res).subs) if (x.topics.includes(name)) (n += x.active ? 1 : 0), (x.topics = x.topics.filter((t) => t !== name));
    res.json({ subscribers: n });
  });
  router.get('/sites/:siteId/audience/daily', (req, res) => {
    const days = req.query.days === undefined ? 30 : Number(req.query.days);
    if (!Number.isInteger(days) || days < 1 || days > 365) return fail(res, 400, 'days must be a whole number from 1 to 365');
    const out = [];
    const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
    for (let d = days - 1; d >= 0; d--) {
      const start = today - d * 86_400_000;
      const end = start + 86_400_000;
      const subs = site(res).subs;
      out.push({
        day: iso(start).slice(0, 10),
        new: subs.filter((x) => x.createdAt >= start && x.createdAt < end).length,
        expired: subs.filter((x) => !x.active && x.createdAt + 86_400_000 * 3 >= start && x.createdAt + 86_400_000 * 3 < end).length,
        active: subs.filter((x) => x.createdAt < end && (x.active || x.createdAt + 86_400_000 * 3 >= end)).length,
      });
    }
    res.json(out);
  });
  router.get('/sites/:siteId/audience/browsers', (_req, res) => res.json(counts(site(res), (x) => [x.browser]).map((c) => ({ browser: c.name, users: c.users }))));

  // The opt-in funnel: two prompts and the site's button over the range's last days, made up from the day (same every load).
  router.get('/sites/:siteId/optin/funnel', (req, res) => {
    if (!plan(res, 'reports', 'This plan does not have permission to access opt-in reports via API')) return;
    const to = String(req.query.to), from = String(req.query.from);
    const days: { day: string; promptId: string; shown: number; accepted: number; dismissed: number; denied: number; subscribed: number; unsubscribed: number }[] = [];
    for (let t = Math.max(Date.parse(`${from}T00:00:00Z`), Date.parse(`${to}T00:00:00Z`) - 6 * 86_400_000); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
      const n = new Date(t).getUTCDate();
      days.push({ day: iso(t).slice(0, 10), promptId: 'site', shown: 0, accepted: 0, dismissed: 0, denied: n % 2, subscribed: 2 + (n % 3), unsubscribed: n % 2 });
      days.push({ day: iso(t).slice(0, 10), promptId: 'slide-down', shown: 180 + n, accepted: 20 + (n % 7), dismissed: 110 + n, denied: n % 4, subscribed: 16 + (n % 5), unsubscribed: n % 3 });
    }
    const sum = (id: string | null) => {
      const c = { shown: 0, accepted: 0, dismissed: 0, denied: 0, subscribed: 0, unsubscribed: 0 };
      for (const d of days) if (id === null || d.promptId === id) for (const k of Object.keys(c) as (keyof typeof c)[]) c[k] += d[k];
      return c;
    };
    const rates = (c: { shown: number; accepted: number; subscribed: number }) => ({
      acceptRate: c.shown === 0 ? null : Math.round((c.accepted / c.shown) * 10_000) / 10_000,
      subscribeRate: c.shown === 0 ? null : Math.round((c.subscribed / c.shown) * 10_000) / 10_000,
    });
    const prompts = ['site', 'slide-down'].map((id) => ({ promptId: id, ...sum(id), ...rates(sum(id)) }));
    const totals = sum(null);
    res.json({ from, to, prompt: null, days, prompts, totals: { ...totals, ...rates({ ...totals, subscribed: totals.subscribed - prompts[0].subscribed }) } });
  });

  const audienceOf = (s: Site, names: string[]) => s.subs.filter((x) => x.active && (x.topics.some((t) => names.includes(t)) || names.includes(x.country))).length;

  router.post('/sites/:siteId/campaigns/estimate', (req, res) => {
    const names = [...(req.body?.topics ?? []), ...(req.body?.countries ?? [])].map(topicName);
    res.json({ totalUsers: audienceOf(site(res), names) });
  });

  router.post('/sites/:siteId/campaigns/list', (req, res) => {
    if (!plan(res, 'reports', REPORTS)) return;
    const b = req.body ?? {};
    const errors: string[] = [];
    const limit = b.limit === undefined ? 10 : Number(b.limit);
    if (!(limit > 0)) errors.push('limit must be a positive number');
    if (b.startDate !== undefined && !DATE_IN.test(b.startDate)) errors.push(`Invalid startDate format. Use ISO format (e.g. ${EXAMPLE})`);
    if (b.endDate !== undefined && !DATE_IN.test(b.endDate)) errors.push(`Invalid endDate format. Use ISO format (e.g. ${EXAMPLE})`);
    if (errors.length === 0 && b.startDate && b.endDate && Date.parse(b.startDate) > Date.parse(b.endDate)) errors.push('startDate must be less than or equal to endDate');
    const field = b.dateField ?? 'createdAt';
    if (field !== 'createdAt' && field !== 'scheduleDate') errors.push('dateField must be createdAt or scheduleDate');
    const bad = (b.status ?? []).filter((s: string) => !['draft', 'scheduled', 'sent', 'failed'].includes(s));
    if (bad.length) errors.push(`Invalid status values: ${bad.join(', ')}. Allowed: draft, scheduled, sent, failed`);
    if (errors.length) return fail(res, 400, errors.join(', '));
    const state = (c: Record<string, any>) => (c.status === 'draft' ? 'draft' : c.status === 'failed' ? 'failed' : Date.parse(c.scheduleDate) > Date.now() ? 'scheduled' : 'sent');
    let items = site(res)
      .campaigns.map((x) => view(x))
      .filter((c) => !b.status?.length || b.status.includes(state(c)))
      .filter((c) => !b.startDate || Date.parse(c[field]) >= Date.parse(b.startDate))
      .filter((c) => !b.endDate || Date.parse(c[field]) <= Date.parse(b.endDate))
      .sort((x, y) => Date.parse(y[field]) - Date.parse(x[field]) || (y.id < x.id ? -1 : 1));
    let offset = 0;
    if (b.cursor !== undefined && b.cursor !== null) {
      if (typeof b.cursor !== 'string' || b.cursor === '') return fail(res, 400, 'cursor must be a non-empty string');
      const [sid, o] = Buffer.from(b.cursor, 'base64url').toString().split(':');
      if (sid !== site(res).id || !Number.isInteger(Number(o))) return fail(res, 400, 'Invalid pagination cursor');
      offset = Number(o);
    }
    const max = Math.min(60, limit);
    const page = items.slice(offset, offset + max);
    const hasMore = offset + max < items.length;
    items = page;
    res.json({ items, limit: max, hasMore, nextCursor: hasMore ? Buffer.from(`${site(res).id}:${offset + max}`).toString('base64url') : null });
  });

  router.get('/sites/:siteId/campaigns/:id', (req, res) => {
    if (!plan(res, 'reports', REPORTS)) return;
    const c = site(res).campaigns.find((x) => x.campaign.id === req.params.id);
    if (!c) return fail(res, 404, 'Campaign not found');
    res.json(view(c));
  });
  router.get('/sites/:siteId/campaigns/:id/series', (req, res) => {
    if (!plan(res, 'reports', REPORTS)) return;
    const c = site(res).campaigns.find((x) => x.campaign.id === req.params.id);
    if (!c) return fail(res, 404, 'Campaign not found');
    const now = Date.now();
    const perMinute = new Map<number, { impressions: number; clicks: number }>();
    for (const e of c.events) {
      if (e.at > now) continue;
      const m = Math.floor(e.at / 60_000) * 60_000;
      const p = perMinute.get(m) ?? { impressions: 0, clicks: 0 };
      p[e.kind === 'impression' ? 'impressions' : 'clicks']++;
      perMinute.set(m, p);
    }
    res.json({
      resolution: 'minute',
      points: [...perMinute].sort((a, b) => a[0] - b[0]).map(([at, p]) => ({ at: iso(at), ...p })),
      startedAt: c.campaign.status === 'published' && c.sendAt <= now ? iso(c.sendAt) : null,
    });
  });
  router.delete('/sites/:siteId/campaigns/:id', (req, res) => {
    if (!plan(res, 'delete', 'This plan does not have permission to delete campaigns via API')) return;
    const list = site(res).campaigns;
    const i = list.findIndex((x) => x.campaign.id === req.params.id);
    if (i < 0) return fail(res, 404, 'Campaign not found');
    const c = list[i].campaign;
    if (c.status === 'published' && Date.parse(c.scheduleDate) <= Date.now()) return fail(res, 409, 'Cannot delete a campaign that has already been sent');
    list.splice(i, 1);
    res.json({ id: c.id, deleted: true });
  });

  // A create, or a draft's edit (the draft's id and creation kept), with the create's rules.
  const save = (req: Request, res: Response, draft?: Stored) => {
    if (!plan(res, 'create', 'This plan does not have permission to create campaigns with API')) return;
    const b = req.body ?? {};
    const len = (v: unknown) => (typeof v === 'string' ? [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(v)].length : -1);
    const errors: string[] = [];
    if (b.title === undefined || b.title === '') errors.push('Title is required');
    else if (len(b.title) < 3 || len(b.title) > 100) errors.push('Title must be between 3 and 100 characters');
    if (b.body === undefined || b.body === '') errors.push('Body is required');
    else if (len(b.body) < 3 || len(b.body) > 300) errors.push('Body must be between 3 and 300 characters');
    if (b.link === undefined || b.link === '') errors.push('Link is required');
    else if (!/^https?:\/\/[^\s/]+/.test(String(b.link))) errors.push('Link must be a valid URL');
    const names = [...(b.topics ?? []), ...(b.countries ?? []).map((c: string) => (c.startsWith('country__') ? c : `country__${c}`))].map(topicName);
    if (names.length === 0) errors.push('At least one topic or country must be specified');
    if (b.callToAction && len(b.callToAction) > 20) errors.push('Call to action must not exceed 20 characters');
    if (b.icon && !String(b.icon).startsWith('https://')) errors.push('Icon must be a valid URL');
    if (b.image && !String(b.image).startsWith('https://')) errors.push('Image must be a valid URL');
    if (!['published', 'draft', 'failed'].includes(b.status)) errors.push('Invalid campaign status');
    if (!['now', 'scheduled'].includes(b.scheduleMode)) errors.push('Invalid schedule mode');
    if (b.scheduleMode === 'scheduled' && !b.scheduleDate) errors.push('Schedule date is required for schedule mode');
    else if (b.scheduleMode === 'scheduled' && !DATE_IN.test(b.scheduleDate)) errors.push(`Invalid schedule date format. Use ISO format (e.g. ${EXAMPLE})`);
    if (b.ttl !== undefined && !(Number.isInteger(b.ttl) && b.ttl >= 0 && b.ttl <= 2419200)) errors.push('TTL must be between 0 and 28 days in seconds');
    if (b.throttlePerMinute !== undefined && !(Number.isInteger(b.throttlePerMinute) && b.throttlePerMinute >= 0 && b.throttlePerMinute <= 1000000))
      errors.push('throttlePerMinute must be a whole number from 0 (no limit) to 1000000');
    if (b.localTime !== undefined && !/^([01]\d|2[0-3]):[0-5]\d$/.test(b.localTime)) errors.push('localTime must be a time of day as HH:MM (00:00 to 23:59)');
    else if (b.localTime !== undefined && b.scheduleMode !== 'scheduled') errors.push('localTime requires scheduleMode scheduled');
    if (b.abTest) {
      const v = b.abTest.variants;
      if (!Array.isArray(v) || v.length < 2 || v.length > 5) errors.push('abTest.variants must be a list of 2 to 5 variants');
      else v.forEach((x: any, i: number) => x.title !== undefined && (len(x.title) < 3 || len(x.title) > 100) && errors.push(`abTest.variants[${i}]: Title must be between 3 and 100 characters`));
      if (!(Number.isInteger(b.abTest.testPercent) && b.abTest.testPercent >= 1 && b.abTest.testPercent <= 100)) errors.push('abTest.testPercent must be an integer from 1 to 100');
    }
    if (errors.length) return fail(res, 400, errors.join(', '));
    const now = Date.now();
    const sendAt = b.scheduleMode === 'scheduled' ? Date.parse(b.scheduleDate) : now;
    const audience = audienceOf(site(res), names);
    const campaign = {
      id: draft?.campaign.id ?? randomUUID(),
      title: b.title,
      body: b.body,
      link: b.link,
      topics: names,
      status: b.status,
      scheduleDate: iso(sendAt),
      scheduleMode: b.scheduleMode,
      createdAt: draft?.campaign.createdAt ?? iso(now),
      updatedAt: null,
      totalUsers: audience,
      image: b.image || null,
      icon: b.icon || null,
      callToAction: b.callToAction ?? '',
      utmSource: b.utmSource ?? '',
      utmMedium: b.utmMedium ?? '',
      utmCampaign: b.utmCampaign ?? '',
      ttl: b.ttl || 2419200,
      ttlUnit: 'seconds',
      ...(b.segment && Object.keys(b.segment).length ? { segment: b.segment } : {}),
      ...(b.throttlePerMinute ? { throttlePerMinute: b.throttlePerMinute } : {}),
    };
    const stored: Stored = { campaign, audience, events: b.status === 'published' ? plannedEvents(audience, sendAt, spread) : [], sendAt };
    const list = site(res).campaigns;
    if (draft) list[list.indexOf(draft)] = stored;
    else list.push(stored);
    res.json({ id: campaign.id });
  };
  router.post('/sites/:siteId/campaigns', (req, res) => save(req, res));
  router.patch('/sites/:siteId/campaigns/:id', (req, res) => {
    const draft = site(res).campaigns.find((x) => x.campaign.id === req.params.id);
    if (!draft) return fail(res, 404, 'Campaign not found');
    if (draft.campaign.status !== 'draft') return fail(res, 409, 'Only a draft can be edited');
    save(req, res, draft);
  });

  // Webhooks (docs/webhooks.md): owners, plan `reports`, the delivery service's messages.
  const hooksAllowed = (res: Response) => owner(res) && plan(res, 'reports', 'This plan does not have permission to manage webhooks via API');
  const hookOf = (req: Request, res: Response) => {
    const hook = site(res).webhooks.find((h) => h.endpoint.id === req.params.id);
    if (!hook) fail(res, 404, 'Webhook not found');
    return hook;
  };
  const hookProblems = (b: Record<string, unknown>, partial: boolean) => {
    const problems: string[] = [];
    if (!partial || b.url !== undefined) {
      if (b.url === undefined || b.url === '') problems.push('url is required');
      else if (typeof b.url !== 'string' || !/^https:\/\/[^/\s]/.test(b.url) || b.url.length > 2048) problems.push('url must be an https URL of at most 2048 characters');
    }
    if (!partial || b.events !== undefined) {
      if (b.events === undefined) problems.push('events is required');
      else if (!Array.isArray(b.events) || b.events.length === 0 || !b.events.every((e) => HOOK_EVENTS.includes(e))) problems.push(`events must be a non-empty array of: ${HOOK_EVENTS.join(', ')}`);
    }
    if (b.description !== undefined && (typeof b.description !== 'string' || [...b.description].length > 200)) {
      problems.push('description must be a string of at most 200 characters, without NUL characters or unpaired surrogates');
    }
    if (partial && b.enabled !== undefined && typeof b.enabled !== 'boolean') problems.push('enabled must be a boolean');
    return problems;
  };
  const secret = () => 'whsec_' + randomBytes(24).toString('base64url');
  /** A new event of the endpoint: attempted a second later (delivered, unless the endpoint is disabled then). */
  const queue = (hook: Hook, delivery: Record<string, any>) => {
    Object.assign(delivery, { state: 'pending', nextAttemptAt: isoMs(Date.now()), deliveredAt: null });
    setTimeout(() => {
      if (!hook.endpoint.enabled) return;
      Object.assign(delivery, { state: 'delivered', attempts: delivery.attempts + 1, nextAttemptAt: null, lastAttemptAt: isoMs(Date.now()), lastStatus: 200, lastLatencyMs: 40 + Math.floor(Math.random() * 80), lastError: null, deliveredAt: isoMs(Date.now()) });
    }, 1000).unref();
    return delivery;
  };
  router.get('/sites/:siteId/webhooks', (_req, res) => hooksAllowed(res) && res.json(site(res).webhooks.map((h) => h.endpoint)));
  router.post('/sites/:siteId/webhooks', (req, res) => {
    if (!hooksAllowed(res)) return;
    const b = req.body ?? {};
    const problems = hookProblems(b, false);
    if (site(res).webhooks.length >= 10) problems.push('A site may have at most 10 webhooks');
    if (problems.length) return fail(res, 400, problems.join(', '));
    const endpoint = newEndpoint(b.url, b.events, b.description ?? '');
    site(res).webhooks.push({ endpoint, deliveries: [] });
    res.json({ ...endpoint, secret: secret() });
  });
  router.get('/sites/:siteId/webhooks/:id', (req, res) => {
    const hook = hooksAllowed(res) && hookOf(req, res);
    if (hook) res.json(hook.endpoint);
  });
  router.patch('/sites/:siteId/webhooks/:id', (req, res) => {
    const hook = hooksAllowed(res) && hookOf(req, res);
    if (!hook) return;
    const b = req.body ?? {};
    const problems = hookProblems(b, true);
    if (problems.length) return fail(res, 400, problems.join(', '));
    const e = hook.endpoint;
    if (b.url !== undefined) e.url = b.url;
    if (b.events !== undefined) e.events = [...new Set(b.events as string[])].sort();
    if (b.description !== undefined) e.description = b.description;
    if (b.enabled === false && e.enabled) Object.assign(e, { enabled: false, disabledAt: isoMs(Date.now()), disabledReason: 'disabled through the API' });
    if (b.enabled === true) Object.assign(e, { enabled: true, disabledAt: null, disabledReason: null, failingSince: null });
    res.json(e);
  });
  router.delete('/sites/:siteId/webhooks/:id', (req, res) => {
    const hook = hooksAllowed(res) && hookOf(req, res);
    if (!hook) return;
    site(res).webhooks.splice(site(res).webhooks.indexOf(hook), 1);
    res.json({ id: hook.endpoint.id, deleted: true });
  });
  router.post('/sites/:siteId/webhooks/:id/rotate-secret', (req, res) => {
    const hook = hooksAllowed(res) && hookOf(req, res);
    if (!hook) return;
    const hours = req.body?.overlapHours ?? 24;
    if (!Number.isInteger(hours) || hours < 0 || hours > 168) return fail(res, 400, 'overlapHours must be an integer between 0 and 168');
    hook.endpoint.previousSecretExpiresAt = hours === 0 ? null : isoMs(Date.now() + hours * 3600_000);
    res.json({ ...hook.endpoint, secret: secret() });
  });
  router.get('/sites/:siteId/webhooks/:id/deliveries', (req, res) => {
    const hook = hooksAllowed(res) && hookOf(req, res);
    if (hook) res.json(hook.deliveries);
  });
  router.post('/sites/:siteId/webhooks/:id/ping', (req, res) => {
    const hook = hooksAllowed(res) && hookOf(req, res);
    if (!hook) return;
    const delivery = queue(hook, { eventId: randomUUID(), type: 'webhook.ping', createdAt: isoMs(Date.now()), attempts: 0, lastAttemptAt: null, lastStatus: null, lastLatencyMs: null, lastError: null });
    hook.deliveries.unshift(delivery);
    res.json(delivery);
  });
  router.post('/sites/:siteId/webhooks/:id/deliveries/:eventId/redeliver', (req, res) => {
    const hook = hooksAllowed(res) && hookOf(req, res);
    if (!hook) return;
    const delivery = hook.deliveries.find((d) => d.eventId === req.params.eventId);
    if (!delivery) return fail(res, 404, 'Event not found');
    res.json(queue(hook, delivery));
  });

  return { router, sites };
}

/** Impressions (80 %) and clicks (25 % of them) spread over `spread` ms after the send. */
function plannedEvents(audience: number, sendAt: number, spread: number): Stored['events'] {
  const events: Stored['events'] = [];
  for (let i = 0; i < audience; i++) {
    if (i % 5 === 4) continue;
    const at = sendAt + 1500 + Math.floor((spread * ((i * 7919) % 1000)) / 1000);
    events.push({ at, kind: 'impression' });
    if (i % 4 === 1) events.push({ at: at + 800, kind: 'click' });
  }
  return events;
}

function view(s: Stored): Record<string, any> {
  const now = Date.now();
  const c = s.campaign;
  const impressions = s.events.filter((e) => e.kind === 'impression' && e.at <= now).length;
  const clicks = s.events.filter((e) => e.kind === 'click' && e.at <= now).length;
  const started = c.status === 'published' && s.sendAt <= now;
  const sentShare = started ? Math.min(1, (now - s.sendAt) / 2000) : 0;
  const sent = Math.round(s.audience * sentShare * 0.95);
  const expired = Math.round(s.audience * sentShare * 0.05);
  const round2 = (x: number) => Math.round(x * 100) / 100;
  return {
    ...c,
    analytics: { clicks, impressions, ctr: impressions ? round2((clicks / impressions) * 100) : 0, its: s.audience ? round2((impressions / s.audience) * 100) : 0, totalUsers: s.audience },
    delivery: { sent, failed: 0, expired, pending: c.status === 'published' ? s.audience - sent - expired : 0, failedBy: { rejected: 0, unauthorized: 0, unreachable: 0, refused: 0 } },
  };
}

function seedCampaigns(site: Site): void {
  const day = 86_400_000;
  const mk = (title: string, status: string, ago: number, mode = 'now', ahead = 0) => {
    const created = Date.now() - ago;
    const sendAt = mode === 'scheduled' ? Date.now() + ahead : created;
    const audience = 40 + (title.length % 20);
    site.campaigns.push({
      campaign: {
        id: randomUUID(),
        title,
        body: `${title}: read all about it on the site.`,
        link: 'https://news.example/story',
        topics: ['news', 'country__br'],
        status,
        scheduleDate: iso(sendAt),
        scheduleMode: mode,
        createdAt: iso(created),
        updatedAt: null,
        totalUsers: audience,
        image: null,
        icon: null,
        callToAction: 'Read',
        utmSource: 'push',
        utmMedium: '',
        utmCampaign: '',
        ttl: 2419200,
        ttlUnit: 'seconds',
      },
      audience,
      events: status === 'published' ? plannedEvents(audience, sendAt, 30 * 60_000) : [],
      sendAt,
    });
  };
  mk('Morning briefing', 'published', 3 * day);
  mk('Weekend sale', 'published', 2 * day);
  mk('Election night live', 'published', day);
  mk('Draft: transfer window', 'draft', 5 * 3600_000);
  mk('Match preview', 'published', 3600_000, 'scheduled', 2 * day);
  for (let i = 0; i < 22; i++) mk(`Daily digest #${i + 1}`, 'published', (30 - i) * day);
}

/** The event types of /v2/webhooks, in the API's order. */
const HOOK_EVENTS = ['campaign.dispatched', 'campaign.completed', 'campaign.failed', 'subscriber.created', 'subscriber.expired', 'notification.impressions', 'notification.clicks', 'audit.entry', 'notification.sent', 'person.deleted', 'person.exported'];
/** Webhook dates carry milliseconds (docs/webhooks.md). */
const isoMs = (ms: number) => new Date(ms).toISOString();

function newEndpoint(url: string, events: string[], description: string): Record<string, any> {
  return { id: randomUUID(), url, description, events: [...new Set(events)].sort(), enabled: true, disabledAt: null, disabledReason: null, failingSince: null, previousSecretExpiresAt: null, createdAt: isoMs(Date.now()) };
}

/** One endpoint that has been working for a week, with an event its receiver refused until it gave up. */
function seedWebhook(site: Site): void {
  const day = 86_400_000;
  const endpoint = { ...newEndpoint('https://crm.example.com/hooks/push', ['campaign.completed', 'subscriber.expired'], 'CRM sync'), createdAt: isoMs(Date.now() - 7 * day) };
  const event = (type: string, ago: number, outcome: Record<string, unknown>) => ({ eventId: randomUUID(), type, createdAt: isoMs(Date.now() - ago), attempts: 1, nextAttemptAt: null, lastAttemptAt: isoMs(Date.now() - ago + 800), lastStatus: 200, lastLatencyMs: 84, lastError: null, deliveredAt: isoMs(Date.now() - ago + 800), state: 'delivered', ...outcome });
  site.webhooks.push({
    endpoint,
    deliveries: [
      event('subscriber.expired', 3600_000, { lastLatencyMs: 61 }),
      event('campaign.completed', 2 * day, { state: 'failed', attempts: 9, lastStatus: 503, lastLatencyMs: 10_002, lastError: 'HTTP 503', deliveredAt: null }),
      event('campaign.completed', 3 * day, { attempts: 2, lastLatencyMs: 97 }),
    ],
  });
}
