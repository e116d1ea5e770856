// Class 33: the console's automation routes (/console/api/sites/{siteId}/automations…,
// docs/console.md, "Automations"), attacked by logged-in members of a site of the class's own:
// every field of a create and of a pause/rename hostile (→ 200 or 4xx, bad text refused, nothing
// stored on a 4xx); the bystander's automation under the own site (404 `Automation not found`)
// and under the bystander's site (404 `Site not found`), its template in a step (400); odd ids
// (4xx); a viewer's changes (403, reads 200); no CSRF token, another origin's request as a
// cross-site form would send it, no session (403, 403 or 415, 401); the bystander's automations
// unchanged throughout. Steps wait a day: nothing is pushed within the class.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { SiteInfo } from '../../e2e/support/fixtures.js';
import { consoleLogIn, type ConsoleSession } from '../support/console-session.js';
import type { HeaderList, RequestSpec } from '../support/http.js';
import { hasBadText, hostileString, hostileValue, ODD_SEGMENTS, pathSegment, toJsonText } from '../support/hostile.js';
import { fuzz, probe } from '../support/probe.js';
import { assertNoViolations, endOfClassChecks, getCtx, jsonRequest, show, trackViolations, violation } from '../support/suite.js';
import { automationsOf } from './automations.js';

export const CLASS_CONSOLE_AUTOMATIONS = '33 console automations';
const cls = CLASS_CONSOLE_AUTOMATIONS;

const FIELDS = ['name', 'status', 'trigger', 'steps', 'exitOn'] as const;
const DAY = 86_400;

function call(session: ConsoleSession | null, method: string, siteId: string, rest: string, body?: string, extra: HeaderList = []): RequestSpec {
  const headers: HeaderList = [...(session?.headers ?? [])];
  if (body !== undefined && !extra.some(([h]) => h.toLowerCase() === 'content-type')) headers.push(['Content-Type', 'application/json']);
  return { method, path: `/console/api/sites/${siteId}/automations${rest}`, headers: [...headers, ...extra], body };
}

/** The routes of one automation as [method, the path after `automations`, a body it takes]. */
const ROUTES = (automationId: string): [string, string, string | undefined][] => [
  ['GET', `/${automationId}`, undefined],
  ['PATCH', `/${automationId}`, JSON.stringify({ status: 'paused', name: 'Taken over' })],
  ['DELETE', `/${automationId}`, undefined],
];

