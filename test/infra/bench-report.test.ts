// The bench's target table (bench/lib/report.ts evaluateTargets): the 1,000,000-subscriber
// target is read from the latest run, or else from the 1,000,000 run kept beside it in
// latest.json, so a smaller run after it does not turn the target into "not run".
import { expect } from 'chai';
import { deliveryScale, evaluateTargets, type Results } from '../../bench/lib/report.js';

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

describe('bench: the scaling row (--subscribers 1000000,10000000)', () => {
  type Run = Parameters<typeof deliveryScale>[0][number];
  const sized = (subscribers: number, seconds: number, peakRssMb: number) =>
    ({ ...run(subscribers, seconds, '2026-12-04T21:00:00.000Z'), peakRssMb, logBytesPerPush: 320 }) as unknown as Run;
  const scaleTarget = (r: Results) => evaluateTargets(r).find((t) => t.name.startsWith('10,000,000-subscriber campaign vs'))!;

  it('compares the largest run with the smallest of one bench run: time ratio, the higher peak RSS, bytes per push', () => {
    const scale = deliveryScale([sized(1_000_000, 80, 236), sized(10_000_000, 820, 241)])!;
    expect(scale).to.include({ from: 1_000_000, to: 10_000_000, sizeRatio: 10, timeRatio: 10.25, peakRssMb: 241, logBytesPerPush: 320 });
    const t = scaleTarget({ deliveryScale: scale, deliveryRuns: { '1000000': sized(1_000_000, 80, 236), '10000000': sized(10_000_000, 820, 241) } } as unknown as Results);
    expect(t.target).to.equal('≤ 10.5× the time, delivery peak RSS < 250 MB');
    expect(t.met).to.equal(true);
  });

  it('misses when the large campaign is slower than 10.5× or the peak RSS reaches 250 MB', () => {
    for (const [seconds, rss] of [[860, 240], [800, 250]]) {
      const runs = [sized(1_000_000, 80, 236), sized(10_000_000, seconds, rss)];
      const t = scaleTarget({ deliveryScale: deliveryScale(runs)!, deliveryRuns: Object.fromEntries(runs.map((r) => [String(r.subscribers), r])) } as unknown as Results);
      expect(t.met).to.equal(false);
    }
  });

  it('has no scale with one size, and the row says not run', () => {
    expect(deliveryScale([sized(1_000_000, 80, 236)])).to.equal(null);
    const t = evaluateTargets({} as Results).find((x) => x.name.startsWith('10,000,000-subscriber campaign vs'))!;
    expect(t.measured).to.match(/^not run/);
  });
});

describe('bench: the compressed year row', () => {
  const point = (day: number, databaseBytes: number) => ({ day, databaseBytes });
  const yearTarget = (days: number, middle: number, end: number) =>
    evaluateTargets({ year: { days, subscribers: 1000, start: point(0, 10), middle: point(days / 2, middle), end: point(days, end), endToMiddle: end / middle } } as unknown as Results).find((t) =>
      t.name.startsWith('database size over the compressed year'),
    )!;

  it('is met when the end is at most 1.1× the middle over a whole year', () => {
    expect(yearTarget(364, 100 * 2 ** 20, 109 * 2 ** 20).met).to.equal(false); // not a whole year
    expect(yearTarget(365, 100 * 2 ** 20, 109 * 2 ** 20).met).to.equal(true);
    expect(yearTarget(365, 100 * 2 ** 20, 111 * 2 ** 20).met).to.equal(false);
  });
});
