// Encryption is CPU-bound (one P-256 key generation and ECDH per message), so a batch is cut into
// chunks that worker threads take from one queue: every core works, and the event loop stays free
// for I/O. An urgent batch (a notification to a person) has a queue of its own that a free worker
// always takes from first: it waits for one chunk in progress, not for a campaign's queued ones. A chunk travels as raw bytes in transferred ArrayBuffers (keys, plaintexts) and comes
// back as one transferred arena of bodies.
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { usableCpus } from './cpus.js';
import { ADDON_URL, resolveEngine, type EngineChoice, type EngineName } from './engine.js';
import { KEYS_LENGTH, type ChunkRequest, type ChunkResponse } from './protocol.js';
import { AUTH_SECRET_LENGTH, P256_POINT_LENGTH } from './rfc8291.js';

/** A subscription's keys as the browser gives them: base64url strings. */
export interface Base64urlKeys {
  p256dh: string;
  auth: string;
}

/** A subscription's keys as raw bytes: the 65-byte uncompressed point and the 16-byte auth secret. */
export interface RawKeys {
  p256dhRaw: Uint8Array;
  authRaw: Uint8Array;
}

export type SubscriptionKeys = (Base64urlKeys | RawKeys) & {
  /** This subscription's own plaintext (e.g. with its tracking token); default: the batch payload. */
  payload?: string;
};

export interface Encryptor {
  /**
   * Bodies in the order of `subs`. A subscription that cannot be encrypted for gets an empty
   * Buffer (a real aes128gcm body is never empty): its p256dh is not an uncompressed P-256 point,
   * its auth secret is not 16 bytes, or its plaintext exceeds 3993 bytes (which the campaign
   * service's own limit should make impossible).
   */
  encryptBatch(payload: string, subs: readonly SubscriptionKeys[], opts?: EncryptOptions): Promise<Buffer[]>;
}

export interface EncryptOptions {
  /**
   * Ahead of every batch queued without it: a few pushes someone waits for (a notification to a
   * person), never a campaign's thousands — urgent batches are taken first, so a flood of them
   * would hold the rest back.
   */
  urgent?: boolean;
}

export interface EncryptPool extends Encryptor {
  readonly size: number;
  /** What the workers encrypt with (engine.js). */
  readonly engine: EngineName;
  close(): Promise<void>;
}

export interface EncryptPoolOptions {
  /** Worker threads (ENCRYPTION_WORKERS); default: the CPUs this process may use (cpus.ts). */
  size?: number;
  /** Subscriptions per message to a worker; default 256. */
  chunkSize?: number;
  /** Worker script; tests swap in a misbehaving one. Default: ./worker.js. */
  workerUrl?: URL;
  /** ENCRYPTION_ENGINE: the native addon when it loads (default), insist on it, or JavaScript. */
  engine?: EngineChoice;
  /** The addon; default engine.js's ADDON_URL (beside the compiled code). Tests name the built one. */
  addonUrl?: URL;
  /** V8 heap limits of each worker; default WORKER_LIMITS (a chunk needs a few hundred kB). */
  resourceLimits?: ResourceLimits;
}

export class EncryptPoolError extends Error {
  override readonly name = 'EncryptPoolError';
}

/**
 * Heap limits per worker. A chunk of 256 subscriptions holds well under 1 MB; without limits V8
 * sizes each isolate's young generation for throughput (16 MB semi-spaces) and lets the old
 * generation grow to its default, memory every worker keeps once touched.
 */
export const WORKER_LIMITS: ResourceLimits = Object.freeze({ maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 64 });

const DEFAULT_CHUNK_SIZE = 256;

interface Batch {
  results: Buffer[];
  remaining: number;
  settled: boolean;
  resolve(bodies: Buffer[]): void;
  reject(err: Error): void;
}

interface Chunk {
  batch: Batch;
  start: number;
  request: ChunkRequest;
}

interface Slot {
  worker: Worker;
  current: Chunk | null;
}

