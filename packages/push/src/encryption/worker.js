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
  // The request's buffers go back too, unreferenced, so they are freed now: left here, they wait
  // for this thread's garbage collector, which the native engine, allocating next to nothing on
  // its heap, runs so rarely that tens of MB of spent chunks piled up.
  /** @type {ArrayBuffer[]} */
  const spent = [msg.keys, msg.plaintexts];
  if (msg.plaintextLengths) spent.push(/** @type {ArrayBuffer} */ (msg.plaintextLengths.buffer));
  port.postMessage(reply, [arena, lengths.buffer, ...spent]);
});
