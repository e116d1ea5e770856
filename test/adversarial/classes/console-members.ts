// Class 17: a site's members and invites in the console (docs/console.md, "Members and roles"),
// attacked by a logged-in owner and a viewer of a site of the class's own, and by anyone with the
// public invite preview: every field of an invite and a role change hostile (→ 200 or 4xx, bad
// text refused, nothing stored on a 4xx), odd member and invite ids, hostile tokens to the
// preview (never 200 for a token that is none); a viewer's every change refused with 403 and
// nothing changed; the bystander's members and invites named under the owner's own site (404
// `Member not found`, `Invite not found`) and under the bystander's site (404 `Site not found`),
// the bystander unchanged; the last owner kept (409).
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { SiteInfo } from '../../e2e/support/fixtures.js';
import { consoleLogIn, type ConsoleSession } from '../support/console-session.js';
import type { RequestSpec } from '../support/http.js';
import { hasBadText, hostileString, hostileValue, ODD_SEGMENTS, pathSegment, toJsonText } from '../support/hostile.js';
import { fuzz, probe } from '../support/probe.js';
import { assertNoViolations, endOfClassChecks, getCtx, jsonRequest, show, trackViolations, violation } from '../support/suite.js';

export const CLASS_CONSOLE_MEMBERS = '17 console members and roles';
const cls = CLASS_CONSOLE_MEMBERS;

const ROLES = ['owner', 'editor', 'viewer'];

function call(session: ConsoleSession, method: string, path: string, body?: string): RequestSpec {
  return { method, path, headers: body === undefined ? session.headers : [['Content-Type', 'application/json'], ...session.headers], body };
}

/** The member ids of the site, by email (the operators' view, read directly). */
async function memberIds(siteId: string): Promise<Map<string, string>> {
  const { rows } = await getCtx().db.query('SELECT u.email, u.id FROM campaign.site_members m JOIN campaign.users u ON u.id = m.user_id WHERE m.site_id = $1', [siteId]);
  return new Map((rows as { email: string; id: string }[]).map((r) => [r.email, r.id]));
}

