// The push client's outbound rules, over real sockets: https to port 443 of a host name whose
// every resolved address is public, checked in the connection's own DNS lookup; test hosts
// (PUSH_TEST_HOSTS) exempt; routed names (PUSH_TEST_ROUTES) connected to at a local address
// under the same rules. What a push service answers is bounded.
import type { LookupAddress } from 'node:dns';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { createPushClient, MAX_BODY_BYTES, PushRequestError, type PushClient, type PushClientOptions } from '../src/client.js';
import { createDestinationPolicy, type Resolver } from '../src/destination.js';
import { addressProblem } from '../src/ip-ranges.js';
import { startFakePushService, type FakePushService } from './support/fake-push-service.js';
import { testCertificate } from './support/tls.js';

const body = Buffer.from('not really encrypted');
const headers = { TTL: '60', 'Content-Encoding': 'aes128gcm' };

/** A DNS that answers from a script: one answer per lookup, the last one repeated; records the names asked. */
function fakeDns(...answers: string[][]) {
  const asked: string[] = [];
  const resolve: Resolver = (hostname, _options, callback) => {
    asked.push(hostname);
    const answer = answers[Math.min(asked.length - 1, answers.length - 1)];
    const addresses: LookupAddress[] = answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    setImmediate(() => callback(null, addresses));
  };
  return { resolve, asked };
}

