// Class 2: the anonymous /public endpoints of the site plugin (through the gateway) with hostile
// input: every body field, the publicId path segment, tracking tokens, raw bodies, content
// types and encodings, methods and conditional headers on the scripts.
import fc from 'fast-check';
import type { HeaderList, RequestSpec } from '../support/http.js';
import { CONTENT_TYPES, encodedVariants, hasBadText, hostileString, hostileValue, ODD_SEGMENTS, pathSegment, RAW_BODIES, toJsonText } from '../support/hostile.js';
import { fuzz, probe } from '../support/probe.js';
import { assertNoViolations, trackViolations, endOfClassChecks, getCtx, jsonRequest, show, validSubscription, violation } from '../support/suite.js';

export const CLASS_PUBLIC = '2 /public input';
const cls = CLASS_PUBLIC;

const POST_ALLOWED = [200, 201, 400, 404, 413, 429];

function body(method: string, path: string, text: string | Buffer, headers: HeaderList = []): RequestSpec {
  const h: HeaderList = [...headers];
  if (!headers.some(([n]) => n.toLowerCase() === 'content-type')) h.push(['Content-Type', 'text/plain;charset=UTF-8']);
  return { method, path, headers: h, body: text };
}

/** Sets a dotted path (`subscription.keys.auth`) of a copy of `base`; undefined deletes it. */
function setPath(base: any, path: string, value: unknown): any {
  const out = structuredClone(base);
  const parts = path.split('.');
  let at = out;
  for (const p of parts.slice(0, -1)) {
    if (at[p] === null || typeof at[p] !== 'object' || Array.isArray(at[p])) at[p] = {};
    at = at[p];
  }
  if (value === undefined) delete at[parts.at(-1)!];
  else at[parts.at(-1)!] = value;
  return out;
}

function getPath(obj: any, path: string): unknown {
  return path.split('.').reduce((o, p) => (o !== null && typeof o === 'object' ? o[p] : undefined), obj);
}