export function registerConsoleMembers(): void {
  describe(CLASS_CONSOLE_MEMBERS, function () {
    this.timeout(120_000);
    trackViolations(cls);
    let owner: ConsoleSession;
    let viewer: ConsoleSession;
    let site: SiteInfo;
    const base = () => `/console/api/sites/${site.id}`;

    before(async () => {
      const c = getCtx();
      const plan = `adv_members_${randomBytes(3).toString('hex')}`;
      await c.stack.cli('plans', 'create', plan, '--permissions', 'create,reports,delete,audience');
      site = await c.stack.cli('sites', 'create', 'adversarial-members', '--plan', plan);
      owner = await consoleLogIn(site.id, 'owner');
      viewer = await consoleLogIn(site.id, 'viewer');
    });

    it('every field of an invite and of a role change hostile → 200 or 4xx, bad text refused, nothing stored on a 4xx', async () => {
      const field = fc.constantFrom('email', 'role', 'unknownField', '__proto__');
      await fuzz(fc.array(fc.tuple(field, fc.option(hostileValue, { nil: undefined, freq: 8 })), { minLength: 1, maxLength: 3 }), { numRuns: 200, timeMs: 8_000, seedOffset: 140 }, async (mutations) => {
        const body: Record<string, unknown> = { email: `fuzzed.${randomBytes(4).toString('hex')}@example.com`, role: 'editor' };
        for (const [name, value] of mutations) {
          if (value === undefined) delete body[name];
          else body[name] = value;
        }
        await probe(cls, call(owner, 'POST', `${base()}/invites`, toJsonText(body)), {
          siteId: site.id,
          allowed: [200, 400, 409, 413],
          mustReject: ['email', 'role'].some((f) => Object.hasOwn(body, f) && hasBadText(body[f])),
          what: show(body, 200),
        });
      });
      const viewerId = (await memberIds(site.id)).get(viewer.email)!;
      await fuzz(fc.oneof(hostileValue, fc.constantFrom(...ROLES)), { numRuns: 120, timeMs: 6_000, seedOffset: 141 }, async (role) => {
        // Never the owner's own id: a hostile role that were taken must not cost the site its owner.
        const r = await probe(cls, call(owner, 'PATCH', `${base()}/members/${viewerId}`, toJsonText({ role })), { siteId: site.id, allowed: [200, 400, 413], mustReject: hasBadText(role), what: show({ role }, 200) });
        if (r.status === 200 && !ROLES.includes(role as string)) violation(cls, `role ${show(role)} was taken`);
      });
      // The viewer is a viewer again for the next test, whatever role the last run gave them.
      await probe(cls, call(owner, 'PATCH', `${base()}/members/${viewerId}`, '{"role":"viewer"}'), { siteId: site.id, allowed: [200], what: '(the viewer again)' });
      assertNoViolations(cls);
    });

    it('odd member and invite ids → 4xx; hostile tokens to the public preview → 400 or 404, never what a link would show', async () => {
      for (const segment of ODD_SEGMENTS) {
        const id = pathSegment(segment);
        for (const spec of [
          call(owner, 'PATCH', `${base()}/members/${id}`, '{"role":"viewer"}'),
          call(owner, 'DELETE', `${base()}/members/${id}`),
          call(owner, 'DELETE', `${base()}/invites/${id}`),
        ]) {
          await probe(cls, spec, { siteId: site.id, allowed: [400, 404, 405], what: `(id ${show(segment, 40)})` });
        }
      }
      await fuzz(fc.oneof(hostileValue, hostileString.map((s) => s.slice(0, 43).padEnd(43, 'A'))), { numRuns: 150, timeMs: 6_000, seedOffset: 142 }, async (token) => {
        const r = await probe(cls, jsonRequest('POST', '/console/api/invites/lookup', { token }), { siteId: site.id, allowed: [400, 404, 413], mustReject: hasBadText(token), what: show({ token }, 120) });
        if (r.status === 404 && r.body?.message !== 'This link is invalid, used or expired') violation(cls, `lookup ${show(token)}: 404 ${show(r.body)}`);
      });
      assertNoViolations(cls);
    });

    it("a viewer's every change to members and invites → 403, nothing changed; the last owner kept → 409", async () => {
      const ids = await memberIds(site.id);
      const ownerId = ids.get(owner.email)!;
      const invite = await probe(cls, call(owner, 'POST', `${base()}/invites`, JSON.stringify({ email: `pending.${randomBytes(3).toString('hex')}@example.com`, role: 'owner' })), { siteId: site.id, allowed: [200], what: '(a pending invite)' });
      for (const spec of [
        call(viewer, 'POST', `${base()}/invites`, JSON.stringify({ email: 'takeover@example.com', role: 'owner' })),
        call(viewer, 'PATCH', `${base()}/members/${ids.get(viewer.email)}`, '{"role":"owner"}'),
        call(viewer, 'DELETE', `${base()}/members/${ownerId}`),
        call(viewer, 'DELETE', `${base()}/invites/${invite.body?.invite?.id}`),
        call(viewer, 'GET', `${base()}/members`),
        call(viewer, 'GET', `${base()}/invites`),
      ]) {
        const r = await probe(cls, spec, { siteId: site.id, allowed: [403], what: '(as a viewer)' });
        if (r.body?.message !== "Only the site's owners can do this") violation(cls, `viewer ${spec.method} ${spec.path}: ${r.status} ${show(r.body)}`);
      }
      for (const spec of [call(owner, 'DELETE', `${base()}/members/${ownerId}`), call(owner, 'PATCH', `${base()}/members/${ownerId}`, '{"role":"viewer"}')]) {
        const r = await probe(cls, spec, { siteId: site.id, allowed: [409], what: '(the last owner)' });
        if (r.body?.message !== 'A site must keep at least one owner') violation(cls, `${spec.method} the last owner: ${r.status} ${show(r.body)}`);
      }
      assertNoViolations(cls);
    });

    it("the bystander's members and invites under the owner's site → 404 Member/Invite not found, under the bystander's site → 404 Site not found; the bystander unchanged", async () => {
      const { sites } = getCtx();
      const bystander = await consoleLogIn(sites.other.id, 'owner');
      const theirInvite = await probe(cls, call(bystander, 'POST', `/console/api/sites/${sites.other.id}/invites`, JSON.stringify({ email: 'bystander.pending@example.com', role: 'editor' })), {
        siteId: sites.other.id,
        allowed: [200],
        what: "(the bystander's invite)",
      });
      const theirMember = (await memberIds(sites.other.id)).get(bystander.email)!;
      const inviteId = String(theirInvite.body?.invite?.id);
      const cases: [RequestSpec, string][] = [
        [call(owner, 'PATCH', `${base()}/members/${theirMember}`, '{"role":"viewer"}'), 'Member not found'],
        [call(owner, 'DELETE', `${base()}/members/${theirMember}`), 'Member not found'],
        [call(owner, 'DELETE', `${base()}/invites/${inviteId}`), 'Invite not found'],
        [call(owner, 'PATCH', `/console/api/sites/${sites.other.id}/members/${theirMember}`, '{"role":"viewer"}'), 'Site not found'],
        [call(owner, 'DELETE', `/console/api/sites/${sites.other.id}/members/${theirMember}`), 'Site not found'],
        [call(owner, 'DELETE', `/console/api/sites/${sites.other.id}/invites/${inviteId}`), 'Site not found'],
        [call(owner, 'GET', `/console/api/sites/${sites.other.id}/members`), 'Site not found'],
        [call(owner, 'POST', `/console/api/sites/${sites.other.id}/invites`, JSON.stringify({ email: 'intruder@example.com', role: 'owner' })), 'Site not found'],
      ];
      for (const [spec, message] of cases) {
        const r = await probe(cls, spec, { siteId: sites.other.id, allowed: [404], what: "(the bystander's)" });
        if (r.body?.message !== message) violation(cls, `${spec.method} ${spec.path}: ${r.status} ${show(r.body)}`);
      }
      // Without the session's CSRF token, or with none at all: refused before anything.
      const bare: RequestSpec = { method: 'DELETE', path: `${base()}/members/${theirMember}`, headers: [owner.headers[0]] };
      await probe(cls, bare, { siteId: site.id, allowed: [403], what: '(no CSRF token)' });
      await probe(cls, { ...bare, headers: [] }, { siteId: site.id, allowed: [401], what: '(no session)' });
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });
  });
}
