import { expect } from 'chai';
import { Delays } from '../src/delays.js';

describe('push simulator: delays', () => {
  it('ends each wait after its own time and keeps nothing afterwards', async () => {
    const delays = new Delays();
    const order: number[] = [];
    await Promise.all([30, 5, 15].map((ms) => delays.wait(ms).then(() => order.push(ms))));
    expect(order).to.deep.equal([5, 15, 30]);
    expect((delays as unknown as { waiting: Set<unknown> }).waiting.size).to.equal(0);
  });

  it('when closed, ends thousands of waits at once, and later waits do not wait', async () => {
    const delays = new Delays();
    let ended = 0;
    const waits = Array.from({ length: 5000 }, () => delays.wait(600_000).then(() => ended++));
    expect(delays.closed).to.equal(false);
    delays.close();
    await Promise.all(waits);
    expect(ended).to.equal(5000);
    expect(delays.closed).to.equal(true);
    const started = Date.now();
    await delays.wait(600_000);
    expect(Date.now() - started).to.be.below(1000);
  });
});
