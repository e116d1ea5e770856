// The shared wakeable loop (packages/shared/src/periodic.ts). Passes are held and released by
// the tests through promises; intervals are either tiny (to see passes repeat) or a minute (so
// that only start() and wake() can cause a pass within a test). Every wait is bounded.
import { expect } from 'chai';
import { createPeriodic, quietWhileFailing, type Periodic, type PeriodicOptions } from '@webpush/shared/periodic.js';

const LONG = 60_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, check: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(2);
  }
}

/** A pass that records its start and end times and can be held open by the test. */
function recordingPass() {
  const starts: number[] = [];
  const ends: number[] = [];
  let active = 0;
  let maxActive = 0;
  let hold: Promise<void> | undefined;
  let release = () => {};
  return {
    starts,
    ends,
    maxActive: () => maxActive,
    /** The next passes wait until release() is called. */
    hold() {
      hold = new Promise<void>((r) => (release = r));
    },
    release: () => {
      hold = undefined;
      release();
    },
    async run() {
      starts.push(Date.now());
      maxActive = Math.max(maxActive, ++active);
      try {
        await hold;
      } finally {
        active--;
        ends.push(Date.now());
      }
    },
  };
}

describe('periodic loop', () => {
  const loops: Periodic[] = [];
  const loop = (pass: () => Promise<unknown>, opts: Partial<PeriodicOptions> & { intervalMs: number }) => {
    const l = createPeriodic(pass, { onError: (err) => expect.fail(`unexpected pass failure: ${String(err)}`), ...opts });
    loops.push(l);
    return l;
  };
  afterEach(async () => {
    await Promise.all(loops.splice(0).map((l) => l.stop()));
  });

  it('when started, then the first pass comes after the interval, or after firstPassDelayMs when given', async () => {
    const late = recordingPass();
    const soon = recordingPass();
    const started = Date.now();
    loop(() => late.run(), { intervalMs: 80 }).start();
    loop(() => soon.run(), { intervalMs: LONG, firstPassDelayMs: 0 }).start();
    await until('the immediate first pass', () => soon.ends.length === 1);
    expect(late.starts).to.deep.equal([]);
    await until('the first pass after the interval', () => late.starts.length === 1);
    expect(late.starts[0] - started).to.be.at.least(75);
    await sleep(50);
    expect(soon.starts, 'no second pass before a minute').to.have.length(1);
  });

  it('when passes take longer than the interval, then they never overlap and keep coming', async () => {
    const p = recordingPass();
    const l = loop(async () => {
      await p.run();
      await sleep(10);
    }, { intervalMs: 1, firstPassDelayMs: 0 });
    l.start();
    l.start(); // a second start() is not a second loop
    await until('five passes', () => p.ends.length >= 5);
    expect(p.maxActive()).to.equal(1);
  });

  it('when woken while idle, then a pass runs at once; while stopped or never started, a wake does nothing', async () => {
    const p = recordingPass();
    const l = loop(() => p.run(), { intervalMs: LONG });
    l.wake();
    l.start();
    await sleep(30);
    expect(p.starts, 'a wake before start()').to.have.length(0);
    l.wake();
    await until('the woken pass', () => p.ends.length === 1);
    await l.stop();
    l.wake();
    await sleep(30);
    expect(p.starts).to.have.length(1);
  });

  it('when woken many times during a pass, then exactly one more pass runs right after it', async () => {
    const p = recordingPass();
    const l = loop(() => p.run(), { intervalMs: LONG, firstPassDelayMs: 0 });
    p.hold();
    l.start();
    await until('the first pass', () => p.starts.length === 1);
    for (let i = 0; i < 5; i++) l.wake();
    p.release();
    await until('the pass asked for during the first', () => p.ends.length === 2);
    await sleep(50);
    expect(p.starts).to.have.length(2);
    expect(p.maxActive()).to.equal(1);
  });

  it('when a wake gap is set, then a woken pass starts no sooner than the gap after the previous pass ended', async () => {
    const p = recordingPass();
    const l = loop(() => p.run(), { intervalMs: LONG, firstPassDelayMs: 0, wakeGapMs: 60 });
    l.start();
    await until('the first pass', () => p.ends.length === 1);
    l.wake();
    await until('the woken pass', () => p.ends.length === 2);
    // setTimeout may round a millisecond down, never more.
    expect(p.starts[1] - p.ends[0]).to.be.at.least(59);
    // Woken during a pass: the next starts after the gap too.
    p.hold();
    l.wake();
    await until('the third pass', () => p.starts.length === 3);
    l.wake();
    p.release();
    await until('the fourth pass', () => p.ends.length === 4);
    expect(p.starts[3] - p.ends[2]).to.be.at.least(59);
  });

  it('when a wake comes while a pass is already armed sooner, then the pass is not put off', async () => {
    const p = recordingPass();
    const l = loop(() => p.run(), { intervalMs: 40, wakeGapMs: LONG });
    l.start();
    await until('the first pass', () => p.ends.length === 1);
    l.wake(); // the gap says "in a minute", the interval says "in 40 ms": the interval wins
    await until('the second pass', () => p.ends.length === 2, 2000);
  });

  it('when stopped during a pass, then stop() waits for it, stopping() says so, and no pass follows', async () => {
    const p = recordingPass();
    const l = loop(() => p.run(), { intervalMs: 1, firstPassDelayMs: 0 });
    expect(l.stopping(), 'before any start()').to.equal(false);
    p.hold();
    l.start();
    expect(l.started()).to.equal(true);
    await until('the first pass', () => p.starts.length === 1);
    let stopped = false;
    const stopping = l.stop().then(() => (stopped = true));
    expect(l.stopping()).to.equal(true);
    expect(l.started()).to.equal(false);
    await sleep(20);
    expect(stopped, 'stop() resolved while a pass was running').to.equal(false);
    p.release();
    await stopping;
    expect(p.ends).to.have.length(1);
    await sleep(30);
    expect(p.starts).to.have.length(1);
    l.start();
    expect(l.stopping()).to.equal(false);
    // Passes come every millisecond now: the poll may first see the third.
    await until('a pass after the restart', () => p.starts.length >= 2);
  });

  it('when restarted before the stopped pass has ended, then passes still never overlap', async () => {
    const p = recordingPass();
    const l = loop(() => p.run(), { intervalMs: 1, firstPassDelayMs: 0 });
    p.hold();
    l.start();
    await until('the first pass', () => p.starts.length === 1);
    const stopping = l.stop();
    l.start();
    await sleep(20);
    expect(p.starts).to.have.length(1);
    p.release();
    await stopping;
    await until('passes after the restart', () => p.ends.length >= 4);
    expect(p.maxActive()).to.equal(1);
  });

  it('when a pass rejects or throws, then onError gets the error and the loop goes on', async () => {
    const errors: unknown[] = [];
    let n = 0;
    const l = createPeriodic(
      () => {
        n++;
        if (n === 1) return Promise.reject(new Error('rejected'));
        if (n === 2) throw new Error('thrown');
        return Promise.resolve();
      },
      {
        intervalMs: 1,
        firstPassDelayMs: 0,
        onError: (err) => {
          errors.push(err);
          if (errors.length === 2) throw new Error('the report itself fails');
        },
      },
    );
    loops.push(l);
    l.start();
    await until('passes after the failures', () => n >= 4);
    expect(errors.map((e) => (e as Error).message)).to.deep.equal(['rejected', 'thrown']);
  });

  it('a pass quiet while failing logs an outage twice (its first failure, its recovery), whatever the number of passes', async () => {
    const lines: string[] = [];
    const log = { warn: (m: string) => void lines.push(`warn ${m}`), info: (m: string) => void lines.push(`info ${m}`) };
    const outcomes = [false, false, false, true, true, false, true];
    let i = 0;
    const pass = quietWhileFailing(async () => {
      if (!outcomes[i++]) throw new Error('away');
    }, log, { failed: 'down', recovered: 'up' });
    for (let k = 0; k < outcomes.length; k++) await pass(); // never rejects
    expect(lines).to.deep.equal(['warn down', 'info up', 'warn down', 'info up']);
  });
});
