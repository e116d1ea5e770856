// Class 4: slow clients, bounded. A slowloris sending one header byte a second, slow bodies on
// /public and /v2, an idle keep-alive connection and a silent one: the gateway closes each within
// its configured timeouts (the stack runs with small ones), while other clients are served.
import { buildRequest, errorBodyProblem, sendRaw, type RawResult } from '../support/http.js';
import { assertNoViolations, trackViolations, bystanderProblems, checkAlive, endOfClassChecks, GATEWAY_TIMEOUTS, getCtx, violation } from '../support/suite.js';

export const CLASS_SLOW = '4 slow clients';
const cls = CLASS_SLOW;

/** Node enforces header and request timeouts on a periodic check; this much lateness is tolerated. */
const SLACK_MS = 3000;
/** No slow connection is kept longer than this by the test itself. */
const GIVE_UP_MS = 16_000;

interface Slow {
  label: string;
  pieces: Buffer[];
  /** The server must have closed the connection by then (ms after connecting). */
  deadlineMs: number;
}

function bytesOf(s: string): Buffer[] {
  return [...Buffer.from(s, 'latin1')].map((b) => Buffer.from([b]));
}

export function registerSlowClients(): void {
  describe(CLASS_SLOW, function () {
    this.timeout(60_000);
    trackViolations(cls);

    it('slowloris, slow bodies and idle connections are closed within the configured timeouts while others are served', async () => {
      const { sites, gatewayPort: port, tally } = getCtx();
      const headersDeadline = GATEWAY_TIMEOUTS.headersMs + SLACK_MS;
      const requestDeadline = GATEWAY_TIMEOUTS.requestMs + SLACK_MS;
      const slows: Slow[] = [];
      const trickle = bytesOf('X-Slow: ' + 'a'.repeat(40));
      for (let i = 0; i < 30; i++) {
        slows.push({ label: `slowloris ${i + 1} (a header byte a second)`, pieces: [Buffer.from(`GET /public/v1/sites/${sites.other.publicId}/config HTTP/1.1\r\nHost: x\r\n`), ...trickle], deadlineMs: headersDeadline });
      }
      slows.push({ label: 'slowloris on /v2 (request line a byte a second)', pieces: bytesOf('GET /v2/topics HTTP/1.1\r\nHost: x\r\nAuthorization: ' + 'k'.repeat(30)), deadlineMs: headersDeadline });
      slows.push({ label: 'silent connection (nothing sent)', pieces: [], deadlineMs: headersDeadline });
      const slowBody = (method: string, path: string, extra: string) => {
        const json = '{"endpoint":"https://fcm.googleapis.com/fcm/send/slow","topics":["' + 'a'.repeat(60) + '"]}';
        return [Buffer.from(`${method} ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${extra}Content-Length: ${json.length}\r\n\r\n`), ...bytesOf(json)];
      };
      slows.push({ label: 'slow body on /public page views (a byte a second)', pieces: slowBody('POST', `/public/v1/sites/${sites.other.publicId}/pageviews`, ''), deadlineMs: requestDeadline });
      slows.push({ label: 'slow body on /v2 create (a byte a second)', pieces: slowBody('POST', '/v2/campaign/create', `Authorization: ${sites.other.apiKey}\r\n`), deadlineMs: requestDeadline });
      {
        const json = '{"limit":1}';
        const chunks = [...json].map((c) => Buffer.from(`1\r\n${c}\r\n`));
        slows.push({ label: 'slow chunked body on /v2 list (a chunk a second)', pieces: [Buffer.from(`POST /v2/campaigns HTTP/1.1\r\nHost: x\r\nAuthorization: ${sites.other.apiKey}\r\nTransfer-Encoding: chunked\r\n\r\n`), ...chunks, ...chunks, ...chunks], deadlineMs: requestDeadline });
      }

      const attack = Promise.all(
        slows.map(async (s) => {
          const r = await sendRaw(port, { pieces: s.pieces, gapMs: 1000 }, { timeoutMs: GIVE_UP_MS });
          return { s, r };
        }),
      );
      // An idle keep-alive connection after one served request.
      const idle = sendRaw(port, buildRequest(port, { method: 'GET', path: `/public/v1/sites/${sites.other.publicId}/config`, close: false }), { timeoutMs: GIVE_UP_MS });

      // Meanwhile every other client is served, promptly.
      const served: string[] = [];
      const started = Date.now();
      let rounds = 0;
      while (Date.now() - started < GATEWAY_TIMEOUTS.requestMs + 1500) {
        const t0 = Date.now();
        const problems = await bystanderProblems();
        const took = Date.now() - t0;
        rounds++;
        for (const p of problems) violation(cls, `during the attack: ${p}`);
        if (took > 2500) violation(cls, `during the attack: the bystander's calls took ${took} ms`);
        served.push(`${took}`);
        tally.row(cls).inputs += 5;
        tally.row(cls).ok += 5 - problems.length;
        tally.row(cls).c4xx += problems.length;
        await new Promise((r) => setTimeout(r, 500));
      }

      const results = await attack;
      const check = (label: string, r: RawResult, deadlineMs: number) => {
        tally.http(cls, r);
        if (r.ended === 'timeout') violation(cls, `${label}: still open after ${r.ms} ms (deadline ${deadlineMs} ms)`);
        else if (r.ms > deadlineMs) violation(cls, `${label}: closed only after ${r.ms} ms (deadline ${deadlineMs} ms)`);
        for (const res of r.responses) {
          if (res.status >= 500) violation(cls, `${label}: answered ${res.status}`);
          const problem = errorBodyProblem(res);
          if (problem) violation(cls, `${label}: ${problem}`);
        }
      };
      for (const { s, r } of results) check(s.label, r, s.deadlineMs);
      const idleResult = await idle;
      check('idle keep-alive connection', idleResult, GATEWAY_TIMEOUTS.keepAliveMs + SLACK_MS);
      if (idleResult.responses[0]?.status !== 200) violation(cls, `idle keep-alive connection: its request was not served (${idleResult.responses[0]?.status})`);
      if (rounds < 2) violation(cls, `only ${rounds} bystander round(s) during the attack`);

      await checkAlive(cls, 'after the slow clients');
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });
  });
}
