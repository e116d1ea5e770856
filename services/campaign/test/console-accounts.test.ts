// The console's accounts in the campaign service (docs/console.md, "Who gets in"), through its
// gRPC API as the gateway calls it, against a real Postgres: passwords, sessions (rotation,
// logout, idle and absolute ends, last_seen_at moved at most once a minute), one-time links,
// login throttling (growing delays, known addresses) that answers alike for every email, the cap
// on concurrent password checks, and the internal token.
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import type { SessionAnswer__Output } from '@webpush/contracts/generated/campaign/v1/SessionAnswer.js';
import type { SessionGrant__Output } from '@webpush/contracts/generated/campaign/v1/SessionGrant.js';
import type { MemberList__Output } from '@webpush/contracts/generated/campaign/v1/MemberList.js';
import type { ConsoleClient } from '@webpush/contracts/generated/campaign/v1/Console.js';
import { loadConsoleProto } from '@webpush/shared/grpc.js';
import { UNAUTHENTICATED_MESSAGE, withInternalToken } from '@webpush/shared/internal-auth.js';
import { INTERNAL_TOKENS } from '../../../test/support/internal-tokens.js';
import { CURRENT_PARAMS, hashPassword, needsRehash, verifyPassword } from '../src/accounts/passwords.js';
import { PASSWORD_CHECKS } from '../src/accounts/password-gate.js';
import { KNOWN_ADDRESSES, knownAddressHash, LOGIN_THROTTLE, pairDelaySeconds } from '../src/accounts/throttle.js';
import { BASE_URL, sha256Hex, startConsoleHarness, tokenOf, type ConsoleHarness } from './support/console.js';

const PASSWORD = 'correct horse battery';
const WRONG = { code: grpc.status.UNAUTHENTICATED, details: 'Wrong email or password' };
const THROTTLED = { code: grpc.status.RESOURCE_EXHAUSTED, details: 'Too many login attempts; try again later' };
const BUSY = { code: grpc.status.RESOURCE_EXHAUSTED, details: 'Too many logins at once; try again in a few seconds' };

describe('campaign service: console passwords', () => {
  it('when a password is hashed, then the hash names scrypt and its parameters, and verifies only that password', async () => {
    const hash = await hashPassword(PASSWORD);
    expect(hash).to.match(/^\$scrypt\$ln=15,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{86}$/);
    expect(await verifyPassword(PASSWORD, hash)).to.equal(true);
    expect(await verifyPassword(PASSWORD + ' ', hash)).to.equal(false);
    expect(await hashPassword(PASSWORD)).to.not.equal(hash); // salted
    expect(needsRehash(hash)).to.equal(false);
  });

  it('when a hash was made with weaker parameters, then it still verifies and asks to be made again', async () => {
    const weak = await hashPassword(PASSWORD, { ...CURRENT_PARAMS, ln: 10 });
    expect(await verifyPassword(PASSWORD, weak)).to.equal(true);
    expect(needsRehash(weak)).to.equal(true);
  });

  it('when a stored hash is not one of ours, or asks for absurd parameters, then nothing verifies against it', async () => {
    for (const stored of ['', 'plain', '$scrypt$ln=30,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA$' + 'A'.repeat(86), '$argon2id$v=19$m=65536,t=3,p=4$abc$def']) {
      expect(await verifyPassword(PASSWORD, stored), stored).to.equal(false);
    }
  });

  it('when a password is written in another Unicode normal form, then it is the same password', async () => {
    const hash = await hashPassword('caf\u00e9-password');
    expect(await verifyPassword('cafe\u0301-password', hash)).to.equal(true);
  });
});

