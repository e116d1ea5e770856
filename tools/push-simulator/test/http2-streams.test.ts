// HTTP/2 is served through Node's stream API (not its compatibility layer): what that layer did
// for every request must still hold for pushes, the control API and clients that misbehave.
import { expect } from 'chai';
import http2 from 'node:http2';
import { startPushSimulator, type PushSimulator, type SimulatedSubscription } from '../src/index.js';
import { closeH2, connectH2, h2Push, newAppServer, webPushRequest, type AppServer } from './support.js';

interface Answer {
  status: number;
  headers: http2.IncomingHttpHeaders;
  body: string;
}

function h2Request(session: http2.ClientHttp2Session, headers: http2.OutgoingHttpHeaders, body?: Buffer | string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const stream = session.request(headers);
    let answer: Omit<Answer, 'body'> | undefined;
    const chunks: Buffer[] = [];
    stream.on('response', (h) => (answer = { status: Number(h[':status']), headers: h }));
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('error', reject);
    stream.on('close', () => (answer
      ? resolve({ ...answer, body: Buffer.concat(chunks).toString('utf8') })
      : reject(new Error(`stream closed with code ${stream.rstCode}`))));
    stream.end(body);
  });
}

function pushHeaders(sub: SimulatedSubscription, app: AppServer, payload: string): { headers: http2.OutgoingHttpHeaders; body: Buffer } {
  const { headers, body } = webPushRequest(sub, payload, app);
  const h2headers: http2.OutgoingHttpHeaders = { ':method': 'POST', ':path': new URL(sub.endpoint).pathname };
  for (const [name, value] of Object.entries(headers)) h2headers[name.toLowerCase()] = value;
  return { headers: h2headers, body };
}

describe('push simulator: HTTP/2 streams', () => {
  let sim: PushSimulator;
  let app: AppServer;
  let sub: SimulatedSubscription;
  let session: http2.ClientHttp2Session;

  beforeEach(async () => {
    sim = await startPushSimulator();
    app = newAppServer();
    sub = sim.createSubscription(app.publicKey);
    session = connectH2(sim).session;
  });

  afterEach(async () => {
    await closeH2(session);
    await sim.close();
  });

  it('answers the control API, unknown paths and other methods over HTTP/2, with a Date and a Content-Length', async () => {
    const created = await h2Request(session, { ':method': 'POST', ':path': '/_sim/subscriptions', 'content-type': 'application/json' },
      JSON.stringify({ applicationServerKey: app.publicKey }));
    expect(created.status, created.body).to.equal(201);
    const other = JSON.parse(created.body) as SimulatedSubscription;
    expect(other.endpoint).to.equal(`${sim.origin}/push/${other.id}`);

    expect((await h2Push(session, other, 'over h2', app)).status).to.equal(201);
    const stats = await h2Request(session, { ':method': 'GET', ':path': '/_sim/stats' });
    expect(stats.status).to.equal(200);
    expect(JSON.parse(stats.body)).to.deep.include({ accepted: 1, decrypted: 1 });
    expect(stats.headers['content-length']).to.equal(String(Buffer.byteLength(stats.body)));
    expect(stats.headers.date).to.be.a('string');

    const missing = await h2Request(session, { ':method': 'GET', ':path': '/nowhere' });
    expect(missing.status).to.equal(404);
    expect(JSON.parse(missing.body)).to.deep.equal({ message: 'not found' });
    const got = await h2Request(session, { ':method': 'GET', ':path': new URL(sub.endpoint).pathname });
    expect(got.status).to.equal(405);
    // A push path with a query is still a push path.
    const { headers, body } = pushHeaders(sub, app, 'with a query');
    const queried = await h2Request(session, { ...headers, ':path': `${new URL(sub.endpoint).pathname}?x=1` }, body);
    expect(queried.status, queried.body).to.equal(201);
    expect(queried.headers.location).to.match(new RegExp(`^${sim.origin}/m/[A-Za-z0-9_-]{16}$`));
    expect(sim.received(sub.id).map((m) => m.payload)).to.deep.equal(['with a query']);
  });

  it('gives each accepted push its own message id', async () => {
    const locations = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const { headers, body } = pushHeaders(sub, app, `push ${i}`);
      const answer = await h2Request(session, headers, body);
      expect(answer.status).to.equal(201);
      locations.add(String(answer.headers.location));
    }
    expect(locations.size).to.equal(20);
    expect(new Set(sim.received(sub.id).map((m) => m.id)).size).to.equal(20);
  });

  it('sends 100 Continue to a client that expects it, then takes the push', async () => {
    const { headers, body } = pushHeaders(sub, app, 'after continue');
    const status = await new Promise<number>((resolve, reject) => {
      const stream = session.request({ ...headers, expect: '100-continue' }, { endStream: false });
      stream.once('continue', () => stream.end(body));
      stream.on('response', (h) => resolve(Number(h[':status'])));
      stream.on('error', reject);
      stream.resume();
    });
    expect(status).to.equal(201);
    expect(sim.received(sub.id).map((m) => m.payload)).to.deep.equal(['after continue']);
  });

  for (const code of [http2.constants.NGHTTP2_CANCEL, http2.constants.NGHTTP2_INTERNAL_ERROR]) {
    it(`when a client resets a push stream (code ${code}) before its body ends, then nothing is counted and the session goes on`, async () => {
      const { headers, body } = pushHeaders(sub, app, 'never finished');
      const stream = session.request(headers, { endStream: false });
      stream.on('error', () => {});
      stream.write(body.subarray(0, 10));
      await new Promise((resolve) => setTimeout(resolve, 50));
      await new Promise<void>((resolve) => stream.close(code, () => resolve()));

      expect((await h2Push(session, sub, 'next', app)).status).to.equal(201);
      expect(sim.received(sub.id).map((m) => m.payload)).to.deep.equal(['next']);
      expect(sim.stats()).to.deep.include({ accepted: 1 });
      expect(sim.stats().http2Sessions).to.equal(1);
    });
  }

  it('when a client resets a push while its answer waits for latency, then the push is still taken and the session goes on', async () => {
    const far = await startPushSimulator({ latencyMs: 100 });
    const farSession = connectH2(far).session;
    try {
      const farSub = far.createSubscription(app.publicKey);
      const { headers, body } = pushHeaders(farSub, app, 'answer never read');
      const stream = farSession.request(headers);
      stream.on('error', () => {});
      stream.end(body);
      await new Promise((resolve) => setTimeout(resolve, 30));
      stream.close(http2.constants.NGHTTP2_CANCEL);
      await new Promise((resolve) => setTimeout(resolve, 150));

      expect((await h2Push(farSession, farSub, 'next', app)).status).to.equal(201);
      expect(far.received(farSub.id).map((m) => m.payload)).to.deep.equal(['answer never read', 'next']);
    } finally {
      await closeH2(farSession);
      await far.close();
    }
  });
});
