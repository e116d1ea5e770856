// The producer's coalesced sends (packages/shared/src/kafka.ts coalescedSends): publishes made
// while a send is in flight go in the next one, in call order, each answered only when the send
// carrying its messages is acknowledged, and one send never carries more than
// COALESCED_SEND_BYTES unless a single publish is that large.
import { expect } from 'chai';
import { COALESCED_SEND_BYTES, coalescedSends } from '@webpush/shared/kafka.js';

type Sent = { topic: string; keys: string[] }[];

/** A send whose acknowledgements the test gives, one send at a time, as a broker would. */
function controlledSend() {
  const sends: { batch: Sent; ack: (err?: Error) => void }[] = [];
  const send = coalescedSends(
    (topicMessages) =>
      new Promise<void>((resolve, reject) => {
        sends.push({ batch: topicMessages.map((t) => ({ topic: t.topic, keys: t.messages.map((m) => m.key) })), ack: (err) => (err ? reject(err) : resolve()) });
      }),
  );
  return { send, sends };
}

const msg = (key: string, bytes = 10) => ({ key, value: Buffer.alloc(bytes) });
const settled = () => new Promise((r) => setImmediate(r));

describe('coalesced Kafka sends', () => {
  it('sends the first publish alone and those made while it is in flight together, in call order', async () => {
    const { send, sends } = controlledSend();
    const answered: string[] = [];
    const first = send('a', [msg('1')]).then(() => answered.push('1'));
    await settled();
    const second = send('b', [msg('2')]).then(() => answered.push('2'));
    const third = send('a', [msg('3'), msg('4')]).then(() => answered.push('3'));
    await settled();
    expect(sends.map((s) => s.batch)).to.deep.equal([[{ topic: 'a', keys: ['1'] }]]);
    expect(answered).to.deep.equal([]);

    sends[0].ack();
    await first;
    await settled();
    expect(answered).to.deep.equal(['1']);
    expect(sends[1].batch).to.deep.equal([
      { topic: 'b', keys: ['2'] },
      { topic: 'a', keys: ['3', '4'] },
    ]);
    sends[1].ack();
    await Promise.all([second, third]);
    expect(answered).to.deep.equal(['1', '2', '3']);
    expect(sends).to.have.length(2);
  });

  it('fails every publish of a failed send, and only those', async () => {
    const { send, sends } = controlledSend();
    const first = send('a', [msg('1')]);
    await settled();
    const second = send('a', [msg('2')]);
    const third = send('a', [msg('3')]);
    await settled();
    sends[0].ack(new Error('broker gone'));
    const err = await first.then(() => null, (e: Error) => e);
    expect(err?.message).to.equal('broker gone');
    await settled();
    sends[1].ack();
    await Promise.all([second, third]);
  });

  it('starts a new send once the bytes would pass the bound; a single larger publish goes alone', async () => {
    // Keys count too: '1' and '2' fill the bound exactly.
    const { send, sends } = controlledSend();
    const half = COALESCED_SEND_BYTES / 2;
    const all = [send('a', [msg('0')])];
    await settled();
    all.push(send('a', [msg('1', half)]), send('a', [msg('2', half - 2)]), send('a', [msg('3', 10)]), send('a', [msg('4', COALESCED_SEND_BYTES * 2)]));
    for (let i = 0; i < 4; i++) {
      await settled();
      sends[i].ack();
    }
    await Promise.all(all);
    expect(sends.map((s) => s.batch.flatMap((t) => t.keys))).to.deep.equal([['0'], ['1', '2'], ['3'], ['4']]);
  });

  it('answers a publish of no messages at once, without a send', async () => {
    const { send, sends } = controlledSend();
    await send('a', []);
    expect(sends).to.have.length(0);
  });
});
