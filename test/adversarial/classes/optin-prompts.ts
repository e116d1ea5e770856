// Class 18: the site plugin's opt-in prompts (docs/site-plugin.md, "Opt-in prompts"; docs/console.md,
// "Opt-in prompts"), attacked by a logged-in editor of a site of the class's own: every field
// hostile, nested ones too (→ 200 or 4xx; on a 4xx nothing written; on a 200 only what the rules
// allow is kept, and the plugin's public configuration serves it; bad text refused); the
// bystander's prompts named by their site (404 `Site not found`, theirs unchanged, their public
// configuration showing none of ours); odd site ids; a viewer, no CSRF token, no session.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { SiteInfo } from '../../e2e/support/fixtures.js';
import { consoleLogIn, type ConsoleSession } from '../support/console-session.js';
import type { HeaderList, RequestSpec } from '../support/http.js';
import { hasBadText, hostileString, hostileValue, ODD_SEGMENTS, pathSegment, toJsonText } from '../support/hostile.js';
import { fuzz, probe } from '../support/probe.js';
import { assertNoViolations, endOfClassChecks, getCtx, show, trackViolations, violation } from '../support/suite.js';

export const CLASS_OPTIN_PROMPTS = '18 opt-in prompts';
const cls = CLASS_OPTIN_PROMPTS;

const FIELDS = ['kind', 'title', 'body', 'acceptLabel', 'notNowLabel', 'trigger', 'snoozeDays', 'bell', 'topics'] as const;

function patch(session: ConsoleSession, siteId: string, body: string): RequestSpec {
  return { method: 'PATCH', path: `/console/api/sites/${siteId}/prompts`, headers: [['Content-Type', 'application/json'], ...session.headers], body };
}

/** The prompts as the delivery service keeps them (null: never set). */
async function stored(siteId: string): Promise<Record<string, any> | null> {
  const { rows } = await getCtx().db.query('SELECT optin_prompts FROM delivery.sites WHERE site_id = $1', [siteId]);
  return rows[0].optin_prompts;
}

/** What the rules allow to be kept (services/delivery/src/plugin/optin-prompts.ts): anything else stored is a violation. */
function allowed(p: Record<string, any> | null): boolean {
  if (p === null) return true;
  const text = (v: unknown, max: number) => typeof v === 'string' && v.length <= max && v === v.trim() && !/[\u0000-\u0009\u000b-\u001f\u007f]/.test(v) && v.isWellFormed();
  const whole = (v: unknown, min: number, max: number) => Number.isInteger(v) && (v as number) >= min && (v as number) <= max;
  const shown = p.kind === 'slidedown' || p.kind === 'modal';
  return (
    Object.keys(p).length === FIELDS.length &&
    (shown || p.kind === 'none') &&
    text(p.title, 80) && text(p.body, 300) && text(p.acceptLabel, 40) && text(p.notNowLabel, 40) &&
    (!shown || (p.title !== '' && p.acceptLabel !== '' && p.notNowLabel !== '')) &&
    whole(p.trigger?.pageViews, 1, 100) && whole(p.trigger?.delaySeconds, 0, 300) && whole(p.snoozeDays, 1, 365) &&
    typeof p.bell?.enabled === 'boolean' && ['bottom-right', 'bottom-left'].includes(p.bell?.position) &&
    Array.isArray(p.topics) && p.topics.length <= 10 &&
    p.topics.every((t: any) => typeof t.name === 'string' && t.name === t.name.toLowerCase().trim() && [...t.name].length >= 1 && [...t.name].length <= 64 && !t.name.startsWith('country__') && text(t.label, 40) && t.label !== '') &&
    new Set(p.topics.map((t: any) => t.name)).size === p.topics.length
  );
}

const fieldValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileValue,
  fc.constantFrom('none', 'slidedown', 'modal', 'MODAL', 'bottom-left', '<script>alert(1)</script>', 'line\nbreak', ' padded '),
  fc.integer({ min: -2, max: 400 }),
  fc.record({ pageViews: fc.oneof(hostileValue, fc.integer({ min: -1, max: 101 })), delaySeconds: fc.oneof(hostileValue, fc.integer({ min: -1, max: 301 })) }, { requiredKeys: [] }),
  fc.record({ enabled: fc.oneof(hostileValue, fc.boolean()), position: fc.oneof(hostileString, fc.constantFrom('bottom-right', 'bottom-left', 'top')) }, { requiredKeys: [] }),
  fc.array(fc.record({ name: fc.oneof(hostileString, fc.constantFrom('news', 'News ', 'country__br', '')), label: fc.oneof(hostileString, fc.constant('News')) }, { requiredKeys: [] }), { maxLength: 12 }),
);

