// Class 9: regression of the two crashers of issue 10. `{"status":["\ud800"]}` and
// `{"status":"\ud800"}` on POST /v2/campaigns once killed the campaign service (the value was
// echoed into gRPC status details, grpc-js ran encodeURI on them); `{"status":["x" × 75,000]}`
// once blocked every /v2 call of every tenant for 10 s. Each must answer 400 at once, the
// campaign process must stay up (no restart), and another site's concurrent calls succeed.
import { request } from '../support/http.js';
import { probe } from '../support/probe.js';
import { assertNoViolations, trackViolations, endOfClassChecks, getCtx, jsonRequest, show, violation } from '../support/suite.js';

export const CLASS_CRASHERS = '9 crasher regression';
const cls = CLASS_CRASHERS;

/** "At once": far below the 10 s gRPC deadline the stall used to run into. */
const AT_ONCE_MS = 2000;

export function registerCrashers(): void {
  describe(CLASS_CRASHERS, function () {
    this.timeout(90_000);
    trackViolations(cls);

    it('the crashing and stalling list bodies → 400 at once, campaign service up, another site served meanwhile', async () => {
      const { sites, stack, gatewayPort: port, tally } = getCtx();
      const bodies: [string, string][] = [
        ['status [lone high surrogate]', '{"status":["\\ud800"]}'],
        ['status lone high surrogate', '{"status":"\\ud800"}'],
        ['status [lone low surrogate]', '{"status":["\\udfff"]}'],
        ['status [x × 75,000]', JSON.stringify({ status: ['x'.repeat(75_000)] })],
        ['status [x × 70,000]', JSON.stringify({ status: ['x'.repeat(70_000)] })],
        ['status [\\ud800 × 15,000]', `{"status":["${'\\ud800'.repeat(15_000)}"]}`],
        ['status 5,000 × "x"×15', JSON.stringify({ status: Array.from({ length: 5_000 }, () => 'x'.repeat(15)) })],
        ['status [NUL]', '{"status":["\\u0000"]}'],
        ['status [draft, \\ud800]', '{"status":["draft","\\ud800"]}'],
        ['dateField lone surrogate', '{"dateField":"\\ud800"}'],
        ['startDate lone surrogate', '{"startDate":"\\ud800"}'],
        ['cursor lone surrogate', '{"cursor":"\\ud800"}'],
        ['cursor 90 kB', JSON.stringify({ cursor: 'c'.repeat(90_000) })],
        ['limit huge string', JSON.stringify({ limit: '9'.repeat(90_000) })],
      ];
      const before = stack.services.exitCode('campaign');
      if (before !== undefined) throw new Error('the campaign service is not running at the start');
      for (const [label, text] of bodies) {
        // The bystander's 11 calls run while the hostile one is in flight.
        const others = Array.from({ length: 11 }, () => request(port, jsonRequest('POST', '/v2/campaigns', {}, sites.other.apiKey), { timeoutMs: 12_000 }));
        const t0 = Date.now();
        const hostile = probe(cls, { method: 'POST', path: '/v2/campaigns', headers: [['Authorization', sites.fuzz.apiKey], ['Content-Type', 'application/json']], body: text }, { siteId: sites.fuzz.id, allowed: [400, 413], what: label });
        const [r, otherResults] = await Promise.all([hostile, Promise.all(others)]);
        const took = Date.now() - t0;
        if (r.status === 400 && took > AT_ONCE_MS) violation(cls, `${label}: 400 only after ${took} ms`);
        const bad = otherResults.filter((o) => o.responses[0]?.status !== 200);
        for (const o of otherResults) tally.http(cls, o);
        if (bad.length > 0) violation(cls, `${label}: ${bad.length} of 11 concurrent calls of another site failed (${bad.map((o) => o.responses[0]?.status ?? o.ended).join(', ')})`);
        const slowest = Math.max(...otherResults.map((o) => o.ms));
        if (slowest > AT_ONCE_MS + 1000) violation(cls, `${label}: another site's concurrent call took ${slowest} ms`);
        if (stack.services.exitCode('campaign') !== undefined) violation(cls, `${label}: the campaign service exited`);
      }
      // The same text on create: refused, nothing stored, nobody down.
      for (const field of ['title', 'body', 'link', 'callToAction', 'utmSource', 'utmMedium', 'utmCampaign', 'icon', 'image', 'scheduleDate']) {
        for (const bad of ['\u0000', '\ud800', 'ok \udfff ok']) {
          const value = field === 'title' || field === 'body' ? `abc${bad}def` : field === 'scheduleDate' ? `2030-01-01T00:00:00Z${bad}` : `https://shop.example/${bad}`;
          const body = { title: 'Crasher', body: 'Crasher body text', link: 'https://shop.example/', topics: ['news'], status: 'draft', scheduleMode: field === 'scheduleDate' ? 'scheduled' : 'now', [field]: value };
          await probe(cls, jsonRequest('POST', '/v2/campaign/create', body, sites.fuzz.apiKey), { siteId: sites.fuzz.id, allowed: [400], mustReject: true, what: `${field}=${show(bad)}` });
        }
      }
      for (const list of ['topics', 'countries']) {
        for (const bad of ['\u0000', '\ud800', 'news\u0000']) {
          await probe(cls, jsonRequest('POST', '/v2/campaign/create', { title: 'Crasher', body: 'Crasher body text', link: 'https://shop.example/', status: 'draft', scheduleMode: 'now', [list]: [bad] }, sites.fuzz.apiKey), { siteId: sites.fuzz.id, allowed: [400], mustReject: true, what: `${list}=[${show(bad)}]` });
        }
      }
      if (stack.services.exitCode('campaign') !== undefined) violation(cls, 'the campaign service is down at the end');
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });
  });
}
