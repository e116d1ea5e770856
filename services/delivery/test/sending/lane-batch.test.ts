// The notification lane's batches (sending/messaging.ts allOf): a batch's messages are handled at
// once, but those of one key one after another — a job published twice (the relay republishes a
// row whose commit failed) is handled again only once the first copy is done.
import { expect } from 'chai';
import { allOf } from '../../src/sending/messaging.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('delivery: a batch of the notification lane', () => {
  it('handles different keys at once and one key one after another, in offset order', async () => {
    const events: string[] = [];
    let running = 0;
    let most = 0;
    const messages = [
      { key: 'a', offset: '1' },
      { key: 'b', offset: '2' },
      { key: 'a', offset: '3' },
      { key: 'c', offset: '4' },
    ];
    await allOf(messages, async (m) => {
      running++;
      most = Math.max(most, running);
      events.push(`start ${m.key}${m.offset}`);
      await sleep(20);
      events.push(`end ${m.key}${m.offset}`);
      running--;
    });
    expect(most).to.equal(3);
    // The second copy of key a starts only after the first ended.
    expect(events.indexOf('start a3')).to.be.greaterThan(events.indexOf('end a1'));
    expect(events.slice(0, 3)).to.have.members(['start a1', 'start b2', 'start c4']);
  });

  it('settles every key before rejecting with the first failure; a failed message stops the rest of its key', async () => {
    const handled: string[] = [];
    const failing = allOf(
      [
        { key: 'a', offset: '1' },
        { key: 'a', offset: '2' },
        { key: 'b', offset: '3' },
      ],
      async (m) => {
        if (m.offset === '1') throw new Error('Postgres away');
        await sleep(20);
        handled.push(m.offset);
      },
    );
    const err = await failing.then(() => undefined, (e: Error) => e);
    expect(err?.message).to.equal('Postgres away');
    expect(handled).to.deep.equal(['3']);
  });
});
