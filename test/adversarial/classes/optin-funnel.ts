// Class 19: the opt-in funnel (issue 39; docs/site-plugin.md, "Opt-in funnel"), attacked as an
// anonymous browser and with the site's API key: hostile opt-in reports (event, promptId, whole
// bodies) → 200 only for a reported event under a valid prompt id, else 4xx with the counters
// unchanged; hostile prompt ids on subscribe and unsubscribe → 400 unless valid, nothing stored;
// hostile ranges and prompts on GET /v2/optin/funnel → 200 or 400, 200 only for a valid query;
// a report to the bystander's site never reaches the fuzzed site's counters, nor its answer.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { hostileString, hostileValue, pathSegment, RAW_BODIES, toJsonText } from '../support/hostile.js';
import type { RequestSpec } from '../support/http.js';
import { fuzz, probe, type ProbeOptions } from '../support/probe.js';
import { assertNoViolations, endOfClassChecks, getCtx, jsonRequest, show, trackViolations, validSubscription, violation } from '../support/suite.js';

export const CLASS_OPTIN_FUNNEL = '19 opt-in funnel';
const cls = CLASS_OPTIN_FUNNEL;

const REPORTED = ['shown', 'accepted', 'dismissed', 'denied'];
const PROMPT_ID = /^[A-Za-z0-9_-]{1,64}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The site's funnel counters as a digest: a refused call must leave it as it was. */
async function counters(siteId: string): Promise<string> {
  const { rows } = await getCtx().db.query(
    `SELECT coalesce(md5(string_agg(concat_ws(':', day, prompt_id, event, count), ',' ORDER BY day, prompt_id, event)), '') AS h FROM delivery.optin_funnel WHERE site_id = $1`,
    [siteId],
  );
  return rows[0].h as string;
}

/** A probe that also checks the funnel counters are unchanged on a 4xx (probe checks campaigns and subscribers). */
async function probeCounted(spec: RequestSpec, opts: ProbeOptions) {
  const before = await counters(opts.siteId);
  const r = await probe(cls, spec, opts);
  if (r.status !== undefined && r.status >= 400 && (await counters(opts.siteId)) !== before) violation(cls, `${spec.method} ${show(spec.path, 80)} ${opts.what}: answered ${r.status} but the funnel counters changed`);
  return r;
}

/** Whether a query value (as sent, one value) is a real YYYY-MM-DD date. */
const realDate = (s: string) => DATE.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);

