import { expect } from 'chai';
import { startPushSimulator } from '../src/index.js';
import { loadSimulatorConfig } from '../src/config.js';
import { closeH2, connectH2, controlJson, h2Push, newAppServer, simulatorsPerTest } from './support.js';

// A far push service: latencyMs delays every answer, maxConcurrentStreams caps a connection.
describe('push simulator: a far push service (latencyMs, maxConcurrentStreams)', () => {
  const app = newAppServer();
  const start = simulatorsPerTest();

  it('when latencyMs is set, then every push is answered after it, and pushes on other streams wait alongside, not in turn', async () => {
    const sim = await start({ latencyMs: 200 });
    const sub = sim.createSubscription(app.publicKey);
    const { session, settings } = connectH2(sim);
    try {
      // No limit advertised by default: Node's 2^32 - 1.
      expect((await settings).maxConcurrentStreams).to.equal(4294967295);
      const started = performance.now();
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => h2Push(session, sub, `far ${i}`, app)));
      const elapsed = performance.now() - started;
      expect(answers.map((a) => a.status)).to.deep.equal(Array(10).fill(201));
      for (const a of answers) expect(a.ms).to.be.at.least(190);
      // Ten in turn would take 2 s.
      expect(elapsed).to.be.below(1500);
      expect(sim.received(sub.id)).to.have.length(10);
    } finally {
      await closeH2(session);
    }
  });

  it('delays rejections too, and answers the control API at once', async () => {
    const sim = await start({ latencyMs: 200 });
    const sub = sim.createSubscription(app.publicKey);
    sim.expireSubscription(sub.id);
    const { session } = connectH2(sim);
    try {
      const gone = await h2Push(session, sub, 'x', app);
      expect(gone.status).to.equal(410);
      expect(gone.ms).to.be.at.least(190);
      expect(sim.stats().afterExpiry).to.equal(1);
      const asked = performance.now();
      expect((await controlJson(sim, 'GET', '/_sim/stats')).status).to.equal(200);
      expect(performance.now() - asked).to.be.below(150);
    } finally {
      await closeH2(session);
    }
  });

  it('when maxConcurrentStreams is set, then the server advertises it and a connection carries that many pushes at a time', async () => {
    const sim = await start({ latencyMs: 200, maxConcurrentStreams: 2 });
    const sub = sim.createSubscription(app.publicKey);
    const { session, settings } = connectH2(sim);
    try {
      expect((await settings).maxConcurrentStreams).to.equal(2);
      const started = performance.now();
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => h2Push(session, sub, `wave ${i}`, app)));
      const elapsed = performance.now() - started;
      expect(answers.map((a) => a.status)).to.deep.equal(Array(6).fill(201));
      // Six pushes, two at a time, 200 ms each: three waves.
      expect(elapsed).to.be.at.least(570);
      expect(sim.stats().http2Sessions).to.equal(1);
    } finally {
      await closeH2(session);
    }
  });

  it('when closed while pushes wait, then close ends the waits at once and those pushes get no answer', async () => {
    const sim = await start({ latencyMs: 60_000 });
    const sub = sim.createSubscription(app.publicKey);
    const { session } = connectH2(sim);
    try {
      const pending = Array.from({ length: 3 }, (_, i) => h2Push(session, sub, `never ${i}`, app).then(
        (a) => a.status,
        () => 'no answer',
      ));
      // Locally the bodies arrive within milliseconds; then the three pushes are waiting.
      await new Promise((r) => setTimeout(r, 300));
      const started = performance.now();
      await sim.close();
      expect(performance.now() - started).to.be.below(2000);
      expect(await Promise.all(pending)).to.deep.equal(['no answer', 'no answer', 'no answer']);
      expect(sim.stats().accepted).to.equal(0);
    } finally {
      session.destroy();
    }
  });

  it('refuses a negative latency and a stream limit that is not a positive integer', async () => {
    for (const bad of [{ latencyMs: -1 }, { latencyMs: Number.NaN }, { maxConcurrentStreams: 0 }, { maxConcurrentStreams: 1.5 }]) {
      const err = await startPushSimulator(bad).then(
        async (s) => {
          await s.close();
          return undefined;
        },
        (e: Error) => e,
      );
      expect(err, JSON.stringify(bad)).to.be.instanceOf(Error);
      expect(err!.message).to.match(/latencyMs|maxConcurrentStreams/);
    }
  });

  it('reads LATENCY_MS and MAX_CONCURRENT_STREAMS, or --latency-ms and --max-concurrent-streams over them', () => {
    const defaults = loadSimulatorConfig({}, []).options;
    expect(defaults.latencyMs).to.equal(0);
    expect(defaults).to.not.have.property('maxConcurrentStreams');
    expect(loadSimulatorConfig({ LATENCY_MS: '150', MAX_CONCURRENT_STREAMS: '100' }, []).options).to.deep.include({ latencyMs: 150, maxConcurrentStreams: 100 });
    expect(loadSimulatorConfig({ LATENCY_MS: '150', MAX_CONCURRENT_STREAMS: '100' }, ['--latency-ms=20', '--max-concurrent-streams=8']).options)
      .to.deep.include({ latencyMs: 20, maxConcurrentStreams: 8 });
    expect(() => loadSimulatorConfig({ LATENCY_MS: '-5' }, [])).to.throw(/LATENCY_MS/);
    expect(() => loadSimulatorConfig({}, ['--max-concurrent-streams=0'])).to.throw(/MAX_CONCURRENT_STREAMS/);
    expect(() => loadSimulatorConfig({ MAX_CONCURRENT_STREAMS: 'many' }, [])).to.throw(/MAX_CONCURRENT_STREAMS/);
  });
});
