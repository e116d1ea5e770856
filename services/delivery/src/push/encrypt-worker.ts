// Worker side of the encryption pool: encrypts one chunk and answers with every body packed
// into a single fresh ArrayBuffer that is transferred, not copied, back to the parent.
import { parentPort } from 'node:worker_threads';
import { encryptPayload } from './encrypt.js';
import type { ChunkRequest, ChunkResponse } from './encrypt-pool.js';

if (!parentPort) throw new Error('encrypt-worker must run as a worker thread');
const port = parentPort;

port.on('message', (msg: ChunkRequest) => {
  const plaintext = Buffer.from(msg.payload);
  const bodies: Buffer[] = [];
  let total = 0;
  for (let i = 0; i < msg.keys.length; i += 2) {
    let body: Buffer;
    try {
      body = encryptPayload(msg.payloads ? Buffer.from(msg.payloads[i / 2]) : plaintext, msg.keys[i], msg.keys[i + 1]);
    } catch {
      // Unusable subscription keys: an empty body marks this one item, not the whole chunk.
      body = Buffer.alloc(0);
    }
    bodies.push(body);
    total += body.length;
  }
  // Small Buffers live in Node's shared 8 KiB pool, which must not be transferred.
  const arena = new ArrayBuffer(total);
  const view = new Uint8Array(arena);
  const lengths = new Uint32Array(bodies.length);
  let offset = 0;
  bodies.forEach((body, i) => {
    view.set(body, offset);
    lengths[i] = body.length;
    offset += body.length;
  });
  const reply: ChunkResponse = { id: msg.id, arena, lengths };
  port.postMessage(reply, [arena, lengths.buffer]);
});
