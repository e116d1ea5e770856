// The per-origin gate on a manual clock: when an origin counts as down, how it is probed (one
// request at a time, waits growing with jitter up to a cap), when it reopens, and how every
// wait ends by the waiting push's own deadline.
import { expect } from 'chai';
import { createOriginGate, type GateClock, type Turn } from '../../src/push/origin-gate.js';

/** Timers that fire only when the test moves the clock. */
function manualClock(random = 0.5) {
  let now = 0;
  const timers: Array<{ at: number; fire: () => void }> = [];
  const clock: GateClock = {
    now: () => now,
    random: () => random,
    sleep: (ms, signal) =>
      new Promise<void>((resolve) => {
        const timer = { at: now + ms, fire: resolve };
        timers.push(timer);
        signal?.addEventListener('abort', () => {
          timers.splice(timers.indexOf(timer), 1);
          resolve();
        });
      }),
  };
  return {
    clock,
    get now() {
      return now;
    },
    pending: () => timers.length,
    /** Moves the clock to `to`, firing due timers in order, letting promise chains run between. */
    async advance(to: number) {
      for (;;) {
        await flush();
        timers.sort((a, b) => a.at - b.at);
        const next = timers[0];
        if (!next || next.at > to) break;
        timers.shift();
        now = Math.max(now, next.at);
        next.fire();
      }
      now = to;
      await flush();
    },
  };
}

const flush = async () => {
  for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
};

describe('origin gate', () => {
  const outage = { window: 10, minFailures: 4, probeBaseMs: 1000, probeMaxMs: 8000 };

  function failMany(gate: ReturnType<typeof createOriginGate>, n: number) {
    for (let i = 0; i < n; i++) gate.report('send', 'transient', '503 push service unavailable');
  }

  it('when fewer than the threshold fail, or failures are under half of recent attempts, then the origin stays open', () => {
    const m = manualClock();
    const gate = createOriginGate(10, m.clock, outage);
    failMany(gate, 3);
    expect(gate.down).to.equal(false);
    for (let i = 0; i < 7; i++) gate.report('send', 'answered', '');
    failMany(gate, 4); // 4 of the last 10 failed
    expect(gate.down).to.equal(false);
    expect(gate.clear).to.equal(true);
  });

  it('when most recent attempts failed, then the origin is down: one probe at a time, waits doubling with jitter up to the cap, reopened by the first answer', async () => {
    const m = manualClock();
    const downs: unknown[] = [];
    const ups: Array<{ pausedMs: number; probes: number }> = [];
    const gate = createOriginGate(10, m.clock, outage, { onDown: (i) => downs.push(i), onUp: (i) => ups.push(i) });
    failMany(gate, 4);
    expect(gate.down).to.equal(true);
    expect(downs).to.deep.equal([{ failures: 4, of: 4, lastReason: '503 push service unavailable' }]);

    const turns: Array<Turn | undefined> = [];
    const waiting = Array.from({ length: 5 }, (_, i) => gate.waitTurn(1_000_000).then((t) => (turns[i] = t)));
    await flush();
    expect(turns.filter(Boolean)).to.have.length(0);

    // Probe waits: 1000, 2000, 4000, 8000, 8000 ms, each drawn from [half, whole] (random 0.5 → ¾).
    const probeAt: number[] = [];
    let at = 0;
    for (const delay of [1000, 2000, 4000, 8000, 8000]) {
      at += delay * 0.75;
      await m.advance(at - 1);
      expect(turns.filter(Boolean), `no probe before ${at}`).to.have.length(probeAt.length);
      await m.advance(at);
      const probes = turns.filter((t) => t === 'probe');
      expect(probes, `one probe at ${at}`).to.have.length(probeAt.length + 1);
      probeAt.push(at);
      if (probeAt.length < 5) gate.report('probe', 'transient', '503');
    }
    expect(turns.filter((t) => t === 'probe')).to.have.length(5);
    // The fifth probe is answered: every other waiter may send.
    gate.report('probe', 'answered', '');
    await Promise.all(waiting);
    expect(turns.filter((t) => t === 'send')).to.have.length(0); // all five were probes, in turn
    expect(gate.down).to.equal(false);
    expect(ups).to.deep.equal([{ pausedMs: probeAt[4], probes: 5 }]);
  });

  it('when a probe is answered, then the waiters still queued send at once', async () => {
    const m = manualClock();
    const gate = createOriginGate(10, m.clock, outage);
    failMany(gate, 4);
    const turns = await (async () => {
      const all = Array.from({ length: 4 }, () => gate.waitTurn(1_000_000));
      await m.advance(750);
      gate.report('probe', 'answered', '');
      return Promise.all(all);
    })();
    expect(turns.sort()).to.deep.equal(['probe', 'send', 'send', 'send']);
    expect(m.pending()).to.equal(0);
  });

  it("when a waiter's deadline comes before the origin reopens, then its turn is 'deadline' at that moment", async () => {
    const m = manualClock();
    const gate = createOriginGate(10, m.clock, outage);
    failMany(gate, 4);
    let early: Turn | undefined;
    let late: Turn | undefined;
    void gate.waitTurn(500).then((t) => (early = t));
    void gate.waitTurn(100_000).then((t) => (late = t));
    await m.advance(499);
    expect(early).to.equal(undefined);
    await m.advance(500);
    expect(early).to.equal('deadline');
    await m.advance(750);
    expect(late).to.equal('probe');
  });

  it("when a Retry-After pause ends after a waiter's deadline, then its turn is 'beyond' at once; otherwise it waits for the pause", async () => {
    const m = manualClock();
    const gate = createOriginGate(10, m.clock, outage);
    gate.rateLimit(5000);
    expect(gate.clear).to.equal(false);
    expect(await gate.waitTurn(4000)).to.equal('beyond');
    let turn: Turn | undefined;
    void gate.waitTurn(6000).then((t) => (turn = t));
    await m.advance(4999);
    expect(turn).to.equal(undefined);
    await m.advance(5000);
    expect(turn).to.equal('send');
    expect(gate.clear).to.equal(true);
  });

  it('when answers to requests sent before the origin went down arrive, then only a probe reopens it', async () => {
    const m = manualClock();
    const gate = createOriginGate(10, m.clock, outage);
    failMany(gate, 4);
    gate.report('send', 'answered', '');
    expect(gate.down).to.equal(true);
  });

  it('when closed, then every waiter ends and no timer is left', async () => {
    const m = manualClock();
    const gate = createOriginGate(10, m.clock, outage);
    failMany(gate, 4);
    const waiting = Promise.all([gate.waitTurn(10_000), gate.waitTurn(10_000)]);
    await flush();
    gate.close();
    expect(await waiting).to.deep.equal(['closed', 'closed']);
    expect(m.pending()).to.equal(0);
    expect(await gate.waitTurn(10_000)).to.equal('closed');
  });
});