describe('push client: where it may connect', () => {
  const clients: PushClient[] = [];
  const services: FakePushService[] = [];
  const client = (opts: PushClientOptions = {}) => {
    const c = createPushClient({ ca: testCertificate().cert, timeoutMs: 3000, ...opts });
    clients.push(c);
    return c;
  };
  const start = async (...args: Parameters<typeof startFakePushService>) => {
    const s = await startFakePushService(...args);
    services.push(s);
    return s;
  };
  const refusal = (p: Promise<unknown>) => p.then(() => expect.fail('expected a refusal'), (err: unknown) => err as PushRequestError);
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(services.splice(0).map((s) => s.stop()));
  });

  it('when an endpoint is not https on port 443 at a host name, then it is refused before any lookup or connection', async () => {
    const dns = fakeDns(['142.250.0.10']);
    const c = client({ destinations: createDestinationPolicy({ resolve: dns.resolve }) });
    const cases: [string, RegExp][] = [
      ['https://fcm.googleapis.com:6379/fcm/send/x', /port 6379 is not 443/],
      ['https://fcm.googleapis.com:8443/x', /port 8443/],
      ['http://fcm.googleapis.com/fcm/send/x', /not https/],
      ['http://fcm.googleapis.com:443/x', /not https/],
      ['https://user:pw@fcm.googleapis.com/x', /credentials/],
      ['https://127.0.0.1/x', /IP address/],
      ['https://2130706433/x', /IP address/], // the WHATWG parser makes 127.0.0.1 of it
      ['https://0x7f.1/x', /IP address/],
      ['https://[::1]/x', /IP address/],
      ['https://[::ffff:a9fe:a9fe]/latest/meta-data', /IP address/],
      ['https://8.8.8.8/x', /IP address/],
    ];
    for (const [endpoint, reason] of cases) {
      const err = await refusal(c.post(endpoint, headers, body));
      expect(err, endpoint).to.be.instanceOf(PushRequestError);
      expect(err.code, endpoint).to.equal('refused');
      expect(err.message, endpoint).to.match(reason);
    }
    expect(dns.asked).to.deep.equal([]);
  });

  it('when a host name resolves to a non-public address, then the push is refused and nothing connects', async () => {
    for (const address of ['10.0.0.7', '127.0.0.1', '169.254.169.254', '100.64.1.1', '192.168.1.1', '172.16.5.4', '0.0.0.0', '224.0.0.1', '::1', 'fd00::1', 'fe80::1', '::ffff:10.0.0.1', '64:ff9b::7f00:1']) {
      const dns = fakeDns(['142.250.0.10', address]); // one bad address among good ones is enough
      const c = client({ destinations: createDestinationPolicy({ resolve: dns.resolve }) });
      const err = await refusal(c.post('https://push.example.com/send/1', headers, body));
      expect(err.code, address).to.equal('refused');
      expect(err.message, address).to.equal(`destination refused: push.example.com resolves to ${address} (${addressProblem(address)})`);
      expect(dns.asked, address).to.deep.equal(['push.example.com']);
    }
  });

  it('when the real DNS resolves a name to loopback (localhost), then it is refused unless the name is a test host', async () => {
    const service = await start('h2');
    const port = new URL(service.origin).port;
    const err = await refusal(client().post('https://localhost/push/1', headers, body));
    expect(err).to.include({ code: 'refused' });
    expect(err.message).to.match(/^destination refused: localhost resolves to (127\.0\.0\.1|::1) \(loopback\)$/);
    // The same service as a test host: http or https, any port, any address.
    const res = await client({ testHosts: ['localhost'] }).post(`https://localhost:${port}/push/2`, headers, body);
    expect(res.status).to.equal(201);
    expect(service.received.map((r) => r.path)).to.deep.equal(['/push/2']);
  });

  for (const protocol of ['h2', 'https1'] as const) {
    it(`when a push-service name is routed (PUSH_TEST_ROUTES), then its pushes go to the local address with the name in TLS and Host, and its URLs keep the production rules (${protocol})`, async () => {
      const service = await start(protocol);
      const port = Number(new URL(service.origin).port);
      // The test certificate is valid for localhost: the name the route keeps, not the address.
      const c = client({ testRoutes: new Map([['localhost', { host: '127.0.0.1', port }]]) });
      const res = await c.post('https://localhost/push/1', headers, body);
      expect(res.status).to.equal(201);
      expect(service.received.map((r) => r.path)).to.deep.equal(['/push/1']);
      if (protocol === 'https1') expect(service.received[0].headers.host).to.equal('localhost');
      for (const [endpoint, reason] of [['http://localhost/push/2', /not https/], [`https://localhost:${port}/push/3`, /port \d+ is not 443/]] as const) {
        const err = await refusal(c.post(endpoint, headers, body));
        expect(err, endpoint).to.include({ code: 'refused' });
        expect(err.message, endpoint).to.match(reason);
      }
      expect(service.received).to.have.length(1);
    });
  }

  it('when a routed name is served with a certificate for another name, then the push fails and nothing is sent', async () => {
    const service = await start('h2');
    const port = Number(new URL(service.origin).port);
    const c = client({ testRoutes: new Map([['push.example.com', { host: '127.0.0.1', port }]]) });
    const err = await refusal(c.post('https://push.example.com/push/1', headers, body));
    expect(err.code).to.equal('network');
    expect(err.message).to.match(/push\.example\.com/);
    expect(service.received).to.deep.equal([]);
  });

  it('when the fake push service on 127.0.0.1 is not a test host, then nothing reaches it', async () => {
    const service = await start('https1');
    const err = await refusal(client().post(service.endpoint('/push/1'), headers, body));
    expect(err).to.include({ code: 'refused' });
    expect(service.connections).to.equal(0);
    const plain = await start('http1');
    expect(await refusal(client().post(plain.endpoint('/push/1'), headers, body))).to.include({ code: 'refused' });
    expect(plain.connections).to.equal(0);
  });

  for (const protocol of ['h2', 'https1'] as const) {
    it(`when the name is rebound to a private address after the first connection, then the next connection is refused (${protocol})`, async () => {
      const service = await start(protocol);
      const port = Number(new URL(service.origin).port);
      // Production rules on the test server's port; 127.0.0.1 stands for "a public address" here.
      const dns = fakeDns(['127.0.0.1'], ['10.0.0.1']);
      const destinations = createDestinationPolicy({ resolve: dns.resolve, httpsPort: port, addressProblem: (a) => (a === '127.0.0.1' ? null : addressProblem(a)) });
      const c = client({ destinations });
      if (protocol === 'h2') {
        expect((await c.post(`https://localhost:${port}/push/1`, headers, body)).status).to.equal(201);
        service.goaway(); // the session ends: the next push connects again, and looks the name up again
        let err: PushRequestError | undefined;
        for (let i = 0; i < 50 && !err; i++) {
          err = await c.post(`https://localhost:${port}/push/2`, headers, body).then(() => undefined, (e: PushRequestError) => (e.code === 'refused' ? e : undefined));
          if (!err) await new Promise((r) => setTimeout(r, 20));
        }
        expect(err?.message).to.equal('destination refused: localhost resolves to 10.0.0.1 (private)');
      } else {
        // The ALPN probe connects once (127.0.0.1); the HTTP/1.1 agent's own socket looks up again.
        const err = await refusal(c.post(`https://localhost:${port}/push/1`, headers, body));
        expect(err.message).to.equal('destination refused: localhost resolves to 10.0.0.1 (private)');
        expect(service.received).to.have.length(0);
      }
      expect(dns.asked.length).to.be.at.least(2);
      expect(dns.asked.every((h) => h === 'localhost')).to.equal(true);
    });
  }

  it('when an origin was refused, then its next pushes fail at once without another lookup', async () => {
    const dns = fakeDns(['10.1.1.1']);
    const c = client({ destinations: createDestinationPolicy({ resolve: dns.resolve }) });
    const errors = await Promise.all(Array.from({ length: 20 }, (_, i) => refusal(c.post(`https://push.example.com/send/${i}`, headers, body))));
    expect(errors.every((e) => e.code === 'refused')).to.equal(true);
    await refusal(c.post('https://push.example.com/send/late', headers, body));
    expect(dns.asked).to.have.length(1);
  });
});

