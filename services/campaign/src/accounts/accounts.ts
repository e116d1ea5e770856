// Console accounts and sessions (docs/console.md, "Who gets in"): logging in and out, reading a
// session, accepting a one-time link; a site's members and invites as its owners manage them
// (docs/console.md, "Members and roles"); and the operators' side of it (invites and password
// resets printed by the CLI, a site's members); one way invites are made for both: issueInvite.
// Session ids and link tokens are 32 random bytes (base64url); only their SHA-256 is stored. The
// gateway sends a session as that hash, like an API key; a new session's id leaves this service
// once, in the answer that sets the cookie.
import { createHash, randomBytes } from 'node:crypto';
import { withTransaction, type Pool, type Queryable } from '@webpush/shared/db.js';
import { hasBadCharacters } from '@webpush/shared/text.js';
import { formatUtcDate } from '../base/dates.js';
import { MESSAGES } from '../base/texts.js';
import { createOperators, OperatorError, OperatorNotFoundError } from '../sites/index.js';
import * as store from './account-store.js';
import { ConsoleConflictError, ConsoleNotFoundError, WrongLoginError } from './errors.js';
import { createDummyVerifier, hashPassword, needsRehash, verifyPassword } from './passwords.js';
import { createPasswordGate } from './password-gate.js';
import { createLoginThrottle, KNOWN_ADDRESSES, knownAddressHash } from './throttle.js';
import { ValidationError } from '../base/errors.js';
import { isUuid } from '../base/ids.js';

export type Role = store.Role;
export const ROLES: readonly Role[] = Object.freeze(['owner', 'editor', 'viewer'] as const);

/** What a logged-in user's pages are built from (docs/console.md, GET /console/api/session). */
export interface SessionView {
  email: string;
  csrfToken: string;
  sites: store.Membership[];
}

/** A session just started: its id (for the cookie, never stored) and its view. */
export interface StartedSession extends SessionView {
  sessionId: string;
}

export const INVITE_VALID_FOR = '7 days';
export const RESET_VALID_FOR = '1 hour';
const MAX_EMAIL_LENGTH = 254;
const PASSWORD_MIN = 10;
const PASSWORD_MAX = 200;
const SECRET = /^[A-Za-z0-9_-]{43}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;

const sha256Hex = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');
const newSecret = () => randomBytes(32).toString('base64url');

/** The one way emails are compared: trimmed and lowercased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The rule for a password being set (a new user's, a reset's); throws ValidationError. */
export function checkNewPassword(password: string): void {
  const length = [...password].length;
  if (length < PASSWORD_MIN || length > PASSWORD_MAX || hasBadCharacters(password)) throw new ValidationError([MESSAGES.passwordLength]);
}

/**
 * The console's page for a one-time link, `<base>/console/#/invite/<token>`: an invite's and a
 * reset's alike (both are accepted by POST /console/api/invites/accept).
 */
export function linkUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/console/#/invite/${token}`;
}

/** The email as stored (trimmed, lowercased) when it can be one, else null. */
function emailOrNull(raw: string): string | null {
  const email = normalizeEmail(raw);
  return email.length <= MAX_EMAIL_LENGTH && /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u.test(email) && !hasBadCharacters(email) ? email : null;
}

const isRole = (role: string): role is Role => (ROLES as readonly string[]).includes(role);

/**
 * The user joins the site as `role`, or takes it when a member already (an invite accepted by a
 * member), with the site's memberships locked: the change may not leave the site without an owner.
 */
async function joinSite(tx: Queryable, siteId: string, userId: string, role: Role): Promise<void> {
  const members = await store.lockMembers(tx, siteId);
  if (role !== 'owner' && leavesNoOwner(members, userId)) throw new ConsoleConflictError(MESSAGES.lastOwner);
  await store.upsertMember(tx, userId, siteId, role);
}

/** True when `userId` is the site's only owner: they may be neither removed nor demoted. */
function leavesNoOwner(members: readonly { userId: string; role: Role }[], userId: string): boolean {
  const owners = members.filter((m) => m.role === 'owner');
  return owners.length === 1 && owners[0].userId === userId;
}

const memberView = (m: store.MemberRow) => ({ userId: m.userId, email: m.email, role: m.role, since: formatUtcDate(m.since) });
const inviteView = (i: store.PendingInviteRow) => ({
  id: i.id,
  email: i.email,
  role: i.role,
  invitedBy: i.invitedBy ?? '',
  createdAt: formatUtcDate(i.createdAt),
  expiresAt: formatUtcDate(i.expiresAt),
});

