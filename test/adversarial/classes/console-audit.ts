// Class 15: the audit log (docs/console.md, "Audit log"), attacked by a logged-in owner of a site
// of the class's own: hostile `before` and `limit` queries and retention bodies (→ 200 or 400, the
// retention kept unless a whole number from 7 to 3650 was given); hostile ids in the paths of
// recorded calls, whose entries must be stored escaped and bounded, the log still readable and
// exportable; the bystander's log under its own site (404 `Site not found`), and without a CSRF
// token or a session.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { SiteInfo } from '../../e2e/support/fixtures.js';
import type { RequestSpec } from '../support/http.js';
import { hostileString, hostileValue, ODD_SEGMENTS, pathSegment, toJsonText } from '../support/hostile.js';
import { fuzz, probe } from '../support/probe.js';
import { assertNoViolations, endOfClassChecks, getCtx, show, trackViolations, violation } from '../support/suite.js';
import { consoleLogIn, type ConsoleSession } from '../support/console-session.js';

export const CLASS_CONSOLE_AUDIT = '15 console audit log';
const cls = CLASS_CONSOLE_AUDIT;

const get = (session: ConsoleSession, path: string): RequestSpec => ({ method: 'GET', path, headers: session.headers });
const withBody = (session: ConsoleSession, method: string, path: string, body: string): RequestSpec => ({ method, path, headers: [['Content-Type', 'application/json'], ...session.headers], body });

export function registerConsoleAudit(): void {
  describe(CLASS_CONSOLE_AUDIT, function () {
    this.timeout(120_000);
    trackViolations(cls);
    let session: ConsoleSession;
    let site: SiteInfo;
    let base = '';

    before(async () => {
      const c = getCtx();
      const plan = `adv_audit_${randomBytes(3).toString('hex')}`;
      await c.stack.cli('plans', 'create', plan, '--permissions', 'create,reports,delete,audience');
      site = await c.stack.cli('sites', 'create', 'adversarial-audit', '--plan', plan);
      session = await consoleLogIn(site.id);
      base = `/console/api/sites/${site.id}/audit`;
    });

    it('hostile before and limit → 200 or 400; hostile retention bodies → 400 unless a whole number from 7 to 3650, which is then what is kept', async () => {
      const query = fc.record({ before: fc.option(hostileString, { nil: undefined }), limit: fc.option(hostileString, { nil: undefined }), repeat: fc.boolean() });
      await fuzz(query, { numRuns: 150, timeMs: 8_000, seedOffset: 140 }, async (q) => {
        const parts = [q.before === undefined ? '' : `before=${pathSegment(q.before)}`, q.limit === undefined ? '' : `limit=${pathSegment(q.limit)}`].filter(Boolean);
        if (q.repeat && parts.length > 0) parts.push(parts[0]);
        await probe(cls, get(session, `${base}?${parts.join('&')}`), { siteId: site.id, allowed: [200, 400, 414, 431], what: show(q, 200) });
      });
      await fuzz(fc.option(hostileValue, { nil: undefined, freq: 8 }), { numRuns: 150, timeMs: 8_000, seedOffset: 141 }, async (value) => {
        const body = value === undefined ? {} : { retentionDays: value };
        const r = await probe(cls, withBody(session, 'PATCH', `${base}/settings`, toJsonText(body)), { siteId: site.id, allowed: [200, 400, 413], what: show(body, 200) });
        const valid = typeof value === 'number' && Number.isInteger(value) && value >= 7 && value <= 3650;
        if ((r.status === 200) !== valid) violation(cls, `retention ${show(value, 60)}: answered ${r.status}`);
        if (r.status === 200 && r.body?.retentionDays !== value) violation(cls, `retention ${show(value, 60)}: answered ${show(r.body)}`);
      });
      assertNoViolations(cls);
    });

    it('hostile ids in recorded calls are stored escaped and bounded; the log stays readable and exportable', async () => {
      for (const segment of ODD_SEGMENTS) {
        await probe(cls, withBody(session, 'POST', `/console/api/sites/${site.id}/keys/${segment}/revoke`, ''), { siteId: site.id, allowed: [400, 404, 405], what: `(key id ${show(segment, 40)})` });
      }
      const page = await probe(cls, get(session, `${base}?limit=100`), { siteId: site.id, allowed: [200], what: '(the log after hostile ids)' });
      const items = (page.body?.items ?? []) as { target: string; action: string }[];
      if (items.filter((e) => e.action === 'revokeKey').length === 0) violation(cls, 'no revokeKey entry was recorded for the hostile ids');
      for (const e of items) {
        // The path's parameter is cut to 200 characters; control characters are written \uXXXX.
        if (e.target.length > 200 || /[\u0000-\u001f\u007f]/.test(e.target)) violation(cls, `an entry's target is stored raw: ${show(e.target, 80)}`);
      }
      await probe(cls, get(session, `${base}/export`), { siteId: site.id, allowed: [200], what: '(the CSV after hostile ids)' });
      assertNoViolations(cls);
    });

    it("the bystander's log under its own site → 404 Site not found; no CSRF token → 403, no session → 401", async () => {
      const { sites } = getCtx();
      const theirs = `/console/api/sites/${sites.other.id}/audit`;
      for (const spec of [get(session, theirs), get(session, `${theirs}/export`), get(session, `${theirs}/settings`), withBody(session, 'PATCH', `${theirs}/settings`, '{"retentionDays":7}')]) {
        const r = await probe(cls, spec, { siteId: sites.other.id, allowed: [404], what: "(the bystander's log)" });
        if (r.body?.message !== 'Site not found') violation(cls, `${spec.method} ${spec.path}: ${r.status} ${show(r.body)}`);
      }
      const bare: RequestSpec = { method: 'PATCH', path: `${base}/settings`, headers: [['Content-Type', 'application/json'], session.headers[0]], body: '{"retentionDays":7}' };
      await probe(cls, bare, { siteId: site.id, allowed: [403], what: '(no CSRF token)' });
      await probe(cls, { ...bare, headers: [['Content-Type', 'application/json']] }, { siteId: site.id, allowed: [401], what: '(no session)' });
      await probe(cls, { method: 'GET', path: base, headers: [] }, { siteId: site.id, allowed: [401], what: '(no session)' });
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });
  });
}
