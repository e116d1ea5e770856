// A pipelined consumer's bookkeeping (packages/shared/src/kafka-pipeline.ts): each message runs as
// soon as a slot is free, not after the slowest of its fetch; offsets are committed in order,
// only behind handled messages, never backwards; a message taken twice does not run twice at
// once; one key's messages run one after another, others at once; a failed handler runs again;
// a rejoin forgets what is done and not committed; the intake stops at its bounds. Kafka's side (resolve, commit, pause on stop) is kafka.ts's, exercised by
// the services' tests on a real broker.
import { expect } from 'chai';
import { createLogger } from '@webpush/shared/log.js';
import { createPipeline, type PipelineOptions } from '@webpush/shared/kafka-pipeline.js';

const log = createLogger('pipeline-test', 'error');
const tick = () => new Promise((r) => setImmediate(r));
const OPTS: PipelineOptions = { maxInFlight: 4, maxPending: 8, retryFirstMs: 1, retryMaxMs: 4 };

/** A handler the test ends: `release(offset)` resolves it, `fail(offset)` rejects it. */
function gate() {
  const waiting = new Map<string, { resolve: () => void; reject: (e: Error) => void }>();
  const started: string[] = [];
  return {
    started,
    handler: (key: string) => () =>
      new Promise<void>((resolve, reject) => {
        started.push(key);
        waiting.set(key, { resolve, reject });
      }),
    release: (key: string) => waiting.get(key)!.resolve(),
    fail: (key: string) => waiting.get(key)!.reject(new Error(`failed ${key}`)),
  };
}

function pipelineWithCommits(opts = OPTS) {
  const commits: [number, string][] = [];
  let running = true;
  const p = createPipeline({ log, name: 'test', commit: async (partition, offset) => void commits.push([partition, offset]), running: () => running }, opts);
  return { p, commits, stop: () => (running = false) };
}