/** A new invite link of the site for the email as `role`: the one way invites are made (the CLI's and the console's). */
async function issueInvite(db: Queryable, req: { siteId: string; email: string; role: Role; invitedBy: string | null; baseUrl: string }) {
  const token = newSecret();
  const row = await store.insertLink(db, { tokenHash: sha256Hex(token), kind: 'invite', email: req.email, siteId: req.siteId, role: req.role, validFor: INVITE_VALID_FOR, invitedBy: req.invitedBy });
  return { link: linkUrl(req.baseUrl, token), ...row };
}

export function createAccounts(pool: Pool) {
  const throttle = createLoginThrottle(pool);
  const gate = createPasswordGate();
  const dummy = createDummyVerifier();

  /** A new session for the user (the one presented before, if any, ends: rotation). */
  async function startSession(db: Queryable, userId: string, previousHash: string): Promise<{ sessionId: string; csrfToken: string }> {
    const sessionId = newSecret();
    const csrfToken = newSecret();
    if (SHA256_HEX.test(previousHash)) await store.deleteSession(db, previousHash);
    await store.insertSession(db, sha256Hex(sessionId), userId, csrfToken);
    return { sessionId, csrfToken };
  }

  async function viewOf(started: { sessionId: string; csrfToken: string }, user: { id: string; email: string }): Promise<StartedSession> {
    return { ...started, email: user.email, sites: await store.selectMemberships(pool, user.id) };
  }

  /**
   * The user's password checked as a login checks it: throttled (an address the account logged
   * in from before is not held back by others' failures, throttle.ts), hashed within the
   * process's cap (password-gate.ts), counted when wrong, the address remembered when right.
   */
  async function checkLogin(email: string, password: string, address: string): Promise<store.UserRow> {
    const addressHash = knownAddressHash(email, address);
    const user = email.length <= MAX_EMAIL_LENGTH ? await store.findLoginUser(pool, email, addressHash, KNOWN_ADDRESSES.retentionDays) : null;
    const known = user?.knownAddress ?? false;
    await throttle.check(email, address, known);
    const ok = await gate.run(known ? 'known' : 'other', () => (user ? verifyPassword(password, user.passwordHash) : dummy.verify(password)));
    if (!user || !ok) {
      await throttle.fail(email, address);
      throw new WrongLoginError();
    }
    await throttle.succeed(email, address);
    await store.rememberAddress(pool, user.id, addressHash, KNOWN_ADDRESSES.perUser);
    if (needsRehash(user.passwordHash)) await store.updatePassword(pool, user.id, await gate.run('known', () => hashPassword(password)));
    return user;
  }

  return {
    /** Makes the dummy hash of unknown emails now (at start) rather than at the first login. */
    warm: () => dummy.warm(),

    /**
     * Steps: the user (and whether the address is one they logged in from) → throttle → the
     * password, or a dummy hash for an email that is none, in constant time and within the
     * process's cap → a new session, the presented one ended.
     */
    async login(req: { email: string; password: string; clientAddress: string; previousSessionHash: string }): Promise<StartedSession> {
      const user = await checkLogin(normalizeEmail(req.email), req.password, req.clientAddress);
      return viewOf(await startSession(pool, user.id, req.previousSessionHash), user);
    },

    async logout(sessionHash: string): Promise<void> {
      if (SHA256_HEX.test(sessionHash)) await store.deleteSession(pool, sessionHash);
    },

    /** The live session of this id hash (its last_seen_at moved at most once a minute), or null. */
    async session(sessionHash: string): Promise<(SessionView & { userId: string }) | null> {
      if (!SHA256_HEX.test(sessionHash)) return null;
      const row = await store.touchSession(pool, sessionHash);
      return row ? { userId: row.userId, email: row.email, csrfToken: row.csrfToken, sites: row.sites } : null;
    },

    /**
     * A one-time link, used. A reset sets the password and ends every session of the user. An
     * invite of a new email creates the user with the password given; an invite of an existing
     * user needs their current password (or their own live session), checked as a login. Then
     * the link is marked used (under a row lock: a link is used once) and a new session starts.
     */
    async acceptLink(req: { token: string; password: string; sessionHash: string; clientAddress: string }): Promise<StartedSession> {
      const invalid = () => new ConsoleNotFoundError(MESSAGES.linkInvalid);
      if (!SECRET.test(req.token)) throw invalid();
      const tokenHash = sha256Hex(req.token);
      const link = await store.findUsableLink(pool, tokenHash);
      if (!link) throw invalid();
      const existing = await store.findUserByEmail(pool, link.email);

      let newHash: string | null = null;
      if (link.kind === 'reset' || !existing) {
        if (link.kind === 'reset' && !existing) throw invalid();
        checkNewPassword(req.password);
        // The token is proof enough for the known lane.
        newHash = await gate.run('known', () => hashPassword(req.password));
      } else {
        const own = SHA256_HEX.test(req.sessionHash) ? await store.touchSession(pool, req.sessionHash) : null;
        if (own?.userId !== existing.id) await checkLogin(existing.email, req.password, req.clientAddress);
      }

      const { user, started } = await withTransaction(pool, async (tx) => {
        if (!(await store.findUsableLink(tx, tokenHash, true))) throw invalid();
        let user = existing;
        if (link.kind === 'reset') {
          await store.updatePassword(tx, existing!.id, newHash!);
          await store.deleteUserSessions(tx, existing!.id);
        } else if (!existing) {
          // Another invite of the same email accepted meanwhile: this one stays unused.
          const id = await store.insertUser(tx, link.email, newHash!);
          if (!id) throw invalid();
          user = { id, email: link.email, passwordHash: newHash! };
        }
        if (link.kind === 'invite') await joinSite(tx, link.siteId!, user!.id, link.role!);
        await store.markLinkUsed(tx, tokenHash);
        // Where a link was accepted is where the user logs in from: the throttle trusts it.
        await store.rememberAddress(tx, user!.id, knownAddressHash(user!.email, req.clientAddress), KNOWN_ADDRESSES.perUser);
        return { user: user!, started: await startSession(tx, user!.id, req.sessionHash) };
      });
      return viewOf(started, user);
    },

    /** What the invite page shows of a usable link: its kind, an invite's site name and inviter; nothing else. */
    async previewLink(token: string): Promise<{ kind: 'invite' | 'reset'; siteName: string; invitedBy: string }> {
      const preview = SECRET.test(token) ? await store.selectLinkPreview(pool, sha256Hex(token)) : null;
      if (!preview) throw new ConsoleNotFoundError(MESSAGES.linkInvalid);
      return preview.kind === 'reset' ? { kind: 'reset', siteName: '', invitedBy: '' } : preview;
    },

    // --- a site's owners (the gateway has checked the caller owns the site) ---

    /** An owner's invite: a member already is refused (their role is changed instead), so an invite never demotes anyone. */
    async createInvite(req: { siteId: string; email: string; role: string; invitedByEmail: string; baseUrl: string }) {
      const email = emailOrNull(req.email);
      const problems = [...(email ? [] : [MESSAGES.inviteEmail]), ...(isRole(req.role) ? [] : [MESSAGES.role])];
      if (problems.length > 0) throw new ValidationError(problems);
      const siteId = await requireSiteId(pool, req.siteId);
      const members = await store.selectMembers(pool, siteId);
      if (members.some((m) => m.email === email)) throw new ConsoleConflictError(MESSAGES.alreadyMember.replace('<email>', () => email!));
      const inviter = await store.findUserByEmail(pool, normalizeEmail(req.invitedByEmail));
      const issued = await issueInvite(pool, { siteId, email: email!, role: req.role as Role, invitedBy: inviter?.id ?? null, baseUrl: req.baseUrl });
      return {
        invite: inviteView({ id: issued.id, email: email!, role: req.role as Role, invitedBy: inviter?.email ?? null, createdAt: issued.createdAt, expiresAt: issued.expiresAt }),
        link: issued.link,
      };
    },

    async listInvites(siteId: string) {
      return (await store.selectPendingInvites(pool, await requireSiteId(pool, siteId))).map(inviteView);
    },

    async revokeInvite(siteId: string, inviteId: string): Promise<void> {
      const id = await requireSiteId(pool, siteId);
      if (!isUuid(inviteId) || !(await store.deletePendingInvite(pool, id, inviteId))) throw new ConsoleNotFoundError(MESSAGES.inviteNotFound);
    },

    async siteMembers(siteId: string) {
      return (await store.selectMembers(pool, await requireSiteId(pool, siteId))).map(memberView);
    },

    /** The member's new role. Sessions read memberships on every call: it applies at their next one. */
    async changeRole(siteId: string, userId: string, role: string) {
      if (!isRole(role)) throw new ValidationError([MESSAGES.role]);
      const id = await requireSiteId(pool, siteId);
      await withTransaction(pool, async (tx) => {
        const members = await store.lockMembers(tx, id);
        if (!isUuid(userId) || !members.some((m) => m.userId === userId)) throw new ConsoleNotFoundError(MESSAGES.memberNotFound);
        if (role !== 'owner' && leavesNoOwner(members, userId)) throw new ConsoleConflictError(MESSAGES.lastOwner);
        await store.updateMemberRole(tx, id, userId, role);
      });
      return (await store.selectMembers(pool, id)).map(memberView).find((m) => m.userId === userId)!;
    },

    /** The member leaves the site; their sessions stay (their other sites), the site is gone from them at the next call. */
    async removeMember(siteId: string, userId: string): Promise<void> {
      const id = await requireSiteId(pool, siteId);
      await withTransaction(pool, async (tx) => {
        const members = await store.lockMembers(tx, id);
        if (!isUuid(userId) || !members.some((m) => m.userId === userId)) throw new ConsoleNotFoundError(MESSAGES.memberNotFound);
        if (leavesNoOwner(members, userId)) throw new ConsoleConflictError(MESSAGES.lastOwner);
        await store.deleteMember(tx, id, userId);
      });
    },

    // --- the operators' side (CLI, npm start's demo) ---

    /** A one-time invite link to the site for the email, valid 7 days. */
    async invite(req: { site: string; email: string; role: Role; baseUrl: string }) {
      const email = operatorEmail(req.email);
      if (!isRole(req.role)) throw new OperatorError(`role must be ${ROLES.slice(0, -1).join(', ')} or ${ROLES.at(-1)}, got "${req.role}"`);
      const site = await requireSite(pool, req.site);
      const issued = await issueInvite(pool, { siteId: site.id, email, role: req.role, invitedBy: null, baseUrl: req.baseUrl });
      const existingUser = (await store.findUserByEmail(pool, email)) !== null;
      return { siteId: site.id, email, role: req.role, existingUser, link: issued.link, expiresAt: formatUtcDate(issued.expiresAt) };
    },

    /** A one-time password reset link for the user, valid 1 hour. */
    async resetLink(req: { email: string; baseUrl: string }) {
      const email = operatorEmail(req.email);
      if (!(await store.findUserByEmail(pool, email))) throw new OperatorNotFoundError(`there is no user "${email}"`);
      const token = newSecret();
      const { expiresAt } = await store.insertLink(pool, { tokenHash: sha256Hex(token), kind: 'reset', email, siteId: null, role: null, validFor: RESET_VALID_FOR });
      return { email, link: linkUrl(req.baseUrl, token), expiresAt: formatUtcDate(expiresAt) };
    },

    async members(site: string): Promise<{ siteId: string; members: ReturnType<typeof memberView>[] }> {
      const found = await requireSite(pool, site);
      return { siteId: found.id, members: (await store.selectMembers(pool, found.id)).map(memberView) };
    },

    /** The user with this password (created, or their password set) as the site's `role`: npm start's demo login. */
    async ensureMember(req: { site: string; email: string; password: string; role: Role }): Promise<void> {
      const email = operatorEmail(req.email);
      checkNewPassword(req.password);
      const site = await requireSite(pool, req.site);
      const hash = await hashPassword(req.password);
      await withTransaction(pool, async (tx) => {
        const found = await store.findUserByEmail(tx, email);
        const id = found?.id ?? (await store.insertUser(tx, email, hash));
        if (!id) throw new OperatorError(`user "${email}" was created meanwhile; try again`);
        if (found) await store.updatePassword(tx, found.id, hash);
        await store.upsertMember(tx, id, site.id, req.role);
      });
    },
  };
}

export type Accounts = ReturnType<typeof createAccounts>;

function operatorEmail(raw: string): string {
  const email = emailOrNull(raw);
  if (!email) throw new OperatorError(`"${raw}" is not an email address`);
  return email;
}

/** A site of the console's (by its id): Site not found otherwise. */
async function requireSiteId(pool: Pool, siteId: string): Promise<string> {
  if (!isUuid(siteId) || !(await store.selectSiteInfo(pool, siteId))) throw new ConsoleNotFoundError(MESSAGES.siteNotFound);
  return siteId;
}

/** The site an operator names by its id or public id: the operators' lookup, one rule for both. */
async function requireSite(pool: Pool, ref: string) {
  const site = await createOperators(pool).getSite(ref);
  if (!site) throw new OperatorNotFoundError(`site "${ref}" does not exist`);
  return site;
}
