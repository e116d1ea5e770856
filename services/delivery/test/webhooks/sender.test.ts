// The webhook sender against real receivers on 127.0.0.1: the signature a customer verifies
// with the code of docs/webhooks.md, what counts as delivered, and where it refuses to send —
// by the URL before any I/O, and by the address actually connected to (a fake DNS stands in
// for a name that resolves somewhere internal).
import crypto from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import tls from 'node:tls';
import { expect } from 'chai';
import fc from 'fast-check';
import {
  createWebhookSender,
  signatureHeader,
  type Resolver,
  type WebhookPost,
  type WebhookSender,
  type WebhookSenderOptions,
} from '../../src/webhooks/sender.js';
import { outboundUrlProblem as webhookUrlProblem, resolvedAddressProblem } from '@webpush/push/outbound.js';
import { testCertificate } from '../../../../packages/push/test/support/tls.js';

const REQUIRED = 'url is required';
const NOT_HTTPS = 'url must be an https URL of at most 2048 characters';
const CREDENTIALS = 'url must not contain credentials';
const PRIVATE = 'url must not point to a private, loopback, link-local or metadata address';

/**
 * docs/webhooks.md, "Verifying a request": the five lines a customer copies, verbatim between
 * the markers, around a stand-in for Express's `res` and the customer's `alreadySeen`.
 * Returns the status the customer's receiver would answer (400: forged or replayed).
 */
function verifyAsDocumented(req: { headers: Record<string, string> }, rawBody: string, secret: string): number {
  const res = { status: (code: number) => ({ end: () => code }) };
  const alreadySeen = (_id: unknown) => false;
  // --- docs/webhooks.md ---
  const [t, ...sigs] = req.headers['webhook-signature'].split(',');
  const ts = t.slice(2), expected = crypto.createHmac('sha256', secret).update(`${ts}.${rawBody}`).digest('hex');
  const valid = sigs.some((s) => s.length === expected.length + 3 && crypto.timingSafeEqual(Buffer.from(s.slice(3)), Buffer.from(expected)));
  if (!valid || Math.abs(Date.now() / 1000 - Number(ts)) > 300) return res.status(400).end(); // forged or replayed
  if (alreadySeen(JSON.parse(rawBody).id)) return res.status(200).end();                       // a repeat: done already
  // --- end ---
  return 200;
}

