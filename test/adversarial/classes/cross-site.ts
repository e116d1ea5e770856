// Class 6: cross-site access. Site A's key on site B's campaign ids (get, delete) → 404
// `Campaign not found` and nothing deleted; A's cursors on B, tampered cursors → 400
// `Invalid pagination cursor`; on the public side, B's public id never reaches A's subscribers.
import { randomBytes } from 'node:crypto';
import type { HeaderList, RequestSpec } from '../support/http.js';
import { probe } from '../support/probe.js';
import { assertNoViolations, trackViolations, endOfClassChecks, getCtx, jsonRequest, snapshot, sameSnapshot, validSubscription, violation } from '../support/suite.js';

export const CLASS_CROSS = '6 cross-site access';
const cls = CLASS_CROSS;

function draft(title: string) {
  return { title, body: 'Cross-site probe body', link: 'https://shop.example/x', topics: ['news'], status: 'draft', scheduleMode: 'now' };
}

function byKey(method: string, path: string, key: string, headers: HeaderList = []): RequestSpec {
  return { method, path, headers: [['Authorization', key], ...headers] };
}

export function registerCrossSite(): void {
  describe(CLASS_CROSS, function () {
    this.timeout(60_000);
    trackViolations(cls);

    it("A's key on B's campaign ids → 404 Campaign not found, nothing deleted; cursors of another site or tampered → 400 Invalid pagination cursor", async () => {
      const { sites } = getCtx();
      const A = sites.other;
      const B = sites.fuzz;
      // Campaigns on both sites, through the API.
      const ids: Record<'A' | 'B', string[]> = { A: [], B: [] };
      for (const [name, site] of [['A', A], ['B', B]] as const) {
        for (let i = 0; i < 3; i++) {
          const r = await probe(cls, jsonRequest('POST', '/v2/campaign/create', draft(`Cross ${name} ${i}`), site.apiKey), { siteId: site.id, allowed: [200], what: '(setup)' });
          if (typeof r.body?.id === 'string') ids[name].push(r.body.id);
        }
      }
      if (ids.A.length < 3 || ids.B.length < 3) throw new Error('setup campaigns were not created');

      for (const [attacker, victimIds, victim] of [
        [A, ids.B, B],
        [B, ids.A, A],
      ] as const) {
        for (const id of victimIds) {
          for (const [method, path] of [
            ['GET', `/v2/campaign/${id}`],
            ['DELETE', `/v2/campaign/${id}`],
            ['GET', `/v2/campaign/${id.toUpperCase()}`],
            ['DELETE', `/v2/campaign/${id.toUpperCase()}`],
            ['GET', `/v2/campaign/${id}/`],
            ['DELETE', `/v2/campaign/%7B${id}%7D`],
          ] as const) {
            const r = await probe(cls, byKey(method, path, attacker.apiKey), { siteId: victim.id, allowed: [400, 404], what: '(other site)' });
            if (r.status === 404 && r.body?.message !== 'Campaign not found') violation(cls, `${method} ${path}: 404 with ${JSON.stringify(r.body)}`);
          }
          // Still there for its owner.
          const own = await probe(cls, byKey('GET', `/v2/campaign/${id}`, victim.apiKey), { siteId: victim.id, allowed: [200], what: '(owner)' });
          if (own.body?.id !== id) violation(cls, `campaign ${id} is gone for its own site after another site's DELETE`);
        }
      }

      // Cursors: one of each site, then used with the other key, and tampered with.
      const cursorOf = async (site: typeof A, body: Record<string, unknown>) => {
        const r = await probe(cls, jsonRequest('POST', '/v2/campaigns', body, site.apiKey), { siteId: site.id, allowed: [200], what: '(cursor)' });
        const c = r.body?.nextCursor;
        if (typeof c !== 'string') throw new Error(`no cursor: ${JSON.stringify(r.body)}`);
        return c;
      };
      const cursorA = await cursorOf(A, { limit: 1 });
      const cursorB = await cursorOf(B, { limit: 1 });
      const invalid = async (site: typeof A, body: Record<string, unknown>, label: string) => {
        const r = await probe(cls, jsonRequest('POST', '/v2/campaigns', body, site.apiKey), { siteId: site.id, allowed: [400], what: label });
        // The spec's text; a cursor carrying NUL or a lone surrogate may get the field's own message.
        const message = String(r.body?.message);
        if (r.status === 400 && message !== 'Invalid pagination cursor' && !/^cursor /.test(message)) violation(cls, `${label}: message ${JSON.stringify(r.body?.message)}`);
      };
      await invalid(B, { limit: 1, cursor: cursorA }, "A's cursor with B's key");
      await invalid(A, { limit: 1, cursor: cursorB }, "B's cursor with A's key");
      await invalid(A, { limit: 2, cursor: cursorA }, 'cursor with another limit');
      await invalid(A, { limit: 1, status: ['draft'], cursor: cursorA }, 'cursor with other filters');
      const r = await probe(cls, jsonRequest('POST', '/v2/campaigns', { limit: 1, cursor: cursorA }, A.apiKey), { siteId: A.id, allowed: [200], what: 'own cursor (control)' });
      if (r.status !== 200) violation(cls, `own cursor refused: ${r.status}`);
      const tampered = new Set<string>();
      for (let i = 0; i < cursorA.length; i += Math.max(1, Math.floor(cursorA.length / 12))) {
        const ch = cursorA[i];
        tampered.add(cursorA.slice(0, i) + (ch === 'A' ? 'B' : 'A') + cursorA.slice(i + 1));
      }
      for (const t of [cursorA.slice(0, -1), cursorA.slice(1), cursorA + 'A', cursorA + '=', cursorA + '\u0000', cursorA + '\ud800', cursorA.replace(/[A-Za-z]/, (c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())), cursorB.slice(0, 20) + cursorA.slice(20), ' ' + cursorA, cursorA.repeat(200)]) tampered.add(t);
      for (const t of tampered) if (t !== cursorA) await invalid(A, { limit: 1, cursor: t }, `tampered cursor ${JSON.stringify(t.slice(0, 24))}…`);

      // The public side: B's public id never reaches A's subscribers; /v2 never shows the other's audience.
      const topic = `only-on-a-${randomBytes(3).toString('hex')}`;
      const subA = validSubscription('cross-a');
      const created = await probe(cls, jsonRequest('POST', `/public/v1/sites/${A.publicId}/subscriptions`, { subscription: subA, topics: [topic] }), { siteId: A.id, allowed: [201], what: '(setup)' });
      if (created.status !== 201) throw new Error('setup subscriber was not created');
      const subB = validSubscription('cross-b');
      await probe(cls, jsonRequest('POST', `/public/v1/sites/${B.publicId}/subscriptions`, { subscription: subB, topics: ['news'] }), { siteId: B.id, allowed: [201], what: '(setup)' });
      const beforeA = await snapshot(A.id);
      for (const [method, route, body] of [
        ['DELETE', 'subscriptions', { endpoint: subA.endpoint }],
        ['POST', 'pageviews', { endpoint: subA.endpoint, topics: ['leak'] }],
        ['POST', 'subscription-changes', { oldEndpoint: subA.endpoint, endpoint: subB.endpoint }],
        ['POST', 'subscription-changes', { oldEndpoint: subB.endpoint, endpoint: subA.endpoint }],
      ] as const) {
        await probe(cls, jsonRequest(method, `/public/v1/sites/${B.publicId}/${route}`, body), { siteId: A.id, allowed: [200, 400, 404], what: "(A's endpoint through B's public id)" });
      }
      if (!sameSnapshot(beforeA, await snapshot(A.id))) violation(cls, "B's public id changed A's subscribers");
      const topicsB = await probe(cls, byKey('GET', '/v2/topics', B.apiKey), { siteId: B.id, allowed: [200], what: '' });
      if (topicsB.result.responses[0]?.text.includes(topic)) violation(cls, `B's topics list A's topic: ${topicsB.result.responses[0].text}`);
      const topicsA = await probe(cls, byKey('GET', '/v2/topics', A.apiKey), { siteId: A.id, allowed: [200], what: '' });
      if (!topicsA.result.responses[0]?.text.includes(topic)) violation(cls, `A's own topic is missing from A's topics (control): ${topicsA.result.responses[0]?.text}`);

      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });
  });
}
