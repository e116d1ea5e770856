// Class 26: /v2/feeds (docs/api-decisions.md, "Feeds"), attacked with an ordinary key: every feed
// field hostile, on create and on update (→ 200, 400 or 409, bad text refused, nothing stored on
// a 4xx); feed URLs that point inward in every spelling — loopback, private, link-local, metadata,
// local names, credentials, other schemes (→ 400 with the webhooks' URL messages, nothing stored);
// the bystander's feed on every route (404 `Feed not found`) and odd ids. The bystander's feeds
// are unchanged throughout. (The fetch's own refusals — an address resolved inward, oversized or
// malformed answers — are the component tests', services/campaign/test/feeds.test.ts.)
import fc from 'fast-check';
import type { RequestSpec } from '../support/http.js';
import { hasBadText, hostileString, hostileValue, ODD_SEGMENTS, toJsonText } from '../support/hostile.js';
import { fuzz, probe } from '../support/probe.js';
import { assertNoViolations, endOfClassChecks, getCtx, show, trackViolations, violation } from '../support/suite.js';

export const CLASS_FEEDS = '26 feeds';
const cls = CLASS_FEEDS;

const FEED_FIELDS = [
  'url', 'pollIntervalMinutes', 'paused', 'topics', 'countries', 'segment', 'template', 'icon', 'callToAction',
  'utmSource', 'utmMedium', 'utmCampaign', 'ttl', 'urgency', 'throttlePerMinute', 'ignoreFrequencyCap', 'ignoreQuietHours',
] as const;
const VALID = { url: 'https://blog.example/feed.xml', topics: ['news'] };

const URL_MESSAGES = new Set([
  'url is required',
  'url must be an https URL of at most 2048 characters',
  'url must not contain credentials',
  'url must not point to a private, loopback, link-local or metadata address',
]);

/** Feed URLs that must never be fetched: each is refused when saved. */
const INWARD_URLS = [
  'https://127.0.0.1/feed', 'https://localhost/feed', 'https://localhost./feed', 'https://LOCALHOST/feed', 'https://2130706433/feed',
  'https://0x7f000001/feed', 'https://0x7f.1/feed', 'https://0177.0.0.1/feed', 'https://127.1/feed', 'https://[::1]/feed',
  'https://[::ffff:127.0.0.1]/feed', 'https://[::ffff:7f00:1]/feed', 'https://[64:ff9b::a00:1]/feed', 'https://[2002:a00:1::]/feed',
  'https://10.0.0.1/feed', 'https://172.16.0.1/feed', 'https://192.168.1.1/feed', 'https://100.64.0.1/feed', 'https://169.254.169.254/latest/meta-data/',
  'https://[fd00::1]/feed', 'https://[fe80::1]/feed', 'https://0.0.0.0/feed', 'https://[::]/feed', 'https://224.0.0.1/feed', 'https://255.255.255.255/feed',
  'https://metadata.google.internal/computeMetadata/v1/', 'https://metadata/feed', 'https://redis/feed', 'https://kafka.default.svc.cluster.local/feed',
  'https://router.home.arpa/feed', 'https://printer.local/feed', 'https://a.localhost/feed',
  'https://user:pass@blog.example/feed', 'https://blog.example@127.0.0.1/feed',
  'http://blog.example/feed', 'ftp://blog.example/feed', 'file:///etc/passwd', 'gopher://127.0.0.1:6379/_INFO', 'javascript:alert(1)', '//blog.example/feed',
  `https://blog.example/${'a'.repeat(2048)}`, 'https://blog.example/\u0000', 'https://blog.example/\n', '',
];

function v2(method: string, path: string, key: string, body?: string): RequestSpec {
  const headers: [string, string][] = [['Authorization', key]];
  if (body !== undefined) headers.push(['Content-Type', 'application/json']);
  return { method, path, headers, body };
}

