// @ts-check
// Worker side of the encryption pool: encrypts one chunk into a single fresh ArrayBuffer that is
// transferred, not copied, back to the pool, with the engine the pool chose (engine.js). Plain
// JavaScript importing only node: modules (no loader in the worker), started by pool.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { chunkCapacity, openEngine } from './engine.js';

/** @import { ChunkRequest, ChunkResponse } from './protocol.js' */
/** @import { EngineName } from './engine.js' */

if (!parentPort) throw new Error('encryption/worker.js must run as a worker thread');
const port = parentPort;
const { engine, addonUrl } = /** @type {{ engine: EngineName, addonUrl: string }} */ (workerData);
const encryptChunk = openEngine(engine, new URL(addonUrl));

port.on('message', (/** @type {ChunkRequest} */ msg) => {
  const keys = new Uint8Array(msg.keys);
  const plaintexts = new Uint8Array(msg.plaintexts);
  const arena = new ArrayBuffer(chunkCapacity(msg.count, plaintexts, msg.plaintextLengths));
  const lengths = new Uint32Array(msg.count);
  // Refused messages come back with length 0; anything thrown is a bug and takes the worker down,
  // which fails the batch.
  encryptChunk(new Uint8Array(arena), keys, plaintexts, msg.plaintextLengths, msg.count, lengths);
  /** @type {ChunkResponse} */
  const reply = { id: msg.id, arena, lengths };
  port.postMessage(reply, [arena, lengths.buffer]);
});
