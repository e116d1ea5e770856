// The two helpers behind the delivery-log writes of the chunk worker: group commit (per-push
// marks and outcomes batched into few statements) and retrying (a write rides out a dropped
// connection or a Postgres restart, but not a bug, and not past its budget).
import { expect } from 'chai';
import fc from 'fast-check';
import { isTransientDbError } from '../../src/sending/transient-errors.js';
import { groupCommit } from '../../src/sending/group-commit.js';
import { retrying } from '../../src/sending/retrying.js';

const sqlError = (code: string) => Object.assign(new Error(`sqlstate ${code}`), { code });

describe('delivery-log writes: group commit and retries', () => {
  it('when items are added while a write runs, then they share the next write, in order', async () => {
    const writes: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const g = groupCommit(async (items: number[]) => {
      writes.push(items);
      if (writes.length === 1) await gate;
      return items.length;
    });
    const first = g.add(1);
    await new Promise((r) => setImmediate(r)); // the first write is under way
    const rest = [2, 3, 4].map((n) => g.add(n));
    release();
    expect(await first).to.equal(1);
    expect(await Promise.all(rest)).to.deep.equal([3, 3, 3]);
    await g.drain();
    expect(writes).to.deep.equal([[1], [2, 3, 4]]);
  });

  it('property: however adds and waits interleave, every item is written once, in order, at most maxItems a write, and its add resolves with the write that carried it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 6 }), fc.array(fc.oneof(fc.constant('add' as const), fc.constant('tick' as const), fc.constant('write' as const)), { maxLength: 60 }), async (maxItems, steps) => {
        const writes: number[][] = [];
        const g = groupCommit(
          async (items: number[]) => {
            writes.push(items);
            await new Promise((r) => setImmediate(r));
            return [...items];
          },
          { maxItems },
        );
        const added: Array<{ item: number; carried: Promise<number[]> }> = [];
        for (const step of steps) {
          if (step === 'add') added.push({ item: added.length, carried: g.add(added.length) });
          else if (step === 'tick') await Promise.resolve();
          else await new Promise((r) => setImmediate(r));
        }
        await g.drain();
        expect(writes.flat()).to.deep.equal(added.map((a) => a.item));
        expect(writes.every((w) => w.length >= 1 && w.length <= maxItems)).to.equal(true);
        for (const { item, carried } of added) expect(await carried).to.include(item);
      }),
      { numRuns: 200 },
    );
  });

  it('when a write fails, then its items, the ones waiting and every later add fail, and drain reports it', async () => {
    let calls = 0;
    const g = groupCommit(async () => {
      calls += 1;
      throw new Error('write failed');
    });
    const a = g.add('a');
    await a.catch((err: Error) => expect(err.message).to.equal('write failed'));
    await g.add('b').catch((err: Error) => expect(err.message).to.equal('write failed'));
    let drained: unknown;
    await g.drain().catch((err) => (drained = err));
    expect(String(drained)).to.include('write failed');
    expect(calls).to.equal(1);
  });

  it('tells transient database errors (connection, restart, deadlock) from the rest', () => {
    for (const code of ['08006', '08001', '57P01', '57P03', '40001', '40P01', '53300']) expect(isTransientDbError(sqlError(code)), code).to.equal(true);
    for (const code of ['23505', '42601', '22P02', '25P02']) expect(isTransientDbError(sqlError(code)), code).to.equal(false);
    expect(isTransientDbError(new Error('Connection terminated unexpectedly'))).to.equal(true);
    expect(isTransientDbError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).to.equal(true);
    expect(isTransientDbError(new TypeError('x is undefined'))).to.equal(false);
    expect(isTransientDbError('not an error')).to.equal(false);
  });

  it('when a write fails transiently, then it is retried until it lands; a permanent error or an exhausted budget goes up at once', async () => {
    let n = 0;
    const landed = await retrying('test', { budgetMs: 5000, random: () => 0 }, async () => {
      if (++n < 3) throw sqlError('57P01');
      return 'ok';
    });
    expect([landed, n]).to.deep.equal(['ok', 3]);

    let permanent = 0;
    const err = await retrying('test', { budgetMs: 5000 }, async () => {
      permanent += 1;
      throw sqlError('23505');
    }).catch((e: Error) => e);
    expect([String(err), permanent]).to.deep.equal(['Error: sqlstate 23505', 1]);

    let noBudget = 0;
    await retrying('test', { budgetMs: 0 }, async () => {
      noBudget += 1;
      throw sqlError('08006');
    }).catch(() => {});
    expect(noBudget).to.equal(1);

    const stopped = new AbortController();
    stopped.abort();
    let aborted = 0;
    await retrying('test', { budgetMs: 5000, signal: stopped.signal }, async () => {
      aborted += 1;
      throw sqlError('08006');
    }).catch(() => {});
    expect(aborted).to.equal(1);
  });
});
