// The per-origin gate on a manual clock: its adaptive in-flight limit (AIMD), when an origin
// counts as down, how it is probed (one request at a time, waits growing with jitter up to a
// cap), when it reopens, and how every wait ends by the waiting push's own deadline.
import { expect } from 'chai';
import fc from 'fast-check';
import { adaptLimit, AIMD, createOriginGate, type AttemptResult, type GateClock, type Turn } from '../../src/push/origin-gate.js';

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

describe('origin gate: adaptive concurrency (AIMD)', () => {
  const noOutage = { window: 1000, minFailures: 1000 };

  it('starts at half the ceiling, rounded up', () => {
    const clock = manualClock().clock;
    expect(createOriginGate({ ceiling: 1000 }, clock).limit).to.equal(500);
    expect(createOriginGate({ ceiling: 15 }, clock).limit).to.equal(8);
    expect(createOriginGate({ ceiling: 1 }, clock).limit).to.equal(1);
    expect(createOriginGate({ ceiling: 1000, initial: 7 }, clock).limit).to.equal(7);
    expect(() => createOriginGate({ ceiling: 10, initial: 11 }, clock)).to.throw(RangeError);
    expect(() => createOriginGate({ ceiling: 0 }, clock)).to.throw(RangeError);
  });

  it('when the origin answers 503, 429 or times out, then the limit drops by a tenth per answer; good answers raise it by one again while at least half is in use', () => {
    const gate = createOriginGate({ ceiling: 40, initial: 20 }, manualClock().clock, noOutage);
    for (let i = 0; i < 20; i++) expect(gate.tryAcquire()).to.equal(true);
    expect(gate.tryAcquire()).to.equal(false);
    gate.report('send', 'transient', '503 push service unavailable');
    expect(gate.limit).to.equal(18);
    gate.report('send', 'rate-limited', '429 rate limited');
    expect(gate.limit).to.equal(16);
    gate.report('send', 'transient', 'timeout: no response');
    expect(gate.limit).to.equal(14);
    gate.report('send', 'ignored', '');
    expect(gate.limit).to.equal(14);
    // 20 in flight, limit 14: new requests wait until fewer than 14 are.
    for (let i = 0; i < 6; i++) gate.release();
    expect(gate.inFlight).to.equal(14);
    expect(gate.tryAcquire()).to.equal(false);
    gate.release();
    expect(gate.tryAcquire()).to.equal(true);
    // Good answers with the limit in use (every slot it gives taken): +1 each, up to the ceiling.
    for (let i = 0; i < 30; i++) {
      gate.report('send', 'answered', '');
      while (gate.tryAcquire());
    }
    expect(gate.limit).to.equal(40);
    expect(gate.inFlight).to.equal(40);
  });

  it('when few requests are in flight, then good answers do not raise the limit (a limit nobody uses is not tested)', () => {
    const gate = createOriginGate({ ceiling: 1000, initial: 100 }, manualClock().clock, noOutage);
    for (let i = 0; i < 49; i++) gate.tryAcquire();
    for (let i = 0; i < 10; i++) gate.report('send', 'answered', '');
    expect(gate.limit).to.equal(100);
    gate.tryAcquire();
    gate.report('send', 'answered', '');
    expect(gate.limit).to.equal(101);
  });

  it('when the limit grows, then pushes waiting for a slot are let in at once, oldest first', async () => {
    const gate = createOriginGate({ ceiling: 10, initial: 2 }, manualClock().clock, noOutage);
    gate.tryAcquire();
    gate.tryAcquire();
    const order: number[] = [];
    const waiting = [0, 1, 2].map((i) => gate.acquire().then(() => order.push(i)));
    gate.report('send', 'answered', '');
    await flush();
    expect(order).to.deep.equal([0]);
    gate.report('send', 'answered', '');
    gate.release();
    await Promise.all(waiting);
    expect(order).to.deep.equal([0, 1, 2]);
    expect(gate.inFlight).to.equal(4);
  });

  it('a limit of 1000 falls to 117 after 20 failures and to 1 after 49, and comes back by doubling per round trip', () => {
    let limit = 1000;
    for (let i = 0; i < 20; i++) limit = adaptLimit(limit, 1000, 'backoff', limit);
    expect(limit).to.equal(117);
    for (let i = 0; i < 29; i++) limit = adaptLimit(limit, 1000, 'backoff', limit);
    expect(limit).to.equal(1);
    limit = 117;
    let roundTrips = 0;
    // A round trip: every request in flight answers well.
    while (limit < 1000) {
      const answers = limit;
      for (let i = 0; i < answers; i++) limit = adaptLimit(limit, 1000, 'good', answers);
      roundTrips += 1;
    }
    expect(roundTrips).to.equal(4); // 117 → 234 → 468 → 936 → 1000
  });

  it('property: the limit stays within [1, ceiling]; a failure lowers it unless it is 1; a good answer never lowers it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        fc.array(fc.tuple(fc.boolean(), fc.nat({ max: 20_000 })), { maxLength: 300 }),
        (ceiling, answers) => {
          let limit = Math.ceil(ceiling * AIMD.start);
          for (const [good, inFlight] of answers) {
            const next = adaptLimit(limit, ceiling, good ? 'good' : 'backoff', inFlight);
            if (next < 1 || next > ceiling || !Number.isInteger(next)) return false;
            if (good && next < limit) return false;
            if (good && next > limit + AIMD.increase) return false;
            if (!good && limit > 1 && next >= limit) return false;
            if (!good && next < Math.floor(limit * AIMD.backoff) - 1) return false;
            limit = next;
          }
          return true;
        },
      ),
    );
  });

  it('property: whatever the answers and releases, a slot is given only while fewer than the limit are in flight, and never more than the ceiling are', () => {
    type Op = { kind: 'acquire' } | { kind: 'release' } | { kind: 'report'; result: AttemptResult };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.constant({ kind: 'acquire' as const }),
      fc.constant({ kind: 'release' as const }),
      fc.constantFrom<AttemptResult>('answered', 'answered', 'rate-limited', 'transient', 'ignored').map((result) => ({ kind: 'report' as const, result })),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.array(op, { maxLength: 400 }), (ceiling, ops) => {
        const gate = createOriginGate({ ceiling }, manualClock().clock, noOutage);
        let held = 0;
        for (const o of ops) {
          if (o.kind === 'acquire') {
            const before = gate.inFlight;
            const limit = gate.limit;
            const got = gate.tryAcquire();
            if (got !== before < limit) return false;
            if (got) held += 1;
          } else if (o.kind === 'release') {
            if (held === 0) continue;
            gate.release();
            held -= 1;
          } else {
            gate.report('send', o.result, '');
          }
          if (gate.inFlight !== held || gate.inFlight > ceiling || gate.limit < 1 || gate.limit > ceiling) return false;
        }
        return true;
      }),
    );
  });
});

