// Class 21: identified subscribers (docs/people.md) — the plugin's identify and logout through the
// gateway, attacked as an anonymous browser: hostile ids, signatures, endpoints and bodies (→ 200
// or 4xx, bad text refused, nothing stored on a 4xx); forged signatures (any other id's, random,
// the other site's secret: never linked); the other site's subscriptions and secret (never
// reached: a link or an unlink across sites changes nothing); hostile publicId segments. And
// /v2/users/{externalId} with an API key: hostile ids in the path and hostile tags (→ 200 or 4xx,
// what a 200 stored keeps the rules), and the other site's person of the same id never read,
// changed, exported or deleted.
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import type { RequestSpec } from '../support/http.js';
import { hasBadText, hostileString, hostileValue, ODD_SEGMENTS, pathSegment, RAW_BODIES, toJsonText } from '../support/hostile.js';
import type { HeaderList } from '../support/http.js';
import { fuzz, probe } from '../support/probe.js';
import { assertNoViolations, endOfClassChecks, getCtx, jsonRequest, sameSnapshot, show, snapshot, trackViolations, validSubscription, violation } from '../support/suite.js';

export const CLASS_PEOPLE = '21 people (identify)';
const cls = CLASS_PEOPLE;

const ALLOWED = [200, 400, 403, 404, 413, 429];

const sign = (secret: string, id: string) => createHmac('sha256', secret).update(id).digest('hex');
const body = (method: string, path: string, text: string | Buffer): RequestSpec => ({ method, path, headers: [['Content-Type', 'text/plain;charset=UTF-8']], body: text });
const v2 = (method: string, path: string, key: string, text?: string): RequestSpec => {
  const headers: HeaderList = [['Authorization', key]];
  if (text !== undefined) headers.push(['Content-Type', 'application/json']);
  return { method, path, headers, body: text };
};
const V2_ALLOWED = [200, 400, 404, 405, 413, 414, 429, 431];

