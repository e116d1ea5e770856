// The notification lane's priority over a campaign's claim batches (lane-priority.ts), in
// isolation: turns are counted, not timed — each check looks at which promises have settled after
// the event loop has run everything it could.
import { expect } from 'chai';
import { createLanePriority } from '../../src/sending/lane-priority.js';

/** Lets every settled promise's reactions run. */
const drained = () => new Promise((r) => setImmediate(r));

function deferred() {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

/** A campaign batch asking for its turn, and whether it has it yet. */
function ask(priority: ReturnType<typeof createLanePriority>) {
  const turn = { granted: false, end: (): void => {} };
  void priority.campaignTurn().then((end) => {
    turn.granted = true;
    turn.end = end;
  });
  return turn;
}

describe('sending: the notification lane before a campaign', () => {
  it('when the lane is idle, then every campaign batch has its turn at once', async () => {
    const priority = createLanePriority({ whileBusy: 1, holdMs: 0 });
    const turns = [ask(priority), ask(priority), ask(priority)];
    await drained();
    expect(turns.map((t) => t.granted)).to.deep.equal([true, true, true]);
  });

  it('when the lane has work, then the campaign has whileBusy batches out, the next when one ends, in the order asked', async () => {
    const priority = createLanePriority({ whileBusy: 2, holdMs: 0 });
    const work = deferred();
    const lane = priority.lane(() => work.promise);
    const turns = [ask(priority), ask(priority), ask(priority), ask(priority)];
    await drained();
    expect(turns.map((t) => t.granted)).to.deep.equal([true, true, false, false]);
    turns[1].end();
    turns[1].end(); // ending twice frees one turn, not two
    await drained();
    expect(turns.map((t) => t.granted)).to.deep.equal([true, true, true, false]);
    work.resolve();
    await lane;
    await new Promise((r) => setTimeout(r, 0)); // the hold of 0 ms
    await drained();
    expect(turns.map((t) => t.granted), 'the lane idle: the rest at once').to.deep.equal([true, true, true, true]);
  });

  it('when the lane\'s handler fails, then its error is passed on and the campaign gets its turns back after the hold', async () => {
    const priority = createLanePriority({ whileBusy: 1, holdMs: 0 });
    const work = deferred();
    const lane = priority.lane(() => work.promise);
    const turns = [ask(priority), ask(priority)];
    await drained();
    work.reject(new Error('lane failed'));
    const failure = await lane.then(
      () => null,
      (err: Error) => err.message,
    );
    expect(failure).to.equal('lane failed');
    await new Promise((r) => setTimeout(r, 0));
    await drained();
    expect(turns.map((t) => t.granted)).to.deep.equal([true, true]);
  });

  it('when the lane is within its hold after its last handler, then the campaign still waits; a new handler in the hold extends it', async () => {
    const priority = createLanePriority({ whileBusy: 1, holdMs: 60_000 });
    await priority.lane(async () => {});
    const turns = [ask(priority), ask(priority)];
    await drained();
    expect(turns.map((t) => t.granted)).to.deep.equal([true, false]);
    await priority.lane(async () => {});
    turns[0].end();
    await drained();
    expect(turns.map((t) => t.granted), 'the second once the first ended, still one at a time').to.deep.equal([true, true]);
    const third = ask(priority);
    await drained();
    expect(third.granted, 'a third waits while the second is out').to.equal(false);
  });

  it('when whileBusy is not a positive integer, then it is refused', () => {
    expect(() => createLanePriority({ whileBusy: 0, holdMs: 0 })).to.throw(RangeError);
  });
});