describe('origin gate', () => {
  const outage = { window: 10, minFailures: 4, probeBaseMs: 1000, probeMaxMs: 8000 };

  function failMany(gate: ReturnType<typeof createOriginGate>, n: number) {
    for (let i = 0; i < n; i++) gate.report('send', 'transient', '503 push service unavailable');
  }

  it('when fewer than the threshold fail, or failures are under half of recent attempts, then the origin stays open', () => {
    const m = manualClock();
    const gate = createOriginGate({ ceiling: 10 }, m.clock, outage);
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
    const gate = createOriginGate({ ceiling: 10 }, m.clock, outage, { onDown: (i) => downs.push(i), onUp: (i) => ups.push(i) });
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
    const gate = createOriginGate({ ceiling: 10 }, m.clock, outage);
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
    const gate = createOriginGate({ ceiling: 10 }, m.clock, outage);
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
    const gate = createOriginGate({ ceiling: 10 }, m.clock, outage);
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
    const gate = createOriginGate({ ceiling: 10 }, m.clock, outage);
    failMany(gate, 4);
    gate.report('send', 'answered', '');
    expect(gate.down).to.equal(true);
  });

  it('when closed, then every waiter ends and no timer is left', async () => {
    const m = manualClock();
    const gate = createOriginGate({ ceiling: 10 }, m.clock, outage);
    failMany(gate, 4);
    const waiting = Promise.all([gate.waitTurn(10_000), gate.waitTurn(10_000)]);
    await flush();
    gate.close();
    expect(await waiting).to.deep.equal(['closed', 'closed']);
    expect(m.pending()).to.equal(0);
    expect(await gate.waitTurn(10_000)).to.equal('closed');
  });
});
