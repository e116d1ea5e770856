// A site's members and invites as its owners manage them in the console (docs/console.md,
// "Members and roles"), through the campaign service's gRPC API as the gateway calls it, against
// a real Postgres: the viewer role, invites made by an owner (the same links as the CLI's), their
// preview, listing and revocation, role changes and removal, and the rule that a site keeps at
// least one owner — also when two owners demote each other at once, or an invite would demote one.
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import type { CreatedInvite__Output } from '@webpush/contracts/generated/campaign/v1/CreatedInvite.js';
import type { InviteList__Output } from '@webpush/contracts/generated/campaign/v1/InviteList.js';
import type { InvitePreview__Output } from '@webpush/contracts/generated/campaign/v1/InvitePreview.js';
import type { Member__Output } from '@webpush/contracts/generated/campaign/v1/Member.js';
import type { MemberList__Output } from '@webpush/contracts/generated/campaign/v1/MemberList.js';
import type { SessionAnswer__Output } from '@webpush/contracts/generated/campaign/v1/SessionAnswer.js';
import type { SessionGrant__Output } from '@webpush/contracts/generated/campaign/v1/SessionGrant.js';
import type { ConsoleClient } from '@webpush/contracts/generated/campaign/v1/Console.js';
import { BASE_URL, sha256Hex, startConsoleHarness, tokenOf, type ConsoleHarness } from './support/console.js';

const PASSWORD = 'correct horse battery';
const LAST_OWNER = { code: grpc.status.FAILED_PRECONDITION, details: 'A site must keep at least one owner' };
const MEMBER_NOT_FOUND = { code: grpc.status.NOT_FOUND, details: 'Member not found' };
const INVITE_NOT_FOUND = { code: grpc.status.NOT_FOUND, details: 'Invite not found' };
const LINK_INVALID = { code: grpc.status.NOT_FOUND, details: 'This link is invalid, used or expired' };
const SITE_NOT_FOUND = { code: grpc.status.NOT_FOUND, details: 'Site not found' };

