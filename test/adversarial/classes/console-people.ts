// Class 28: the console's People page routes (/console/api/sites/{siteId}/people/{externalId},
// …/sends, …/export; docs/console.md, "People"), attacked by logged-in members of a site of the
// class's own: hostile and odd external ids on every route (→ 400 or 404, never a 5xx, nothing
// changed); a viewer and an editor exporting or deleting (403, nothing changed) while reading
// (200); the bystander's person named under the own site (404 `User not found`, as an id the
// site never used) and under the bystander's site (404 `Site not found`); a delete without the
// session's CSRF token, with another origin's headers as a cross-site form would send them, or
// without a session (403, 403, 401); the bystander's person unchanged throughout.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { SiteInfo } from '../../e2e/support/fixtures.js';
import { consoleLogIn, type ConsoleSession } from '../support/console-session.js';
import type { HeaderList, RequestSpec } from '../support/http.js';
import { hostileString, ODD_SEGMENTS, pathSegment } from '../support/hostile.js';
import { fuzz, probe } from '../support/probe.js';
import { assertNoViolations, endOfClassChecks, getCtx, jsonRequest, show, trackViolations, violation } from '../support/suite.js';

export const CLASS_CONSOLE_PEOPLE = '28 console people';
const cls = CLASS_CONSOLE_PEOPLE;

/** Every People route as [method, the path after the person's id]. */
const ROUTES: readonly [string, string][] = [
  ['GET', ''],
  ['GET', '/sends'],
  ['GET', '/export'],
  ['DELETE', ''],
];

function call(session: ConsoleSession | null, method: string, siteId: string, segment: string, rest: string, extra: HeaderList = []): RequestSpec {
  return { method, path: `/console/api/sites/${siteId}/people/${segment}${rest}`, headers: [...(session?.headers ?? []), ...extra] };
}

export function registerConsolePeople(): void {
  describe(CLASS_CONSOLE_PEOPLE, function () {
    this.timeout(120_000);
    trackViolations(cls);
    let site: SiteInfo;
    let owner: ConsoleSession;
    const bystanderPerson = `bystander-${randomBytes(3).toString('hex')}`;

    /** A person of a site, made through /v2 as the customer's server makes one. */
    const makePerson = async (s: SiteInfo, externalId: string) =>
      probe(cls, jsonRequest('PATCH', `/v2/users/${encodeURIComponent(externalId)}`, { tags: { plan: 'gold' } }, s.apiKey), { siteId: s.id, allowed: [200], what: `(the person ${externalId})` });
    /** The bystander's person as /v2 reads it: it must never change. */
    const bystanderView = async () =>
      (await probe(cls, { method: 'GET', path: `/v2/users/${bystanderPerson}`, headers: [['Authorization', getCtx().sites.other.apiKey]] }, { siteId: getCtx().sites.other.id, allowed: [200], what: "(the bystander's person)" })).result.responses[0]?.text;

    before(async () => {
      const c = getCtx();
      const plan = `adv_people_${randomBytes(3).toString('hex')}`;
      await c.stack.cli('plans', 'create', plan, '--permissions', 'create,reports,delete,audience');
      site = await c.stack.cli('sites', 'create', 'adversarial-console-people', '--plan', plan);
      owner = await consoleLogIn(site.id);
      await makePerson(site, 'ann');
      await makePerson(c.sites.other, bystanderPerson);
    });

    it('hostile and odd external ids on every route → 400 or 404 with a message, never a 5xx, nothing changed', async () => {
      for (const segment of ODD_SEGMENTS) {
        for (const [method, rest] of ROUTES) {
          await probe(cls, call(owner, method, site.id, pathSegment(segment), rest), { siteId: site.id, allowed: [400, 404, 405], what: `(id ${show(segment, 40)})` });
        }
      }
      await fuzz(fc.tuple(hostileString, fc.constantFrom(...ROUTES)), { numRuns: 200, timeMs: 10_000, seedOffset: 280 }, async ([id, [method, rest]]) => {
        // 'ann' is the one person of the site: any other id is none, or breaks the id's rule.
        if (id === 'ann') return;
        const r = await probe(cls, call(owner, method, site.id, pathSegment(id), rest), { siteId: site.id, allowed: [400, 404, 405, 414, 431], what: `(id ${show(id, 80)})` });
        if ((r.status === 400 || r.status === 404) && typeof r.body?.message !== 'string') violation(cls, `${method} ${show(id)}${rest}: ${r.status} without a message`);
      });
      assertNoViolations(cls);
    });

    it("a viewer and an editor read but never export or delete (403); the bystander's person → 404 under the own site and under theirs; no CSRF token, another origin's request, no session → 403, 403, 401; the bystander unchanged", async () => {
      const { sites } = getCtx();
      const before = await bystanderView();
      for (const role of ['viewer', 'editor'] as const) {
        const member = await consoleLogIn(site.id, role);
        for (const [method, rest] of ROUTES) {
          const r = await probe(cls, call(member, method, site.id, 'ann', rest), { siteId: site.id, allowed: rest === '/export' || method === 'DELETE' ? [403] : [200], what: `(as ${role})` });
          if (r.status === 403 && r.body?.message !== "Only the site's owners can do this") violation(cls, `${role} ${method} ${rest}: ${show(r.body)}`);
        }
      }
      for (const [method, rest] of ROUTES) {
        const own = await probe(cls, call(owner, method, site.id, bystanderPerson, rest), { siteId: sites.other.id, allowed: [404], what: "(the bystander's person under the own site)" });
        if (own.body?.message !== 'User not found') violation(cls, `${method} the bystander's person${rest}: ${show(own.body)}`);
        const theirs = await probe(cls, call(owner, method, sites.other.id, bystanderPerson, rest), { siteId: sites.other.id, allowed: [404], what: "(the bystander's site)" });
        if (theirs.body?.message !== 'Site not found') violation(cls, `${method} the bystander's site${rest}: ${show(theirs.body)}`);
      }
      // A delete as a forged cross-site request would come: the cookie (were SameSite ignored) but no token.
      const cookieOnly = { ...owner, headers: owner.headers.slice(0, 1) };
      const crossSite: HeaderList = [['Origin', 'https://attacker.example'], ['Referer', 'https://attacker.example/page'], ['Sec-Fetch-Site', 'cross-site'], ['Content-Type', 'application/x-www-form-urlencoded']];
      for (const spec of [call(cookieOnly, 'DELETE', site.id, 'ann', ''), call(cookieOnly, 'DELETE', site.id, 'ann', '', crossSite)]) {
        const r = await probe(cls, spec, { siteId: site.id, allowed: [403], what: '(without the CSRF token)' });
        if (r.body?.message !== 'Invalid CSRF token') violation(cls, `a delete without the token: ${show(r.body)}`);
      }
      for (const [method, rest] of ROUTES) await probe(cls, call(null, method, site.id, 'ann', rest), { siteId: site.id, allowed: [401], what: '(no session)' });
      // Ann is still there for the owner, and then deleted by them: the one change of the class.
      await probe(cls, call(owner, 'GET', site.id, 'ann', ''), { siteId: site.id, allowed: [200], what: '(ann, still there)' });
      await probe(cls, call(owner, 'DELETE', site.id, 'ann', ''), { siteId: site.id, allowed: [200], what: '(ann deleted by the owner)' });
      if ((await bystanderView()) !== before) violation(cls, "the bystander's person changed");
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });
  });
}