describe('campaign service: console accounts and sessions', function () {
  this.timeout(60_000);
  let h: ConsoleHarness;
  let siteId: string;
  let otherSiteId: string;
  let n = 0;
  const email = () => `user${++n}@example.com`;

  before(async () => {
    h = await startConsoleHarness('campaign_console_accounts');
    siteId = (await h.stack.newSite()).siteId;
    otherSiteId = (await h.stack.newSite()).siteId;
  });
  after(async () => h?.stop());

  const login = (address: string, mail: string, password: string, previousSessionHash = '') =>
    h.call<SessionGrant__Output>('Login', { email: mail, password, clientAddress: address, previousSessionHash });
  const session = (id: string) => h.call<SessionAnswer__Output>('Session', { sessionHash: sha256Hex(id) });
  const refused = async (method: keyof ConsoleClient & string, req: object) => {
    const err = await h.refusal(method, req);
    return { code: err.code, details: err.details };
  };

  it('when an invited user sets a password, then they are logged in as a member of the site, and the link works once', async () => {
    const mail = email();
    const invite = await h.accounts.invite({ site: siteId, email: ` ${mail.toUpperCase()} `, role: 'editor', baseUrl: BASE_URL });
    expect(invite.link).to.match(new RegExp(`^${BASE_URL}/console/#/invite/[A-Za-z0-9_-]{43}$`));
    expect(invite).to.include({ email: mail, role: 'editor', existingUser: false });
    const token = tokenOf(invite.link);
    const grant = await h.call<SessionGrant__Output>('AcceptInvite', { token, password: PASSWORD, sessionHash: '', clientAddress: '192.0.2.1' });
    expect(grant.sessionId).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(grant.session!.email).to.equal(mail);
    expect(grant.session!.sites.map((s) => [s.siteId, s.role])).to.deep.equal([[siteId, 'editor']]);
    expect(grant.session!.sites[0].permissions).to.deep.equal({ create: true, reports: true, delete: true, audience: true });
    expect((await session(grant.sessionId)).found).to.equal(true);
    // Stored: only hashes of the link and the session, never the token or the id.
    expect(JSON.stringify((await h.stack.pool.query('SELECT * FROM campaign.one_time_links')).rows)).to.not.include(token);
    expect(JSON.stringify((await h.stack.pool.query('SELECT * FROM campaign.sessions')).rows)).to.not.include(grant.sessionId);
    expect(await refused('AcceptInvite', { token, password: PASSWORD, sessionHash: '', clientAddress: '192.0.2.1' })).to.deep.equal({
      code: grpc.status.NOT_FOUND,
      details: 'This link is invalid, used or expired',
    });
    expect((await login('192.0.2.1', mail, PASSWORD)).session!.email).to.equal(mail);
  });

  it('when an invite is expired, unknown or malformed, then it is refused and creates nobody', async () => {
    const mail = email();
    const invite = await h.accounts.invite({ site: siteId, email: mail, role: 'owner', baseUrl: BASE_URL });
    await h.stack.pool.query("UPDATE campaign.one_time_links SET expires_at = now() - interval '1 second' WHERE token_hash = $1", [sha256Hex(tokenOf(invite.link))]);
    for (const token of [tokenOf(invite.link), 'A'.repeat(43), 'short', '']) {
      expect(await refused('AcceptInvite', { token, password: PASSWORD, sessionHash: '', clientAddress: '192.0.2.1' }), token).to.deep.equal({
        code: grpc.status.NOT_FOUND,
        details: 'This link is invalid, used or expired',
      });
    }
    expect((await h.stack.pool.query('SELECT 1 FROM campaign.users WHERE email = $1', [mail])).rowCount).to.equal(0);
  });

  it('when an invite is valid for 7 days and a reset for 1 hour, then their expiry says so', async () => {
    const mail = email();
    await h.newUser(siteId, mail, PASSWORD);
    const invite = await h.accounts.invite({ site: otherSiteId, email: mail, role: 'owner', baseUrl: BASE_URL });
    const reset = await h.accounts.resetLink({ email: mail, baseUrl: BASE_URL });
    expect(reset.link).to.match(new RegExp(`^${BASE_URL}/console/#/invite/[A-Za-z0-9_-]{43}$`));
    const hoursLeft = (at: string) => (Date.parse(at) - Date.now()) / 3_600_000;
    expect(hoursLeft(invite.expiresAt)).to.be.within(7 * 24 - 0.1, 7 * 24);
    expect(hoursLeft(reset.expiresAt)).to.be.within(0.9, 1);
  });

  it('when a new user picks a password out of 10 to 200 characters, then the invite is refused and stays usable', async () => {
    const invite = await h.accounts.invite({ site: siteId, email: email(), role: 'owner', baseUrl: BASE_URL });
    const token = tokenOf(invite.link);
    for (const password of ['', 'nine char', 'x'.repeat(201)]) {
      expect(await refused('AcceptInvite', { token, password, sessionHash: '', clientAddress: '192.0.2.1' })).to.deep.equal({
        code: grpc.status.INVALID_ARGUMENT,
        details: 'Password must be 10 to 200 characters',
      });
    }
    // 200 characters, some of them outside the BMP (each is one character, two UTF-16 units).
    const grant = await h.call<SessionGrant__Output>('AcceptInvite', { token, password: '😀'.repeat(100) + 'x'.repeat(100), sessionHash: '', clientAddress: '192.0.2.1' });
    expect(grant.session!.sites).to.have.length(1);
  });

  it('when an existing user is invited to another site, then accepting needs their current password or their own session', async () => {
    const mail = email();
    await h.newUser(siteId, mail, PASSWORD);
    const first = await h.accounts.invite({ site: otherSiteId, email: mail, role: 'editor', baseUrl: BASE_URL });
    expect(first.existingUser).to.equal(true);
    const token = tokenOf(first.link);
    expect(await refused('AcceptInvite', { token, password: '', sessionHash: '', clientAddress: '192.0.2.2' })).to.deep.equal(WRONG);
    expect(await refused('AcceptInvite', { token, password: 'not the password', sessionHash: '', clientAddress: '192.0.2.2' })).to.deep.equal(WRONG);
    const grant = await h.call<SessionGrant__Output>('AcceptInvite', { token, password: PASSWORD, sessionHash: '', clientAddress: '192.0.2.2' });
    expect(grant.session!.sites.map((s) => s.role).sort()).to.deep.equal(['editor', 'owner']);

    // Logged in already: the invite (here, to become owner) needs no password, and the session is renewed.
    const second = await h.accounts.invite({ site: otherSiteId, email: mail, role: 'owner', baseUrl: BASE_URL });
    const renewed = await h.call<SessionGrant__Output>('AcceptInvite', { token: tokenOf(second.link), password: '', sessionHash: sha256Hex(grant.sessionId), clientAddress: '192.0.2.2' });
    expect(renewed.session!.sites.map((s) => s.role)).to.deep.equal(['owner', 'owner']);
    expect((await session(grant.sessionId)).found).to.equal(false);
    expect((await session(renewed.sessionId)).found).to.equal(true);

    // Another user's session is not the invitee's.
    const other = email();
    await h.newUser(siteId, other, PASSWORD);
    const othersGrant = await login('192.0.2.2', other, PASSWORD);
    const third = await h.accounts.invite({ site: otherSiteId, email: mail, role: 'editor', baseUrl: BASE_URL });
    expect(await refused('AcceptInvite', { token: tokenOf(third.link), password: '', sessionHash: sha256Hex(othersGrant.sessionId), clientAddress: '192.0.2.2' })).to.deep.equal(WRONG);
  });

  it('when a user resets their password, then the old one stops working, every session ends, and the link works once', async () => {
    const mail = email();
    await h.newUser(siteId, mail, PASSWORD);
    const a = await login('192.0.2.3', mail, PASSWORD);
    const reset = await h.accounts.resetLink({ email: mail.toUpperCase(), baseUrl: BASE_URL });
    const token = tokenOf(reset.link);
    expect(await refused('AcceptInvite', { token, password: '', sessionHash: '', clientAddress: '192.0.2.3' })).to.deep.equal({
      code: grpc.status.INVALID_ARGUMENT,
      details: 'Password must be 10 to 200 characters',
    });
    const grant = await h.call<SessionGrant__Output>('AcceptInvite', { token, password: 'a brand new password', sessionHash: '', clientAddress: '192.0.2.3' });
    expect(grant.session!.email).to.equal(mail);
    expect((await session(a.sessionId)).found).to.equal(false);
    expect((await session(grant.sessionId)).found).to.equal(true);
    expect(await refused('Login', { email: mail, password: PASSWORD, clientAddress: '192.0.2.3', previousSessionHash: '' })).to.deep.equal(WRONG);
    expect((await login('192.0.2.3', mail, 'a brand new password')).session!.email).to.equal(mail);
    expect(await refused('AcceptInvite', { token, password: 'yet another password', sessionHash: '', clientAddress: '192.0.2.3' })).to.deep.equal({
      code: grpc.status.NOT_FOUND,
      details: 'This link is invalid, used or expired',
    });
    const late = await h.accounts.resetLink({ email: mail, baseUrl: BASE_URL });
    await h.stack.pool.query("UPDATE campaign.one_time_links SET expires_at = now() - interval '1 second' WHERE token_hash = $1", [sha256Hex(tokenOf(late.link))]);
    expect((await refused('AcceptInvite', { token: tokenOf(late.link), password: 'yet another password', sessionHash: '', clientAddress: '192.0.2.3' })).code).to.equal(grpc.status.NOT_FOUND);
  });

  it('when the operators ask for a link for no user, a bad email, a bad role or no site, then they are told why', async () => {
    const bad = async (p: Promise<unknown>) => {
      try {
        await p;
      } catch (err) {
        return (err as Error).message;
      }
      return 'no error';
    };
    expect(await bad(h.accounts.resetLink({ email: 'nobody@example.com', baseUrl: BASE_URL }))).to.equal('there is no user "nobody@example.com"');
    expect(await bad(h.accounts.invite({ site: siteId, email: 'not-an-email', role: 'owner', baseUrl: BASE_URL }))).to.equal('"not-an-email" is not an email address');
    expect(await bad(h.accounts.invite({ site: siteId, email: 'a@b.c', role: 'admin' as 'owner', baseUrl: BASE_URL }))).to.equal('role must be owner, editor or viewer, got "admin"');
    expect(await bad(h.accounts.invite({ site: 'pub_nope', email: 'a@b.c', role: 'owner', baseUrl: BASE_URL }))).to.equal('site "pub_nope" does not exist');
  });

  it('when a user logs in again with their session, then a new session id is issued and the old one ends (rotation); logout ends it', async () => {
    const mail = email();
    await h.newUser(siteId, mail, PASSWORD);
    const first = await login('192.0.2.4', mail, PASSWORD);
    const second = await login('192.0.2.4', mail, PASSWORD, sha256Hex(first.sessionId));
    expect(second.sessionId).to.not.equal(first.sessionId);
    expect(second.session!.csrfToken).to.not.equal(first.session!.csrfToken);
    expect((await session(first.sessionId)).found).to.equal(false);
    const live = await session(second.sessionId);
    expect(live.session).to.deep.include({ email: mail, csrfToken: second.session!.csrfToken });
    await h.call('Logout', { sessionHash: sha256Hex(second.sessionId) });
    expect((await session(second.sessionId)).found).to.equal(false);
    await h.call('Logout', { sessionHash: sha256Hex(second.sessionId) }); // again: nothing to end
    await h.call('Logout', { sessionHash: 'not a hash' });
    expect((await h.call<SessionAnswer__Output>('Session', { sessionHash: 'not a hash' })).found).to.equal(false);
  });

  it('when a session is idle 12 hours, or 7 days old, then it has ended; last_seen_at moves at most once a minute', async () => {
    const mail = email();
    await h.newUser(siteId, mail, PASSWORD);
    const grant = await login('192.0.2.5', mail, PASSWORD);
    const hash = sha256Hex(grant.sessionId);
    const lastSeen = async () => (await h.stack.pool.query('SELECT last_seen_at FROM campaign.sessions WHERE id_hash = $1', [hash])).rows[0].last_seen_at as Date;
    const setLastSeen = (sql: string) => h.stack.pool.query(`UPDATE campaign.sessions SET last_seen_at = ${sql} WHERE id_hash = $1`, [hash]);

    await setLastSeen("now() - interval '30 seconds'");
    const recent = await lastSeen();
    expect((await session(grant.sessionId)).found).to.equal(true);
    expect((await lastSeen()).getTime()).to.equal(recent.getTime());
    await setLastSeen("now() - interval '2 minutes'");
    expect((await session(grant.sessionId)).found).to.equal(true);
    expect(Date.now() - (await lastSeen()).getTime()).to.be.below(10_000);

    await setLastSeen("now() - interval '11 hours 59 minutes'");
    expect((await session(grant.sessionId)).found).to.equal(true); // and slid again
    await setLastSeen("now() - interval '12 hours 1 second'");
    expect((await session(grant.sessionId)).found).to.equal(false);

    const old = await login('192.0.2.5', mail, PASSWORD);
    await h.stack.pool.query("UPDATE campaign.sessions SET created_at = now() - interval '7 days 1 second' WHERE id_hash = $1", [sha256Hex(old.sessionId)]);
    expect((await session(old.sessionId)).found).to.equal(false);
  });

  it('when an email is no account or the password is wrong, then the answer is the same', async () => {
    const mail = email();
    await h.newUser(siteId, mail, PASSWORD);
    expect(await refused('Login', { email: mail, password: 'wrong password', clientAddress: '192.0.2.6', previousSessionHash: '' })).to.deep.equal(WRONG);
    expect(await refused('Login', { email: 'nobody@example.com', password: PASSWORD, clientAddress: '192.0.2.6', previousSessionHash: '' })).to.deep.equal(WRONG);
    expect(await refused('Login', { email: '', password: '', clientAddress: '192.0.2.6', previousSessionHash: '' })).to.deep.equal(WRONG);
    expect(await refused('Login', { email: 'x'.repeat(1000), password: PASSWORD, clientAddress: '192.0.2.6', previousSessionHash: '' })).to.deep.equal(WRONG);
    // The email is compared trimmed and lowercased.
    expect((await login('192.0.2.6', `  ${mail.toUpperCase()}`, PASSWORD)).session!.email).to.equal(mail);
  });

  describe('login throttling: growing delays, no lock', () => {
    const failuresOf = async (mail: string) => (await h.stack.pool.query('SELECT count(*)::int AS n FROM campaign.login_failures WHERE email_hash = $1', [sha256Hex(mail)])).rows[0].n;
    /** The waits run out: every failure of the email moves `seconds` into the past. */
    const wait = (mail: string, seconds: number) =>
      h.stack.pool.query('UPDATE campaign.login_failures SET failed_at = failed_at - make_interval(secs => $2) WHERE email_hash = $1', [sha256Hex(mail), seconds]);
    const throttledFor = async (req: object) => {
      const err = await h.refusal('Login', { previousSessionHash: '', ...req });
      expect({ code: err.code, details: err.details }).to.deep.equal(THROTTLED);
      return Number(err.metadata.get('retry-after')[0]);
    };

    it('when one address keeps failing for an email, then it waits 2, 4, 8 s … after each failure (account or not, right password or not), while the owner at another address gets in', async () => {
      const mail = email();
      await h.newUser(siteId, mail, PASSWORD);
      for (const [i, who] of [mail, 'stranger@example.com'].entries()) {
        const attacker = `198.51.100.${20 + i}`;
        for (let k = 0; k < LOGIN_THROTTLE.pairFree; k++) {
          expect(await refused('Login', { email: who, password: 'wrong password', clientAddress: attacker, previousSessionHash: '' })).to.deep.equal(WRONG);
        }
        for (const delay of [2, 4, 8, 16]) {
          expect(pairDelaySeconds(LOGIN_THROTTLE.pairFree + Math.log2(delay) - 1)).to.equal(delay);
          expect(await throttledFor({ email: who.toUpperCase(), password: who === mail ? PASSWORD : 'anything at all', clientAddress: attacker })).to.be.within(delay - 1, delay);
          await wait(who, delay);
          expect(await refused('Login', { email: who, password: 'wrong password', clientAddress: attacker, previousSessionHash: '' })).to.deep.equal(WRONG);
        }
        // The owner, elsewhere, was never held back: 5 and more wrong passwords lock nobody out.
        if (who === mail) expect((await login('198.51.100.29', mail, PASSWORD)).session!.email).to.equal(mail);
      }
      expect(pairDelaySeconds(LOGIN_THROTTLE.pairFree - 1)).to.equal(0);
      expect(pairDelaySeconds(1000)).to.equal(LOGIN_THROTTLE.maxDelaySeconds);
      // Once the wait is over the right password gets in there too, and the pair's failures are forgotten.
      await wait(mail, LOGIN_THROTTLE.maxDelaySeconds);
      await login('198.51.100.20', mail, PASSWORD);
      expect(await failuresOf(mail)).to.equal(0);
    });

    it('when one address (a NAT) has failed for many emails, then it is refused for an email it never logged in with, but an account that logged in from it before gets through', async () => {
      const [regular, newcomer] = [email(), email()];
      await h.newUser(siteId, regular, PASSWORD);
      await h.newUser(siteId, newcomer, PASSWORD);
      const nat = '203.0.113.7';
      await login(nat, regular, PASSWORD);
      for (let k = 0; k < LOGIN_THROTTLE.addressLimit; k++) {
        expect(await refused('Login', { email: `guess${k}@example.com`, password: 'wrong password', clientAddress: nat, previousSessionHash: '' })).to.deep.equal(WRONG);
      }
      expect(await throttledFor({ email: newcomer, password: PASSWORD, clientAddress: nat })).to.be.within(1, LOGIN_THROTTLE.windowSeconds);
      expect((await login(nat, regular, PASSWORD)).session!.email).to.equal(regular);
      // Another address is not held back at all.
      expect((await login('203.0.113.8', newcomer, PASSWORD)).session!.email).to.equal(newcomer);
    });

    it('when an email has failed from many addresses, then new addresses are refused for it (account or not), but one it logged in from before gets through', async () => {
      const mail = email();
      await h.newUser(siteId, mail, PASSWORD);
      await login('192.0.2.77', mail, PASSWORD);
      const answers: number[] = [];
      for (const who of [mail, 'stranger2@example.com']) {
        // The failures as wrong logins from as many addresses leave them (the NAT test above makes them for real).
        await h.stack.pool.query(
          "INSERT INTO campaign.login_failures (email_hash, address) SELECT $1, '10.0.' || k || '.1' FROM generate_series(1, $2) AS k",
          [sha256Hex(who), LOGIN_THROTTLE.emailLimit],
        );
        answers.push(await throttledFor({ email: who, password: who === mail ? PASSWORD : 'anything at all', clientAddress: '192.0.2.78' }));
      }
      for (const a of answers) expect(a).to.be.within(LOGIN_THROTTLE.windowSeconds - 60, LOGIN_THROTTLE.windowSeconds);
      expect((await login('192.0.2.77', mail, PASSWORD)).session!.email).to.equal(mail);
    });

    it('when a user logs in from many addresses, then only hashes of the latest 10 are kept, none of them the address', async () => {
      const mail = email();
      await h.newUser(siteId, mail, PASSWORD); // accepted from 192.0.2.1: the first one
      for (let k = 0; k < KNOWN_ADDRESSES.perUser + 2; k++) await login(`192.0.2.${100 + k}`, mail, PASSWORD);
      const { rows } = await h.stack.pool.query(
        'SELECT a.address_hash FROM campaign.login_addresses a JOIN campaign.users u ON u.id = a.user_id WHERE u.email = $1',
        [mail],
      );
      expect(rows).to.have.length(KNOWN_ADDRESSES.perUser);
      const latest = Array.from({ length: KNOWN_ADDRESSES.perUser }, (_, k) => knownAddressHash(mail, `192.0.2.${102 + k}`));
      expect(rows.map((r) => r.address_hash).sort()).to.deep.equal(latest.sort());
      expect(JSON.stringify(rows)).to.not.include('192.0.2');
    });

    it('when a flood of wrong logins arrives at once, then beyond the cap they are refused at once with Retry-After (never an internal error), and the owner from a known address gets in', async function () {
      const mail = email();
      await h.newUser(siteId, mail, PASSWORD);
      await login('192.0.2.200', mail, PASSWORD);
      const flood = Array.from({ length: 60 }, (_, k) =>
        h.refusal('Login', { email: `flood${k}@example.com`, password: 'wrong password', clientAddress: `100.64.${k}.1`, previousSessionHash: '' }),
      );
      const owner = login('192.0.2.200', mail, PASSWORD);
      const errors = await Promise.all(flood);
      expect((await owner).session!.email).to.equal(mail);
      const kinds = new Set(errors.map((e) => `${e.code} ${e.details}`));
      expect([...kinds].sort()).to.deep.equal([`${WRONG.code} ${WRONG.details}`, `${BUSY.code} ${BUSY.details}`].sort());
      const busy = errors.filter((e) => e.details === BUSY.details);
      for (const e of busy) expect(e.metadata.get('retry-after')).to.deep.equal([String(PASSWORD_CHECKS.retryAfterSeconds)]);
      // A refusal for load is no failure: nothing was tried.
      expect((await h.stack.pool.query("SELECT count(*)::int AS n FROM campaign.login_failures WHERE address LIKE '100.64.%'")).rows[0].n).to.equal(errors.length - busy.length);
    });
  });

  it('when a password hash was made with weaker parameters, then a successful login replaces it', async () => {
    const mail = email();
    await h.newUser(siteId, mail, PASSWORD);
    await h.stack.pool.query('UPDATE campaign.users SET password_hash = $2 WHERE email = $1', [mail, await hashPassword(PASSWORD, { ...CURRENT_PARAMS, ln: 10 })]);
    await login('192.0.2.8', mail, PASSWORD);
    const stored = (await h.stack.pool.query('SELECT password_hash FROM campaign.users WHERE email = $1', [mail])).rows[0].password_hash as string;
    expect(stored).to.match(/^\$scrypt\$ln=15,/);
    expect((await login('192.0.2.8', mail, PASSWORD)).session!.email).to.equal(mail);
  });

  it("when a site's members are listed, then they come with their roles, owners first", async () => {
    const { siteId: fresh } = await h.stack.newSite();
    const [a, b] = [email(), email()];
    await h.newUser(fresh, b, PASSWORD, 'editor');
    await h.newUser(fresh, a, PASSWORD, 'owner');
    const list = await h.call<MemberList__Output>('ListMembers', { siteId: fresh });
    expect(list.members.map((m) => [m.email, m.role])).to.deep.equal([
      [a, 'owner'],
      [b, 'editor'],
    ]);
    expect(await refused('ListMembers', { siteId: '00000000-0000-4000-8000-000000000000' })).to.deep.equal({ code: grpc.status.NOT_FOUND, details: 'Site not found' });
    expect(await refused('ListMembers', { siteId: 'nope' })).to.deep.equal({ code: grpc.status.NOT_FOUND, details: 'Site not found' });
  });

  it('when the console is called without the gateway\'s token, then every call is refused', async () => {
    const { Console } = loadConsoleProto().campaign.v1;
    const target = `127.0.0.1:${h.stack.campaign!.grpcPort}`;
    for (const client of [new Console(target, grpc.credentials.createInsecure()), new Console(target, grpc.credentials.createInsecure(), withInternalToken(INTERNAL_TOKENS.CAMPAIGN_INTERNAL_TOKEN))]) {
      const outcome = await new Promise<string>((resolve) =>
        client.Session({ sessionHash: '0'.repeat(64) }, { deadline: Date.now() + 5000 }, (err) => resolve(err ? `${err.code} ${err.details}` : 'ok')),
      );
      client.close();
      expect(outcome).to.equal(`${grpc.status.PERMISSION_DENIED} ${UNAUTHENTICATED_MESSAGE}`);
    }
  });
});
