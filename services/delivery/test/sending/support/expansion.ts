// A dispatch handler and a pacer over a test's Postgres whose chunks are recorded as Kafka would
// carry them, for the tests of expansion (pacer, stages).
import { createLogger } from '@webpush/shared/log.js';
import type { ChunkMessage } from '@webpush/contracts/messages.js';
import { createDispatchHandler } from '../../../src/sending/dispatch.js';
import { createPacer } from '../../../src/sending/pacer.js';
import type { TestDelivery } from '../../support.js';

const log = createLogger('expansion-test', 'error');
/** Chunks a pass of the pacer publishes at most. */
export const CHUNKS_PER_PASS = 10;
const noop = async () => {};

/** `bestTimeBatch`: the dispatch's best-time freeze batch (its default when absent). */
export function expansionRecorder(t: TestDelivery, opts: { bestTimeBatch?: number } = {}) {
  const chunks: ChunkMessage[] = [];
  /** The topic each chunk went to, in the order of `chunks`. */
  const topics: string[] = [];
  const publish = async (topic: string, messages: { value: Buffer }[]) => {
    chunks.push(...messages.map((m) => JSON.parse(m.value.toString()) as ChunkMessage));
    topics.push(...messages.map(() => topic));
  };
  const dispatch = createDispatchHandler({ pool: t.pool, log, publish, publishStats: noop }, { chunkSize: 500, chunksPerGroup: 10, ...opts });
  const pacer = createPacer({ pool: t.pool, log, publish, countersChanged: () => {} }, { chunkSize: 500, chunksPerPass: CHUNKS_PER_PASS });
  /** Every subscriber id published so far, in order. */
  const sent = () => chunks.flatMap((c) => c.subscriberIds);
  return { chunks, topics, dispatch, pacer, sent };
}
