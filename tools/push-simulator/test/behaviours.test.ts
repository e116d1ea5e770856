import { expect } from 'chai';
import http2 from 'node:http2';
import https from 'node:https';
import webpush, { WebPushError } from 'web-push';
import { startPushSimulator, type PushSimulator, type SimulatedSubscription } from '../src/index.js';
import { agentFor, newAppServer, pushOptions, webPushRequest, type AppServer } from './support.js';

async function pushError(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected the push to fail');
}

describe('push simulator: behaviours, expiry and transports', () => {
  let sim: PushSimulator;
  let agent: https.Agent;
  let app: AppServer;
  let sub: SimulatedSubscription;

  before(async () => {
    sim = await startPushSimulator({ seed: 7 });
    agent = agentFor(sim);
    app = newAppServer();
  });

  beforeEach(() => {
    sim.clearBehaviours();
    sim.reset();
    sub = sim.createSubscription(app.publicKey);
  });

  after(async () => {
    agent.destroy();
    await sim.close();
  });

  it('when told to answer 429 with Retry-After in seconds, then the sender sees 429 and the header, and nothing is stored', async () => {
    sim.setBehaviour({ status: 429, retryAfter: '30', times: 1 });
    const err = await pushError(webpush.sendNotification(sub, 'x', pushOptions(app, agent)));
    expect(err).to.be.instanceOf(WebPushError);
    expect((err as WebPushError).statusCode).to.equal(429);
    expect((err as WebPushError).headers['retry-after']).to.equal('30');
    expect(sim.received()).to.have.length(0);

    const ok = await webpush.sendNotification(sub, 'after the limit', pushOptions(app, agent));
    expect(ok.statusCode).to.equal(201);
    expect(sim.stats().byStatus).to.deep.equal({ 429: 1, 201: 1 });
  });

  it('passes an HTTP-date Retry-After through unchanged', async () => {
    const date = new Date(Date.now() + 60_000).toUTCString();
    sim.setBehaviour({ status: 429, retryAfter: date, times: 1 });
    const err = await pushError(webpush.sendNotification(sub, 'x', pushOptions(app, agent)));
    expect((err as WebPushError).headers['retry-after']).to.equal(date);
  });

  it('answers any configured error status, only for the chosen subscription', async () => {
    const other = sim.createSubscription(app.publicKey);
    for (const status of [400, 403, 404, 410, 413, 500, 503]) {
      sim.clearBehaviours();
      sim.setBehaviour({ status, forSubscription: sub.id });
      const err = await pushError(webpush.sendNotification(sub, 'x', pushOptions(app, agent)));
      expect((err as WebPushError).statusCode).to.equal(status);
      const ok = await webpush.sendNotification(other, 'y', pushOptions(app, agent));
      expect(ok.statusCode).to.equal(201);
    }
    expect(sim.received(sub.id)).to.have.length(0);
    expect(sim.received(other.id)).to.have.length(7);
    expect(() => sim.setBehaviour({ status: 200 })).to.throw(/status/);
  });

  it('when a subscription is expired, then pushes get 410 and each later contact is counted', async () => {
    await webpush.sendNotification(sub, 'before', pushOptions(app, agent));
    expect(sim.expireSubscription(sub.id)).to.equal(true);
    expect(sim.stats().afterExpiry).to.equal(0);
    for (let i = 0; i < 2; i++) {
      const err = await pushError(webpush.sendNotification(sub, 'after', pushOptions(app, agent)));
      expect((err as WebPushError).statusCode).to.equal(410);
    }
    expect(sim.stats().afterExpiry).to.equal(2);
    expect(sim.received(sub.id).map((m) => m.payload)).to.deep.equal(['before']);
    expect(sim.expireSubscription('unknown')).to.equal(false);
  });

  it('when latency is added, then a client with a shorter timeout gives up and a patient one gets 201', async () => {
    sim.setBehaviour({ latencyMs: 3000, times: 1 });
    const err = await pushError(webpush.sendNotification(sub, 'slow', pushOptions(app, agent, { timeout: 200 })));
    expect(err.message).to.match(/timeout/i);
    sim.setBehaviour({ latencyMs: 50, times: 1 });
    const ok = await webpush.sendNotification(sub, 'bit slow', pushOptions(app, agent));
    expect(ok.statusCode).to.equal(201);
  });

  it('when told to reset before accepting, then the client sees a socket error and nothing is stored', async () => {
    sim.setBehaviour({ resetBeforeAccept: 1, times: 1 });
    const err = await pushError(webpush.sendNotification(sub, 'lost', pushOptions(app, agent)));
    expect(err).to.not.be.instanceOf(WebPushError);
    expect((err as NodeJS.ErrnoException).code ?? err.message).to.match(/ECONNRESET|socket hang up/);
    expect(sim.received()).to.have.length(0);
    expect(sim.stats().resets.beforeAccept).to.equal(1);
  });

  it('when told to reset after accepting, then the client sees a socket error but the message was stored', async () => {
    sim.setBehaviour({ resetAfterAccept: 1, times: 1 });
    const err = await pushError(webpush.sendNotification(sub, 'arrived anyway', pushOptions(app, agent)));
    expect((err as NodeJS.ErrnoException).code ?? err.message).to.match(/ECONNRESET|socket hang up/);
    expect(sim.received(sub.id).map((m) => m.payload)).to.deep.equal(['arrived anyway']);
    expect(sim.stats().resets.afterAccept).to.equal(1);
    expect(sim.stats().accepted).to.equal(1);
  });

  it('when a reset probability is partial, then it hits some pushes, the same ones for the same seed', async () => {
    const run = async (): Promise<boolean[]> => {
      const seeded = await startPushSimulator({ seed: 42 });
      const client = agentFor(seeded);
      try {
        const target = seeded.createSubscription(app.publicKey);
        seeded.setBehaviour({ resetBeforeAccept: 0.5 });
        const failed: boolean[] = [];
        for (let i = 0; i < 20; i++) {
          failed.push(await webpush.sendNotification(target, `m${i}`, pushOptions(app, client)).then(() => false, () => true));
        }
        const failures = failed.filter(Boolean).length;
        expect(failures).to.equal(seeded.stats().resets.beforeAccept);
        expect(seeded.received()).to.have.length(20 - failures);
        return failed;
      } finally {
        client.destroy();
        await seeded.close();
      }
    };
    const first = await run();
    expect(first.filter(Boolean).length).to.be.within(1, 19);
    expect(await run()).to.deep.equal(first);
  });

  it('keeps HTTP/1.1 connections alive across pushes', async () => {
    const single = new https.Agent({ ca: sim.caCertPem, keepAlive: true, maxSockets: 1 });
    try {
      for (let i = 0; i < 3; i++) await webpush.sendNotification(sub, `k${i}`, pushOptions(app, single));
      expect(sim.stats().connections).to.equal(1);
    } finally {
      single.destroy();
    }
  });

  it('speaks HTTP/2 to a client that offers it, on one session, and resets just the stream when told', async () => {
    const session = http2.connect(sim.origin, { ca: sim.caCertPem });
    session.on('error', () => {});
    const push = (payload: string) => new Promise<{ status: number; location?: string }>((resolve, reject) => {
      const { headers, body } = webPushRequest(sub, payload, app);
      const h2headers: http2.OutgoingHttpHeaders = { ':method': 'POST', ':path': new URL(sub.endpoint).pathname };
      for (const [name, value] of Object.entries(headers)) h2headers[name.toLowerCase()] = value;
      const stream = session.request(h2headers);
      let status = 0;
      let location: string | undefined;
      stream.on('response', (h) => {
        status = Number(h[':status']);
        location = h.location as string | undefined;
      });
      stream.on('error', reject);
      stream.on('close', () => (status ? resolve({ status, location }) : reject(new Error(`stream closed with code ${stream.rstCode}`))));
      stream.resume();
      stream.end(body);
    });
    try {
      const first = await push('over h2');
      expect(first.status).to.equal(201);
      expect(first.location).to.match(/\/m\//);

      sim.setBehaviour({ resetBeforeAccept: 1, times: 1 });
      const err = await push('reset').then(() => undefined, (e: Error) => e);
      expect(err).to.be.instanceOf(Error);

      const after = await push('still the same session');
      expect(after.status).to.equal(201);
      expect(sim.received(sub.id).map((m) => m.payload)).to.deep.equal(['over h2', 'still the same session']);
      expect(sim.stats().http2Sessions).to.equal(1);
    } finally {
      await new Promise<void>((resolve) => session.close(() => resolve()));
    }
  });
});