describe('pipelined consumption (kafka-pipeline.ts)', () => {
  it('runs every message as it is taken and commits a partition only up to its first unfinished one', async () => {
    const { p, commits } = pipelineWithCommits();
    const g = gate();
    for (const o of ['10', '11', '12']) await p.take(0, o, null, g.handler(`0:${o}`));
    await p.take(1, '5', null, g.handler('1:5'));
    await tick();
    expect(g.started).to.deep.equal(['0:10', '0:11', '0:12', '1:5']);

    g.release('0:11');
    g.release('0:12');
    g.release('1:5');
    await tick();
    // 0:10 still runs: nothing of partition 0 is committed; partition 1 is.
    expect(commits).to.deep.equal([[1, '6']]);
    g.release('0:10');
    await tick();
    await tick();
    expect(commits).to.deep.equal([
      [1, '6'],
      [0, '13'],
    ]);
    expect(p.stats()).to.deep.equal({ running: 0, pending: 0 });
  });

  it('takes no more than maxInFlight at once: the next waits for a slot, not for the others', async () => {
    const { p } = pipelineWithCommits();
    const g = gate();
    for (let o = 0; o < 4; o++) await p.take(0, String(o), null, g.handler(String(o)));
    let fifthTaken = false;
    const fifth = p.take(0, '4', null, g.handler('4')).then(() => (fifthTaken = true));
    await tick();
    expect(fifthTaken).to.equal(false);
    g.release('2');
    await fifth;
    expect(g.started).to.deep.equal(['0', '1', '2', '3', '4']);
    expect(p.stats().running).to.equal(4);
  });

  it('stops taking at maxPending while the head of a partition runs, however many behind it are done', async () => {
    const { p } = pipelineWithCommits({ ...OPTS, maxInFlight: 100, maxPending: 3 });
    const g = gate();
    for (let o = 0; o < 3; o++) await p.take(0, String(o), null, g.handler(String(o)));
    g.release('1');
    g.release('2');
    await tick();
    let taken = false;
    const next = p.take(0, '3', null, g.handler('3')).then(() => (taken = true));
    await tick();
    expect([taken, p.stats()]).to.deep.equal([false, { running: 1, pending: 3 }]);
    g.release('0');
    await next;
    expect(p.stats()).to.deep.equal({ running: 1, pending: 1 });
  });

  it('when a message is taken again while it runs (a redelivery after a rebalance), then it does not run a second time', async () => {
    const { p, commits } = pipelineWithCommits();
    const g = gate();
    await p.take(0, '7', null, g.handler('first'));
    await p.take(0, '7', null, g.handler('second'));
    await tick();
    expect(g.started).to.deep.equal(['first']);
    g.release('first');
    await tick();
    await tick();
    expect(commits).to.deep.equal([[0, '8']]);
  });

  it('when a handler fails, then it runs again until it succeeds, and what follows it is committed only then', async () => {
    const { p, commits } = pipelineWithCommits();
    let attempts = 0;
    let succeed!: () => void;
    const succeeded = new Promise<void>((r) => (succeed = r));
    await p.take(0, '0', null, async () => {
      attempts++;
      if (attempts < 3) throw new Error('Postgres away');
      succeed();
    });
    await p.take(0, '1', null, async () => {});
    await succeeded;
    await tick();
    await tick();
    expect(attempts).to.equal(3);
    expect(commits).to.deep.equal([[0, '2']]);
  });

  it('when the consumer stops, then a failing handler is not run again and its offset is never committed', async () => {
    const { p, commits, stop } = pipelineWithCommits();
    let attempts = 0;
    stop();
    await p.take(0, '0', null, async () => {
      attempts++;
      throw new Error('stopping');
    });
    await p.drain(1000);
    expect([attempts, commits]).to.deep.equal([1, []]);
  });

  it('when the group is joined again, then what is done and not committed is forgotten (Kafka redelivers it) and commits start again from the redelivered', async () => {
    const { p, commits } = pipelineWithCommits();
    const g = gate();
    await p.take(0, '0', null, g.handler('0'));
    await p.take(0, '1', null, g.handler('1'));
    g.release('1');
    await tick();
    expect(p.stats()).to.deep.equal({ running: 1, pending: 2 });
    p.rejoined();
    expect(p.stats()).to.deep.equal({ running: 1, pending: 1 });
    // Redelivered from the last commit: 0 still runs (not run again), 1 runs again.
    await p.take(0, '0', null, g.handler('0 again'));
    await p.take(0, '1', null, g.handler('1 again'));
    expect(g.started).to.deep.equal(['0', '1', '1 again']);
    g.release('1 again');
    g.release('0');
    await tick();
    await tick();
    expect(commits).to.deep.equal([[0, '2']]);
  });

  it('never commits a partition backwards', async () => {
    const { p, commits } = pipelineWithCommits();
    await p.take(0, '5', null, async () => {});
    await tick();
    await tick();
    // An older offset taken later (a redelivery from before a commit that did not reach the broker).
    await p.take(0, '3', null, async () => {});
    await tick();
    await tick();
    expect(commits).to.deep.equal([[0, '6']]);
  });

  it("runs one key's messages one after another, in the order taken, and other keys' at once", async () => {
    const { p, commits } = pipelineWithCommits();
    const g = gate();
    await p.take(0, '1', 'a', g.handler('a1'));
    await p.take(0, '2', 'b', g.handler('b2'));
    await p.take(0, '3', 'a', g.handler('a3'));
    await p.take(0, '4', 'c', g.handler('c4'));
    await tick();
    // The relay's second copy of job a waits for the first.
    expect(g.started).to.deep.equal(['a1', 'b2', 'c4']);
    g.release('a1');
    await tick();
    await tick();
    expect(g.started).to.deep.equal(['a1', 'b2', 'c4', 'a3']);
    for (const k of ['a3', 'b2', 'c4']) g.release(k);
    await tick();
    await tick();
    expect(commits.at(-1)).to.deep.equal([0, '5']);
  });

  it("when a message fails, then the next of its key waits until it succeeds", async () => {
    const { p } = pipelineWithCommits();
    const order: string[] = [];
    let attempts = 0;
    await p.take(0, '1', 'a', async () => {
      if (++attempts < 3) throw new Error('Postgres away');
      order.push('a1');
    });
    await p.take(0, '2', 'a', async () => void order.push('a2'));
    await p.drain(1000);
    expect(order).to.deep.equal(['a1', 'a2']);
  });
});