export function createEncryptPool(opts: EncryptPoolOptions = {}): EncryptPool {
  const size = opts.size ?? usableCpus();
  const chunkSize = opts.chunkSize ?? DEFAULT_CHUNK_SIZE;
  if (!Number.isInteger(size) || size < 1) throw new RangeError('size must be a positive integer');
  if (!Number.isInteger(chunkSize) || chunkSize < 1) throw new RangeError('chunkSize must be a positive integer');
  // The worker is plain JavaScript next to this file, in the sources and in dist alike: no loader.
  const workerUrl = opts.workerUrl ?? new URL('./worker.js', import.meta.url);
  const resourceLimits = opts.resourceLimits ?? WORKER_LIMITS;
  const addonUrl = opts.addonUrl ?? ADDON_URL;
  // Decided once here, so every worker runs the same engine (and `native` fails at start, not in a worker).
  const { engine } = resolveEngine(opts.engine ?? 'auto', addonUrl);
  const workerData = { engine, addonUrl: addonUrl.href };

  const queue: Chunk[] = [];
  /** Chunks of urgent batches (EncryptOptions.urgent): taken before `queue`'s. */
  const urgentQueue: Chunk[] = [];
  const slots: Slot[] = [];
  let nextChunkId = 1;
  let closed = false;

  function spawn(): Slot {
    // execArgv: [] — under `node --import tsx` a worker would otherwise load tsx too (a few MB
    // and ~100 ms each) for a script that needs no loader.
    const slot: Slot = { worker: new Worker(workerUrl, { resourceLimits, execArgv: [], workerData }), current: null };
    slot.worker.on('message', (msg: ChunkResponse) => onReply(slot, msg));
    slot.worker.on('error', (err: unknown) => onDeath(slot, err instanceof Error ? err : new Error(String(err))));
    slot.worker.on('exit', (code) => onDeath(slot, new Error(`exited with code ${code}`)));
    return slot;
  }

  function onReply(slot: Slot, msg: ChunkResponse): void {
    const chunk = slot.current;
    slot.current = null;
    if (chunk && chunk.request.id === msg.id && !chunk.batch.settled) {
      let offset = 0;
      msg.lengths.forEach((length, i) => {
        chunk.batch.results[chunk.start + i] = Buffer.from(msg.arena, offset, length);
        offset += length;
      });
      chunk.batch.remaining -= 1;
      if (chunk.batch.remaining === 0) settle(chunk.batch, null);
    }
    dispatch();
  }

  function onDeath(slot: Slot, err: Error): void {
    const index = slots.indexOf(slot);
    if (index === -1) return; // 'error' is followed by 'exit'; handle the death once
    slots.splice(index, 1);
    slot.worker.removeAllListeners('message');
    if (slot.current) {
      failBatch(slot.current.batch, new EncryptPoolError(`encryption worker crashed: ${err.message}`));
      slot.current = null;
    }
    if (!closed) {
      slots.push(spawn());
      dispatch();
    }
  }

  function failBatch(batch: Batch, err: Error): void {
    for (const q of [urgentQueue, queue]) for (let i = q.length - 1; i >= 0; i -= 1) if (q[i].batch === batch) q.splice(i, 1);
    settle(batch, err);
  }

  function settle(batch: Batch, err: Error | null): void {
    if (batch.settled) return;
    batch.settled = true;
    if (err) batch.reject(err);
    else batch.resolve(batch.results);
  }

  function dispatch(): void {
    for (const slot of slots) {
      if (urgentQueue.length === 0 && queue.length === 0) return;
      if (slot.current) continue;
      const chunk = urgentQueue.shift() ?? queue.shift()!;
      slot.current = chunk;
      const { request } = chunk;
      const transfer = [request.keys, request.plaintexts];
      if (request.plaintextLengths) transfer.push(request.plaintextLengths.buffer as ArrayBuffer);
      slot.worker.postMessage(request, transfer);
    }
  }

  for (let i = 0; i < size; i += 1) slots.push(spawn());

  return {
    size,
    engine,
    encryptBatch(payload, subs, { urgent = false } = {}) {
      if (closed) return Promise.reject(new EncryptPoolError('encryption pool is closed'));
      if (subs.length === 0) return Promise.resolve([]);
      return new Promise<Buffer[]>((resolve, reject) => {
        // Spread a small batch over every worker rather than handing it all to one.
        const per = Math.min(chunkSize, Math.ceil(subs.length / size));
        const batch: Batch = {
          results: new Array<Buffer>(subs.length),
          remaining: Math.ceil(subs.length / per),
          settled: false,
          resolve,
          reject,
        };
        const shared = Buffer.from(payload);
        for (let start = 0; start < subs.length; start += per) {
          const request = packChunk(nextChunkId++, payload, shared, subs.slice(start, start + per));
          (urgent ? urgentQueue : queue).push({ batch, start, request });
        }
        dispatch();
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      const pending = new Set([...urgentQueue.map((c) => c.batch), ...queue.map((c) => c.batch), ...slots.flatMap((s) => (s.current ? [s.current.batch] : []))]);
      queue.length = 0;
      urgentQueue.length = 0;
      for (const batch of pending) settle(batch, new EncryptPoolError('encryption pool is closed'));
      const workers = slots.splice(0).map((s) => s.worker);
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

/** A chunk's keys and plaintexts as raw bytes, each in its own ArrayBuffer (they are transferred). */
function packChunk(id: number, payload: string, shared: Buffer, subs: readonly SubscriptionKeys[]): ChunkRequest {
  const keys = Buffer.from(new ArrayBuffer(subs.length * KEYS_LENGTH));
  subs.forEach((sub, i) => writeKeys(keys, i * KEYS_LENGTH, sub));
  if (subs.every((sub) => sub.payload === undefined)) {
    const plaintexts = new ArrayBuffer(shared.length);
    shared.copy(Buffer.from(plaintexts));
    return { id, count: subs.length, keys: keys.buffer as ArrayBuffer, plaintexts, plaintextLengths: null };
  }
  const plaintextLengths = new Uint32Array(subs.length);
  let total = 0;
  subs.forEach((sub, i) => {
    plaintextLengths[i] = sub.payload === undefined ? shared.length : Buffer.byteLength(sub.payload);
    total += plaintextLengths[i];
  });
  const plaintexts = Buffer.from(new ArrayBuffer(total));
  let at = 0;
  subs.forEach((sub, i) => {
    if (sub.payload === undefined) shared.copy(plaintexts, at);
    else plaintexts.write(sub.payload, at, 'utf8');
    at += plaintextLengths[i];
  });
  return { id, count: subs.length, keys: keys.buffer as ArrayBuffer, plaintexts: plaintexts.buffer as ArrayBuffer, plaintextLengths };
}

/**
 * p256dh then auth at `at`, decoded from base64url straight into the chunk's buffer. Keys of the
 * wrong size stay zeros, which the worker refuses (see ChunkRequest.keys).
 */
function writeKeys(keys: Buffer, at: number, sub: SubscriptionKeys): void {
  if ('p256dhRaw' in sub) {
    if (sub.p256dhRaw.length !== P256_POINT_LENGTH || sub.authRaw.length !== AUTH_SECRET_LENGTH) return;
    keys.set(sub.p256dhRaw, at);
    keys.set(sub.authRaw, at + P256_POINT_LENGTH);
    return;
  }
  // byteLength is computed from the string's length; write() tells what actually decoded.
  if (Buffer.byteLength(sub.p256dh, 'base64url') !== P256_POINT_LENGTH || Buffer.byteLength(sub.auth, 'base64url') !== AUTH_SECRET_LENGTH) return;
  const decoded = keys.write(sub.p256dh, at, P256_POINT_LENGTH, 'base64url') + keys.write(sub.auth, at + P256_POINT_LENGTH, AUTH_SECRET_LENGTH, 'base64url');
  if (decoded !== KEYS_LENGTH) keys.fill(0, at, at + KEYS_LENGTH);
}
