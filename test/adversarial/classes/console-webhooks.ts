// Class 16: the console's webhook routes (/console/api/sites/{siteId}/webhooks…, docs/console.md,
// "Webhooks"), attacked by a logged-in owner of a site of the class's own: every field of a create
// and a change hostile, and the rotation's overlap (→ 200 or 4xx, bad text refused, nothing stored
// on a 4xx); every route with the bystander's endpoint and event under the owner's own site (404
// `Webhook not found`) and under the bystander's site (404 `Site not found`), odd ids, no CSRF
// token, no session, and an editor (403): the bystander's endpoints unchanged throughout.
import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { SiteInfo } from '../../e2e/support/fixtures.js';
import { consoleLogIn, type ConsoleSession } from '../support/console-session.js';
import type { HeaderList, RequestSpec } from '../support/http.js';
import { hasBadText, hostileValue, ODD_SEGMENTS, pathSegment, toJsonText } from '../support/hostile.js';
import { fuzz, probe } from '../support/probe.js';
import { assertNoViolations, endOfClassChecks, getCtx, jsonRequest, show, trackViolations, violation } from '../support/suite.js';

export const CLASS_CONSOLE_WEBHOOKS = '16 console webhooks';
const cls = CLASS_CONSOLE_WEBHOOKS;

const WEBHOOK_FIELDS = ['url', 'events', 'description', 'enabled'] as const;
const VALID = { url: 'https://hooks.example.com/console', events: ['campaign.completed'], description: 'console fuzz' };

function call(session: ConsoleSession | null, method: string, siteId: string, rest: string, body?: string): RequestSpec {
  const headers: HeaderList = [...(session?.headers ?? [])];
  if (body !== undefined) headers.push(['Content-Type', 'application/json']);
  return { method, path: `/console/api/sites/${siteId}/webhooks${rest}`, headers, body };
}

/** Every webhook route as [method, the path after `webhooks`, a body it takes], for an endpoint and an event. */
function routes(webhookId: string, eventId: string): [string, string, string | undefined][] {
  return [
    ['GET', `/${webhookId}`, undefined],
    ['PATCH', `/${webhookId}`, JSON.stringify({ description: 'Taken over', url: 'https://attacker.example/hook' })],
    ['DELETE', `/${webhookId}`, undefined],
    ['POST', `/${webhookId}/rotate-secret`, JSON.stringify({ overlapHours: 0 })],
    ['GET', `/${webhookId}/deliveries`, undefined],
    ['POST', `/${webhookId}/deliveries/${eventId}/redeliver`, undefined],
    ['POST', `/${webhookId}/ping`, undefined],
  ];
}

function mutate(base: Record<string, unknown>, mutations: [string, unknown][]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [field, value] of mutations) {
    if (value === undefined) delete out[field];
    else out[field] = value;
  }
  return out;
}

