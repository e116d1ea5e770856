import http2 from 'node:http2';
import { expect } from 'chai';
import { startPushSimulator, type SimulatedSubscription } from '../src/index.js';
import { loadSimulatorConfig } from '../src/config.js';
import { closeH2, connectH2, h2Push, newAppServer, simulatorsPerTest, webPushRequest, type RawRequest } from './support.js';

/** One hand-made push (the same body can be sent twice, as a sender's retry does); its status, or 0 when the stream was reset. */
function h2Send(session: http2.ClientHttp2Session, sub: SimulatedSubscription, request: RawRequest): Promise<number> {
  return new Promise((resolve) => {
    const headers: http2.OutgoingHttpHeaders = { ':method': 'POST', ':path': new URL(sub.endpoint).pathname };
    for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
    const stream = session.request(headers);
    let status = 0;
    stream.on('response', (h) => (status = Number(h[':status'])));
    stream.on('error', () => {});
    stream.on('close', () => resolve(status));
    stream.resume();
    stream.end(request.body);
  });
}

// A push service of limited capacity (capacityPerSecond): pushes wait their turn, so latency grows
// with the load; and the duplicates it counts (a message accepted twice for one subscription).
describe('push simulator: a service of limited capacity, and duplicates', () => {
  const app = newAppServer();
  const start = simulatorsPerTest();

  it('when pushes arrive together at a service of 20 a second, then each waits for those before it: the answers come in arrival order, the tenth after at least nine turns', async () => {
    const sim = await start({ capacityPerSecond: 20 });
    const sub = sim.createSubscription(app.publicKey);
    const { session } = connectH2(sim);
    try {
      const order: number[] = [];
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => h2Push(session, sub, `queued ${i}`, app).then((a) => (order.push(i), a))));
      expect(answers.map((a) => a.status)).to.deep.equal(Array(10).fill(201));
      expect(order).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      // A lower bound only: 50 ms per push, the tenth waits for nine before it and its own turn.
      expect(Math.max(...answers.map((a) => a.ms))).to.be.at.least(450);
      expect(sim.stats().duplicates).to.equal(0);
    } finally {
      await closeH2(session);
    }
  });

  it('when the same message is sent again after its sender gave up waiting, then the service still took the first copy and counts the second as a duplicate', async () => {
    const sim = await start({ capacityPerSecond: 10 });
    const sub = sim.createSubscription(app.publicKey);
    const other = sim.createSubscription(app.publicKey);
    const { session } = connectH2(sim);
    try {
      const message = webPushRequest(sub, 'once', app);
      // The sender gives up on the first copy (resets its stream) while it waits its turn.
      const headers: http2.OutgoingHttpHeaders = { ':method': 'POST', ':path': new URL(sub.endpoint).pathname };
      for (const [name, value] of Object.entries(message.headers)) headers[name.toLowerCase()] = value;
      const first = session.request(headers);
      first.on('error', () => {});
      first.end(message.body);
      // The server answers a PING after the frames sent before it: the body has arrived then.
      await new Promise((r) => session.ping(r));
      first.close(http2.constants.NGHTTP2_CANCEL);
      expect(await h2Send(session, sub, message)).to.equal(201);
      // The same text encrypted again is a new message; another subscription's copy is its own.
      expect(await h2Send(session, sub, webPushRequest(sub, 'once', app))).to.equal(201);
      expect(await h2Send(session, other, webPushRequest(other, 'once', app))).to.equal(201);
      const stats = sim.stats();
      expect(stats.accepted).to.equal(4);
      expect(stats.duplicates).to.equal(1);
      expect(sim.received(sub.id)).to.have.length(3);
      sim.reset();
      expect(sim.stats().duplicates).to.equal(0);
    } finally {
      await closeH2(session);
    }
  });

  it('refuses a capacity that is not a positive number; reads CAPACITY_PER_SECOND or --capacity-per-second', async () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      const err = await startPushSimulator({ capacityPerSecond: bad }).then(
        async (s) => {
          await s.close();
          return undefined;
        },
        (e: Error) => e,
      );
      expect(err?.message, String(bad)).to.match(/capacityPerSecond/);
    }
    expect(loadSimulatorConfig({}, []).options).to.not.have.property('capacityPerSecond');
    expect(loadSimulatorConfig({ CAPACITY_PER_SECOND: '150' }, []).options).to.deep.include({ capacityPerSecond: 150 });
    expect(loadSimulatorConfig({ CAPACITY_PER_SECOND: '150' }, ['--capacity-per-second=120']).options).to.deep.include({ capacityPerSecond: 120 });
    expect(() => loadSimulatorConfig({ CAPACITY_PER_SECOND: '0' }, [])).to.throw(/CAPACITY_PER_SECOND/);
  });
});
