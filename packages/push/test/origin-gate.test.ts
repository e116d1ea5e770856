// The per-origin gate on a manual clock: its adaptive in-flight limit (read from latency), when an origin
// counts as down, how it is probed (one request at a time, waits growing with jitter up to a
// cap), when it reopens, and how every wait ends by the waiting push's own deadline.
import { expect } from 'chai';
import fc from 'fast-check';
import { createAdaptiveLimit, createOriginGate, latencyAllowed, LIMIT, type AttemptResult, type GateClock, type Turn } from '../src/origin-gate.js';

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

/**
 * A push service as a queue, in simulated time: it handles `capacityPerSecond` pushes a second
 * one after another in arrival order (unlimited when absent) and answers `baseMs` after a push's
 * turn ends; a request not answered within `timeoutMs` times out and its push is sent again,
 * while the service still handles (delivers) the first copy — a duplicate. The sender takes
 * slots from a real gate for a backlog of `pushes`, reports every answer with its latency and
 * releases the slot, as the sender does. What happened, counted.
 */
function pushThrough(o: { pushes: number; ceiling: number; initial?: number; capacityPerSecond?: number; baseMs: number; timeoutMs: number }) {
  let now = 0;
  const gate = createOriginGate({ ceiling: o.ceiling, initial: o.initial, timeoutMs: o.timeoutMs }, { now: () => now, random: () => 0.5, sleep: () => new Promise(() => {}) }, { window: 1_000_000, minFailures: 1_000_000 });
  const serviceMs = o.capacityPerSecond ? 1000 / o.capacityPerSecond : 0;
  let serviceFree = 0;
  // Answers to come, kept sorted by time (binary insertion).
  const events: Array<{ at: number; latencyMs: number; timedOut: boolean }> = [];
  const schedule = (e: (typeof events)[number]) => {
    let lo = 0;
    let hi = events.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (events[mid].at <= e.at) lo = mid + 1;
      else hi = mid;
    }
    events.splice(lo, 0, e);
  };
  let backlog = o.pushes;
  let delivered = 0;
  let timeouts = 0;
  let maxLatencyMs = 0;
  let peakLimit = gate.limit;
  let ceilingAt = -1;
  const fill = () => {
    while (backlog > 0 && gate.tryAcquire()) {
      backlog -= 1;
      const start = Math.max(now, serviceFree);
      serviceFree = start + serviceMs;
      const latencyMs = serviceFree + o.baseMs - now;
      schedule(latencyMs > o.timeoutMs ? { at: now + o.timeoutMs, latencyMs: o.timeoutMs, timedOut: true } : { at: now + latencyMs, latencyMs, timedOut: false });
    }
  };
  fill();
  for (let steps = 0; events.length > 0 && steps < 10 * o.pushes; steps++) {
    const e = events.shift()!;
    now = e.at;
    if (e.timedOut) {
      timeouts += 1;
      backlog += 1;
      gate.report('send', 'transient', 'timeout: no response', e.latencyMs);
    } else {
      delivered += 1;
      maxLatencyMs = Math.max(maxLatencyMs, e.latencyMs);
      gate.report('send', 'answered', '', e.latencyMs);
    }
    gate.release();
    peakLimit = Math.max(peakLimit, gate.limit);
    if (ceilingAt < 0 && gate.limit === o.ceiling) ceilingAt = now;
    fill();
  }
  return { delivered, timeouts, maxLatencyMs, peakLimit, ceilingAt, limit: gate.limit, seconds: now / 1000, pushesPerSecond: delivered / (now / 1000) };
}

