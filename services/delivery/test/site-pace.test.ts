// A site's bulk work at a pace (audience/site-pace.ts), on a fake clock: a second's worth goes at
// once, beyond it each take waits its turn, another site is never held by the first, and an
// idle site starts again with its second ahead.
import { expect } from 'chai';
import { createSitePace } from '../src/audience/site-pace.js';

function fakeTime() {
  let now = 1_000_000;
  const waits: number[] = [];
  return {
    clock: () => now,
    sleep: async (ms: number) => {
      waits.push(ms);
      now += ms;
    },
    advance: (ms: number) => (now += ms),
    waits,
  };
}

describe('site pace (imports and exports per site)', () => {
  it('lets a second of work through at once, then paces the rest at the rate', async () => {
    const t = fakeTime();
    const pace = createSitePace(1000, t.clock, t.sleep);
    const start = t.clock();
    for (let i = 0; i < 10; i++) await pace.take('noisy', 500);
    // 5,000 units at 1,000 a second with one second ahead: done 4 s after the start, not before.
    expect(t.clock() - start).to.equal(4000);
    // The first two takes are the second ahead; each of the other eight waits its 500 ms.
    expect(t.waits).to.deep.equal(Array(8).fill(500));
  });

  it('never holds another site for the first one\'s work', async () => {
    const t = fakeTime();
    const pace = createSitePace(1000, t.clock, t.sleep);
    for (let i = 0; i < 5; i++) await pace.take('noisy', 1000);
    const waitsBefore = t.waits.length;
    await pace.take('quiet', 500);
    expect(t.waits.length).to.equal(waitsBefore);
  });

  it('starts an idle site again with its second ahead, not with credit for all the time it was idle', async () => {
    const t = fakeTime();
    const pace = createSitePace(1000, t.clock, t.sleep);
    await pace.take('site', 1000);
    t.advance(60_000);
    const start = t.clock();
    await pace.take('site', 1000);
    expect(t.clock()).to.equal(start);
    await pace.take('site', 1000);
    expect(t.clock() - start).to.equal(1000);
  });
});
