import http2 from 'node:http2';
import { expect } from 'chai';
import { createPushClient, PUSH_HTTP_CLIENTS, PushRequestError, type PushClient } from '../src/client.js';
import { startFakePushService, type FakePushService } from './support/fake-push-service.js';
import { testCertificate } from './support/tls.js';

const body = Buffer.from('not really encrypted');
const headers = { TTL: '60', 'Content-Encoding': 'aes128gcm', 'Content-Type': 'application/octet-stream' };

async function postMany(client: PushClient, service: FakePushService, n: number) {
  return Promise.all(Array.from({ length: n }, (_, i) => client.post(service.endpoint(`/push/${i}`), headers, body)));
}

// Every test runs with both HTTP/2 implementations (PUSH_HTTP_CLIENT): the same behaviour is
// asked of each, whatever carries the frames.
for (const httpClient of PUSH_HTTP_CLIENTS) describe(`push client (PUSH_HTTP_CLIENT=${httpClient})`, () => {
  const services: FakePushService[] = [];
  const clients: PushClient[] = [];
  const start = async (...args: Parameters<typeof startFakePushService>) => {
    const service = await startFakePushService(...args);
    services.push(service);
    return service;
  };
  const client = (opts: Parameters<typeof createPushClient>[0] = {}) => {
    const c = createPushClient({ ca: testCertificate().cert, testHosts: ['127.0.0.1'], httpClient, ...opts });
    clients.push(c);
    return c;
  };
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(services.splice(0).map((s) => s.stop()));
  });

  it('when the origin offers HTTP/2 with no stream limit, then many requests share one session', async () => {
    const service = await start('h2');
    const c = client();
    // A burst to a new origin counts on 100 streams per connection until a server says more.
    expect((await c.post(service.endpoint('/first'), headers, body)).status).to.equal(201);
    const responses = await postMany(c, service, 200);
    expect(responses.every((r) => r.status === 201)).to.equal(true);
    expect(c.protocolFor(service.origin)).to.equal('h2');
    expect(service.connections).to.equal(1);
    expect(service.received[0].headers).to.include({ ttl: '60', 'content-encoding': 'aes128gcm', 'content-length': String(body.length) });
    expect(Buffer.compare(service.received[0].body, body)).to.equal(0);
  });

  it('when the origin speaks only HTTP/1.1, then keep-alive sockets are reused, no more than the socket cap', async () => {
    const service = await start('https1');
    const c = client({ http1SocketsPerOrigin: 8 });
    const responses = await postMany(c, service, 200);
    expect(responses.every((r) => r.status === 201)).to.equal(true);
    expect(c.protocolFor(service.origin)).to.equal('http/1.1');
    // One extra TLS connection is the ALPN probe that found no h2.
    expect(service.connections).to.be.at.most(8 + 1);
  });

  it('reaches plain-http origins with keep-alive as well', async () => {
    const service = await start('http1');
    const c = client({ http1SocketsPerOrigin: 4 });
    await postMany(c, service, 50);
    expect(service.connections).to.be.at.most(4);
  });

  it('never has more HTTP/1.1 requests in flight to one origin than its socket cap', async () => {
    const service = await start('https1', () => new Promise((resolve) => setTimeout(() => resolve({ status: 201 }), 5)));
    const c = client({ http1SocketsPerOrigin: 5 });
    await postMany(c, service, 60);
    expect(service.received).to.have.length(60);
    expect(service.maxConcurrent).to.be.at.most(5).and.at.least(1);
  });

  describe('several HTTP/2 connections per origin', () => {
    /** Answers nothing until `n` requests are in flight at once (or release() is called), then everything. */
    function barrier(n: number) {
      const held: Array<() => void> = [];
      let open = false;
      const release = () => {
        open = true;
        for (const answer of held.splice(0)) answer();
      };
      const handler = () =>
        new Promise<{ status: number }>((resolve) => {
          if (open) return resolve({ status: 201 });
          held.push(() => resolve({ status: 201 }));
          if (held.length >= n) release();
        });
      return { handler, release, held: () => held.length };
    }

    it('when the server advertises 10 streams per connection, then 45 requests in flight open 5 connections and none carries more than 10', async () => {
      const b = barrier(45);
      const service = await start('h2', b.handler, { maxConcurrentStreams: 10 });
      const c = client();
      // All 45 can be in flight at once only on 5 connections: the barrier opens only then.
      const responses = await postMany(c, service, 45);
      expect(responses.every((r) => r.status === 201)).to.equal(true);
      expect(service.maxConcurrent).to.equal(45);
      expect(service.maxConcurrentPerConnection).to.equal(10);
      expect(service.connections).to.equal(5);
      expect(c.connectionsTo(service.origin)).to.equal(5);
    });

    it('when a burst of 250 reaches a new origin advertising 100 streams, then 3 connections carry it, 100 streams at most on each', async () => {
      const b = barrier(250);
      const service = await start('h2', b.handler, { maxConcurrentStreams: 100 });
      const c = client();
      expect((await postMany(c, service, 250)).every((r) => r.status === 201)).to.equal(true);
      expect(service.connections).to.equal(3);
      expect(service.maxConcurrentPerConnection).to.equal(100);
    });

    it('when every connection allowed is full, then further requests wait for a stream instead of exceeding the server\'s limit', async () => {
      const b = barrier(Infinity);
      const service = await start('h2', b.handler, { maxConcurrentStreams: 10 });
      const c = client({ maxConnectionsPerOrigin: 2 });
      const all = postMany(c, service, 45);
      for (let i = 0; i < 500 && b.held() < 20; i++) await new Promise((r) => setTimeout(r, 5));
      expect(b.held()).to.equal(20);
      expect(service.connections).to.equal(2);
      b.release();
      expect((await all).every((r) => r.status === 201)).to.equal(true);
      expect(service.received).to.have.length(45);
      expect(service.maxConcurrentPerConnection).to.equal(10);
      expect(service.connections).to.equal(2);
    });

    it('when one connection gets GOAWAY, then its requests finish and new ones go to the others or a new connection', async () => {
      const b = barrier(25);
      const service = await start('h2', b.handler, { maxConcurrentStreams: 10 });
      const c = client();
      expect((await postMany(c, service, 25)).every((r) => r.status === 201)).to.equal(true);
      expect(service.connections).to.equal(3);
      service.goaway();
      for (let i = 0; i < 100 && c.connectionsTo(service.origin) > 0; i++) await new Promise((r) => setTimeout(r, 10));
      const after = await postMany(c, service, 5);
      expect(after.every((r) => r.status === 201)).to.equal(true);
      expect(service.connections).to.equal(4);
    });
  });

  it('returns the status and lowercased headers; the body is read and dropped', async () => {
    const service = await start('h2', () => ({ status: 429, headers: { 'Retry-After': '30' }, body: 'x'.repeat(2000) }));
    const res = await client().post(service.endpoint('/a'), headers, body);
    expect(res).to.deep.include({ status: 429, statusText: '' });
    expect(res.headers['retry-after']).to.equal('30');
    expect(res).to.not.have.property('body');
  });

  for (const protocol of ['h2', 'https1'] as const) {
    it(`when the push service does not answer in time, then the request fails with a timeout error, maybe accepted (${protocol})`, async () => {
      const service = await start(protocol, () => 'hang');
      const err = await client({ timeoutMs: 200 }).post(service.endpoint('/slow'), headers, body).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(PushRequestError);
      expect(err).to.include({ code: 'timeout', maybeAccepted: true });
    });

    it(`when the push service resets the request after reading it, then it fails with a reset error, maybe accepted (${protocol})`, async () => {
      const service = await start(protocol, () => 'reset');
      const err = await client().post(service.endpoint('/reset'), headers, body).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(PushRequestError);
      expect(err).to.include({ code: 'reset', maybeAccepted: true });
    });

    it(`when a kept-alive connection is reset after earlier answers, then the next request's failure is still maybe accepted (${protocol})`, async () => {
      let n = 0;
      const service = await start(protocol, () => (++n === 2 ? 'reset' : { status: 201 }));
      const c = client();
      expect((await c.post(service.endpoint('/1'), headers, body)).status).to.equal(201);
      expect(await c.post(service.endpoint('/2'), headers, body).catch((e: unknown) => e)).to.include({ code: 'reset', maybeAccepted: true });
    });
  }

  for (const protocol of ['h2', 'http1'] as const) {
    it(`when nothing listens at the origin, then the request fails as a network error that cannot have been accepted (${protocol})`, async () => {
      const service = await start(protocol);
      const endpoint = service.endpoint('/gone');
      await service.stop();
      services.splice(services.indexOf(service), 1);
      const err = await client().post(endpoint, headers, body).catch((e: unknown) => e);
      expect(err).to.include({ code: 'network', maybeAccepted: false });
    });
  }

  it('when the TLS handshake fails, then the request cannot have been accepted', async () => {
    const service = await start('https1');
    const untrusting = createPushClient({ testHosts: ['127.0.0.1'], httpClient });
    clients.push(untrusting);
    expect(await untrusting.post(service.endpoint('/x'), headers, body).catch((e: unknown) => e)).to.include({ maybeAccepted: false });
  });

  it('when an HTTP/2 stream is refused (REFUSED_STREAM), then it cannot have been processed: not maybe accepted', async () => {
    const { key, cert } = testCertificate();
    const server = http2.createSecureServer({ key, cert }, (req) => req.stream.close(http2.constants.NGHTTP2_REFUSED_STREAM));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const err = await client().post(`https://127.0.0.1:${port}/refused`, headers, body).catch((e: unknown) => e);
      expect(err).to.include({ code: 'reset', maybeAccepted: false });
    } finally {
      await Promise.all(clients.splice(0).map((c) => c.close()));
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('when the session receives GOAWAY, then the next requests open a new session', async () => {
    const service = await start('h2');
    const c = client();
    await postMany(c, service, 5);
    service.goaway();
    // GOAWAY is asynchronous; requests racing it may be refused, the point is the pool recovers.
    for (let i = 0; i < 50 && service.connections < 2; i += 1) {
      await c.post(service.endpoint('/after'), headers, body).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(service.connections).to.equal(2);
    expect((await c.post(service.endpoint('/again'), headers, body)).status).to.equal(201);
  });

  it('when the certificate is not trusted, then the request fails with a network error', async () => {
    const service = await start('h2');
    const untrusting = createPushClient({ testHosts: ['127.0.0.1'], httpClient });
    clients.push(untrusting);
    const err = await untrusting.post(service.endpoint('/x'), headers, body).catch((e: unknown) => e);
    expect(err).to.include({ code: 'network' });
    expect(service.received).to.have.length(0);
  });

  it('when closed, then requests waiting for a stream are rejected, those in flight end, and new ones are refused', async () => {
    const service = await start('h2', () => 'hang', { maxConcurrentStreams: 1 });
    const c = client({ maxConnectionsPerOrigin: 1 });
    const first = c.post(service.endpoint('/1'), headers, body).catch((e: unknown) => e);
    const second = c.post(service.endpoint('/2'), headers, body).catch((e: unknown) => e);
    for (let i = 0; i < 100 && service.received.length === 0; i += 1) await new Promise((r) => setTimeout(r, 10));
    await c.close();
    expect(await second).to.include({ code: 'closed' });
    expect(await first).to.be.instanceOf(PushRequestError);
    expect(service.received).to.have.length(1);
    expect(await c.post(service.endpoint('/3'), headers, body).catch((e: unknown) => e)).to.include({ code: 'closed' });
  });
});
