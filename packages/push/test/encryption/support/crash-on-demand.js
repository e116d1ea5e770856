// @ts-check
// Imported before the real worker (crashing-worker.js) so that this listener runs first for every chunk.
import { parentPort } from 'node:worker_threads';

/** @import { ChunkRequest } from '../../../src/encryption/protocol.js' */

parentPort?.on('message', (/** @type {ChunkRequest} */ msg) => {
  if (msg.plaintextLengths === null && Buffer.from(msg.plaintexts).toString() === 'crash') process.exit(3);
});
