// The console's SQL: users, their sites, sessions, one-time links, login failures (migration
// 20261127120000_console_accounts.sql) and the addresses users logged in from
// (20261204170000_login_addresses.sql). Secrets arrive here already hashed.
import type { Queryable } from '@webpush/shared/db.js';
import type { Permission } from '../sites/index.js';

export type Role = 'owner' | 'editor' | 'viewer';

export interface UserRow {
  id: string;
  email: string;
  passwordHash: string;
}

export interface Membership {
  siteId: string;
  name: string;
  role: Role;
  permissions: Record<Permission, boolean>;
}

export interface SessionRow {
  userId: string;
  email: string;
  csrfToken: string;
  sites: Membership[];
}

export interface LinkRow {
  kind: 'invite' | 'reset';
  email: string;
  siteId: string | null;
  role: Role | null;
}

/** How long a session lasts idle, and at most; how often last_seen_at may move. */
export const SESSION_IDLE = '12 hours';
export const SESSION_MAX = '7 days';
export const SESSION_TOUCH_EVERY = '1 minute';

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  const { rows } = await db.query('SELECT id, email, password_hash FROM campaign.users WHERE email = $1', [email]);
  return rows[0] ? { id: rows[0].id, email: rows[0].email, passwordHash: rows[0].password_hash } : null;
}

/** The new user's id, or null when the email is taken. */
export async function insertUser(db: Queryable, email: string, passwordHash: string): Promise<string | null> {
  const { rows } = await db.query('INSERT INTO campaign.users (email, password_hash) VALUES ($1, $2) ON CONFLICT (email) DO NOTHING RETURNING id', [email, passwordHash]);
  return rows[0]?.id ?? null;
}

