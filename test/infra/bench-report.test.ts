// The bench's target table (bench/lib/report.ts evaluateTargets): the 1,000,000-subscriber
// target is read from the latest run, or else from the 1,000,000 run kept beside it in
// latest.json, so a smaller run after it does not turn the target into "not run".
import { expect } from 'chai';
import { evaluateTargets, type Results } from '../../bench/lib/report.js';

/** A delivery run with what the target table reads. */
const run = (subscribers: number, seconds: number, measuredAt: string) => ({
  subscribers,
  pushed: subscribers,
  seconds,
  ratioToNaive: 7,
  peakRssMb: 240,
  measuredAt,
});

function results(latest: ReturnType<typeof run>, kept: ReturnType<typeof run>[]): Results {
  return { delivery: latest, deliveryRuns: Object.fromEntries(kept.map((r) => [String(r.subscribers), r])) } as unknown as Results;
}

const millionTarget = (r: Results) => evaluateTargets(r).find((t) => t.name === '1,000,000-subscriber campaign fully pushed')!;

describe('bench: the 1,000,000-subscriber target', () => {
  it('reads the latest run when it is the 1,000,000 one', () => {
    const latest = run(1_000_000, 129.6, '2026-11-29T06:22:00.000Z');
    const t = millionTarget(results(latest, [latest]));
    expect(t.measured).to.equal('129.6 s for 1,000,000 pushes');
    expect(t.met).to.equal(true);
  });

  it('reads the 1,000,000 run kept in latest.json when a smaller run came after it, and says when it ran', () => {
    const million = run(1_000_000, 190.2, '2026-11-29T06:22:00.000Z');
    const t = millionTarget(results(run(100_000, 13.7, '2026-11-29T06:26:00.000Z'), [million, run(100_000, 13.7, '2026-11-29T06:26:00.000Z')]));
    expect(t.measured).to.equal('190.2 s for 1,000,000 pushes (run of 2026-11-29T06:22)');
    expect(t.met).to.equal(false);
  });

  it('says not run when no 1,000,000 run was ever kept', () => {
    const small = run(100_000, 13.7, '2026-11-29T06:26:00.000Z');
    const t = millionTarget(results(small, [small]));
    expect(t.measured).to.match(/^not run/);
    expect(t.met).to.equal(null);
  });
});
