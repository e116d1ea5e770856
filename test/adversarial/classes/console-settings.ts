// Class 14: the console's site settings and exports (docs/console.md, "Site settings",
// "Exports"), attacked by a logged-in owner of a site of the class's own: every setting hostile,
// quiet hours included (bad times, from equal to to, wrong types: 400 and nothing stored)
// (→ 200 or 4xx; on a 4xx nothing written in either service; on a 200 only values the operators'
// rules allow are kept; bad text refused), hostile export queries (→ 200 or a 4xx, never a 5xx);
// the bystander's settings and exports named by their site (404 `Site not found`, its settings
// unchanged); odd site ids; no CSRF token, no session.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { SiteInfo } from '../../e2e/support/fixtures.js';
import { consoleLogIn, type ConsoleSession } from '../support/console-session.js';
import type { HeaderList, RequestSpec } from '../support/http.js';
import { hasBadText, hostileString, hostileValue, ODD_SEGMENTS, pathSegment, toJsonText } from '../support/hostile.js';
import { fuzz, probe } from '../support/probe.js';
import { assertNoViolations, endOfClassChecks, getCtx, jsonRequest, show, trackViolations, violation } from '../support/suite.js';

export const CLASS_CONSOLE_SETTINGS = '14 console settings and exports';
const cls = CLASS_CONSOLE_SETTINGS;

const SETTINGS = ['defaultThrottlePerMinute', 'frequencyCap', 'timeZone', 'quietHours'] as const;

function patch(session: ConsoleSession, siteId: string, body: string): RequestSpec {
  return { method: 'PATCH', path: `/console/api/sites/${siteId}/settings`, headers: [['Content-Type', 'application/json'], ...session.headers], body };
}

/** The settings as the two services keep them (the campaign service's throttle, the delivery service's cap, zone and quiet hours). */
async function stored(siteId: string): Promise<{ throttle: number | null; campaigns: number | null; hours: number | null; zone: string | null; quietFrom: string | null; quietTo: string | null }> {
  const { db } = getCtx();
  const [campaign, delivery] = await Promise.all([
    db.query('SELECT default_throttle_per_minute AS throttle FROM campaign.sites WHERE id = $1', [siteId]),
    db.query('SELECT cap_campaigns AS campaigns, cap_hours AS hours, time_zone AS zone, quiet_from AS "quietFrom", quiet_to AS "quietTo" FROM delivery.sites WHERE site_id = $1', [siteId]),
  ]);
  return { ...campaign.rows[0], ...delivery.rows[0] };
}

/** What the operators' rules allow to be kept (docs/operator-cli.md): anything else stored is a violation. */
function allowed(s: Awaited<ReturnType<typeof stored>>): boolean {
  const whole = (n: number | null, max: number) => n === null || (Number.isInteger(n) && n >= 1 && n <= max);
  const zone = s.zone === null || (() => {
    try {
      return new Intl.DateTimeFormat('en', { timeZone: s.zone }).resolvedOptions().timeZone !== '';
    } catch {
      return false;
    }
  })();
  const time = (t: string | null) => t !== null && /^([01][0-9]|2[0-3]):[0-5][0-9]$/.test(t);
  const quiet = (s.quietFrom === null && s.quietTo === null) || (time(s.quietFrom) && time(s.quietTo) && s.quietFrom !== s.quietTo);
  return whole(s.throttle, 1_000_000) && whole(s.campaigns, 1000) && whole(s.hours, 720) && (s.campaigns === null) === (s.hours === null) && zone && quiet;
}

/** Times of day good and bad: the edges, one digit short, 24:00, seconds, other notations, hostile text. */
const timeOfDay: fc.Arbitrary<unknown> = fc.oneof(
  hostileValue,
  fc.constantFrom('00:00', '23:59', '21:00', '08:00', '24:00', '9:00', '09:0', '09:60', '21:00:00', '9pm', ' 21:00', '21:00\u0000', '２１:００', '', '-1:00'),
);

const settingValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileValue,
  fc.integer({ min: -5, max: 2_000_000 }),
  fc.record({ campaigns: fc.oneof(hostileValue, fc.integer({ min: -1, max: 1001 })), hours: fc.oneof(hostileValue, fc.integer({ min: -1, max: 721 })) }, { requiredKeys: [] }),
  fc.constantFrom('Europe/Lisbon', 'europe/lisbon', 'UTC', 'Etc/GMT+5', 'US/Pacific', 'Mars/Olympus', '../../etc/passwd', 'Europe/Lisbon\u0000', '\ud800'),
  fc.record({ from: timeOfDay, to: timeOfDay }, { requiredKeys: [] }),
  fc.constantFrom({ from: '21:00', to: '21:00' }, { from: '21:00', to: '08:00', extra: 1 }, ['21:00', '08:00']),
);

