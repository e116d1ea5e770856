// Class 10: what the gateway answers before any route does (issue 34): headers over Node's
// 16 kB answer 431 in JSON, an Expect other than 100-continue 417 in JSON, and every answer on
// /public (the delivery service's, or one the gateway makes itself: 413, 417, 431, …) carries
// the plugin's CORS headers, so a browser reads the status instead of a network error (a 431
// carries them whatever the path: Node refuses the request before its path is known).
import fc from 'fast-check';
import { fuzz, probe } from '../support/probe.js';
import { assertNoViolations, endOfClassChecks, getCtx, trackViolations, violation } from '../support/suite.js';

export const CLASS_EDGE_ANSWERS = '10 edge answers (headers, Expect, CORS)';
const cls = CLASS_EDGE_ANSWERS;

export function registerEdgeAnswers(): void {
  describe(CLASS_EDGE_ANSWERS, function () {
    this.timeout(90_000);
    trackViolations(cls);

    it('oversized headers → 431, odd Expect → 417, big /public bodies → 413: JSON, and CORS on every /public answer', async () => {
      const { sites } = getCtx();
      const pub = sites.fuzz.publicId;
      const routes: [string, string][] = [
        ['GET', '/v2/topics'],
        ['GET', '/public/v1/webpush.js'],
        ['GET', `/public/v1/sites/${pub}/config`],
        ['POST', `/public/v1/sites/${pub}/subscriptions`],
        ['POST', '/public/v1/events'],
      ];
      // Node serves as 100-continue any value holding that token (`100-continue-x` too).
      const expect = fc.oneof(fc.constantFrom('200-ok', 'x', '101-continue'), fc.stringMatching(/^[a-z0-9=-]{1,20}$/)).filter((e) => !/(?:^|\W)100-continue(?:$|\W)/i.test(e));
      const cases = fc.record({
        route: fc.constantFrom(...routes),
        headerBytes: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 60_000 })),
        expect: fc.option(expect, { nil: undefined }),
        bodyBytes: fc.oneof(fc.constant(2), fc.integer({ min: 16 * 1024 + 1, max: 20_000 })),
      });
      await fuzz(cases, { numRuns: 150, timeMs: 10_000, seedOffset: 17 }, async ({ route: [method, path], headerBytes, expect: expectation, bodyBytes }) => {
        const headers: [string, string][] = [['Authorization', sites.fuzz.apiKey]];
        if (headerBytes > 0) headers.push(['X-Big', 'a'.repeat(headerBytes)]);
        if (expectation !== undefined) headers.push(['Expect', expectation]);
        const body = method === 'POST' ? '{' + ' '.repeat(bodyBytes - 2) + '}' : undefined;
        const what = `headers +${headerBytes} B, Expect ${expectation ?? '-'}, body ${body?.length ?? 0} B`;
        const { status, result } = await probe(cls, { method, path, headers, body }, { siteId: sites.fuzz.id, what });
        const res = result.responses[0];
        if (!res) return;
        if (headerBytes > 17_000 && status !== 431) violation(cls, `${method} ${path} ${what}: ${status}, not 431`);
        if (headerBytes < 15_000 && expectation !== undefined && status !== 417) violation(cls, `${method} ${path} ${what}: ${status}, not 417`);
        if (path.startsWith('/public/') && res.headers['access-control-allow-origin'] !== '*') violation(cls, `${method} ${path} ${what}: ${status} without Access-Control-Allow-Origin`);
      });
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });
  });
}
