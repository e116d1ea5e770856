// @ts-check
// Worker side of the encryption pool: encrypts one chunk into a single fresh ArrayBuffer that is
// transferred, not copied, back to the pool. Plain JavaScript importing only node: modules (no
// loader in the worker), started by pool.ts.
import { parentPort } from 'node:worker_threads';
import { KEYS_LENGTH } from './protocol.js';
import { Aes128gcmEncoder, encryptedLength, P256_POINT_LENGTH, Rfc8291Error } from './rfc8291.js';

/** @import { ChunkRequest, ChunkResponse } from './protocol.js' */

if (!parentPort) throw new Error('encryption/worker.js must run as a worker thread');
const port = parentPort;
const encoder = new Aes128gcmEncoder();

port.on('message', (/** @type {ChunkRequest} */ msg) => {
  const keys = Buffer.from(msg.keys);
  const plaintexts = Buffer.from(msg.plaintexts);
  const own = msg.plaintextLengths;
  let capacity = 0;
  if (own) for (const length of own) capacity += encryptedLength(length);
  else capacity = msg.count * encryptedLength(plaintexts.length);
  const arena = new ArrayBuffer(capacity);
  const out = new Uint8Array(arena);
  const lengths = new Uint32Array(msg.count);
  let written = 0;
  let read = 0;
  for (let i = 0; i < msg.count; i += 1) {
    const plaintext = own ? plaintexts.subarray(read, read + own[i]) : plaintexts;
    if (own) read += own[i];
    const at = i * KEYS_LENGTH;
    try {
      lengths[i] = encoder.encryptInto(out, written, plaintext, keys.subarray(at, at + P256_POINT_LENGTH), keys.subarray(at + P256_POINT_LENGTH, at + KEYS_LENGTH));
      written += lengths[i];
    } catch (err) {
      // Unusable keys or plaintext refuse this one item (length 0); anything else is a bug and
      // takes the worker down, which fails the batch.
      if (!(err instanceof Rfc8291Error)) throw err;
    }
  }
  /** @type {ChunkResponse} */
  const reply = { id: msg.id, arena, lengths };
  port.postMessage(reply, [arena, lengths.buffer]);
});