describe('origin gate: adaptive concurrency, read from latency', () => {
  const noOutage = { window: 1000, minFailures: 1000 };

  it('starts at 20 (or the ceiling when lower), or where it is told', () => {
    const clock = manualClock().clock;
    expect(createOriginGate({ ceiling: 3000 }, clock).limit).to.equal(LIMIT.start);
    expect(createOriginGate({ ceiling: 15 }, clock).limit).to.equal(15);
    expect(createOriginGate({ ceiling: 1 }, clock).limit).to.equal(1);
    expect(createOriginGate({ ceiling: 1000, initial: 7 }, clock).limit).to.equal(7);
    expect(() => createOriginGate({ ceiling: 10, initial: 11 }, clock)).to.throw(RangeError);
    expect(() => createOriginGate({ ceiling: 0 }, clock)).to.throw(RangeError);
  });

  it('the latency allowed: the baseline plus a queue of max(baseline, 250 ms), at most a quarter of the timeout, never below 1.25 × the baseline', () => {
    expect(latencyAllowed(1, 10_000)).to.equal(251);
    expect(latencyAllowed(150, 10_000)).to.equal(400);
    expect(latencyAllowed(1000, 10_000)).to.equal(2000);
    expect(latencyAllowed(2000, 10_000)).to.equal(4000);
    expect(latencyAllowed(5000, 10_000)).to.equal(7500);
    expect(latencyAllowed(150, 400)).to.equal(250);
    expect(latencyAllowed(300, 400)).to.equal(400);
    expect(latencyAllowed(400, 400)).to.equal(500);
  });

  it('when a push service handles 150 pushes a second, then 10,000 pushes go through without a timeout (so without a duplicate), latency stays under a quarter of the timeout, and the service is kept busy', () => {
    // The case: PUSH_CONCURRENCY_PER_ORIGIN 3000, a service of ~150 pushes/s. A limit
    // that grows on good answers alone (the AIMD before) starts at 1,500 in flight: 10 s of
    // queue, hundreds of timeouts, each one a push sent twice.
    const r = pushThrough({ pushes: 10_000, ceiling: 3000, capacityPerSecond: 150, baseMs: 20, timeoutMs: 10_000 });
    expect(r.delivered).to.equal(10_000);
    expect(r.timeouts).to.equal(0);
    expect(r.maxLatencyMs).to.be.below(2500);
    expect(r.pushesPerSecond).to.be.at.least(150 * 0.9);
    expect(r.peakLimit).to.be.below(200);
  });

  it('when a push service handles 150 pushes a second and the timeout is short, then the queue allowed shrinks with it', () => {
    const r = pushThrough({ pushes: 3000, ceiling: 3000, capacityPerSecond: 150, baseMs: 20, timeoutMs: 1000 });
    expect(r.timeouts).to.equal(0);
    expect(r.maxLatencyMs).to.be.below(1000);
    expect(r.pushesPerSecond).to.be.at.least(150 * 0.9);
  });

  it('when a far push service answers in 150 ms whatever the load, then the limit opens to the ceiling within a few round trips', () => {
    const r = pushThrough({ pushes: 30_000, ceiling: 3000, baseMs: 150, timeoutMs: 10_000 });
    expect(r.timeouts).to.equal(0);
    expect(r.limit).to.equal(3000);
    // 20 → 3000 doubling per 150 ms round trip: 8 round trips.
    expect(r.ceilingAt).to.be.within(0, 8 * 150);
  });

  it('when the origin answers 503, 429 or times out, then the limit drops by a tenth per answer; good answers raise it by one again while at least half is in use', () => {
    const gate = createOriginGate({ ceiling: 40, initial: 20 }, manualClock().clock, noOutage);
    for (let i = 0; i < 20; i++) expect(gate.tryAcquire()).to.equal(true);
    expect(gate.tryAcquire()).to.equal(false);
    gate.report('send', 'transient', '503 push service unavailable', 1);
    expect(gate.limit).to.equal(18);
    gate.report('send', 'rate-limited', '429 rate limited', 1);
    expect(gate.limit).to.equal(16);
    gate.report('send', 'transient', 'timeout: no response', 10_000);
    expect(gate.limit).to.equal(14);
    gate.report('send', 'ignored', '', 1);
    expect(gate.limit).to.equal(14);
    // 20 in flight, limit 14: new requests wait until fewer than 14 are.
    for (let i = 0; i < 6; i++) gate.release();
    expect(gate.inFlight).to.equal(14);
    expect(gate.tryAcquire()).to.equal(false);
    gate.release();
    expect(gate.tryAcquire()).to.equal(true);
  });

  it('when answers come fast, then each adds 1 while at least half the limit is in use (a limit nobody uses is not tested)', () => {
    const gate = createOriginGate({ ceiling: 1000, initial: 100 }, manualClock().clock, noOutage);
    for (let i = 0; i < 49; i++) gate.tryAcquire();
    for (let i = 0; i < 10; i++) gate.report('send', 'answered', '', 5);
    expect(gate.limit).to.equal(100);
    gate.tryAcquire();
    gate.report('send', 'answered', '', 5);
    expect(gate.limit).to.equal(101);
  });

  it('when a round trip of answers comes back slower than allowed, then the limit stops growing and is cut by allowed ÷ mean latency; the next round (sent before the cut) neither grows nor cuts it', () => {
    const limit = createAdaptiveLimit({ ceiling: 1000, initial: 100, timeoutMs: 10_000 }, { now: () => 0 });
    // A round of 100 at the baseline, 20 ms: slow start, +1 each.
    for (let i = 0; i < 100; i++) limit.answered(20, 100);
    expect(limit.value).to.equal(200);
    // A round of 200 at 405 ms: allowed 270 ms, so × 2/3 at its end, nothing added meanwhile.
    for (let i = 0; i < 199; i++) limit.answered(405, 200);
    expect(limit.value).to.equal(200);
    limit.answered(405, 200);
    expect(limit.value).to.equal(133);
    // The round after it, fast or slow, changes nothing; the one after that grows again.
    for (let i = 0; i < 200; i++) limit.answered(900, 200);
    expect(limit.value).to.equal(133);
    for (let i = 0; i < 10; i++) limit.answered(20, 133);
    expect(limit.value).to.equal(143);
    // Far above: halved at most.
    for (let i = 0; i < 133 - 10; i++) limit.answered(20, 133);
    const before = limit.value;
    for (let i = 0; i < 266; i++) limit.answered(10_000, 266);
    expect(limit.value).to.equal(Math.floor(before / 2));
  });

  it('when the latency climbs past half the queue allowed, then growth slows to a tenth per answer, and stops past the latency allowed', () => {
    const limit = createAdaptiveLimit({ ceiling: 10_000, initial: 100, timeoutMs: 10_000 }, { now: () => 0 });
    for (let i = 0; i < 100; i++) limit.answered(20, 100);
    expect(limit.value).to.equal(200);
    // 200 ms: within the 270 ms allowed, past 20 + 125.
    for (let i = 0; i < 200; i++) limit.answered(200, 200);
    const grown = limit.value;
    expect(grown).to.be.within(219, 220); // 200 × 0.1, in floating point
    for (let i = 0; i < 100; i++) limit.answered(280, 220);
    expect(limit.value).to.equal(grown);
  });

  it('the baseline is the fastest answer of the last one to two minutes: a service that became slower for good is measured anew', () => {
    let now = 0;
    const limit = createAdaptiveLimit({ ceiling: 10_000, initial: 100, timeoutMs: 10_000 }, { now: () => now });
    limit.answered(10, 1);
    // Two windows later, 10 ms is forgotten: 400 ms is the new no-load latency, and 500 ms is
    // within what it allows (400 + 400): growth resumes rather than cutting to 1.
    now = 2 * LIMIT.baselineWindowMs;
    limit.answered(400, 1);
    now += 1;
    const before = limit.value;
    limit.answered(500, 100);
    expect(limit.value).to.be.greaterThan(before);
  });

  it('property: whatever the latencies, answers and failures, the limit is an integer within [1, ceiling]; a failure lowers it unless it is 1', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }),
        fc.array(fc.oneof(fc.tuple(fc.double({ min: 0, max: 20_000, noNaN: true }), fc.nat({ max: 6000 })), fc.constant('failure' as const)), { maxLength: 300 }),
        (ceiling, events) => {
          let now = 0;
          const limit = createAdaptiveLimit({ ceiling, initial: Math.min(ceiling, LIMIT.start), timeoutMs: 10_000 }, { now: () => now });
          for (const e of events) {
            now += 7;
            const before = limit.value;
            if (e === 'failure') {
              limit.backoff();
              if (before > 1 && limit.value >= before) return false;
            } else limit.answered(e[0], e[1]);
            if (!Number.isInteger(limit.value) || limit.value < 1 || limit.value > ceiling) return false;
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
            gate.report('send', o.result, '', 1);
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
    for (let i = 0; i < n; i++) gate.report('send', 'transient', '503 push service unavailable', 1);
  }

  it('when fewer than the threshold fail, or failures are under half of recent attempts, then the origin stays open', () => {
    const m = manualClock();
    const gate = createOriginGate({ ceiling: 10 }, m.clock, outage);
    failMany(gate, 3);
    expect(gate.down).to.equal(false);
    for (let i = 0; i < 7; i++) gate.report('send', 'answered', '', 1);
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
      if (probeAt.length < 5) gate.report('probe', 'transient', '503', 1);
    }
    expect(turns.filter((t) => t === 'probe')).to.have.length(5);
    // The fifth probe is answered: every other waiter may send.
    gate.report('probe', 'answered', '', 1);
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
      gate.report('probe', 'answered', '', 1);
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
    gate.report('send', 'answered', '', 1);
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
