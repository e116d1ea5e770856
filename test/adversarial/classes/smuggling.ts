// Class 3: request smuggling through the gateway's /public proxy, over raw TCP. Each attack
// carries an embedded second request that would be observable had the delivery service run it:
// a subscribe of a unique endpoint (it must never appear in delivery.subscribers) and a GET of
// the delivery service's /metrics (its `delivery_` series must never reach a client). Framing:
// chunked bodies on methods without one, Content-Length bodies on them, CL and TE together,
// duplicate and odd Content-Length, obs-fold, odd Transfer-Encoding and chunk sizes.
import { randomBytes } from 'node:crypto';
import { buildRequest, errorBodyProblem, sendRaw, type RawResult } from '../support/http.js';
import { pool } from '../support/probe.js';
import { assertNoViolations, trackViolations, checkAlive, endOfClassChecks, GATEWAY_TIMEOUTS, getCtx, validSubscription, violation } from '../support/suite.js';

export const CLASS_SMUGGLING = '3 smuggling (raw TCP)';
const cls = CLASS_SMUGGLING;

interface Attack {
  label: string;
  bytes: Buffer;
  /** The unique endpoint the embedded subscribe carries ('' when none is embedded). */
  marker: string;
  /** Pipelined on purpose: the gateway must run the second request itself (control). */
  control?: boolean;
}