export async function updatePassword(db: Queryable, userId: string, passwordHash: string): Promise<void> {
  await db.query('UPDATE campaign.users SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
}

/** Adds the user to the site, or gives them the role when they are a member already. */
export async function upsertMember(db: Queryable, userId: string, siteId: string, role: Role): Promise<void> {
  await db.query(
    `INSERT INTO campaign.site_members (user_id, site_id, role) VALUES ($1, $2, $3)
     ON CONFLICT (user_id, site_id) DO UPDATE SET role = EXCLUDED.role`,
    [userId, siteId, role],
  );
}

export interface MemberRow {
  userId: string;
  email: string;
  role: Role;
  since: Date;
}

/** The site's members, owners first, then editors, then viewers, each by email. */
export async function selectMembers(db: Queryable, siteId: string): Promise<MemberRow[]> {
  const { rows } = await db.query(
    `SELECT u.id, u.email, m.role, m.created_at FROM campaign.site_members m JOIN campaign.users u ON u.id = m.user_id
      WHERE m.site_id = $1 ORDER BY array_position(ARRAY['owner', 'editor', 'viewer'], m.role), u.email`,
    [siteId],
  );
  return rows.map((r) => ({ userId: r.id, email: r.email, role: r.role, since: r.created_at }));
}

/**
 * The site's memberships, each row locked until the transaction ends: changes of one site's
 * members run one at a time, so two owners demoting each other cannot leave it without one.
 */
export async function lockMembers(db: Queryable, siteId: string): Promise<{ userId: string; role: Role }[]> {
  const { rows } = await db.query('SELECT user_id, role FROM campaign.site_members WHERE site_id = $1 ORDER BY user_id FOR UPDATE', [siteId]);
  return rows.map((r) => ({ userId: r.user_id, role: r.role }));
}

export async function updateMemberRole(db: Queryable, siteId: string, userId: string, role: Role): Promise<void> {
  await db.query('UPDATE campaign.site_members SET role = $3 WHERE site_id = $1 AND user_id = $2', [siteId, userId, role]);
}

export async function deleteMember(db: Queryable, siteId: string, userId: string): Promise<void> {
  await db.query('DELETE FROM campaign.site_members WHERE site_id = $1 AND user_id = $2', [siteId, userId]);
}

export async function insertSession(db: Queryable, idHash: string, userId: string, csrfToken: string): Promise<void> {
  await db.query('INSERT INTO campaign.sessions (id_hash, user_id, csrf_token) VALUES ($1, $2, $3)', [idHash, userId, csrfToken]);
}

export async function deleteSession(db: Queryable, idHash: string): Promise<void> {
  await db.query('DELETE FROM campaign.sessions WHERE id_hash = $1', [idHash]);
}

export async function deleteUserSessions(db: Queryable, userId: string): Promise<void> {
  await db.query('DELETE FROM campaign.sessions WHERE user_id = $1', [userId]);
}

const MEMBERSHIPS = `COALESCE((
  SELECT json_agg(json_build_object('siteId', s.id, 'name', s.name, 'role', m.role, 'permissions',
           json_build_object('create', p.can_create, 'reports', p.can_reports, 'delete', p.can_delete, 'audience', p.can_audience))
         ORDER BY s.name, s.id)
    FROM campaign.site_members m
    JOIN campaign.sites s ON s.id = m.site_id
    JOIN campaign.plans p ON p.id = s.plan_id
   WHERE m.user_id = u.id), '[]'::json) AS sites`;

/**
 * The live session with this id hash, its user and their sites, in one statement that also moves
 * last_seen_at when it is over a minute old (so a session read on every request is written at most
 * once a minute). Null when there is none, or it has ended (idle or too old).
 */
export async function touchSession(db: Queryable, idHash: string): Promise<SessionRow | null> {
  const { rows } = await db.query(
    `WITH live AS (
       SELECT id_hash, user_id, csrf_token, last_seen_at FROM campaign.sessions
        WHERE id_hash = $1
          AND last_seen_at > now() - interval '${SESSION_IDLE}'
          AND created_at > now() - interval '${SESSION_MAX}'),
     touched AS (
       UPDATE campaign.sessions s SET last_seen_at = now() FROM live
        WHERE s.id_hash = live.id_hash AND live.last_seen_at < now() - interval '${SESSION_TOUCH_EVERY}')
     SELECT u.id AS user_id, u.email, live.csrf_token, ${MEMBERSHIPS}
       FROM live JOIN campaign.users u ON u.id = live.user_id`,
    [idHash],
  );
  const r = rows[0];
  return r ? { userId: r.user_id, email: r.email, csrfToken: r.csrf_token, sites: r.sites } : null;
}

/** The user's sites (after a login or an accepted link). */
export async function selectMemberships(db: Queryable, userId: string): Promise<Membership[]> {
  const { rows } = await db.query(`SELECT ${MEMBERSHIPS} FROM campaign.users u WHERE u.id = $1`, [userId]);
  return rows[0]?.sites ?? [];
}

export async function insertLink(
  db: Queryable,
  link: { tokenHash: string; kind: 'invite' | 'reset'; email: string; siteId: string | null; role: Role | null; validFor: string; invitedBy?: string | null },
): Promise<{ id: string; createdAt: Date; expiresAt: Date }> {
  const { rows } = await db.query(
    `INSERT INTO campaign.one_time_links (token_hash, kind, email, site_id, role, expires_at, invited_by)
     VALUES ($1, $2, $3, $4, $5, now() + $6::interval, $7) RETURNING id, created_at, expires_at`,
    [link.tokenHash, link.kind, link.email, link.siteId, link.role, link.validFor, link.invitedBy ?? null],
  );
  return { id: rows[0].id, createdAt: rows[0].created_at, expiresAt: rows[0].expires_at };
}

export interface PendingInviteRow {
  id: string;
  email: string;
  role: Role;
  /** The inviter's email; null for the operator CLI's, or a user since deleted. */
  invitedBy: string | null;
  createdAt: Date;
  expiresAt: Date;
}

const PENDING = 'l.used_at IS NULL AND l.expires_at > now()';

/** The site's invites not yet used nor expired, newest first. */
export async function selectPendingInvites(db: Queryable, siteId: string): Promise<PendingInviteRow[]> {
  const { rows } = await db.query(
    `SELECT l.id, l.email, l.role, u.email AS invited_by, l.created_at, l.expires_at
       FROM campaign.one_time_links l LEFT JOIN campaign.users u ON u.id = l.invited_by
      WHERE l.site_id = $1 AND l.kind = 'invite' AND ${PENDING}
      ORDER BY l.created_at DESC, l.id`,
    [siteId],
  );
  return rows.map((r) => ({ id: r.id, email: r.email, role: r.role, invitedBy: r.invited_by, createdAt: r.created_at, expiresAt: r.expires_at }));
}

/** Deletes the site's pending invite of this id; false when it has none (used, expired, another site's). */
export async function deletePendingInvite(db: Queryable, siteId: string, inviteId: string): Promise<boolean> {
  const { rowCount } = await db.query(`DELETE FROM campaign.one_time_links l WHERE l.id = $2 AND l.site_id = $1 AND l.kind = 'invite' AND ${PENDING}`, [siteId, inviteId]);
  return (rowCount ?? 0) > 0;
}

/** What a usable link may show before it is used: its kind, and an invite's site name and inviter. */
export async function selectLinkPreview(db: Queryable, tokenHash: string): Promise<{ kind: 'invite' | 'reset'; siteName: string; invitedBy: string } | null> {
  const { rows } = await db.query(
    `SELECT l.kind, coalesce(s.name, '') AS site_name, coalesce(u.email, '') AS invited_by
       FROM campaign.one_time_links l
       LEFT JOIN campaign.sites s ON s.id = l.site_id
       LEFT JOIN campaign.users u ON u.id = l.invited_by
      WHERE l.token_hash = $1 AND ${PENDING}`,
    [tokenHash],
  );
  const r = rows[0];
  return r ? { kind: r.kind, siteName: r.site_name, invitedBy: r.invited_by } : null;
}

/** The link if it is still usable (not used, not expired); with `lock`, held until the transaction ends. */
export async function findUsableLink(db: Queryable, tokenHash: string, lock = false): Promise<LinkRow | null> {
  const { rows } = await db.query(
    `SELECT kind, email, site_id, role FROM campaign.one_time_links
      WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()${lock ? ' FOR UPDATE' : ''}`,
    [tokenHash],
  );
  const r = rows[0];
  return r ? { kind: r.kind, email: r.email, siteId: r.site_id, role: r.role } : null;
}

export async function markLinkUsed(db: Queryable, tokenHash: string): Promise<void> {
  await db.query('UPDATE campaign.one_time_links SET used_at = now() WHERE token_hash = $1', [tokenHash]);
}

export async function insertLoginFailure(db: Queryable, emailHash: string, address: string): Promise<void> {
  await db.query('INSERT INTO campaign.login_failures (email_hash, address) VALUES ($1, $2)', [emailHash, address]);
}

export async function clearPairFailures(db: Queryable, emailHash: string, address: string): Promise<void> {
  await db.query('DELETE FROM campaign.login_failures WHERE email_hash = $1 AND address = $2', [emailHash, address]);
}

export interface LoginStanding {
  /** The (email, address) pair's failures within its window, and seconds since the last of them. */
  pairFailures: number;
  sinceLastPairFailure: number;
  /** Seconds until the address's, and the email's, failures within the window fall under their limit; null when not at it. */
  addressWait: number | null;
  emailWait: number | null;
}

/** The three counts of the login throttle (throttle.ts), in one statement, timed by Postgres's clock. */
export async function loginStanding(
  db: Queryable,
  q: { emailHash: string; address: string; pairWindowSeconds: number; addressLimit: number; emailLimit: number; windowSeconds: number },
): Promise<LoginStanding> {
  const { rows } = await db.query(
    `WITH pair AS (
       SELECT count(*)::int AS n, coalesce(extract(epoch FROM now() - max(failed_at)), 0)::float8 AS since
         FROM campaign.login_failures
        WHERE email_hash = $1 AND address = $2 AND failed_at > now() - make_interval(secs => $3))
     SELECT pair.n, pair.since,
       (SELECT extract(epoch FROM failed_at + make_interval(secs => $6) - now())::float8 FROM campaign.login_failures
         WHERE address = $2 AND failed_at > now() - make_interval(secs => $6)
         ORDER BY failed_at DESC OFFSET $4 - 1 LIMIT 1) AS address_wait,
       (SELECT extract(epoch FROM failed_at + make_interval(secs => $6) - now())::float8 FROM campaign.login_failures
         WHERE email_hash = $1 AND failed_at > now() - make_interval(secs => $6)
         ORDER BY failed_at DESC OFFSET $5 - 1 LIMIT 1) AS email_wait
       FROM pair`,
    [q.emailHash, q.address, q.pairWindowSeconds, q.addressLimit, q.emailLimit, q.windowSeconds],
  );
  const r = rows[0];
  return { pairFailures: r.n, sinceLastPairFailure: r.since, addressWait: r.address_wait, emailWait: r.email_wait };
}

/**
 * The user of this email, and whether they logged in from the address (its hash) within the
 * last `retentionDays`: one statement whether or not the email is an account.
 */
export async function findLoginUser(db: Queryable, email: string, addressHash: string, retentionDays: number): Promise<(UserRow & { knownAddress: boolean }) | null> {
  const { rows } = await db.query(
    `SELECT u.id, u.email, u.password_hash,
            EXISTS (SELECT 1 FROM campaign.login_addresses a
                     WHERE a.user_id = u.id AND a.address_hash = $2 AND a.last_login_at > now() - make_interval(days => $3)) AS known
       FROM campaign.users u WHERE u.email = $1`,
    [email, addressHash, retentionDays],
  );
  const r = rows[0];
  return r ? { id: r.id, email: r.email, passwordHash: r.password_hash, knownAddress: r.known } : null;
}

/** Remembers a successful login's address (its hash) for the user, keeping only their `perUser` latest. */
export async function rememberAddress(db: Queryable, userId: string, addressHash: string, perUser: number): Promise<void> {
  await db.query(
    `WITH up AS (
       INSERT INTO campaign.login_addresses (user_id, address_hash) VALUES ($1, $2)
       ON CONFLICT (user_id, address_hash) DO UPDATE SET last_login_at = now())
     DELETE FROM campaign.login_addresses
      WHERE user_id = $1 AND address_hash <> $2 AND address_hash NOT IN (
        SELECT address_hash FROM campaign.login_addresses WHERE user_id = $1 AND address_hash <> $2 ORDER BY last_login_at DESC LIMIT $3 - 1)`,
    [userId, addressHash, perUser],
  );
}

/**
 * Deletes ended sessions, links past their expiry (kept a day for the record), login failures
 * out of every throttle window and remembered addresses past their retention.
 */
export async function purgeEnded(db: Queryable, q: { failureWindowSeconds: number; addressRetentionDays: number }): Promise<number> {
  const { rows } = await db.query(
    `WITH s AS (DELETE FROM campaign.sessions
                 WHERE last_seen_at < now() - interval '${SESSION_IDLE}' OR created_at < now() - interval '${SESSION_MAX}' RETURNING 1),
          l AS (DELETE FROM campaign.one_time_links WHERE expires_at < now() - interval '1 day' RETURNING 1),
          f AS (DELETE FROM campaign.login_failures WHERE failed_at < now() - make_interval(secs => $1) RETURNING 1),
          a AS (DELETE FROM campaign.login_addresses WHERE last_login_at < now() - make_interval(days => $2) RETURNING 1)
     SELECT (SELECT count(*) FROM s) + (SELECT count(*) FROM l) + (SELECT count(*) FROM f) + (SELECT count(*) FROM a) AS n`,
    [q.failureWindowSeconds, q.addressRetentionDays],
  );
  return Number(rows[0].n);
}

export interface SiteInfoRow {
  id: string;
  name: string;
  publicId: string;
  planName: string;
  permissions: Record<Permission, boolean>;
}

export async function selectSiteInfo(db: Queryable, siteId: string): Promise<SiteInfoRow | null> {
  const { rows } = await db.query(
    `SELECT s.id, s.name, s.public_id, p.name AS plan, p.can_create, p.can_reports, p.can_delete, p.can_audience
       FROM campaign.sites s JOIN campaign.plans p ON p.id = s.plan_id WHERE s.id = $1`,
    [siteId],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    id: r.id,
    name: r.name,
    publicId: r.public_id,
    planName: r.plan,
    permissions: { create: r.can_create, reports: r.can_reports, delete: r.can_delete, audience: r.can_audience },
  };
}