export function registerConsoleSettings(): void {
  describe(CLASS_CONSOLE_SETTINGS, function () {
    this.timeout(120_000);
    trackViolations(cls);
    let session: ConsoleSession;
    let site: SiteInfo;

    before(async () => {
      const c = getCtx();
      const plan = `adv_settings_${randomBytes(3).toString('hex')}`;
      await c.stack.cli('plans', 'create', plan, '--permissions', 'create,reports,delete,audience');
      site = await c.stack.cli('sites', 'create', 'adversarial-settings', '--plan', plan);
      session = await consoleLogIn(site.id);
    });

    it('every setting hostile → 200 or 4xx; a 4xx writes nothing in either service, a 200 keeps only what the rules allow; bad text refused', async () => {
      const mutation = fc.tuple(fc.constantFrom<string>(...SETTINGS, 'quietTime', '__proto__', 'constructor'), fc.option(settingValue, { nil: undefined, freq: 8 }));
      await fuzz(fc.array(mutation, { minLength: 1, maxLength: 3 }), { numRuns: 300, timeMs: 12_000, seedOffset: 140 }, async (mutations) => {
        const body: Record<string, unknown> = {};
        for (const [field, value] of mutations) if (value !== undefined) body[field] = value;
        const before = await stored(site.id);
        const r = await probe(cls, patch(session, site.id, toJsonText(body)), {
          siteId: site.id,
          allowed: [200, 400, 413],
          mustReject: hasBadText(body.timeZone) || hasBadText(body.quietHours),
          what: show(body, 200),
        });
        const after = await stored(site.id);
        if (r.status !== undefined && r.status >= 400 && JSON.stringify(before) !== JSON.stringify(after)) violation(cls, `${show(body, 200)}: answered ${r.status} but the settings changed (${show(before)} → ${show(after)})`);
        if (!allowed(after)) violation(cls, `${show(body, 200)}: kept settings the operators' rules refuse: ${show(after)}`);
      });
      assertNoViolations(cls);
    });

    it('hostile quiet hours (bad times, from equal to to, wrong types) → 400 with a message, nothing stored', async () => {
      const hostile: unknown[] = [
        { from: '21:00', to: '21:00' },
        { from: '24:00', to: '08:00' },
        { from: '21:00', to: '8:00' },
        { from: '21:00:00', to: '08:00' },
        { from: '21:00', to: '08:00\u0000' },
        { from: '', to: '' },
        { from: '21:00' },
        { to: '08:00' },
        {},
        { from: 2100, to: 800 },
        { from: null, to: '08:00' },
        { from: '21:00', to: '08:00', timeZone: 'UTC' },
        ['21:00', '08:00'],
        '21:00-08:00',
        0,
        true,
      ];
      for (const quietHours of hostile) {
        const before = await stored(site.id);
        const r = await probe(cls, patch(session, site.id, JSON.stringify({ defaultThrottlePerMinute: 77, quietHours })), { siteId: site.id, allowed: [400], what: `(quietHours ${show(quietHours, 80)})` });
        if (typeof r.body?.message !== 'string' || !r.body.message.includes('quietHours')) violation(cls, `quietHours ${show(quietHours, 80)}: message ${show(r.body)}`);
        if (JSON.stringify(await stored(site.id)) !== JSON.stringify(before)) violation(cls, `quietHours ${show(quietHours, 80)}: refused but the settings changed`);
      }
      assertNoViolations(cls);
    });

    it('hostile export queries → 200 or 4xx (400, or 414/431 for a URL too long), never a 5xx', async () => {
      const query = fc.record({ format: fc.option(fc.oneof(hostileString, fc.constantFrom('csv', 'ndjson', 'CSV')), { nil: undefined }), topics: fc.option(hostileString, { nil: undefined }) }, { requiredKeys: [] });
      await fuzz(query, { numRuns: 80, timeMs: 8_000, seedOffset: 141 }, async (q) => {
        const search = new URLSearchParams(Object.entries(q).filter((e): e is [string, string] => e[1] !== undefined)).toString();
        const headers: HeaderList = session.headers.slice(0, 1);
        await probe(cls, { method: 'GET', path: `/console/api/sites/${site.id}/subscribers/export?${search}`, headers }, { siteId: site.id, allowed: [200, 400, 414, 431], what: `(subscribers export ${show(q, 120)})` });
        await probe(cls, { ...jsonRequest('POST', `/console/api/sites/${site.id}/campaigns/export?${search}`, { status: q.topics }, undefined, session.headers) }, {
          siteId: site.id,
          allowed: [200, 400, 414, 431],
          what: `(campaign results export ${show(q, 120)})`,
        });
      });
      assertNoViolations(cls);
    });

    it("the bystander's settings and exports → 404 Site not found, its settings unchanged; odd site ids → 4xx; no CSRF token → 403, no session → 401", async () => {
      const { sites } = getCtx();
      const theirs = sites.other.id;
      const before = await stored(theirs);
      const body = JSON.stringify({ defaultThrottlePerMinute: 1, frequencyCap: { campaigns: 1, hours: 720 }, timeZone: 'Pacific/Kiritimati', quietHours: { from: '00:00', to: '23:59' } });
      const reads: RequestSpec[] = [
        patch(session, theirs, body),
        patch(session, theirs.toUpperCase(), body),
        { method: 'GET', path: `/console/api/sites/${theirs}/settings`, headers: session.headers.slice(0, 1) },
        { method: 'GET', path: `/console/api/sites/${theirs}/subscribers/export?format=csv`, headers: session.headers.slice(0, 1) },
        jsonRequest('POST', `/console/api/sites/${theirs}/campaigns/export?format=csv`, {}, undefined, session.headers),
      ];
      for (const spec of reads) {
        const r = await probe(cls, spec, { siteId: theirs, allowed: [404], what: "(the bystander's site)" });
        if (r.body?.message !== 'Site not found') violation(cls, `${spec.method} ${spec.path}: ${r.status} ${show(r.body)}`);
      }
      for (const segment of ODD_SEGMENTS) {
        await probe(cls, patch(session, pathSegment(segment), body), { siteId: site.id, allowed: [400, 404, 405], what: `(site id ${show(segment, 40)})` });
      }
      const bare = { ...patch(session, site.id, body), headers: [['Content-Type', 'application/json'], session.headers[0]] as HeaderList };
      await probe(cls, bare, { siteId: site.id, allowed: [403], what: '(no CSRF token)' });
      await probe(cls, { ...bare, headers: [['Content-Type', 'application/json']] }, { siteId: site.id, allowed: [401], what: '(no session)' });
      if (JSON.stringify(await stored(theirs)) !== JSON.stringify(before)) violation(cls, "the bystander's settings changed");
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });
  });
}
