// The numbers of the Campaign JSON (@webpush/contracts campaign-json.ts): ctr/its by the exact
// integer rule (half up, two decimals, no trailing zeros) for any counter a JS number holds
// exactly, and a cursor's position (src/campaigns/campaign-rows.ts) at full precision as
// to_char(… 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') printed it.
import { expect } from 'chai';
import fc from 'fast-check';
import { percentJson } from '@webpush/contracts/campaign-json.js';
import { sortKeyOf, type CampaignRow } from '../src/campaigns/campaign-rows.js';

/** The rule in exact integers: k = ⌊(2·part·10⁴ + base) / (2·base)⌋ hundredths. */
function reference(part: bigint, base: bigint): string {
  if (base <= 0n) return '0';
  const k = (part * 20_000n + base) / (2n * base);
  const text = `${k / 100n}.${String(k % 100n).padStart(2, '0')}`;
  return text.replace(/\.?0+$/, '') || '0';
}

describe('campaign rows: ctr/its and cursor positions', () => {
  it('when counters are anything a JS number holds exactly (below 2^53), then ctr/its text is the exact rule', () => {
    const counter = fc.oneof(fc.bigInt({ min: 0n, max: 1_000n }), fc.bigInt({ min: 0n, max: 2n ** 40n }), fc.bigInt({ min: 0n, max: 2n ** 53n - 1n }));
    fc.assert(
      fc.property(counter, counter, (part, base) => {
        expect(percentJson(Number(part), Number(base))).to.equal(reference(part, base));
      }),
      { numRuns: 5000 },
    );
  });

  it('rounds like the spec: halves up, thirds, whole numbers, zero bases', () => {
    const cases: [number, number, string][] = [[1, 3, '33.33'], [2, 3, '66.67'], [3, 8, '37.5'], [5, 0, '0'], [0, 5, '0'], [201, 20000, '1.01'], [1, 20000, '0.01'], [1, 200000, '0'], [1, 300000, '0'], [3, 2, '150'], [999_999, 1_000_003, '100'], [1, 20, '5'], [1, 1000, '0.1'], [7, 100, '7']];
    for (const [part, base, text] of cases) expect(percentJson(part, base), `${part}/${base}`).to.equal(text);
  });

  it('when the sort date has any fraction of a second, then the position has six digits, as to_char US prints it', () => {
    const row = (at: string) => ({ created_at: at, schedule_date: '2031-02-03 04:05:06' }) as CampaignRow;
    expect(sortKeyOf(row('2026-12-04 18:00:00'), 'created_at')).to.equal('2026-12-04T18:00:00.000000Z');
    expect(sortKeyOf(row('2026-12-04 18:00:00.5'), 'created_at')).to.equal('2026-12-04T18:00:00.500000Z');
    expect(sortKeyOf(row('2026-12-04 18:00:00.123456'), 'created_at')).to.equal('2026-12-04T18:00:00.123456Z');
    expect(sortKeyOf(row('2026-12-04 18:00:00.000001'), 'schedule_date')).to.equal('2031-02-03T04:05:06.000000Z');
  });
});
