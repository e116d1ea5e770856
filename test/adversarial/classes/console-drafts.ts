// Class 13: the console's edit of a draft (PATCH /console/api/sites/{siteId}/campaigns/{id},
// docs/console.md, "Drafts"), attacked by a logged-in owner of a site of the class's own (class 12
// changes the fuzzed site's plan with hostile fields): every create field
// hostile, as class 1 sends them to /v2 create (→ 200 or 4xx, bad text refused, nothing changed on
// a 4xx); the bystander's drafts named under the owner's own site (404 `Campaign not found`) and
// under the bystander's site (404 `Site not found`), the bystander's data unchanged; odd ids.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { SiteInfo } from '../../e2e/support/fixtures.js';
import { consoleLogIn, type ConsoleSession } from '../support/console-session.js';
import type { RequestSpec } from '../support/http.js';
import { hasBadText, hostileValue, ODD_SEGMENTS, pathSegment, toJsonText } from '../support/hostile.js';
import { fuzz, probe } from '../support/probe.js';
import { assertNoViolations, endOfClassChecks, getCtx, jsonRequest, show, trackViolations, violation } from '../support/suite.js';

export const CLASS_CONSOLE_DRAFTS = '13 console draft edits';
const cls = CLASS_CONSOLE_DRAFTS;

const CREATE_FIELDS = [
  'title', 'body', 'link', 'topics', 'countries', 'status', 'scheduleMode', 'scheduleDate', 'icon', 'image', 'callToAction', 'utmSource', 'utmMedium', 'utmCampaign', 'ttl',
  'segment', 'throttlePerMinute', 'ignoreFrequencyCap', 'localTime', 'abTest', 'ignoreQuietHours',
] as const;

function draft(title: string): Record<string, unknown> {
  return { title, body: 'A draft the console edits', link: 'https://shop.example/draft', topics: ['news'], status: 'draft', scheduleMode: 'now' };
}

function patch(session: ConsoleSession, siteId: string, campaignId: string, body: string): RequestSpec {
  return { method: 'PATCH', path: `/console/api/sites/${siteId}/campaigns/${campaignId}`, headers: [['Content-Type', 'application/json'], ...session.headers], body };
}

function mutate(base: Record<string, unknown>, mutations: [string, unknown][]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [field, value] of mutations) {
    if (value === undefined) delete out[field];
    else out[field] = value;
  }
  return out;
}

export function registerConsoleDrafts(): void {
  describe(CLASS_CONSOLE_DRAFTS, function () {
    this.timeout(120_000);
    trackViolations(cls);
    let session: ConsoleSession;
    let site: SiteInfo;

    before(async () => {
      const c = getCtx();
      const plan = `adv_drafts_${randomBytes(3).toString('hex')}`;
      await c.stack.cli('plans', 'create', plan, '--permissions', 'create,reports,delete,audience');
      site = await c.stack.cli('sites', 'create', 'adversarial-drafts', '--plan', plan);
      session = await consoleLogIn(site.id);
    });

    it('every create field hostile in a draft\'s edit → 200 or 4xx, bad text refused, the draft unchanged on a 4xx', async () => {
      // A draft to edit: kept a draft by the valid base (status draft), made again once one is published.
      const make = async () => {
        const r = await probe(cls, jsonRequest('POST', '/v2/campaign/create', draft('Edited by the fuzzer'), site.apiKey), { siteId: site.id, allowed: [200], what: '(a draft to edit)' });
        if (typeof r.body?.id !== 'string') throw new Error('no draft to edit');
        return r.body.id as string;
      };
      let id = await make();
      const mutation = fc.tuple(fc.constantFrom<string>(...CREATE_FIELDS, 'unknownField', '__proto__'), fc.option(hostileValue, { nil: undefined, freq: 8 }));
      await fuzz(fc.array(mutation, { minLength: 1, maxLength: 3 }), { numRuns: 300, timeMs: 12_000, seedOffset: 130 }, async (mutations) => {
        const body = mutate(draft('Edited by the fuzzer'), mutations);
        const read = CREATE_FIELDS.filter((f) => f !== 'scheduleDate' || body.scheduleMode === 'scheduled');
        const r = await probe(cls, patch(session, site.id, id, toJsonText(body)), {
          siteId: site.id,
          allowed: [200, 400, 413, 429],
          mustReject: read.some((f) => Object.hasOwn(body, f) && hasBadText(body[f])),
          what: show(body, 200),
        });
        // A publish ends the draft: the next run edits a new one.
        if (r.status === 200 && body.status !== 'draft') id = await make();
      });
      assertNoViolations(cls);
    });

    it("the bystander's drafts under the owner's site → 404 Campaign not found, under the bystander's site → 404 Site not found; odd ids → 4xx; the bystander unchanged", async () => {
      const { sites } = getCtx();
      const theirs = sites.otherCampaignId;
      const body = JSON.stringify({ ...draft('Taken over'), status: 'published' });
      for (const spec of [patch(session, site.id, theirs, body), patch(session, site.id, theirs.toUpperCase(), body)]) {
        const r = await probe(cls, spec, { siteId: sites.other.id, allowed: [404], what: '(the bystander\'s draft under the own site)' });
        if (r.body?.message !== 'Campaign not found') violation(cls, `${spec.path}: ${r.status} ${show(r.body)}`);
      }
      const foreign = await probe(cls, patch(session, sites.other.id, theirs, body), { siteId: sites.other.id, allowed: [404], what: "(the bystander's site)" });
      if (foreign.body?.message !== 'Site not found') violation(cls, `the bystander's site: ${foreign.status} ${show(foreign.body)}`);
      for (const segment of ODD_SEGMENTS) {
        await probe(cls, patch(session, site.id, pathSegment(segment), body), { siteId: site.id, allowed: [400, 404, 405], what: `(campaign id ${show(segment, 40)})` });
      }
      // Without the session's CSRF token, or with none at all: refused before anything.
      const bare: RequestSpec = { method: 'PATCH', path: `/console/api/sites/${site.id}/campaigns/${theirs}`, headers: [['Content-Type', 'application/json'], session.headers[0]], body };
      await probe(cls, bare, { siteId: sites.other.id, allowed: [403], what: '(no CSRF token)' });
      await probe(cls, { ...bare, headers: [['Content-Type', 'application/json']] }, { siteId: sites.other.id, allowed: [401], what: '(no session)' });
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });
  });
}