export function registerSmuggling(): void {
  describe(CLASS_SMUGGLING, function () {
    this.timeout(90_000);
    trackViolations(cls);

    it('no framing trick makes the delivery service run a request the gateway did not forward', async () => {
      const { sites, gatewayPort: port, db, tally } = getCtx();
      const run = randomBytes(4).toString('hex');
      const pub = sites.fuzz.publicId;
      const attacks: Attack[] = [];
      let n = 0;
      const embedded = () => {
        const sub = validSubscription(`smuggled-${run}-${n++}`);
        const json = JSON.stringify({ subscription: sub, topics: ['smuggled'] });
        const text =
          `POST /public/v1/sites/${pub}/subscriptions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Forwarded-For: 198.51.100.${n}\r\nContent-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}` +
          `GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n`;
        return { text, marker: sub.endpoint };
      };
      const raw = (s: string) => Buffer.from(s, 'latin1');
      const chunked = (payload: string) => `${Buffer.byteLength(payload).toString(16)}\r\n${payload}\r\n0\r\n\r\n`;

      // Methods without a body, carrying one (the http-proxy `deleteLength` desync, and its cousins).
      const targets: [string, string][] = [
        ['DELETE', `/public/v1/sites/${pub}/subscriptions`],
        ['OPTIONS', `/public/v1/sites/${pub}/subscriptions`],
        ['GET', `/public/v1/sites/${pub}/config`],
        ['HEAD', `/public/v1/sites/${pub}/config`],
        ['GET', '/public/v1/webpush.js'],
        ['DELETE', '/public/v1/events'],
        ['GET', `/public/v1/r/${'A'.repeat(54)}`],
      ];
      for (const [method, path] of targets) {
        for (const framing of ['chunked', 'content-length', 'chunked + follow-up', 'content-length + follow-up'] as const) {
          const e = embedded();
          // No Connection: close: the upstream connection stays open for whatever follows.
          const follow = framing.includes('follow-up') ? `GET /public/v1/sites/${sites.other.publicId}/config HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n` : '';
          const head = framing.startsWith('content-length')
            ? `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${Buffer.byteLength(e.text)}\r\n\r\n${e.text}${follow}`
            : `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n${chunked(e.text)}${follow}`;
          attacks.push({ label: `${method} ${path.replace(pub, '{pub}')} with a ${framing} body`, bytes: raw(head), marker: e.marker });
        }
      }

      // Framing the parsers might disagree on (sent on a route that takes a body).
      const pv = `/public/v1/sites/${pub}/pageviews`;
      const framings: [string, (e: string) => string][] = [
        ['CL + TE', (e) => `POST ${pv} HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${e}`],
        ['TE + CL', (e) => `POST ${pv} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: ${Buffer.byteLength(e) + 5}\r\n\r\n0\r\n\r\n${e}`],
        ['CL + TE on DELETE', (e) => `DELETE /public/v1/sites/${pub}/subscriptions HTTP/1.1\r\nHost: x\r\nContent-Length: ${Buffer.byteLength(e) + 5}\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${e}`],
        ['duplicate Content-Length, different', (e) => `POST ${pv} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: ${Buffer.byteLength(e)}\r\n\r\n${e}`],
        ['duplicate Content-Length, same (body = the embedded text)', (e) => `DELETE /public/v1/sites/${pub}/subscriptions HTTP/1.1\r\nHost: x\r\nContent-Length: ${Buffer.byteLength(e)}\r\nContent-Length: ${Buffer.byteLength(e)}\r\n\r\n${e}`],
        ['Content-Length list', (e) => `POST ${pv} HTTP/1.1\r\nHost: x\r\nContent-Length: 0, ${Buffer.byteLength(e)}\r\n\r\n${e}`],
        ['Content-Length +N', (e) => `POST ${pv} HTTP/1.1\r\nHost: x\r\nContent-Length: +${Buffer.byteLength(e)}\r\n\r\n${e}`],
        ['Content-Length hex', (e) => `POST ${pv} HTTP/1.1\r\nHost: x\r\nContent-Length: 0x10\r\n\r\n${e}`],
        ['Content-Length negative', (e) => `POST ${pv} HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n${e}`],
        ['Content-Length overflow', (e) => `POST ${pv} HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n${e}`],
        ['obs-fold Transfer-Encoding', (e) => `POST ${pv} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: identity\r\n chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n${e}`],
        ['obs-fold after another header', (e) => `DELETE /public/v1/sites/${pub}/subscriptions HTTP/1.1\r\nHost: x\r\nX-A: b\r\n Transfer-Encoding: chunked\r\n\r\n${chunked(e)}`],
        ['space before colon', (e) => `DELETE /public/v1/sites/${pub}/subscriptions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\n\r\n${chunked(e)}`],
        ['tab before value', (e) => `DELETE /public/v1/sites/${pub}/subscriptions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:\tchunked\r\n\r\n${chunked(e)}`],
        ['TE chunked, identity', (e) => `POST ${pv} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, identity\r\n\r\n${chunked(e)}`],
        ['TE identity, chunked + CL', (e) => `POST ${pv} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: identity, chunked\r\nContent-Length: 4\r\n\r\n${chunked(e)}`],
        ['TE xchunked + CL', (e) => `POST ${pv} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: xchunked\r\nContent-Length: 4\r\n\r\n0\r\n\r\n${e}`],
        ['TE CHUNKED upper case on DELETE', (e) => `DELETE /public/v1/sites/${pub}/subscriptions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: CHUNKED\r\n\r\n${chunked(e)}`],
        ['two TE headers', (e) => `POST ${pv} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n${chunked(e)}`],
        ['TE with NUL', (e) => `POST ${pv} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\u0000\r\nContent-Length: 4\r\n\r\n0\r\n\r\n${e}`],
        ['bare LF line endings', (e) => `DELETE /public/v1/sites/${pub}/subscriptions HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\n${Buffer.byteLength(e).toString(16)}\n${e}\n0\n\n`],
        ['chunk size with leading zeros', (e) => `DELETE /public/v1/sites/${pub}/subscriptions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0000000000000000${Buffer.byteLength(e).toString(16)}\r\n${e}\r\n0\r\n\r\n`],
        ['chunk extension', (e) => `DELETE /public/v1/sites/${pub}/subscriptions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${Buffer.byteLength(e).toString(16)};a="\r\n"\r\n${e}\r\n0\r\n\r\n`],
        ['chunk size overflow', (e) => `POST ${pv} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffff1\r\n${e}\r\n0\r\n\r\n`],
        ['chunk shorter than its size', (e) => `POST ${pv} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}${e}\r\n0\r\n\r\n`],
        ['HTTP/1.0 with TE', (e) => `DELETE /public/v1/sites/${pub}/subscriptions HTTP/1.0\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${chunked(e)}`],
        ['Expect 100-continue on DELETE', (e) => `DELETE /public/v1/sites/${pub}/subscriptions HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n${chunked(e)}`],
        ['Upgrade: h2c on DELETE', (e) => `DELETE /public/v1/sites/${pub}/subscriptions HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\nTransfer-Encoding: chunked\r\n\r\n${chunked(e)}`],
        ['absolute-form target to the delivery port', (e) => `DELETE http://127.0.0.1:${getCtx().stack.services.ports.deliveryHttp}/public/v1/sites/${pub}/subscriptions HTTP/1.1\r\nHost: 127.0.0.1:${getCtx().stack.services.ports.deliveryHttp}\r\nTransfer-Encoding: chunked\r\n\r\n${chunked(e)}`],
      ];
      for (const [label, make] of framings) {
        const e = embedded();
        attacks.push({ label, bytes: raw(make(e.text)), marker: e.marker });
      }
      // A smuggled request hidden in a header value (CRLF injection) and in the path.
      {
        const e = embedded();
        attacks.push({ label: 'request in a header value with bare CR', bytes: raw(`GET /public/v1/webpush.js HTTP/1.1\r\nHost: x\r\nX-A: a\r${e.text.replace(/\r\n/g, '\r')}\r\nConnection: close\r\n\r\n`), marker: e.marker });
      }
      // Control: a pipelined subscribe on a keep-alive connection IS the client's own second
      // request; the gateway runs it, so the detector must see its endpoint.
      const control = validSubscription(`pipelined-${run}`);
      {
        const json = JSON.stringify({ subscription: control, topics: ['pipelined'] });
        const bytes = Buffer.concat([
          buildRequest(port, { method: 'GET', path: `/public/v1/sites/${pub}/config`, close: false }),
          buildRequest(port, { method: 'POST', path: `/public/v1/sites/${pub}/subscriptions`, headers: [['Content-Type', 'application/json']], body: json }),
        ]);
        attacks.push({ label: 'control: pipelined subscribe', bytes, marker: control.endpoint, control: true });
      }

      const results: RawResult[] = new Array(attacks.length);
      // All at once: an attack the gateway cannot parse to its end waits for its request timeout.
      const waitMs = GATEWAY_TIMEOUTS.requestMs + 3000;
      await pool(attacks, attacks.length, async (a, i) => {
        const isHead = a.label.startsWith('HEAD');
        results[i] = await sendRaw(port, a.bytes, { timeoutMs: waitMs, headOnly: (k) => isHead && k === 0 });
        tally.http(cls, results[i]);
      });
      attacks.forEach((a, i) => {
        const r = results[i];
        r.responses.forEach((res, k) => {
          const what = `${a.label} (answer ${k + 1})`;
          if (res.status >= 500) violation(cls, `${what}: ${res.status} ${res.text.slice(0, 160)}`);
          const problem = errorBodyProblem(res, a.label.startsWith('HEAD') && k === 0 ? 'HEAD' : 'GET');
          if (problem) violation(cls, `${what}: ${res.status} ${problem}`);
          if (res.text.includes('delivery_')) violation(cls, `${what}: the delivery service's /metrics reached the client`);
          if (!a.control && /"created"\s*:/.test(res.text)) violation(cls, `${what}: a subscribe answer reached the client: ${res.text.slice(0, 120)}`);
        });
        // The client's own follow-up request, if answered, gets its own answer (no response desync).
        const followUp = a.label.includes('follow-up') ? r.responses.filter((x) => x.status >= 200)[1] : undefined;
        if (followUp && followUp.status === 200 && !followUp.text.includes(`"publicId":"${sites.other.publicId}"`)) violation(cls, `${a.label}: the follow-up got someone else's answer: ${followUp.text.slice(0, 120)}`);
        if (r.ended === 'timeout') violation(cls, `${a.label}: connection still open after ${r.ms} ms (the gateway's request timeout is ${GATEWAY_TIMEOUTS.requestMs} ms)`);
      });

      // Nothing the gateway did not forward ran; the control did.
      await new Promise((r) => setTimeout(r, 500));
      const { rows } = await db.query(`SELECT endpoint FROM delivery.subscribers WHERE endpoint LIKE $1 OR endpoint LIKE $2`, [`%smuggled-${run}-%`, `%pipelined-${run}-%`]);
      const stored = new Set(rows.map((r) => r.endpoint as string));
      for (const a of attacks) {
        if (a.control && !stored.has(a.marker)) violation(cls, `${a.label}: the detector did not see the pipelined subscribe (the check is broken)`);
        if (!a.control && stored.has(a.marker)) violation(cls, `${a.label}: the embedded subscribe was executed by the delivery service`);
      }

      // No answer went to the wrong client afterwards (a poisoned upstream connection).
      for (let i = 0; i < 24; i++) {
        const site = i % 2 === 0 ? sites.other : sites.fuzz;
        const r = await sendRaw(port, buildRequest(port, { method: 'GET', path: `/public/v1/sites/${site.publicId}/config` }), { timeoutMs: 5000 });
        tally.http(cls, r);
        const res = r.responses[0];
        let body: any;
        try {
          body = res ? JSON.parse(res.text) : undefined;
        } catch {
          body = undefined;
        }
        if (r.responses.length !== 1 || res.status !== 200 || body?.publicId !== site.publicId) violation(cls, `follow-up config ${i}: ${r.responses.map((x) => `${x.status} ${x.text.slice(0, 80)}`).join(' | ') || `no answer (${r.ended})`}`);
      }
      await checkAlive(cls, 'after the smuggling attempts');
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });
  });
}