describe('campaign service: console members and invites', function () {
  this.timeout(60_000);
  let h: ConsoleHarness;
  let n = 0;
  const email = () => `member${++n}@example.com`;

  before(async () => {
    h = await startConsoleHarness('campaign_console_members');
  });
  after(async () => h?.stop());

  const refused = async (method: keyof ConsoleClient & string, req: object) => {
    const err = await h.refusal(method, req);
    return { code: err.code, details: err.details };
  };
  const members = async (siteId: string) => (await h.call<MemberList__Output>('ListMembers', { siteId })).members;
  const idOf = async (siteId: string, mail: string) => (await members(siteId)).find((m) => m.email === mail)!.userId;
  const invites = async (siteId: string) => (await h.call<InviteList__Output>('ListInvites', { siteId })).invites;
  const accept = (token: string, password = PASSWORD, sessionHash = '') => h.call<SessionGrant__Output>('AcceptInvite', { token, password, sessionHash, clientAddress: '192.0.2.40' });
  /** A site with one owner, logged in. */
  async function siteWithOwner() {
    const siteId = (await h.stack.newSite()).siteId;
    const owner = email();
    await h.newUser(siteId, owner, PASSWORD);
    return { siteId, owner };
  }

  it("when an owner invites, then the link is the CLI's kind, names the site and the inviter, is listed until used, and makes a member of the role", async () => {
    const { siteId, owner } = await siteWithOwner();
    const mail = email();
    const created = await h.call<CreatedInvite__Output>('CreateInvite', { siteId, email: ` ${mail.toUpperCase()} `, role: 'viewer', invitedByEmail: owner, baseUrl: BASE_URL });
    expect(created.link).to.match(/^https:\/\/push\.example\.net\/console\/#\/invite\/[A-Za-z0-9_-]{43}$/);
    expect(created.invite).to.deep.include({ email: mail, role: 'viewer', invitedBy: owner });
    expect(created.invite!.id).to.match(/^[0-9a-f-]{36}$/);
    expect(Date.parse(created.invite!.expiresAt) - Date.parse(created.invite!.createdAt)).to.equal(7 * 24 * 3600 * 1000);
    // Only the token's hash is stored.
    expect(JSON.stringify((await h.stack.pool.query('SELECT * FROM campaign.one_time_links')).rows)).to.not.include(tokenOf(created.link));

    const preview = await h.call<InvitePreview__Output>('LookupInvite', { token: tokenOf(created.link) });
    expect(preview).to.deep.equal({ kind: 'invite', siteName: (await h.stack.pool.query('SELECT name FROM campaign.sites WHERE id = $1', [siteId])).rows[0].name, invitedBy: owner });
    expect(await invites(siteId)).to.deep.equal([created.invite]);

    const grant = await accept(tokenOf(created.link));
    expect(grant.session!.sites.map((s) => [s.siteId, s.role])).to.deep.equal([[siteId, 'viewer']]);
    expect(await invites(siteId)).to.deep.equal([]);
    expect(await refused('LookupInvite', { token: tokenOf(created.link) })).to.deep.equal(LINK_INVALID);
    expect((await members(siteId)).map((m) => [m.email, m.role])).to.deep.equal([
      [owner, 'owner'],
      [mail, 'viewer'],
    ]);
  });

  it("when the operators' CLI invites, then the invite page names the site and no inviter; a reset link's preview says only that it is one", async () => {
    const { siteId, owner } = await siteWithOwner();
    const invite = await h.accounts.invite({ site: siteId, email: email(), role: 'viewer', baseUrl: BASE_URL });
    const preview = await h.call<InvitePreview__Output>('LookupInvite', { token: tokenOf(invite.link) });
    expect([preview.kind, preview.invitedBy]).to.deep.equal(['invite', '']);
    expect((await invites(siteId)).map((i) => [i.role, i.invitedBy])).to.deep.equal([['viewer', '']]);
    const reset = await h.accounts.resetLink({ email: owner, baseUrl: BASE_URL });
    expect(await h.call<InvitePreview__Output>('LookupInvite', { token: tokenOf(reset.link) })).to.deep.equal({ kind: 'reset', siteName: '', invitedBy: '' });
    for (const token of ['', 'A'.repeat(43), 'not a token', tokenOf(invite.link) + 'x']) expect(await refused('LookupInvite', { token }), token).to.deep.equal(LINK_INVALID);
  });

  it('when an invite is revoked, then its link is refused; another site\'s invite, a used one or an odd id is not found', async () => {
    const { siteId, owner } = await siteWithOwner();
    const other = await siteWithOwner();
    const made = await h.call<CreatedInvite__Output>('CreateInvite', { siteId, email: email(), role: 'editor', invitedByEmail: owner, baseUrl: BASE_URL });
    const theirs = await h.call<CreatedInvite__Output>('CreateInvite', { siteId: other.siteId, email: email(), role: 'editor', invitedByEmail: other.owner, baseUrl: BASE_URL });
    for (const inviteId of [theirs.invite!.id, 'abc', "' OR 1=1 --", '']) expect(await refused('RevokeInvite', { siteId, inviteId }), inviteId).to.deep.equal(INVITE_NOT_FOUND);
    expect(await invites(other.siteId)).to.have.length(1);
    await h.call('RevokeInvite', { siteId, inviteId: made.invite!.id });
    expect(await invites(siteId)).to.deep.equal([]);
    expect(await refused('AcceptInvite', { token: tokenOf(made.link), password: PASSWORD, sessionHash: '', clientAddress: '192.0.2.41' })).to.deep.equal(LINK_INVALID);
    expect(await refused('RevokeInvite', { siteId, inviteId: made.invite!.id })).to.deep.equal(INVITE_NOT_FOUND);
    await accept(tokenOf(theirs.link));
    expect(await refused('RevokeInvite', { siteId: other.siteId, inviteId: theirs.invite!.id })).to.deep.equal(INVITE_NOT_FOUND);
  });

  it('when an invite names no email, a bad role or a member already, then it is refused and no link is made', async () => {
    const { siteId, owner } = await siteWithOwner();
    const create = (mail: string, role: string) => refused('CreateInvite', { siteId, email: mail, role, invitedByEmail: owner, baseUrl: BASE_URL });
    const INVALID = grpc.status.INVALID_ARGUMENT;
    expect(await create('not-an-email', 'editor')).to.deep.equal({ code: INVALID, details: 'email must be an email address of at most 254 characters' });
    expect(await create(`${'x'.repeat(250)}@example.com`, 'editor')).to.deep.equal({ code: INVALID, details: 'email must be an email address of at most 254 characters' });
    expect(await create('a@example.com', 'admin')).to.deep.equal({ code: INVALID, details: 'role must be owner, editor or viewer' });
    expect(await create('', '')).to.deep.equal({ code: INVALID, details: 'email must be an email address of at most 254 characters, role must be owner, editor or viewer' });
    expect(await create(owner.toUpperCase(), 'viewer')).to.deep.equal({ code: grpc.status.FAILED_PRECONDITION, details: `${owner} is already a member of the site; change their role instead` });
    expect(await refused('CreateInvite', { siteId: '00000000-0000-4000-8000-000000000000', email: 'a@example.com', role: 'editor', invitedByEmail: owner, baseUrl: BASE_URL })).to.deep.equal(SITE_NOT_FOUND);
    expect(await invites(siteId)).to.deep.equal([]);
  });

  it('when an owner changes roles and removes members, then the last owner can be neither demoted nor removed, and a removed member loses the site at once', async () => {
    const { siteId, owner } = await siteWithOwner();
    const editor = email();
    await h.newUser(siteId, editor, PASSWORD, 'editor');
    const ownerId = await idOf(siteId, owner);
    const editorId = await idOf(siteId, editor);
    for (const role of ['editor', 'viewer']) expect(await refused('UpdateMember', { siteId, userId: ownerId, role })).to.deep.equal(LAST_OWNER);
    expect(await refused('RemoveMember', { siteId, userId: ownerId })).to.deep.equal(LAST_OWNER);
    expect(await refused('UpdateMember', { siteId, userId: editorId, role: 'admin' })).to.deep.equal({ code: grpc.status.INVALID_ARGUMENT, details: 'role must be owner, editor or viewer' });

    const promoted = await h.call<Member__Output>('UpdateMember', { siteId, userId: editorId, role: 'owner' });
    expect(promoted).to.deep.include({ userId: editorId, email: editor, role: 'owner' });
    // Two owners now: the first may step down, then the second is the last.
    expect(await h.call<Member__Output>('UpdateMember', { siteId, userId: ownerId, role: 'viewer' })).to.deep.include({ role: 'viewer' });
    expect(await refused('RemoveMember', { siteId, userId: editorId })).to.deep.equal(LAST_OWNER);

    const grant = await h.call<SessionGrant__Output>('Login', { email: owner, password: PASSWORD, clientAddress: '192.0.2.42', previousSessionHash: '' });
    expect(grant.session!.sites.map((s) => s.role)).to.deep.equal(['viewer']);
    await h.call('RemoveMember', { siteId, userId: ownerId });
    const after = await h.call<SessionAnswer__Output>('Session', { sessionHash: sha256Hex(grant.sessionId) });
    expect([after.found, after.session!.sites]).to.deep.equal([true, []]);
    expect((await members(siteId)).map((m) => [m.email, m.role])).to.deep.equal([[editor, 'owner']]);
    expect(await refused('RemoveMember', { siteId, userId: ownerId })).to.deep.equal(MEMBER_NOT_FOUND);
  });

  it("when a member of another site, or an id that is none, is named, then it is not found and nothing changes", async () => {
    const { siteId } = await siteWithOwner();
    const other = await siteWithOwner();
    const theirs = await idOf(other.siteId, other.owner);
    for (const userId of [theirs, '00000000-0000-4000-8000-000000000000', 'abc', '']) {
      expect(await refused('UpdateMember', { siteId, userId, role: 'viewer' }), userId).to.deep.equal(MEMBER_NOT_FOUND);
      expect(await refused('RemoveMember', { siteId, userId }), userId).to.deep.equal(MEMBER_NOT_FOUND);
    }
    expect((await members(other.siteId)).map((m) => m.role)).to.deep.equal(['owner']);
  });

  it('when two owners demote each other at the same moment, then one of them stays owner', async () => {
    for (let round = 0; round < 5; round++) {
      const { siteId, owner } = await siteWithOwner();
      const second = email();
      await h.newUser(siteId, second, PASSWORD, 'owner');
      const ids = [await idOf(siteId, owner), await idOf(siteId, second)];
      const outcomes = await Promise.allSettled(ids.map((userId) => h.call('UpdateMember', { siteId, userId, role: 'editor' })));
      expect(outcomes.map((o) => o.status).sort(), `round ${round}`).to.deep.equal(['fulfilled', 'rejected']);
      expect((await members(siteId)).filter((m) => m.role === 'owner')).to.have.length(1);
    }
  });

  it("when the last owner accepts an invite of a lesser role to their own site, then it is refused and they stay owner", async () => {
    const { siteId, owner } = await siteWithOwner();
    const stale = await h.accounts.invite({ site: siteId, email: owner, role: 'viewer', baseUrl: BASE_URL });
    expect(await refused('AcceptInvite', { token: tokenOf(stale.link), password: PASSWORD, sessionHash: '', clientAddress: '192.0.2.43' })).to.deep.equal(LAST_OWNER);
    expect((await members(siteId)).map((m) => m.role)).to.deep.equal(['owner']);
    // Nothing was used: the link still is the same link.
    expect((await h.call<InvitePreview__Output>('LookupInvite', { token: tokenOf(stale.link) })).kind).to.equal('invite');
  });
});