interface Received {
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

interface Receiver {
  url(path?: string): string;
  port: number;
  received: Received[];
  /** TCP connections accepted, and how many of them have closed since. */
  connections: number;
  closedConnections: number;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `condition` every 20 ms for at most `ms`. */
async function eventually(condition: () => boolean, ms = 3000): Promise<boolean> {
  for (let waited = 0; waited < ms && !condition(); waited += 20) await sleep(20);
  return condition();
}

const event = (id = crypto.randomUUID()) =>
  JSON.stringify({ id, type: 'campaign.completed', createdAt: new Date().toISOString(), data: { campaignId: 'c1', note: 'ünïcødé 🚀' } });

function post(url: string, overrides: Partial<WebhookPost> = {}): WebhookPost {
  const body = overrides.body ?? event();
  return { url, body, eventId: JSON.parse(body).id, eventType: 'campaign.completed', secrets: ['whsec_current'], ...overrides };
}

/** A DNS that answers from a script: one answer per lookup, the last one repeated; records the names asked. */
function fakeDns(...answers: Array<string[] | NodeJS.ErrnoException>) {
  const asked: string[] = [];
  const resolve: Resolver = (hostname, _options, callback) => {
    asked.push(hostname);
    const answer = answers[Math.min(asked.length - 1, answers.length - 1)];
    if (answer instanceof Error) return setImmediate(() => callback(answer, []));
    const addresses: LookupAddress[] = answer.map((address) => ({ address, family: net.isIPv6(address) ? 6 : 4 }));
    setImmediate(() => callback(null, addresses));
  };
  return { resolve, asked };
}

const dnsError = (code: string) => Object.assign(new Error(`getaddrinfo ${code} hooks.example`), { code });

describe('webhook sender', () => {
  const servers: Array<http.Server | net.Server> = [];
  const senders: WebhookSender[] = [];
  const sockets = new Set<net.Socket>();
  const cleanups: Array<() => void> = [];

  afterEach(async () => {
    for (const s of senders.splice(0)) s.close();
    for (const cleanup of cleanups.splice(0)) cleanup();
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  });

  function track(server: http.Server | net.Server): void {
    servers.push(server);
    server.on('connection', (socket: net.Socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
  }

  /** An https (or plain http) receiver on 127.0.0.1; by default it answers 204 once the body is in. */
  async function receiver(handler: Handler = (_req, res) => res.writeHead(204).end(), kind: 'https' | 'http' = 'https'): Promise<Receiver> {
    const { key, cert } = testCertificate();
    const received: Received[] = [];
    const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ path: req.url ?? '', headers: req.headers as Record<string, string>, body: Buffer.concat(chunks) });
        handler(req, res);
      });
    };
    const server = kind === 'https' ? https.createServer({ key, cert }, onRequest) : http.createServer(onRequest);
    track(server);
    const r: Receiver = {
      url: (path = '/hooks') => `${kind}://127.0.0.1:${r.port}${path}`,
      port: 0,
      received,
      connections: 0,
      closedConnections: 0,
    };
    server.on('connection', (socket: net.Socket) => {
      r.connections += 1;
      socket.once('close', () => (r.closedConnections += 1));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    r.port = (server.address() as AddressInfo).port;
    return r;
  }

  function sender(opts: WebhookSenderOptions = {}): WebhookSender {
    const s = createWebhookSender({ ca: testCertificate().cert, testHosts: ['127.0.0.1'], ...opts });
    senders.push(s);
    return s;
  }

  describe('what it sends', () => {
    it('when an event is posted, then the receiver gets the JSON body, the headers, and a signature the documented code accepts', async () => {
      const r = await receiver();
      const p = post(r.url('/hooks/push?x=1'));
      const attempt = await sender().send(p);
      expect(attempt).to.include({ ok: true, status: 204, error: null });
      expect(r.received).to.have.length(1);
      const [got] = r.received;
      expect(got.path).to.equal('/hooks/push?x=1');
      expect(got.body.toString('utf8')).to.equal(p.body);
      expect(got.headers).to.include({
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(p.body)),
        'user-agent': 'webpush-campaigns-webhooks/1',
        'webhook-id': p.eventId,
        'webhook-event': 'campaign.completed',
      });
      expect(got.headers['webhook-signature']).to.match(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(verifyAsDocumented(got, got.body.toString('utf8'), 'whsec_current')).to.equal(200);
      expect(verifyAsDocumented(got, got.body.toString('utf8'), 'whsec_other')).to.equal(400);
      expect(verifyAsDocumented(got, got.body.toString('utf8').replace('c1', 'c2'), 'whsec_current')).to.equal(400);
    });

    it('when a secret is being rotated, then the request carries one signature per secret and either secret verifies it', async () => {
      const r = await receiver();
      await sender({ userAgent: 'test-agent/2' }).send(post(r.url(), { secrets: ['whsec_new', 'whsec_old'] }));
      const [got] = r.received;
      expect(got.headers['user-agent']).to.equal('test-agent/2');
      expect(got.headers['webhook-signature']).to.match(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
      const raw = got.body.toString('utf8');
      expect(verifyAsDocumented(got, raw, 'whsec_new')).to.equal(200);
      expect(verifyAsDocumented(got, raw, 'whsec_old')).to.equal(200);
      expect(verifyAsDocumented(got, raw, 'whsec_older')).to.equal(400);
    });

    it('signs with the time of sending, in unix seconds; the documented code refuses a stale one', async () => {
      const r = await receiver();
      const at = Date.now() - 10 * 60_000;
      await sender({ now: () => at }).send(post(r.url()));
      const [got] = r.received;
      expect(got.headers['webhook-signature'].split(',')[0]).to.equal(`t=${Math.floor(at / 1000)}`);
      expect(verifyAsDocumented(got, got.body.toString('utf8'), 'whsec_current')).to.equal(400);
      const expected = crypto.createHmac('sha256', 'whsec_current').update(`${Math.floor(at / 1000)}.${got.body.toString('utf8')}`).digest('hex');
      expect(got.headers['webhook-signature']).to.equal(`t=${Math.floor(at / 1000)},v1=${expected}`);
    });

    it('signatureHeader: t, then one v1 per secret in order; no secret or a bad timestamp is a programming error', () => {
      const hmac = (secret: string) => crypto.createHmac('sha256', secret).update('1700000000.{}').digest('hex');
      expect(signatureHeader(['a', 'b'], 1_700_000_000, '{}')).to.equal(`t=1700000000,v1=${hmac('a')},v1=${hmac('b')}`);
      expect(() => signatureHeader([], 1_700_000_000, '{}')).to.throw(RangeError);
      expect(() => signatureHeader(['a'], 1.5, '{}')).to.throw(RangeError);
    });

    it('when a request cannot be built (no secret, a line break in a header value), then the attempt fails without sending', async () => {
      const r = await receiver();
      const s = sender();
      const noSecret = await s.send(post(r.url(), { secrets: [] }));
      expect(noSecret).to.deep.equal({ ok: false, status: null, latencyMs: 0, error: 'invalid request: no secret to sign with' });
      const badId = await s.send(post(r.url(), { eventId: 'x\r\nX-Injected: 1' }));
      expect(badId.ok).to.equal(false);
      expect(badId.error).to.match(/^invalid request: /);
      expect(r.connections).to.equal(0);
    });

    it('when the receiver is a plain-http test host, then it is reached over http', async () => {
      const r = await receiver(undefined, 'http');
      expect(await sender().send(post(r.url()))).to.include({ ok: true, status: 204 });
      // The same receiver when 127.0.0.1 is not a test host: refused before any I/O.
      const refused = await sender({ testHosts: [] }).send(post(r.url()));
      expect(refused).to.deep.equal({ ok: false, status: null, latencyMs: 0, error: `refused: ${NOT_HTTPS}` });
      expect(r.received).to.have.length(1);
    });

    it('keeps the connection alive across attempts, and close() destroys it', async () => {
      const r = await receiver((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks'));
      const s = sender();
      for (let i = 0; i < 3; i++) expect((await s.send(post(r.url()))).ok).to.equal(true);
      expect(r.connections).to.equal(1);
      expect(r.closedConnections).to.equal(0);
      s.close();
      expect(await eventually(() => r.closedConnections === 1)).to.equal(true);
      expect(await s.send(post(r.url()))).to.deep.equal({ ok: false, status: null, latencyMs: 0, error: 'sender closed' });
    });

    it('when close() is called during an attempt, then the attempt ends as a failure at once', async () => {
      const r = await receiver(() => {}); // never answers
      const s = sender({ timeoutMs: 5000 });
      const pending = s.send(post(r.url()));
      expect(await eventually(() => r.received.length === 1)).to.equal(true);
      s.close();
      const attempt = await pending;
      expect(attempt).to.include({ ok: false, status: null, error: 'sender closed' });
      expect(attempt.latencyMs).to.be.below(4000);
    });
  });

  describe('what counts as delivered', () => {
    it('when the receiver answers 2xx, then the attempt is ok, with the time to the answer as latency', async () => {
      for (const status of [200, 201, 202, 204, 299]) {
        const r = await receiver((_req, res) => setTimeout(() => res.writeHead(status).end(), 60));
        const attempt = await sender().send(post(r.url()));
        expect(attempt, String(status)).to.include({ ok: true, status, error: null });
        expect(attempt.latencyMs, String(status)).to.be.at.least(50).and.below(3000);
      }
    });

    it('when the receiver answers 500 (or another non-2xx), then the attempt fails with that status', async () => {
      for (const [status, error] of [[500, 'HTTP 500'], [404, 'HTTP 404'], [429, 'HTTP 429'], [400, 'HTTP 400']] as const) {
        const r = await receiver((_req, res) => res.writeHead(status).end('nope'));
        expect(await sender().send(post(r.url())), String(status)).to.include({ ok: false, status, error });
      }
    });

    it('when the receiver redirects, then the redirect is not followed and the attempt fails', async () => {
      const target = await receiver();
      for (const status of [301, 302, 307, 308]) {
        const r = await receiver((_req, res) => res.writeHead(status, { location: target.url('/elsewhere') }).end());
        expect(await sender().send(post(r.url())), String(status)).to.include({ ok: false, status, error: `redirect (${status}) not followed` });
        expect(r.received).to.have.length(1);
      }
      await sleep(100); // nothing goes there later either
      expect(target.connections).to.equal(0);
      expect(target.received).to.have.length(0);
    });

    it('when the receiver never answers, then the attempt times out', async () => {
      const r = await receiver(() => {});
      const started = Date.now();
      const attempt = await sender({ timeoutMs: 200 }).send(post(r.url()));
      expect(attempt).to.include({ ok: false, status: null, error: 'timed out after 200 ms' });
      expect(attempt.latencyMs).to.be.at.least(190).and.below(2000);
      expect(Date.now() - started).to.be.below(2000);
      expect(r.received).to.have.length(1);
      expect(await eventually(() => r.closedConnections === 1)).to.equal(true); // the socket was given up
    });

    /** A raw TLS receiver: `answer` gets the socket once the request's first bytes are in. */
    async function rawReceiver(answer: (socket: tls.TLSSocket) => void): Promise<string> {
      const { key, cert } = testCertificate();
      const server = tls.createServer({ key, cert }, (socket) => {
        socket.on('error', () => {});
        socket.once('data', () => answer(socket));
      });
      track(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `https://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    }

    it('when the receiver trickles its answer a byte at a time, then the deadline covers it all', async () => {
      // One byte of the status line and headers every 20 ms, 480 bytes at most.
      const answer = 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\nX-Padding: ' + 'p'.repeat(440) + '\r\n\r\n';
      const url = await rawReceiver((socket) => {
        let i = 0;
        const timer = setInterval(() => {
          if (i >= answer.length || socket.destroyed) return clearInterval(timer);
          socket.write(answer[i++]);
        }, 20);
        cleanups.push(() => clearInterval(timer));
      });
      const attempt = await sender({ timeoutMs: 300 }).send(post(url));
      expect(attempt).to.include({ ok: false, status: null, error: 'timed out after 300 ms' });
    });

    it('when the connection ends without an answer, then the attempt fails at once and says so', async () => {
      const s = sender({ timeoutMs: 5000 });
      const reset = await s.send(post(await rawReceiver((socket) => socket.destroy())));
      expect(reset).to.include({ ok: false, status: null, error: 'connection reset' });
      const garbage = await s.send(post(await rawReceiver((socket) => socket.end('SMTP ready\r\n'))));
      expect(garbage.ok).to.equal(false);
      expect(garbage.error).to.match(/^invalid HTTP answer \(HPE_[A-Z_]+\)$/);
      // A protocol switch is not an answer either (and nobody here would take it up).
      const upgrade = await s.send(post(await rawReceiver((socket) => socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n'))));
      expect(upgrade).to.include({ ok: false, status: null, error: 'connection closed without an answer' });
      for (const attempt of [reset, garbage, upgrade]) expect(attempt.latencyMs).to.be.below(4000);
    });

    it('when an answer streams forever, then at most maxResponseBytes are read, the connection is cut, and the attempt resolves', async () => {
      const MAX_CHUNKS = 4096; // 64 MiB: far past any socket buffer, so reaching it means nobody cut the stream
      let chunks = 0;
      let cut = false;
      const r = await receiver((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.on('close', () => (cut = true));
        const chunk = Buffer.alloc(16 * 1024, 's');
        const pump = () => {
          while (!res.destroyed && chunks < MAX_CHUNKS) {
            chunks += 1;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
        };
        pump();
      });
      const started = Date.now();
      const attempt = await sender({ timeoutMs: 5000, maxResponseBytes: 1024 }).send(post(r.url()));
      expect(attempt).to.include({ ok: true, status: 200, error: null });
      expect(Date.now() - started).to.be.below(3000); // the cap ended it, not the deadline
      expect(await eventually(() => cut)).to.equal(true);
      expect(chunks).to.be.below(MAX_CHUNKS);
    });

    it('when a 2xx answer\'s body never ends within the deadline, then the attempt stands on the status', async () => {
      // The receiver did answer 2xx: the event is delivered, only the ignored body was slow.
      const r = await receiver((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('a little');
      });
      const attempt = await sender({ timeoutMs: 200 }).send(post(r.url()));
      expect(attempt).to.include({ ok: true, status: 200, error: null });
      expect(await eventually(() => r.closedConnections === 1)).to.equal(true);
    });
  });

  describe('where it connects', () => {
    it('when the certificate is not trusted, then the attempt fails on it and nothing is posted; a `ca` adds the trust', async () => {
      const r = await receiver();
      const untrusted = await sender({ ca: undefined }).send(post(r.url()));
      expect(untrusted.ok).to.equal(false);
      expect(untrusted.status).to.equal(null);
      expect(untrusted.error).to.match(/^certificate: (DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE)$/);
      expect(r.received).to.have.length(0);
      expect(await sender().send(post(r.url()))).to.include({ ok: true });
    });

    it('when nothing listens on the port, then the attempt fails with "connection refused"', async () => {
      const probe = net.createServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      const port = (probe.address() as AddressInfo).port;
      await new Promise<void>((resolve) => probe.close(() => resolve()));
      expect(await sender().send(post(`https://127.0.0.1:${port}/hooks`))).to.include({ ok: false, status: null, error: 'connection refused' });
    });

    it('when the receiver on 127.0.0.1 is not a test host, then nothing reaches it and no DNS is asked', async () => {
      const r = await receiver();
      const dns = fakeDns(['93.184.216.34']);
      for (const url of [r.url(), `https://[::1]:${r.port}/hooks`, `https://2130706433:${r.port}/hooks`, `https://localhost:${r.port}/hooks`]) {
        const attempt = await sender({ testHosts: [], resolve: dns.resolve }).send(post(url));
        expect(attempt, url).to.deep.equal({ ok: false, status: null, latencyMs: 0, error: `refused: ${PRIVATE}` });
      }
      expect(dns.asked).to.deep.equal([]);
      expect(r.connections).to.equal(0);
    });

    it('when a saved name is rebound to a loopback address (DNS rebinding), then the attempt is refused at connection time', async () => {
      const r = await receiver();
      // Public when the endpoint is saved, 127.0.0.1 (where the real receiver listens) when sent.
      const dns = fakeDns(['93.184.216.34'], ['127.0.0.1']);
      const url = `https://hooks.example:${r.port}/hooks`;
      expect(webhookUrlProblem(url, [])).to.equal(null);
      expect(await resolvedAddressProblem(url, [], dns.resolve)).to.equal(null);
      const attempt = await sender({ testHosts: [], resolve: dns.resolve }).send(post(url));
      expect(attempt).to.include({ ok: false, status: null, error: 'refused: hooks.example resolves to 127.0.0.1 (loopback)' });
      expect(dns.asked).to.deep.equal(['hooks.example', 'hooks.example']);
      expect(r.connections).to.equal(0);
      expect(r.received).to.have.length(0);
    });

    it('when any one of a name\'s addresses is not public, then the attempt is refused', async () => {
      for (const [addresses, refused] of [
        [['93.184.216.34', '10.0.0.1'], '10.0.0.1 (private)'],
        [['2606:2800:220:1:248:1893:25c8:1946', '169.254.169.254'], '169.254.169.254 (link-local)'],
        [['fd00::1'], 'fd00::1 (unique-local)'],
      ] as const) {
        const dns = fakeDns([...addresses]);
        const attempt = await sender({ testHosts: [], resolve: dns.resolve }).send(post('https://hooks.example.com/x'));
        expect(attempt).to.include({ ok: false, status: null, error: `refused: hooks.example.com resolves to ${refused}` });
      }
    });

    it('when the name does not resolve, then the attempt fails (to be retried) and says so', async () => {
      for (const [answer, error] of [
        [dnsError('ENOTFOUND'), 'DNS: hooks.example not found'],
        [[], 'DNS: hooks.example not found'],
        [dnsError('EAI_AGAIN'), 'DNS: hooks.example lookup failed (EAI_AGAIN)'],
      ] as const) {
        const dns = fakeDns(answer instanceof Error ? answer : [...answer]);
        const attempt = await sender({ testHosts: [], resolve: dns.resolve }).send(post('https://hooks.example/x'));
        expect(attempt).to.include({ ok: false, status: null, error });
      }
    });
  });

  describe('webhookUrlProblem', () => {
    const long = (n: number) => 'https://hooks.example.com/' + 'a'.repeat(n - 'https://hooks.example.com/'.length);

    it('answers with the documented messages', () => {
      const table: Array<[unknown, string | null]> = [
        [undefined, REQUIRED],
        [null, REQUIRED],
        ['', REQUIRED],
        [42, NOT_HTTPS],
        [{ href: 'https://hooks.example.com/' }, NOT_HTTPS],
        [['https://hooks.example.com/'], NOT_HTTPS],
        ['hooks.example.com/x', NOT_HTTPS],
        ['not a url', NOT_HTTPS],
        ['http://hooks.example.com/x', NOT_HTTPS],
        ['ftp://hooks.example.com/x', NOT_HTTPS],
        ['javascript:alert(1)', NOT_HTTPS],
        [long(2049), NOT_HTTPS],
        [long(2048), null],
        ['https://user:pass@hooks.example.com/x', CREDENTIALS],
        ['https://user@hooks.example.com/x', CREDENTIALS],
        ['https://:pass@hooks.example.com/x', CREDENTIALS],
        ['https://10.0.0.1/x', PRIVATE],
        ['https://169.254.169.254/latest/meta-data', PRIVATE],
        ['https://100.100.100.200/', PRIVATE], // CGNAT (Alibaba's metadata)
        ['https://[::1]/x', PRIVATE],
        ['https://[fd00::1]/x', PRIVATE],
        ['https://[fe80::1]/x', PRIVATE],
        ['https://[::ffff:169.254.169.254]/x', PRIVATE],
        ['https://127.0.0.1:8443/x', PRIVATE],
        ['https://2130706433/x', PRIVATE], // the WHATWG parser makes 127.0.0.1 of it
        ['https://0x7f.1/x', PRIVATE],
        ['https://0.0.0.0/x', PRIVATE],
        ['https://localhost/x', PRIVATE],
        ['https://LOCALHOST./x', PRIVATE],
        ['https://localhost../x', PRIVATE],
        ['https://api.localhost/x', PRIVATE],
        ['https://metadata.google.internal/computeMetadata/v1/', PRIVATE],
        ['https://printer.local/x', PRIVATE],
        ['https://redis.default.svc.cluster.local/x', PRIVATE],
        ['https://nas.home.arpa/x', PRIVATE],
        ['https://metadata/x', PRIVATE], // one label: completed by the resolver's search domains
        ['https://93.184.216.34/hook', null],
        ['https://[2606:2800:220:1:248:1893:25c8:1946]/hook', null],
        ['https://hooks.example.com/x', null],
        ['https://hooks.example.com./x', null],
        ['https://hooks.example.com:1/x', null],
        ['https://hooks.example.com:8443/x', null],
        ['https://hooks.example.com:65535/x?a=1#b', null],
        ['https://bücher.example/x', null],
        ['https://internal.example.com/x', null], // only the last label counts
      ];
      for (const [raw, expected] of table) expect(webhookUrlProblem(raw, []), String(raw)).to.equal(expected);
    });

    it('lets test hosts use http, any port, credentials, a loopback address; nothing else is exempt', () => {
      const testHosts = ['127.0.0.1', 'LocalHost', '[::1]'];
      const table: Array<[unknown, string | null]> = [
        ['http://127.0.0.1:8080/x', null],
        ['https://127.0.0.1/x', null],
        ['http://user:pw@localhost:1/x', null],
        ['http://[::1]:9000/x', null],
        ['', REQUIRED],
        ['ftp://127.0.0.1/x', NOT_HTTPS],
        ['http://127.0.0.1/' + 'a'.repeat(2048), NOT_HTTPS],
        ['http://127.0.0.2/x', NOT_HTTPS],
        ['https://127.0.0.2/x', PRIVATE],
        ['https://10.0.0.1/x', PRIVATE],
        ['https://api.localhost/x', PRIVATE],
      ];
      for (const [raw, expected] of table) expect(webhookUrlProblem(raw, testHosts), String(raw)).to.equal(expected);
    });

    it('never throws, and answers null or one of the documented messages, whatever it is given', () => {
      const answers = new Set([null, REQUIRED, NOT_HTTPS, CREDENTIALS, PRIVATE]);
      const testHosts = fc.array(fc.constantFrom('127.0.0.1', 'localhost', '[::1]', 'example.com'), { maxLength: 3 });
      const input = fc.oneof(
        fc.anything(),
        fc.string(),
        fc.string({ unit: 'binary' }),
        fc.webUrl(),
        fc.webUrl({ withQueryParameters: true, withFragments: true, authoritySettings: { withIPv4: true, withIPv6: true, withPort: true, withUserInfo: true } }),
        fc.webUrl().map((u) => u.replace(/^https?:/, 'https:')),
      );
      fc.assert(
        fc.property(input, testHosts, (raw, hosts) => {
          expect(answers.has(webhookUrlProblem(raw, hosts))).to.equal(true);
        }),
        { numRuns: 3000 },
      );
    });
  });

  describe('resolvedAddressProblem', () => {
    it('answers the message when any address of the name is not public, and null otherwise', async () => {
      const table: Array<[Array<string[] | NodeJS.ErrnoException>, string | null]> = [
        [[['93.184.216.34']], null],
        [[['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']], null],
        [[['93.184.216.34', '10.0.0.1']], PRIVATE],
        [[['2606:2800:220:1:248:1893:25c8:1946', 'fe80::1']], PRIVATE],
        [[['169.254.169.254']], PRIVATE],
        [[['::ffff:127.0.0.1']], PRIVATE],
        [[[]], null],
        [[dnsError('ENOTFOUND')], null], // may exist later: an attempt to it fails and is retried
        [[dnsError('EAI_AGAIN')], null],
      ];
      for (const [answers, expected] of table) {
        const dns = fakeDns(...answers);
        expect(await resolvedAddressProblem('https://hooks.example.com/x', [], dns.resolve), JSON.stringify(answers)).to.equal(expected);
        expect(dns.asked).to.deep.equal(['hooks.example.com']);
      }
    });

    it('asks no DNS for a test host, an IP literal or an unparsable URL', async () => {
      const dns = fakeDns(['10.0.0.1']);
      expect(await resolvedAddressProblem('https://hooks.test:8443/x', ['hooks.test'], dns.resolve)).to.equal(null);
      expect(await resolvedAddressProblem('https://93.184.216.34/x', [], dns.resolve)).to.equal(null);
      expect(await resolvedAddressProblem('https://[2606:2800:220:1:248:1893:25c8:1946]/x', [], dns.resolve)).to.equal(null);
      expect(await resolvedAddressProblem('not a url', [], dns.resolve)).to.equal(null);
      expect(dns.asked).to.deep.equal([]);
    });

    it('when DNS does not answer in time, then the name passes (the attempts will tell)', async () => {
      const asked: string[] = [];
      const silent: Resolver = (hostname) => void asked.push(hostname);
      const started = Date.now();
      expect(await resolvedAddressProblem('https://hooks.example.com/x', [], silent, 50)).to.equal(null);
      expect(Date.now() - started).to.be.below(2000);
      expect(asked).to.deep.equal(['hooks.example.com']);
    });

    it('with the real DNS, localhost is refused', async () => {
      expect(await resolvedAddressProblem('https://localhost/x', [])).to.equal(PRIVATE);
    });
  });

  describe('signature property', () => {
    it('the header always verifies with the documented code, for every secret it was made with', () => {
      // Any UTF-16 code unit, lone surrogates included, as well as whole code points.
      const anyText = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }));
      fc.assert(
        fc.property(fc.uuid(), anyText, fc.array(anyText, { minLength: 1, maxLength: 3 }), (id, text, secrets) => {
          // Bodies are JSON events (the documented code parses the id). The text goes in with
          // only what JSON requires escaped, so lone surrogates reach the signer raw (UTF-8
          // makes U+FFFD of them on the wire, and the HMAC of the string does the same).
          const raw = text.replace(/["\\\u0000-\u001f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
          const body = `{"id":"${id}","data":"${raw}"}`;
          const header = signatureHeader(secrets, Math.floor(Date.now() / 1000), body);
          // The receiver decodes the UTF-8 bytes it got (or has the very string, in a test).
          const received = Buffer.from(body, 'utf8').toString('utf8');
          expect(JSON.parse(received).id).to.equal(id);
          for (const secret of secrets) {
            for (const rawBody of [received, body]) expect(verifyAsDocumented({ headers: { 'webhook-signature': header } }, rawBody, secret)).to.equal(200);
          }
        }),
        { numRuns: 1000 },
      );
    });
  });
});
