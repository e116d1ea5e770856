// @ts-check
// Imported before the real worker (spent-buffers-worker.js): remembers each chunk request and,
// once the worker has replied, takes the thread down if the request's buffers are still this
// thread's (not detached by the reply's transfer list). Left here they would wait for this
// worker's garbage collector (see worker.js).
import { parentPort } from 'node:worker_threads';

/** @import { ChunkRequest } from '../../../src/encryption/protocol.js' */

if (!parentPort) throw new Error('a worker script');
const port = parentPort;
/** @type {ChunkRequest | undefined} */
let request;
port.on('message', (/** @type {ChunkRequest} */ msg) => {
  request = msg;
});
const post = port.postMessage.bind(port);
port.postMessage = (/** @type {unknown} */ value, /** @type {any} */ transfer) => {
  post(value, transfer);
  const kept = request && [request.keys, request.plaintexts, request.plaintextLengths?.buffer].filter((b) => b && b.byteLength > 0);
  if (kept && kept.length > 0) process.exit(4);
};