export function registerPeople(): void {
  describe(CLASS_PEOPLE, function () {
    this.timeout(120_000);
    trackViolations(cls);
    let secretA = '';
    let secretB = '';
    /** Endpoints of real subscribers of each site. */
    const endpointsA: string[] = [];
    const endpointsB: string[] = [];
    const identityA = () => `/public/v1/sites/${getCtx().sites.fuzz.publicId}/identity`;
    const identityB = () => `/public/v1/sites/${getCtx().sites.other.publicId}/identity`;
    const linkOf = async (endpoint: string) =>
      (await getCtx().db.query('SELECT p.site_id::text, p.external_id FROM delivery.subscribers s JOIN delivery.person_subscriptions l ON l.subscriber_id = s.id JOIN delivery.people p ON p.id = l.person_id WHERE s.endpoint = $1', [endpoint])).rows[0] as
        | { site_id: string; external_id: string }
        | undefined;

    before(async () => {
      const { stack, sites } = getCtx();
      secretA = (await stack.cli('sites', 'identity-secret', sites.fuzz.id)).secret;
      secretB = (await stack.cli('sites', 'identity-secret', sites.other.id)).secret;
      await stack.cli('sites', 'set-visitor-tags', sites.fuzz.id, 'plan,lang');
      for (const [site, list] of [[sites.fuzz, endpointsA], [sites.other, endpointsB]] as const) {
        for (let i = 0; i < 2; i++) {
          const sub = validSubscription('people');
          const r = await probe(cls, jsonRequest('POST', `/public/v1/sites/${site.publicId}/subscriptions`, { subscription: sub, topics: ['news'] }), { siteId: site.id, allowed: [201], what: '(setup)' });
          if (r.status === 201) list.push(sub.endpoint);
        }
      }
      // The other site's first subscriber belongs to its user "shared-id", an id site A uses too.
      await probe(cls, jsonRequest('POST', identityB(), { endpoint: endpointsB[0], externalId: 'shared-id', signature: sign(secretB, 'shared-id') }), { siteId: sites.other.id, allowed: [200], what: '(setup)' });
    });

    it('identify and logout: every field hostile → 200 or 4xx, bad text refused, a 200 only for a signature of the very id, nothing stored on a 4xx', async () => {
      const { sites } = getCtx();
      const externalId = fc.oneof(hostileString, hostileValue, fc.constantFrom('shared-id', 'x'.repeat(128), 'x'.repeat(129), '😀'.repeat(128), '\u0085', 'a\u0000'));
      const endpoint = fc.oneof(hostileValue, fc.constantFrom(...endpointsA, ...endpointsB), fc.tuple(fc.constantFrom(...endpointsA), hostileString).map(([e, s]) => e + s));
      // The right signature of the id, of another id, the other site's, random hex, or anything.
      const signatureKind = fc.constantFrom('right', 'right-upper', 'other-id', 'other-site', 'random', 'hostile');
      const input = fc.record({ externalId, endpoint, kind: signatureKind, random: fc.stringMatching(/^[0-9a-f]{64}$/), hostile: hostileValue, drop: fc.constantFrom('none', 'externalId', 'endpoint', 'signature') });
      await fuzz(input, { numRuns: 400, timeMs: 14_000, seedOffset: 2101 }, async (v) => {
        const idText = typeof v.externalId === 'string' ? v.externalId : JSON.stringify(v.externalId ?? null);
        const signature =
          v.kind === 'right' ? sign(secretA, idText)
          : v.kind === 'right-upper' ? sign(secretA, idText).toUpperCase()
          : v.kind === 'other-id' ? sign(secretA, idText + '.')
          : v.kind === 'other-site' ? sign(secretB, idText)
          : v.kind === 'random' ? v.random
          : v.hostile;
        const sent: Record<string, unknown> = { endpoint: v.endpoint, externalId: v.externalId, signature };
        if (v.drop !== 'none') delete sent[v.drop];
        const r = await probe(cls, body('POST', identityA(), toJsonText(sent)), {
          siteId: sites.fuzz.id,
          allowed: ALLOWED,
          mustReject: hasBadText(sent.externalId) || hasBadText(sent.endpoint),
          what: `identify ${show(sent, 200)}`,
        });
        const forged = !(v.kind === 'right' || v.kind === 'right-upper') || v.drop === 'signature' || typeof sent.externalId !== 'string';
        if (r.status === 200 && forged) violation(cls, `identify ${show(sent)}: accepted a signature that is not the id's (${v.kind})`);
        if (r.status === 200 && r.body?.identified === true && !endpointsA.includes(sent.endpoint as string)) violation(cls, `identify ${show(sent)}: linked an endpoint that is not an active subscriber of the site`);
        const gone = await probe(cls, body('DELETE', identityA(), toJsonText({ endpoint: sent.endpoint })), { siteId: sites.fuzz.id, allowed: ALLOWED, mustReject: hasBadText(sent.endpoint), what: `logout ${show(sent.endpoint, 120)}` });
        if (gone.status === 200 && gone.body?.unlinked === true && !endpointsA.includes(sent.endpoint as string)) violation(cls, `logout ${show(sent.endpoint)}: unlinked something that is not the site's`);
      });
      assertNoViolations(cls);
    });

    it("the other site is never reached: its subscriptions are not linked or unlinked from this site, and neither site's secret opens the other", async () => {
      const { sites } = getCtx();
      const before = await snapshot(sites.other.id);
      const theirs = endpointsB[0];
      const linked = await probe(cls, jsonRequest('POST', identityA(), { endpoint: theirs, externalId: 'shared-id', signature: sign(secretA, 'shared-id') }), { siteId: sites.fuzz.id, allowed: [200], what: "identify B's subscriber at A" });
      if (linked.body?.identified !== false) violation(cls, `identify of the other site's subscription answered ${show(linked.body)}`);
      const unlinked = await probe(cls, jsonRequest('DELETE', identityA(), { endpoint: theirs }), { siteId: sites.fuzz.id, allowed: [200], what: "logout B's subscriber at A" });
      if (unlinked.body?.unlinked !== false) violation(cls, `logout of the other site's subscription answered ${show(unlinked.body)}`);
      await probe(cls, jsonRequest('POST', identityB(), { endpoint: endpointsB[1], externalId: 'shared-id', signature: sign(secretA, 'shared-id') }), { siteId: sites.other.id, allowed: [403], what: "A's signature at B" });
      await probe(cls, jsonRequest('POST', identityA(), { endpoint: endpointsA[0], externalId: 'shared-id', signature: sign(secretB, 'shared-id') }), { siteId: sites.fuzz.id, allowed: [403], what: "B's signature at A" });
      if (!sameSnapshot(before, await snapshot(sites.other.id))) violation(cls, "calls at site A changed site B's people");
      const link = await linkOf(theirs);
      if (link?.site_id !== sites.other.id || link.external_id !== 'shared-id') violation(cls, `the other site's link changed: ${show(link)}`);
      assertNoViolations(cls);
    });

    it('/v2/users: hostile ids in the path on every call, hostile tags → 200 or 4xx; a 200 stores only what the rules allow', async () => {
      const { sites, db } = getCtx();
      const key = sites.fuzz.apiKey;
      const segment = fc.oneof(hostileString.filter((x) => x.length < 3000).map(pathSegment), fc.constantFrom(...ODD_SEGMENTS), fc.constantFrom('shared-id', '%00', '%ud800', 'x'.repeat(129), encodeURIComponent('😀'.repeat(128)), '..', '%2e%2e', 'a%2Fb'));
      const calls = fc.constantFrom(['GET', ''], ['DELETE', ''], ['GET', '/export'], ['PATCH', '']);
      await fuzz(fc.tuple(segment, calls), { numRuns: 300, timeMs: 10_000, seedOffset: 2103 }, async ([id, [method, tail]]) => {
        const text = method === 'PATCH' ? JSON.stringify({ tags: { adv: 1 } }) : undefined;
        await probe(cls, v2(method, `/v2/users/${id}${tail}`, key, text), { siteId: sites.fuzz.id, allowed: V2_ALLOWED, what: `${method} users/${show(id, 80)}${tail}` });
      });
      const tagKey = fc.oneof(fc.stringMatching(/^[a-z0-9_]{1,64}$/), hostileString);
      const tagValue = fc.oneof(hostileValue, hostileString, fc.double(), fc.constantFrom('2026-12-07', '2026-02-30', '2026-12-07T10:00:00+01:00', '9999-12-31T23:59:59Z', '0000-01-01', null));
      const tags = fc.oneof(fc.dictionary(tagKey, tagValue, { maxKeys: 60 }), hostileValue);
      await fuzz(fc.record({ tags, extra: fc.option(hostileValue, { nil: undefined }) }, { requiredKeys: [] }), { numRuns: 300, timeMs: 12_000, seedOffset: 2104 }, async (input) => {
        const r = await probe(cls, v2('PATCH', '/v2/users/adv-tags', key, toJsonText(input)), { siteId: sites.fuzz.id, allowed: [200, 400, 413, 429], what: show(input, 200) });
        if (r.status === 200) {
          const tagsNow = r.body?.tags as Record<string, unknown>;
          const keys = Object.keys(tagsNow ?? {});
          if (keys.length > 50 || keys.some((k) => !/^[a-z0-9_]{1,64}$/.test(k))) violation(cls, `PATCH ${show(input)}: stored tags ${show(tagsNow)}`);
          if (Object.values(tagsNow ?? {}).some((v) => hasBadText(v) || (typeof v === 'string' && [...v].length > 256) || (v !== null && typeof v === 'object'))) violation(cls, `PATCH ${show(input)}: stored a value out of the rules ${show(tagsNow)}`);
        }
      });
      const { rows } = await db.query(`SELECT count(*)::int AS n FROM delivery.person_tags t JOIN delivery.people p ON p.id = t.person_id WHERE p.site_id = $1 AND p.external_id = 'adv-tags'`, [sites.fuzz.id]);
      if (rows[0] && rows[0].n > 50) violation(cls, `adv-tags holds ${rows[0].n} tags`);
      assertNoViolations(cls);
    });

    it("/v2/users: the other site's person of the same id is never read, changed, exported or deleted with this site's key", async () => {
      const { sites } = getCtx();
      const before = await snapshot(sites.other.id);
      const theirPublicId = (await getCtx().db.query('SELECT public_id::text FROM delivery.subscribers WHERE endpoint = $1', [endpointsB[0]])).rows[0]?.public_id;
      const key = sites.fuzz.apiKey;
      for (const [method, tail, text] of [['GET', '', undefined], ['GET', '/export', undefined], ['PATCH', '', JSON.stringify({ tags: { mine: 'yes' } })], ['GET', '', undefined], ['DELETE', '', undefined], ['DELETE', '', undefined]] as const) {
        const r = await probe(cls, v2(method, `/v2/users/shared-id${tail}`, key, text), { siteId: sites.fuzz.id, allowed: [200, 404], what: `${method} shared-id${tail} with A's key` });
        if (theirPublicId && r.result.responses[0]?.text.includes(theirPublicId)) violation(cls, `${method} shared-id${tail}: A's key saw B's subscription`);
      }
      if (!sameSnapshot(before, await snapshot(sites.other.id))) violation(cls, "A's key changed B's people");
      const link = await linkOf(endpointsB[0]);
      if (link?.site_id !== sites.other.id || link.external_id !== 'shared-id') violation(cls, `B's person lost its subscription: ${show(link)}`);
      assertNoViolations(cls);
    });

    it('tags from the page: hostile endpoints, keys and values → 200 or 4xx; only the allowed keys of an identified subscription of the site are ever stored', async () => {
      const { sites } = getCtx();
      // The site's first subscriber belongs to "page-user" (the fuzz above may have moved it: identify it again).
      await probe(cls, jsonRequest('POST', identityA(), { endpoint: endpointsA[0], externalId: 'page-user', signature: sign(secretA, 'page-user') }), { siteId: sites.fuzz.id, allowed: [200], what: '(setup)' });
      const tagsPath = `/public/v1/sites/${sites.fuzz.publicId}/tags`;
      const endpoint = fc.oneof(hostileValue, fc.constantFrom(...endpointsA, ...endpointsB));
      const key = fc.oneof(fc.constantFrom('plan', 'lang', 'admin', 'score', 'Plan'), hostileString);
      const value = fc.oneof(hostileValue, hostileString, fc.constantFrom('gold', '2026-12-07', '2026-02-30', null, 42, true));
      await fuzz(fc.record({ endpoint, tags: fc.oneof(fc.dictionary(key, value, { maxKeys: 4 }), hostileValue) }, { requiredKeys: [] }), { numRuns: 300, timeMs: 10_000, seedOffset: 2105 }, async (input) => {
        const r = await probe(cls, body('POST', tagsPath, toJsonText(input)), { siteId: sites.fuzz.id, allowed: ALLOWED, mustReject: hasBadText(input.endpoint), what: show(input, 200) });
        const keys = input.tags !== null && typeof input.tags === 'object' && !Array.isArray(input.tags) ? Object.keys(input.tags) : [];
        if (r.status === 200 && r.body?.tagged === true) {
          if (keys.some((k) => k !== 'plan' && k !== 'lang')) violation(cls, `tags ${show(input)}: stored a key pages may not set`);
          if (!endpointsA.includes(input.endpoint as string)) violation(cls, `tags ${show(input)}: stored tags for a subscription that is not the site's`);
        }
      });
      const { rows } = await getCtx().db.query(
        `SELECT DISTINCT t.key FROM delivery.person_tags t JOIN delivery.people p ON p.id = t.person_id WHERE p.site_id = $1 AND p.external_id NOT IN ('adv-tags') AND t.key NOT IN ('plan', 'lang', 'mine', 'adv')`,
        [sites.fuzz.id],
      );
      if (rows.length > 0) violation(cls, `keys pages may not set were stored: ${show(rows.map((r) => r.key))}`);
      assertNoViolations(cls);
    });

    it('publicId segments, raw bodies and methods on the identity route → 4xx, nothing stored', async () => {
      const { sites } = getCtx();
      const segment = fc.oneof(hostileString.filter((s) => s.length < 3000).map(pathSegment), fc.constantFrom(...ODD_SEGMENTS), fc.constantFrom(`${sites.fuzz.publicId}%00`, sites.fuzz.publicId.toUpperCase(), `${sites.fuzz.publicId}%20`));
      const valid = JSON.stringify({ endpoint: endpointsA[1], externalId: 'seg', signature: sign(secretA, 'seg') });
      await fuzz(fc.tuple(segment, fc.constantFrom('POST', 'DELETE')), { numRuns: 200, timeMs: 6_000, seedOffset: 2102 }, async ([id, method]) => {
        await probe(cls, body(method, `/public/v1/sites/${id}/identity`, valid), { siteId: sites.fuzz.id, allowed: [400, 404, 405, 414, 429, 431], what: '' });
      });
      for (const method of ['POST', 'DELETE']) {
        for (const raw of RAW_BODIES) await probe(cls, body(method, identityA(), raw.body), { siteId: sites.fuzz.id, allowed: ALLOWED.filter((s) => s !== 200), what: `body: ${raw.label}` });
      }
      for (const m of ['PUT', 'PATCH', 'GET', 'TRACE', 'FOO']) await probe(cls, { method: m, path: identityA() }, { siteId: sites.fuzz.id, allowed: [400, 404, 405, 501], what: '' });
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });
  });
}