/** The site's feeds, for "nothing stored on a 4xx" (the suite's snapshot covers campaigns). */
async function feedsOf(siteId: string): Promise<string> {
  const { rows } = await getCtx().db.query(
    `SELECT count(*)::int AS n, coalesce(md5(string_agg(id || ':' || url || ':' || poll_interval_minutes || ':' || paused || ':' || settings::text, ',' ORDER BY id)), '') AS h
       FROM campaign.feeds WHERE site_id = $1`,
    [siteId],
  );
  return `${rows[0].n}/${rows[0].h}`;
}

export function registerFeeds(): void {
  describe(CLASS_FEEDS, function () {
    this.timeout(120_000);
    trackViolations(cls);

    /** A probe that also checks the site's feeds are unchanged on a 4xx. */
    async function feedProbe(spec: RequestSpec, what: string, allowed: number[], mustReject = false) {
      const { sites } = getCtx();
      const before = await feedsOf(sites.fuzz.id);
      const r = await probe(cls, spec, { siteId: sites.fuzz.id, allowed, mustReject, what });
      if (r.status === undefined || r.status >= 400) {
        const after = await feedsOf(sites.fuzz.id);
        if (after !== before) violation(cls, `${spec.method} ${spec.path} ${what}: answered ${r.status} but the feeds changed`);
      }
      return r;
    }

    /** Removes a feed the fuzz made, so the site's 20 places stay free for the next runs. */
    const remove = (id: string) => probe(cls, v2('DELETE', `/v2/feeds/${id}`, getCtx().sites.fuzz.apiKey), { siteId: getCtx().sites.fuzz.id, allowed: [200], what: '(clean up)' });

    it('create and update: every field hostile → 200/400/409, bad text refused, nothing stored on a 4xx', async () => {
      const { sites } = getCtx();
      const mutation = fc.tuple(fc.constantFrom<string>(...FEED_FIELDS, 'title', 'unknownField', '__proto__'), fc.option(hostileValue, { nil: undefined, freq: 8 }));
      await fuzz(fc.array(mutation, { minLength: 1, maxLength: 3 }), { numRuns: 300, timeMs: 15_000, seedOffset: 2601 }, async (mutations) => {
        const body: Record<string, unknown> = { ...VALID };
        for (const [field, v] of mutations) {
          if (v === undefined) delete body[field];
          else body[field] = v;
        }
        const bad = FEED_FIELDS.some((f) => Object.hasOwn(body, f) && hasBadText(body[f]));
        const r = await feedProbe(v2('POST', '/v2/feeds', sites.fuzz.apiKey, toJsonText(body)), show(body, 200), [200, 400, 409, 413, 429], bad);
        if (r.status === 200 && typeof r.body?.id === 'string') await remove(r.body.id);
      });
      const target = (await probe(cls, v2('POST', '/v2/feeds', sites.fuzz.apiKey, JSON.stringify(VALID)), { siteId: sites.fuzz.id, allowed: [200], what: 'update target' })).body?.id as string;
      await fuzz(fc.array(mutation, { minLength: 1, maxLength: 3 }), { numRuns: 200, timeMs: 10_000, seedOffset: 2602 }, async (mutations) => {
        const body = Object.fromEntries(mutations.map(([f, v]) => [f, v === undefined ? null : v]));
        const bad = FEED_FIELDS.some((f) => Object.hasOwn(body, f) && hasBadText(body[f]));
        await feedProbe(v2('PATCH', `/v2/feeds/${target}`, sites.fuzz.apiKey, toJsonText(body)), show(body, 200), [200, 400, 413, 429], bad);
      });
      await remove(target);
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });

    it('feed URLs that point inward, in every spelling → 400 with the URL messages, on create and update, nothing stored', async () => {
      const { sites } = getCtx();
      const target = (await probe(cls, v2('POST', '/v2/feeds', sites.fuzz.apiKey, JSON.stringify(VALID)), { siteId: sites.fuzz.id, allowed: [200], what: 'update target' })).body?.id as string;
      const urls = fc.oneof(fc.constantFrom(...INWARD_URLS), hostileString);
      const check = (r: Awaited<ReturnType<typeof feedProbe>>, url: unknown) => {
        if (r.status === 200) violation(cls, `feed url ${show(url)} accepted`);
        // Messages are joined with ", ", which the private-address message itself contains.
        else if (r.status === 400 && ![...URL_MESSAGES].some((m) => String(r.body?.message ?? '').includes(m))) violation(cls, `feed url ${show(url)}: ${show(r.body)}`);
      };
      for (const url of INWARD_URLS) {
        check(await feedProbe(v2('POST', '/v2/feeds', sites.fuzz.apiKey, toJsonText({ ...VALID, url })), `url ${show(url)}`, [400]), url);
        check(await feedProbe(v2('PATCH', `/v2/feeds/${target}`, sites.fuzz.apiKey, toJsonText({ url })), `url ${show(url)}`, [400]), url);
      }
      await fuzz(urls, { numRuns: 200, timeMs: 10_000, seedOffset: 2603 }, async (url) => {
        const r = await feedProbe(v2('POST', '/v2/feeds', sites.fuzz.apiKey, toJsonText({ ...VALID, url })), `url ${show(url, 120)}`, [200, 400, 413, 429], hasBadText(url));
        // A hostile string that is a public https URL may be saved; it is fetched under the rules then.
        if (r.status === 200 && typeof r.body?.id === 'string') {
          if (!/^https:\/\//i.test(String(url))) violation(cls, `feed url ${show(url)} accepted`);
          await remove(r.body.id);
        }
      });
      await remove(target);
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });

    it("the bystander's feed on every route → 404 Feed not found; odd ids → 4xx; the bystander's feeds unchanged", async () => {
      const { sites } = getCtx();
      const theirs = await probe(cls, v2('POST', '/v2/feeds', sites.other.apiKey, JSON.stringify(VALID)), { siteId: sites.other.id, allowed: [200], what: 'bystander feed' });
      const theirId = theirs.body?.id as string;
      const before = await feedsOf(sites.other.id);
      const routes = (fid: string): [string, string, string | undefined][] => [
        ['GET', `/v2/feeds/${fid}`, undefined],
        ['PATCH', `/v2/feeds/${fid}`, JSON.stringify({ paused: true, url: 'https://evil.example/feed' })],
        ['DELETE', `/v2/feeds/${fid}`, undefined],
      ];
      for (const [method, path, body] of routes(theirId)) {
        const r = await feedProbe(v2(method, path, sites.fuzz.apiKey, body), 'the bystander feed', [404]);
        if (r.status === 404 && r.body?.message !== 'Feed not found') violation(cls, `${method} ${path}: ${show(r.body)}`);
      }
      const list = await probe(cls, v2('GET', '/v2/feeds?limit=100', sites.fuzz.apiKey), { siteId: sites.fuzz.id, allowed: [200], what: 'list' });
      if ((list.body?.items ?? []).some((f: { id: string }) => f.id === theirId)) violation(cls, "the list shows the bystander's feed");
      for (const odd of ODD_SEGMENTS) {
        for (const [method, path, body] of routes(odd)) await feedProbe(v2(method, path, sites.fuzz.apiKey, body), `odd id ${show(odd)}`, [400, 404, 405, 413, 429]);
      }
      for (const q of ['limit=0', 'limit=-1', 'limit=1e3', 'limit=x', 'limit=1&limit=2', 'cursor=x', 'cursor=%00', `cursor=${'a'.repeat(5000)}`]) {
        await feedProbe(v2('GET', `/v2/feeds?${q}`, sites.fuzz.apiKey), q, [200, 400, 414, 429]);
      }
      if ((await feedsOf(sites.other.id)) !== before) violation(cls, "the bystander's feeds changed");
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });
  });
}