export function registerOptInPrompts(): void {
  describe(CLASS_OPTIN_PROMPTS, function () {
    this.timeout(120_000);
    trackViolations(cls);
    let session: ConsoleSession;
    let site: SiteInfo;

    before(async () => {
      const c = getCtx();
      const plan = `adv_prompts_${randomBytes(3).toString('hex')}`;
      await c.stack.cli('plans', 'create', plan, '--permissions', 'create,reports,delete,audience');
      site = await c.stack.cli('sites', 'create', 'adversarial-prompts', '--plan', plan);
      session = await consoleLogIn(site.id, 'editor');
    });

    it('every field hostile → 200 or 4xx; a 4xx writes nothing, a 200 keeps only what the rules allow and the public config serves it; bad text refused', async () => {
      const mutation = fc.tuple(fc.constantFrom<string>(...FIELDS, 'funnel', '__proto__', 'constructor'), fc.option(fieldValue, { nil: undefined, freq: 8 }));
      await fuzz(fc.array(mutation, { minLength: 1, maxLength: 4 }), { numRuns: 300, timeMs: 12_000, seedOffset: 180 }, async (mutations) => {
        const body: Record<string, unknown> = {};
        for (const [field, value] of mutations) if (value !== undefined) body[field] = value;
        const before = await stored(site.id);
        const r = await probe(cls, patch(session, site.id, toJsonText(body)), { siteId: site.id, allowed: [200, 400, 413], mustReject: hasBadText(body), what: show(body, 200) });
        const after = await stored(site.id);
        if (r.status !== undefined && r.status >= 400 && JSON.stringify(before) !== JSON.stringify(after)) violation(cls, `${show(body, 200)}: answered ${r.status} but the prompts changed`);
        if (!allowed(after)) violation(cls, `${show(body, 200)}: kept prompts the rules refuse: ${show(after, 300)}`);
        if (r.status === 200) {
          const served = await probe(cls, { method: 'GET', path: `/public/v1/sites/${site.publicId}/config` }, { siteId: site.id, allowed: [200], what: '(the public config after a change)' });
          const shown = after !== null && (after.kind !== 'none' || after.bell.enabled);
          if (shown !== (served.body?.prompts !== undefined)) violation(cls, `${show(body, 200)}: the public config ${shown ? 'lacks' : 'carries'} the prompts: ${show(served.body, 200)}`);
        }
      });
      assertNoViolations(cls);
    });

    it("the bystander's prompts → 404 Site not found, theirs unchanged and their public config without ours; odd site ids → 4xx; a viewer → 403, no CSRF token → 403, no session → 401", async () => {
      const { sites } = getCtx();
      const theirs = sites.other.id;
      const before = await stored(theirs);
      const body = JSON.stringify({ kind: 'modal', title: 'Not yours', bell: { enabled: true } });
      const reads: RequestSpec[] = [patch(session, theirs, body), patch(session, theirs.toUpperCase(), body), { method: 'GET', path: `/console/api/sites/${theirs}/prompts`, headers: session.headers.slice(0, 1) }];
      for (const spec of reads) {
        const r = await probe(cls, spec, { siteId: theirs, allowed: [404], what: "(the bystander's site)" });
        if (r.body?.message !== 'Site not found') violation(cls, `${spec.method} ${spec.path}: ${r.status} ${show(r.body)}`);
      }
      for (const segment of ODD_SEGMENTS) {
        await probe(cls, patch(session, pathSegment(segment), body), { siteId: site.id, allowed: [400, 404, 405], what: `(site id ${show(segment, 40)})` });
      }
      const mine = await stored(site.id);
      const viewer = await consoleLogIn(site.id, 'viewer');
      await probe(cls, patch(viewer, site.id, body), { siteId: site.id, allowed: [403], what: '(a viewer)' });
      const bare = { ...patch(session, site.id, body), headers: [['Content-Type', 'application/json'], session.headers[0]] as HeaderList };
      await probe(cls, bare, { siteId: site.id, allowed: [403], what: '(no CSRF token)' });
      await probe(cls, { ...bare, headers: [['Content-Type', 'application/json']] }, { siteId: site.id, allowed: [401], what: '(no session)' });
      if (JSON.stringify(await stored(site.id)) !== JSON.stringify(mine)) violation(cls, 'a refused change (viewer, no CSRF token, no session) changed the prompts');
      if (JSON.stringify(await stored(theirs)) !== JSON.stringify(before)) violation(cls, "the bystander's prompts changed");
      const config = await probe(cls, { method: 'GET', path: `/public/v1/sites/${sites.other.publicId}/config` }, { siteId: theirs, allowed: [200], what: "(the bystander's public config)" });
      if (JSON.stringify(config.body?.prompts ?? null) !== JSON.stringify(before && (before.kind !== 'none' || before.bell.enabled) ? before : null)) {
        violation(cls, `the bystander's public config serves prompts that are not theirs: ${show(config.body, 200)}`);
      }
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });
  });
}
