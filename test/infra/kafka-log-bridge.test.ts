// kafkajs's log entries as our JSON lines (packages/shared/src/kafka.ts bridgeLog), written by the
// real logger: an Error kafkajs passes (a chunk attempt that failed: "Error when calling
// eachBatch") keeps its message and stack instead of `"error":{}`, and an error answer kafkajs
// retries by itself (a broker still loading on a healthy start) is not an error line.
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { logLevel } from 'kafkajs';
import { bridgeLog } from '@webpush/shared/kafka.js';
import { createLogger } from '@webpush/shared/log.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  let buf = '';
  const dest = new Writable({
    write(chunk, _enc, done) {
      buf += String(chunk);
      for (let i; (i = buf.indexOf('\n')) >= 0; buf = buf.slice(i + 1)) lines.push(JSON.parse(buf.slice(0, i)));
      done();
    },
  });
  return { log: createLogger('delivery', 'debug', {}, dest as never), lines, flushed: () => new Promise((r) => setImmediate(r)) };
}

describe('the kafkajs log bridge', () => {
  it('logs an Error kafkajs passes with its message and stack, not as {}', async () => {
    const { log, lines, flushed } = capture();
    const error = new Error('3 pushes of chunk 2 of campaign c are still held: 3 by another instance');
    bridgeLog(log, logLevel.ERROR, { message: 'Error when calling eachBatch', namespace: 'Runner', error, groupId: 'delivery-chunks', topic: 'delivery.chunks.v1', partition: 4 });
    await flushed();
    expect(lines).to.have.length(1);
    const [line] = lines as [{ level: string; msg: string; err: { message: string; stack: string }; error?: unknown; topic: string; partition: number }];
    expect(line).to.deep.include({ level: 'error', msg: 'kafka: Error when calling eachBatch', topic: 'delivery.chunks.v1', partition: 4 });
    expect(line.err.message).to.equal(error.message);
    expect(line.err.stack).to.include('kafka-log-bridge.test.ts');
    expect(line.error).to.equal(undefined);
  });

  it('logs an error answer kafkajs retries itself (a coordinator loading) at info, and one it does not retry as an error', async () => {
    const { log, lines, flushed } = capture();
    bridgeLog(log, logLevel.ERROR, { message: 'Response FindCoordinator(key: 10, version: 2)', namespace: 'Connection', error: "The coordinator is loading and hence can't process requests for this group" });
    bridgeLog(log, logLevel.ERROR, { message: 'Response JoinGroup(key: 11, version: 5)', namespace: 'Connection', error: 'The group coordinator is not available' });
    bridgeLog(log, logLevel.ERROR, { message: 'Response CreateTopics(key: 19, version: 3)', namespace: 'Connection', error: 'Not authorized to access topics: [Topic authorization failed]' });
    bridgeLog(log, logLevel.WARN, { message: 'Response without match', namespace: 'RequestQueue' });
    await flushed();
    expect(lines.map((l) => [l.level, l.error])).to.deep.equal([
      ['info', "The coordinator is loading and hence can't process requests for this group"],
      ['info', 'The group coordinator is not available'],
      ['error', 'Not authorized to access topics: [Topic authorization failed]'],
      ['warn', undefined],
    ]);
  });
});