describe('push client: what it reads of an answer', () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  /** A push service whose answer never ends: 201, then body bytes forever. */
  async function endlessService(protocol: 'h2' | 'https1') {
    const { key, cert } = testCertificate();
    let written = 0;
    const timers = new Set<NodeJS.Timeout>();
    const onRequest = (req: http2.Http2ServerRequest | import('node:http').IncomingMessage, res: http2.Http2ServerResponse | import('node:http').ServerResponse) => {
      req.resume();
      req.on('end', () => {
        // HTTP/2 has no reason phrase; over HTTP/1.1 the service sends one with markup in it.
        if (protocol === 'h2') (res as http2.Http2ServerResponse).writeHead(201, { 'content-type': 'text/plain' });
        else (res as import('node:http').ServerResponse).writeHead(201, 'Created <evil> {"x":1}', { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(16 * 1024, 'S');
        const timer = setInterval(() => {
          if (res.destroyed || res.writableEnded) return clearInterval(timer);
          written += chunk.length;
          (res as import('node:http').ServerResponse).write(chunk);
        }, 1);
        timers.add(timer);
        res.on('close', () => clearInterval(timer));
      });
    };
    const server = protocol === 'h2' ? http2.createSecureServer({ key, cert }, onRequest) : https.createServer({ key, cert }, onRequest);
    const sessions = new Set<http2.ServerHttp2Session>();
    server.on('session', (s: http2.ServerHttp2Session) => sessions.add(s));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(async () => {
      for (const t of timers) clearInterval(t);
      for (const s of sessions) s.destroy();
      if ('closeAllConnections' in server) server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    return { origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, written: () => written };
  }

  for (const protocol of ['h2', 'https1'] as const) {
    it(`when a push service sends an endless body, then the client answers with the status after reading at most the cap (${protocol})`, async () => {
      const service = await endlessService(protocol);
      const c = createPushClient({ ca: testCertificate().cert, testHosts: ['127.0.0.1'], timeoutMs: 5000 });
      closers.push(() => c.close());
      const started = Date.now();
      const res = await c.post(`${service.origin}/push/1`, headers, body);
      expect(res.status).to.equal(201);
      expect(res.statusText).to.equal(protocol === 'h2' ? '' : 'Created evil x:1');
      expect(Date.now() - started).to.be.below(4000);
      expect(Object.keys(res)).to.have.members(['status', 'headers', 'statusText']);
      expect(MAX_BODY_BYTES).to.equal(64 * 1024);
    });
  }
});