export function registerConsoleWebhooks(): void {
  describe(CLASS_CONSOLE_WEBHOOKS, function () {
    this.timeout(120_000);
    trackViolations(cls);
    let owner: ConsoleSession;
    let site: SiteInfo;
    /** The bystander's endpoint and an event of it. */
    let theirs: { webhookId: string; eventId: string };

    before(async () => {
      const c = getCtx();
      const plan = `adv_hooks_${randomBytes(3).toString('hex')}`;
      await c.stack.cli('plans', 'create', plan, '--permissions', 'create,reports,delete,audience');
      site = await c.stack.cli('sites', 'create', 'adversarial-console-webhooks', '--plan', plan);
      owner = await consoleLogIn(site.id);
      const other = c.sites.other;
      const made = await probe(cls, jsonRequest('POST', '/v2/webhooks', { url: 'https://hooks.example.com/bystander', events: ['campaign.failed'] }, other.apiKey), {
        siteId: other.id,
        allowed: [200],
        what: "(the bystander's endpoint)",
      });
      const ping = await probe(cls, { method: 'POST', path: `/v2/webhooks/${made.body?.id}/ping`, headers: [['Authorization', other.apiKey]] }, { siteId: other.id, allowed: [200], what: "(the bystander's event)" });
      theirs = { webhookId: made.body?.id as string, eventId: ping.body?.eventId as string };
      if (!theirs.webhookId || !theirs.eventId) throw new Error("no endpoint or event of the bystander's to attack");
    });

    it('every field of a create and a change hostile, and the overlap of a rotation → 200 or 4xx, bad text refused, nothing stored on a 4xx', async () => {
      const made = await probe(cls, call(owner, 'POST', site.id, '', JSON.stringify(VALID)), { siteId: site.id, allowed: [200], what: '(an endpoint to change)' });
      const changeId = made.body?.id as string;
      const mutation = fc.tuple(fc.constantFrom<string>(...WEBHOOK_FIELDS, 'unknownField', '__proto__'), fc.option(hostileValue, { nil: undefined, freq: 8 }));
      await fuzz(fc.tuple(fc.array(mutation, { minLength: 1, maxLength: 3 }), fc.boolean()), { numRuns: 200, timeMs: 10_000, seedOffset: 140 }, async ([mutations, change]) => {
        const body = mutate(VALID, mutations);
        const r = await probe(cls, call(owner, change ? 'PATCH' : 'POST', site.id, change ? `/${changeId}` : '', toJsonText(body)), {
          siteId: site.id,
          allowed: [200, 400, 413, 429],
          mustReject: ['url', 'description'].some((f) => Object.hasOwn(body, f) && hasBadText(body[f])),
          what: show(body, 200),
        });
        // Within the site's 10 endpoints (a refusal at the limit would hide the rest).
        if (!change && r.status === 200 && typeof r.body?.id === 'string') {
          await probe(cls, call(owner, 'DELETE', site.id, `/${r.body.id}`), { siteId: site.id, allowed: [200], what: '(clean-up)' });
        }
      });
      await fuzz(fc.option(hostileValue, { nil: undefined }), { numRuns: 60, timeMs: 5_000, seedOffset: 141 }, async (overlapHours) => {
        const body = overlapHours === undefined ? '' : toJsonText({ overlapHours });
        // Rotating changes only the secret, which the snapshot does not hold: a 4xx leaves it as it was.
        await probe(cls, call(owner, 'POST', site.id, `/${changeId}/rotate-secret`, body === '' ? undefined : body), { siteId: site.id, allowed: [200, 400, 413], what: `(overlapHours ${show(overlapHours, 80)})` });
      });
      assertNoViolations(cls);
    });

    it("the bystander's endpoint and event on every route: under the owner's site → 404 Webhook not found, under theirs → 404 Site not found; odd ids → 4xx; no CSRF token → 403, no session → 401, an editor → 403; the bystander unchanged", async () => {
      const { sites } = getCtx();
      const bystander = sites.other.id;
      const expect404 = async (spec: RequestSpec, message: string, what: string) => {
        const r = await probe(cls, spec, { siteId: bystander, allowed: [404], what });
        if (r.body?.message !== message) violation(cls, `${what}: ${r.status} ${show(r.body)}`);
      };
      for (const [method, rest, body] of routes(theirs.webhookId, theirs.eventId)) {
        await expect404(call(owner, method, site.id, rest, body), 'Webhook not found', `(${method} the bystander's endpoint under the own site)`);
        await expect404(call(owner, method, site.id, rest.replace(theirs.webhookId, theirs.webhookId.toUpperCase()), body), 'Webhook not found', `(${method} the bystander's endpoint, upper case)`);
        await expect404(call(owner, method, bystander, rest, body), 'Site not found', `(${method} the bystander's site)`);
      }
      await expect404(call(owner, 'GET', bystander, ''), 'Site not found', "(the bystander's list)");
      await expect404(call(owner, 'POST', bystander, '', JSON.stringify(VALID)), 'Site not found', "(a create on the bystander's site)");

      // An endpoint of the owner's own: odd ids of it and of its events are refused, never a 5xx.
      const mine = await probe(cls, call(owner, 'POST', site.id, '', JSON.stringify(VALID)), { siteId: site.id, allowed: [200], what: '(an endpoint of the own site)' });
      const mineId = mine.body?.id as string;
      // A reading, a change and an action stand for the routes: each looks the id up the one way.
      for (const segment of ODD_SEGMENTS) {
        const id = pathSegment(segment);
        for (const [method, rest, body] of [['GET', `/${id}`, undefined], ['PATCH', `/${id}`, JSON.stringify({ description: 'odd' })], ['POST', `/${id}/ping`, undefined]] as const) {
          await probe(cls, call(owner, method, site.id, rest, body), { siteId: site.id, allowed: [400, 404, 405], what: `(webhook id ${show(segment, 40)})` });
        }
        await probe(cls, call(owner, 'POST', site.id, `/${mineId}/deliveries/${pathSegment(segment)}/redeliver`), { siteId: site.id, allowed: [400, 404, 405], what: `(event id ${show(segment, 40)})` });
      }

      // Refused before anything: no CSRF token, no session, a member who is not an owner.
      const editor = await consoleLogIn(site.id, 'editor');
      for (const [method, rest, body] of routes(mineId, randomUUID())) {
        if (method !== 'GET') await probe(cls, call({ ...owner, headers: owner.headers.slice(0, 1) }, method, site.id, rest, body), { siteId: site.id, allowed: [403], what: `(${method} ${rest} without a CSRF token)` });
        await probe(cls, call(null, method, site.id, rest, body), { siteId: site.id, allowed: [401], what: `(${method} ${rest} without a session)` });
        await probe(cls, call(editor, method, site.id, rest, body), { siteId: site.id, allowed: [403], what: `(${method} ${rest} by an editor)` });
      }
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });
  });
}