export function registerOptInFunnel(): void {
  describe(CLASS_OPTIN_FUNNEL, function () {
    this.timeout(120_000);
    trackViolations(cls);

    it('hostile opt-in reports → 200 only for a reported event under a valid prompt id, else 4xx and nothing counted', async () => {
      const { fuzz: site } = getCtx().sites;
      const path = `/public/v1/sites/${site.publicId}/optin-events`;
      const body = fc.record(
        { event: fc.oneof(fc.constantFrom<unknown>(...REPORTED, 'subscribed', 'unsubscribed', 'SHOWN'), hostileValue), promptId: fc.oneof(fc.constantFrom<unknown>('slide-down', 'site', '(other)', 'x'.repeat(65)), hostileValue) },
        { requiredKeys: [] },
      );
      await fuzz(body, { numRuns: 200, timeMs: 10_000, seedOffset: 190 }, async (b) => {
        const r = await probeCounted({ ...jsonRequest('POST', path, undefined), body: toJsonText(b) }, { siteId: site.id, allowed: [200, 400, 413], what: show(b, 200) });
        const valid = REPORTED.includes(b.event as string) && typeof b.promptId === 'string' && PROMPT_ID.test(b.promptId);
        if ((r.status === 200) !== valid) violation(cls, `report ${show(b, 120)}: answered ${r.status}`);
      });
      for (const raw of RAW_BODIES) {
        await probeCounted({ ...jsonRequest('POST', path, undefined), body: raw.body }, { siteId: site.id, allowed: [400, 413], what: `(${raw.label})` });
      }
      assertNoViolations(cls);
    });

    it('hostile prompt ids on subscribe and unsubscribe → 400 unless valid, nothing stored or counted', async () => {
      const { fuzz: site } = getCtx().sites;
      const path = `/public/v1/sites/${site.publicId}/subscriptions`;
      await fuzz(hostileValue, { numRuns: 120, timeMs: 8_000, seedOffset: 191 }, async (promptId) => {
        const valid = typeof promptId === 'string' && PROMPT_ID.test(promptId);
        const sub = validSubscription(`funnel-${randomBytes(4).toString('hex')}`);
        const r = await probeCounted(
          { ...jsonRequest('POST', path, undefined), body: toJsonText({ subscription: sub, promptId }) },
          { siteId: site.id, allowed: [200, 201, 400, 413], what: `(subscribe, promptId ${show(promptId, 80)})` },
        );
        if ((r.status === 201) !== valid && promptId !== null) violation(cls, `subscribe with promptId ${show(promptId, 80)}: answered ${r.status}`);
        if (r.status === 201) {
          const gone = await probeCounted(
            { ...jsonRequest('DELETE', path, undefined), body: toJsonText({ endpoint: sub.endpoint, promptId: 'x y' }) },
            { siteId: site.id, allowed: [400], what: '(unsubscribe, a bad promptId)' },
          );
          if (gone.status !== 400) violation(cls, `unsubscribe with a bad promptId: answered ${gone.status}`);
        }
      });
      assertNoViolations(cls);
    });

    it('hostile ranges and prompts on GET /v2/optin/funnel → 200 or 400, 200 only for a valid query', async () => {
      const { fuzz: site } = getCtx().sites;
      const day = fc.oneof(fc.date({ min: new Date('1970-01-01'), max: new Date('2100-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)), hostileString);
      const query = fc.record({ from: fc.option(day, { nil: undefined }), to: fc.option(day, { nil: undefined }), prompt: fc.option(fc.oneof(fc.constantFrom('site', 'slide-down'), hostileString), { nil: undefined }), repeat: fc.boolean() });
      await fuzz(query, { numRuns: 200, timeMs: 10_000, seedOffset: 192 }, async (q) => {
        const parts = (['from', 'to', 'prompt'] as const).filter((k) => q[k] !== undefined).map((k) => `${k}=${pathSegment(q[k]!)}`);
        if (q.repeat && parts.length > 0) parts.push(parts[0]);
        const r = await probeCounted({ method: 'GET', path: `/v2/optin/funnel?${parts.join('&')}`, headers: [['Authorization', site.apiKey]] }, { siteId: site.id, allowed: [200, 400, 414, 431], what: show(q, 200) });
        if (r.status === 200 && (q.repeat && parts.length > 0)) violation(cls, `a repeated parameter was answered 200: ${show(q, 120)}`);
        if (r.status === 200) {
          // An empty value is an absent one (the default).
          for (const k of ['from', 'to'] as const) if (q[k] !== undefined && q[k] !== '' && !realDate(q[k]!)) violation(cls, `${k}=${show(q[k], 60)} answered 200`);
          if (q.prompt !== undefined && q.prompt !== '' && !PROMPT_ID.test(q.prompt)) violation(cls, `prompt=${show(q.prompt, 60)} answered 200`);
          const span = (Date.parse(r.body.to) - Date.parse(r.body.from)) / 86_400_000 + 1;
          if (!(span >= 1 && span <= 366)) violation(cls, `${show(q, 120)}: answered a range of ${span} days`);
        }
        if (r.status === 400 && typeof r.body?.message !== 'string') violation(cls, `${show(q, 120)}: a 400 without a message`);
      });
      assertNoViolations(cls);
    });

    it("a report to the bystander's site never reaches the fuzzed site's counters or answer", async () => {
      const { fuzz: site, other } = getCtx().sites;
      const prompt = `bystander-${randomBytes(4).toString('hex')}`;
      const before = await counters(site.id);
      const r = await probe(cls, jsonRequest('POST', `/public/v1/sites/${other.publicId}/optin-events`, { event: 'shown', promptId: prompt }), { siteId: other.id, allowed: [200], what: '(the bystander\'s report)' });
      if (r.status !== 200) violation(cls, `the bystander's report: ${r.status}`);
      if ((await counters(site.id)) !== before) violation(cls, "the bystander's report changed the fuzzed site's counters");
      const mine = await probe(cls, { method: 'GET', path: `/v2/optin/funnel?prompt=${prompt}`, headers: [['Authorization', site.apiKey]] }, { siteId: site.id, allowed: [200], what: "(the bystander's prompt, with the fuzzed site's key)" });
      if (mine.body?.days?.length !== 0 || mine.body?.totals?.shown !== 0) violation(cls, `the fuzzed site's key sees the bystander's prompt: ${show(mine.body, 160)}`);
      const theirs = await probe(cls, { method: 'GET', path: `/v2/optin/funnel?prompt=${prompt}`, headers: [['Authorization', other.apiKey]] }, { siteId: other.id, allowed: [200], what: "(the bystander's own funnel)" });
      if (theirs.body?.totals?.shown !== 1) violation(cls, `the bystander's own funnel: ${show(theirs.body, 160)}`);
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });
  });
}