export function registerConsoleAutomations(): void {
  describe(CLASS_CONSOLE_AUTOMATIONS, function () {
    this.timeout(120_000);
    trackViolations(cls);
    let site: SiteInfo;
    let owner: ConsoleSession;
    let templateId = '';
    let theirs: { automationId: string; templateId: string };
    let seq = 0;
    const valid = () => ({ name: `console ${++seq}`, trigger: { type: 'event', name: 'cart_abandoned' }, steps: [{ delaySeconds: DAY, templateId }], exitOn: { events: ['checkout_completed'] } });

    /** A probe that must leave the site's automations as they were unless it succeeded. */
    async function automationProbe(spec: RequestSpec, siteId: string, what: string, allowed: number[], mustReject = false) {
      const before = await automationsOf(siteId);
      const r = await probe(cls, spec, { siteId, allowed, mustReject, what });
      if ((r.status === undefined || r.status >= 400) && (await automationsOf(siteId)) !== before) violation(cls, `${spec.method} ${show(spec.path)} ${what}: answered ${r.status} but the automations changed`);
      return r;
    }

    before(async () => {
      const c = getCtx();
      const plan = `adv_console_auto_${randomBytes(3).toString('hex')}`;
      await c.stack.cli('plans', 'create', plan, '--permissions', 'create,reports,delete,audience');
      site = await c.stack.cli('sites', 'create', 'adversarial-console-automations', '--plan', plan);
      owner = await consoleLogIn(site.id);
      const template = await probe(
        cls,
        { ...jsonRequest('POST', `/console/api/sites/${site.id}/templates`, { name: 'console step', title: 'Your {{ item | "cart" }} waits', body: 'Finish your order', link: 'https://shop.example/cart' }), headers: [...owner.headers, ['Content-Type', 'application/json']] },
        { siteId: site.id, allowed: [200], what: '(the step template)' },
      );
      templateId = template.body?.id as string;
      const other = c.sites.other;
      const theirTemplate = await probe(cls, jsonRequest('POST', '/v2/templates', { name: `console bystander ${randomBytes(3).toString('hex')}`, title: 'Their title', body: 'Their body', link: 'https://other.example/' }, other.apiKey), {
        siteId: other.id,
        allowed: [200],
        what: "(the bystander's template)",
      });
      const theirAutomation = await probe(
        cls,
        jsonRequest('POST', '/v2/automations', { name: 'console bystander', trigger: { type: 'subscribed' }, steps: [{ delaySeconds: DAY, templateId: theirTemplate.body?.id }] }, other.apiKey),
        { siteId: other.id, allowed: [200], what: "(the bystander's automation)" },
      );
      theirs = { automationId: theirAutomation.body?.id as string, templateId: theirTemplate.body?.id as string };
      if (!templateId || !theirs.automationId || !theirs.templateId) throw new Error('the class has no template or bystander automation to work with');
    });

    it('every field of a create and of a change hostile → 200 or 4xx, bad text refused, nothing stored on a 4xx', async () => {
      const step = fc.oneof(
        fc.record({ delaySeconds: fc.oneof(fc.integer({ min: -5, max: 31_536_005 }), hostileValue), templateId: fc.oneof(fc.constant(templateId), fc.uuid(), hostileValue) }),
        fc.record({ delaySeconds: fc.constant(DAY), templateId: fc.constant(templateId), variables: fc.oneof(fc.dictionary(fc.oneof(fc.constantFrom('item', '__proto__', 'A'), hostileString), hostileValue, { maxKeys: 4 }), hostileValue) }),
        hostileValue,
      );
      const fieldValue = fc.oneof(
        { arbitrary: hostileValue, weight: 2 },
        { arbitrary: fc.record({ type: fc.oneof(fc.constantFrom('event', 'subscribed', 'tag'), hostileValue), name: fc.oneof(fc.constantFrom('cart_abandoned', 'a b', ''), hostileString) }, { requiredKeys: ['type'] }), weight: 2 },
        { arbitrary: fc.array(step, { minLength: 0, maxLength: 12 }), weight: 3 },
        { arbitrary: fc.record({ events: fc.oneof(fc.array(fc.oneof(fc.constantFrom('checkout_completed', 'x'), hostileString), { maxLength: 22 }), hostileValue) }), weight: 2 },
      );
      const mutation = fc.tuple(fc.constantFrom<string>(...FIELDS, 'unknownField', '__proto__'), fc.option(fieldValue, { nil: undefined, freq: 8 }));
      const made: string[] = [];
      await fuzz(fc.array(mutation, { minLength: 1, maxLength: 3 }), { numRuns: 150, timeMs: 10_000, seedOffset: 3301 }, async (mutations) => {
        const body: Record<string, unknown> = valid();
        for (const [field, v] of mutations) {
          if (v === undefined) delete body[field];
          else body[field] = v;
        }
        const r = await automationProbe(call(owner, 'POST', site.id, '', toJsonText(body)), site.id, show(body, 200), [200, 400, 413, 429], hasBadText(body.name) || hasBadText(body.steps));
        if (r.status === 200 && typeof r.body?.id === 'string') made.push(r.body.id);
      });
      const target = made[0] ?? (await probe(cls, call(owner, 'POST', site.id, '', JSON.stringify(valid())), { siteId: site.id, allowed: [200], what: '(an automation to change)' })).body?.id;
      const change = fc.dictionary(fc.oneof(fc.constantFrom('name', 'status', 'steps', 'trigger'), hostileString), fc.oneof(fc.constantFrom('active', 'paused', 'PAUSED', ''), hostileValue), { maxKeys: 3 });
      await fuzz(change, { numRuns: 100, timeMs: 6_000, seedOffset: 3302 }, async (body) => {
        await automationProbe(call(owner, 'PATCH', site.id, `/${target}`, toJsonText(body)), site.id, show(body, 200), [200, 400, 413, 429], hasBadText(body.name));
      });
      assertNoViolations(cls);
    });

    it("the bystander's automation → 404 under the own site and under theirs, its template refused in a step; odd ids → 4xx; a viewer reads but never changes (403); no CSRF token, a cross-site request, no session → 403, 403/415, 401; the bystander unchanged", async () => {
      const { sites } = getCtx();
      const bystander = sites.other.id;
      const before = await automationsOf(bystander);
      const expect404 = async (spec: RequestSpec, message: string, what: string) => {
        const r = await automationProbe(spec, bystander, what, [404]);
        if (r.body?.message !== message) violation(cls, `${what}: ${r.status} ${show(r.body)}`);
      };
      for (const [method, rest, body] of ROUTES(theirs.automationId)) {
        await expect404(call(owner, method, site.id, rest, body), 'Automation not found', `(${method} the bystander's automation under the own site)`);
        await expect404(call(owner, method, site.id, rest.toUpperCase(), body), 'Automation not found', `(${method} the bystander's automation, upper case)`);
        await expect404(call(owner, method, bystander, rest, body), 'Site not found', `(${method} the bystander's site)`);
      }
      await expect404(call(owner, 'GET', bystander, ''), 'Site not found', "(the bystander's list)");
      await expect404(call(owner, 'POST', bystander, '', JSON.stringify(valid())), 'Site not found', "(a create on the bystander's site)");
      const stolen = await automationProbe(call(owner, 'POST', site.id, '', JSON.stringify({ ...valid(), steps: [{ delaySeconds: DAY, templateId: theirs.templateId }] })), site.id, "(the bystander's template in a step)", [400]);
      if (stolen.body?.message !== 'steps[0].templateId is not a template of this site') violation(cls, `the bystander's template in a step: ${show(stolen.body)}`);

      for (const segment of ODD_SEGMENTS) {
        for (const [method, , body] of ROUTES('x')) {
          await automationProbe(call(owner, method, site.id, `/${pathSegment(segment)}`, body), site.id, `(automation id ${show(segment, 40)})`, [400, 404, 405]);
        }
      }

      const mine = (await probe(cls, call(owner, 'POST', site.id, '', JSON.stringify(valid())), { siteId: site.id, allowed: [200], what: '(an automation of the own site)' })).body?.id as string;
      const viewer = await consoleLogIn(site.id, 'viewer');
      await automationProbe(call(viewer, 'GET', site.id, ''), site.id, '(the list, by a viewer)', [200]);
      await automationProbe(call(viewer, 'POST', site.id, '', JSON.stringify(valid())), site.id, '(a create by a viewer)', [403]);
      for (const [method, rest, body] of ROUTES(mine)) {
        const r = await automationProbe(call(viewer, method, site.id, rest, body), site.id, `(${method} by a viewer)`, method === 'GET' ? [200] : [403]);
        if (r.status === 403 && r.body?.message !== 'Viewers cannot change anything') violation(cls, `a viewer's ${method}: ${show(r.body)}`);
      }
      // As a forged request would come: the cookie (were SameSite ignored) but no token, or another
      // origin's form (text/plain, its headers); and text/plain even with the token (415).
      const cookieOnly = { ...owner, headers: owner.headers.slice(0, 1) };
      const crossSite: HeaderList = [['Origin', 'https://attacker.example'], ['Referer', 'https://attacker.example/page'], ['Sec-Fetch-Site', 'cross-site'], ['Content-Type', 'text/plain']];
      const withBodies: [string, string, string][] = [['PATCH', `/${mine}`, JSON.stringify({ status: 'paused' })], ['POST', '', JSON.stringify(valid())]];
      for (const [method, rest, body] of [...withBodies, ['DELETE', `/${mine}`, undefined] as const]) {
        await automationProbe(call(cookieOnly, method, site.id, rest, body), site.id, `(${method} ${rest} without a CSRF token)`, [403]);
        await automationProbe(call(cookieOnly, method, site.id, rest, body, crossSite), site.id, `(${method} ${rest} as another site's form)`, [403]);
      }
      for (const [method, rest, body] of withBodies) await automationProbe(call(owner, method, site.id, rest, body, [['Content-Type', 'text/plain']]), site.id, `(${method} ${rest} as text/plain with the token)`, [415]);
      for (const [method, rest, body] of [...ROUTES(mine), ['GET', '', undefined] as [string, string, undefined]]) {
        await automationProbe(call(null, method, site.id, rest, body), site.id, `(${method} ${rest} without a session)`, [401]);
      }
      if ((await automationsOf(bystander)) !== before) violation(cls, "the bystander's automations changed");
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });
  });
}