export function registerPublicInput(): void {
  describe(CLASS_PUBLIC, function () {
    this.timeout(120_000);
    trackViolations(cls);
    /** Endpoints of the fuzzed site's real subscribers, so page views and unsubscribes can hit stored rows. */
    const known: string[] = [];

    before(async () => {
      const { sites } = getCtx();
      for (let i = 0; i < 3; i++) {
        const sub = validSubscription('fuzz-known');
        const r = await probe(cls, jsonRequest('POST', `/public/v1/sites/${sites.fuzz.publicId}/subscriptions`, { subscription: sub, topics: ['news', 'sports'] }), { siteId: sites.fuzz.id, allowed: [201], what: '(setup)' });
        if (r.status === 201) known.push(sub.endpoint);
      }
    });

    it('subscribe: every field with arbitrary Unicode, huge values, wrong types → 2xx/4xx, bad text refused, nothing stored on 4xx', async () => {
      const { sites, db } = getCtx();
      const fields = ['subscription', 'subscription.endpoint', 'subscription.keys', 'subscription.keys.p256dh', 'subscription.keys.auth', 'topics', 'language', 'timeZone', 'declarative', 'country', 'unknownField'];
      const text = ['subscription.endpoint', 'subscription.keys.p256dh', 'subscription.keys.auth', 'topics', 'language', 'timeZone'];
      const mutation = fc.tuple(fc.constantFrom(...fields), fc.option(fc.oneof(hostileValue, hostileString.map((s) => ({ endpoint: `https://fcm.googleapis.com/fcm/send/${s}` }))), { nil: undefined, freq: 8 }));
      await fuzz(fc.array(mutation, { minLength: 1, maxLength: 3 }), { numRuns: 500, timeMs: 12_000, seedOffset: 11 }, async (mutations) => {
        let input: any = { subscription: validSubscription('fuzz'), topics: ['news'], language: 'pt-BR', timeZone: 'America/Sao_Paulo' };
        for (const [field, value] of mutations) input = setPath(input, field, value);
        const r = await probe(cls, body('POST', `/public/v1/sites/${sites.fuzz.publicId}/subscriptions`, toJsonText(input)), {
          siteId: sites.fuzz.id,
          allowed: POST_ALLOWED,
          mustReject: text.some((f) => hasBadText(getPath(input, f))),
          what: show(input, 200),
        });
        // A country in the body is never believed; `declarative` is a boolean or refused (docs/site-plugin.md, "Safari and Declarative Web Push").
        const declarative = getPath(input, 'declarative');
        if ((r.status === 201 || r.status === 200) && declarative !== undefined && typeof declarative !== 'boolean') violation(cls, `subscribe ${show(input)}: declarative ${show(declarative)} accepted`);
        if ((r.status === 201 || r.status === 200) && typeof getPath(input, 'subscription.endpoint') === 'string') {
          const { rows } = await db.query('SELECT country, declarative FROM delivery.subscribers WHERE site_id = $1 AND endpoint = $2', [sites.fuzz.id, getPath(input, 'subscription.endpoint')]);
          if (rows[0] && rows[0].country !== 'country__desconhecido') violation(cls, `subscribe ${show(input)}: stored country ${rows[0].country}`);
          if (rows[0] && typeof declarative === 'boolean' && rows[0].declarative !== declarative) violation(cls, `subscribe ${show(input)}: stored declarative ${rows[0].declarative}`);
        }
      });
      assertNoViolations(cls);
    });

    it('unsubscribe, page views and subscription changes: hostile endpoints and topics → 2xx/4xx, nothing changed on 4xx', async () => {
      const { sites } = getCtx();
      const endpoint = fc.oneof(hostileValue, fc.constantFrom(...known), fc.tuple(fc.constantFrom(...known), hostileString).map(([k, s]) => k + s));
      const cases = fc.oneof(
        fc.record({ route: fc.constant('unsubscribe'), input: fc.record({ endpoint }, { requiredKeys: [] }) }),
        fc.record({ route: fc.constant('pageviews'), input: fc.record({ endpoint, topics: fc.oneof(hostileValue, fc.array(hostileString, { maxLength: 5 })) }, { requiredKeys: [] }) }),
        fc.record({ route: fc.constant('subscription-changes'), input: fc.record({ oldEndpoint: endpoint, endpoint }, { requiredKeys: [] }) }),
      );
      const routes: Record<string, { method: string; path: string; text: string[] }> = {
        unsubscribe: { method: 'DELETE', path: 'subscriptions', text: ['endpoint'] },
        pageviews: { method: 'POST', path: 'pageviews', text: ['endpoint', 'topics'] },
        'subscription-changes': { method: 'POST', path: 'subscription-changes', text: ['oldEndpoint', 'endpoint'] },
      };
      await fuzz(cases, { numRuns: 500, timeMs: 12_000, seedOffset: 12 }, async ({ route, input }) => {
        const r = routes[route];
        await probe(cls, body(r.method, `/public/v1/sites/${sites.fuzz.publicId}/${r.path}`, toJsonText(input)), {
          siteId: sites.fuzz.id,
          allowed: POST_ALLOWED,
          mustReject: r.text.some((f) => hasBadText((input as any)[f])),
          what: `${route} ${show(input, 200)}`,
        });
      });
      assertNoViolations(cls);
    });

    it('events and click redirects: forged and hostile tokens and buttons → 400/404, never counted or redirected', async () => {
      const { sites } = getCtx();
      const token = fc.oneof(hostileValue, fc.stringMatching(/^[A-Za-z0-9_-]{54}$/));
      await fuzz(fc.record({ type: fc.oneof(fc.constantFrom('impression', 'click'), hostileValue), token }, { requiredKeys: [] }), { numRuns: 200, timeMs: 6_000, seedOffset: 13 }, async (input) => {
        await probe(cls, body('POST', '/public/v1/events', toJsonText(input)), { siteId: sites.fuzz.id, allowed: [400, 413, 429], what: show(input, 200) });
      });
      const segment = fc.oneof(hostileString.filter((s) => s.length < 3000).map(pathSegment), fc.constantFrom(...ODD_SEGMENTS), fc.stringMatching(/^[A-Za-z0-9_-]{54}$/));
      await fuzz(segment, { numRuns: 200, timeMs: 6_000, seedOffset: 14 }, async (t) => {
        await probe(cls, { method: 'GET', path: `/public/v1/r/${t}` }, { siteId: sites.fuzz.id, allowed: [400, 404, 414, 429, 431], what: '' });
      });
      // A button of the click redirect (a Declarative Web Push message's `navigate`): any query, forged token → never a redirect.
      const query = fc.oneof(hostileString.filter((s) => s.length < 3000).map((s) => `button=${pathSegment(s)}`), fc.constantFrom('button=0', 'button=9', 'button=-1', 'button=01', 'button=0&button=1', 'button[]=0', 'button'));
      await fuzz(fc.tuple(fc.stringMatching(/^[A-Za-z0-9_-]{54}$/), query), { numRuns: 200, timeMs: 6_000, seedOffset: 140 }, async ([t, q]) => {
        await probe(cls, { method: 'GET', path: `/public/v1/r/${t}?${q}` }, { siteId: sites.fuzz.id, allowed: [400, 404, 414, 429, 431], what: q.slice(0, 200) });
      });
      assertNoViolations(cls);
    });

    it('publicId path segments: arbitrary, %00, %ud800, very long → 4xx on every site route', async () => {
      const { sites } = getCtx();
      const segment = fc.oneof(hostileString.filter((s) => s.length < 3000).map(pathSegment), fc.constantFrom(...ODD_SEGMENTS), fc.constantFrom(`${sites.fuzz.publicId}%00`, `${sites.fuzz.publicId}/..`, sites.fuzz.publicId.toUpperCase(), `${sites.fuzz.publicId}%20`));
      const routes = [
        ['GET', 'config', undefined],
        ['POST', 'subscriptions', { subscription: validSubscription('wrong-site'), topics: ['news'] }],
        ['DELETE', 'subscriptions', { endpoint: 'https://fcm.googleapis.com/fcm/send/x' }],
        ['POST', 'pageviews', { endpoint: 'https://fcm.googleapis.com/fcm/send/x', topics: ['news'] }],
        ['POST', 'subscription-changes', { oldEndpoint: 'https://fcm.googleapis.com/fcm/send/x', endpoint: 'https://fcm.googleapis.com/fcm/send/y' }],
      ] as const;
      await fuzz(fc.tuple(segment, fc.constantFrom(...routes)), { numRuns: 300, timeMs: 8_000, seedOffset: 15 }, async ([id, [method, route, input]]) => {
        const spec: RequestSpec = input === undefined ? { method, path: `/public/v1/sites/${id}/${route}` } : body(method, `/public/v1/sites/${id}/${route}`, JSON.stringify(input));
        await probe(cls, spec, { siteId: sites.fuzz.id, allowed: [400, 404, 405, 414, 429, 431], what: '' });
      });
      assertNoViolations(cls);
    });

    it('bodies, content types and encodings on every POST/DELETE route; methods and conditional headers on the scripts', async () => {
      const { sites } = getCtx();
      const pub = sites.fuzz.publicId;
      const routes: [string, string, string][] = [
        ['POST', `/public/v1/sites/${pub}/subscriptions`, JSON.stringify({ subscription: validSubscription('enc'), topics: ['news'] })],
        ['DELETE', `/public/v1/sites/${pub}/subscriptions`, JSON.stringify({ endpoint: known[0] ?? 'https://fcm.googleapis.com/fcm/send/none' })],
        ['POST', `/public/v1/sites/${pub}/pageviews`, JSON.stringify({ endpoint: known[1] ?? 'https://fcm.googleapis.com/fcm/send/none', topics: ['culture'] })],
        ['POST', `/public/v1/sites/${pub}/subscription-changes`, JSON.stringify({ oldEndpoint: 'https://fcm.googleapis.com/fcm/send/a', endpoint: 'https://fcm.googleapis.com/fcm/send/b' })],
        ['POST', '/public/v1/events', JSON.stringify({ type: 'click', token: 'x'.repeat(54) })],
      ];
      for (const [method, path, valid] of routes) {
        for (const raw of RAW_BODIES) await probe(cls, body(method, path, raw.body), { siteId: sites.fuzz.id, allowed: POST_ALLOWED, what: `body: ${raw.label}` });
        for (const ct of CONTENT_TYPES) {
          const s: RequestSpec = { method, path, headers: ct === null ? [] : [['Content-Type', ct]], body: method === 'POST' && path.endsWith('subscriptions') ? JSON.stringify({ subscription: validSubscription('ct'), topics: ['news'] }) : valid };
          await probe(cls, s, { siteId: sites.fuzz.id, allowed: POST_ALLOWED, what: `content-type ${ct}` });
        }
        for (const v of encodedVariants(valid)) await probe(cls, body(method, path, v.body, v.headers), { siteId: sites.fuzz.id, allowed: [...POST_ALLOWED, 415], what: `encoding: ${v.label}` });
        for (const m of ['PUT', 'PATCH', 'GET', 'TRACE', 'FOO']) await probe(cls, { method: m, path }, { siteId: sites.fuzz.id, allowed: [400, 404, 405, 501], what: '' });
        await probe(cls, { method: 'OPTIONS', path, headers: [['Origin', 'https://evil.example'], ['Access-Control-Request-Method', 'DELETE'], ['Access-Control-Request-Headers', 'x-internal-auth, x-client-country, \u00e9']] }, { siteId: sites.fuzz.id, allowed: [204, 400, 404], what: 'preflight' });
      }
      for (const script of ['/public/v1/webpush.js', '/public/v1/webpush-sw.js']) {
        for (const inm of ['*', '"', 'W/"x", "y"', ',,,,', 'x'.repeat(8000)]) await probe(cls, { method: 'GET', path: script, headers: [['If-None-Match', inm]] }, { siteId: sites.fuzz.id, allowed: [200, 304, 400, 431], what: `If-None-Match ${show(inm, 40)}` });
        await probe(cls, { method: 'GET', path: script, headers: [['If-None-Match', Buffer.from([0xff, 0x80, 0x22])]] }, { siteId: sites.fuzz.id, allowed: [200, 304, 400], what: 'If-None-Match latin-1' });
        await probe(cls, { method: 'GET', path: `${script}?${'q'.repeat(5000)}` }, { siteId: sites.fuzz.id, allowed: [200, 400, 414], what: 'long query' });
        await probe(cls, { method: 'GET', path: `${script}%00` }, { siteId: sites.fuzz.id, allowed: [400, 404], what: '' });
        await probe(cls, { method: 'HEAD', path: script }, { siteId: sites.fuzz.id, allowed: [200], what: '' });
      }
      for (const path of ['/public', '/public/', '/public/v1', '/public/v2/sites', '/public/%2e%2e/metrics', '/public/../metrics', '/public/v1/../../healthz', '/public/..%2f..%2freadyz', '/publicx', '/PUBLIC/v1/webpush.js']) {
        await probe(cls, { method: 'GET', path }, { siteId: sites.fuzz.id, allowed: [400, 404, 405], what: '' });
      }
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });
  });
}
