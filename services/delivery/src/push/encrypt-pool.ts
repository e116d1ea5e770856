// Encryption is CPU-bound (one P-256 ECDH per message), so a batch is cut into chunks that
// worker threads take from one queue: every core works, and the event loop stays free for I/O.
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';

export interface SubscriptionKeys {
  p256dh: string;
  auth: string;
  /** This subscription's own plaintext (e.g. with its tracking token); default: the batch payload. */
  payload?: string;
}

export interface Encryptor {
  /**
   * Bodies in the order of `subs`. A subscription whose keys cannot be used (not a P-256
   * point, short auth secret) gets an empty Buffer — a real aes128gcm body is never empty.
   */
  encryptBatch(payload: string, subs: readonly SubscriptionKeys[]): Promise<Buffer[]>;
}

export interface EncryptPool extends Encryptor {
  readonly size: number;
  close(): Promise<void>;
}

export interface EncryptPoolOptions {
  /** Worker threads; default os.availableParallelism(). */
  size?: number;
  /** Subscriptions per message to a worker; default 256. */
  chunkSize?: number;
  /** Worker script; tests swap in a misbehaving one. Default: ./encrypt-worker.(ts|js). */
  workerUrl?: URL;
  /** V8 heap limits of each worker; default WORKER_LIMITS (a chunk needs a few hundred kB). */
  resourceLimits?: ResourceLimits;
}

export class EncryptPoolError extends Error {
  override readonly name = 'EncryptPoolError';
}

/** @internal parent ↔ worker messages; `keys` is [p256dh0, auth0, p256dh1, auth1, …]. */
export interface ChunkRequest {
  id: number;
  payload: string;
  keys: string[];
  /** Per-item plaintexts, when the items do not share one. */
  payloads?: string[];
}
/** @internal */
export interface ChunkResponse {
  id: number;
  arena: ArrayBuffer;
  lengths: Uint32Array;
}

interface Batch {
  results: Buffer[];
  remaining: number;
  settled: boolean;
  resolve(bodies: Buffer[]): void;
  reject(err: Error): void;
}

interface Chunk {
  id: number;
  batch: Batch;
  start: number;
  request: ChunkRequest;
}

interface Slot {
  worker: Worker;
  current: Chunk | null;
}

const DEFAULT_CHUNK_SIZE = 256;

export function createEncryptPool(opts: EncryptPoolOptions = {}): EncryptPool {
  const size = opts.size ?? os.availableParallelism();
  const chunkSize = opts.chunkSize ?? DEFAULT_CHUNK_SIZE;
  if (!Number.isInteger(size) || size < 1) throw new RangeError('size must be a positive integer');
  if (!Number.isInteger(chunkSize) || chunkSize < 1) throw new RangeError('chunkSize must be a positive integer');
  const workerUrl = opts.workerUrl ?? defaultWorkerUrl();

  const limits = opts.resourceLimits ?? WORKER_LIMITS;

  const queue: Chunk[] = [];
  const slots: Slot[] = [];
  let nextChunkId = 1;
  let closed = false;
  // Workers start once the script is ready (a .ts worker is bundled first, see workerScript);
  // chunks queue up until then.
  let script: WorkerScript | undefined;

  function spawn(): Slot {
    const slot: Slot = { worker: startWorker(script!, limits), current: null };
    slot.worker.on('message', (msg: ChunkResponse) => onReply(slot, msg));
    slot.worker.on('error', (err: unknown) => onDeath(slot, err instanceof Error ? err : new Error(String(err))));
    slot.worker.on('exit', (code) => onDeath(slot, new Error(`exited with code ${code}`)));
    return slot;
  }

  function onReply(slot: Slot, msg: ChunkResponse): void {
    const chunk = slot.current;
    slot.current = null;
    if (chunk && chunk.id === msg.id && !chunk.batch.settled) {
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
    for (let i = queue.length - 1; i >= 0; i -= 1) if (queue[i].batch === batch) queue.splice(i, 1);
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
      if (queue.length === 0) return;
      if (slot.current) continue;
      const chunk = queue.shift()!;
      slot.current = chunk;
      slot.worker.postMessage(chunk.request);
    }
  }

  void workerScript(workerUrl).then((ready) => {
    if (closed) return;
    script = ready;
    for (let i = 0; i < size; i += 1) slots.push(spawn());
    dispatch();
  });

  return {
    size,
    encryptBatch(payload, subs) {
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
        for (let start = 0; start < subs.length; start += per) {
          const keys: string[] = [];
          const slice = subs.slice(start, start + per);
          for (const sub of slice) keys.push(sub.p256dh, sub.auth);
          const payloads = slice.some((sub) => sub.payload !== undefined) ? slice.map((sub) => sub.payload ?? payload) : undefined;
          const id = nextChunkId++;
          queue.push({ id, batch, start, request: { id, payload, keys, payloads } });
        }
        dispatch();
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      const pending = new Set([...queue.map((c) => c.batch), ...slots.flatMap((s) => (s.current ? [s.current.batch] : []))]);
      queue.length = 0;
      for (const batch of pending) settle(batch, new EncryptPoolError('encryption pool is closed'));
      const workers = slots.splice(0).map((s) => s.worker);
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

/**
 * Heap limits per worker. A chunk of 256 subscriptions holds well under 1 MB; without limits V8
 * sizes each isolate's young generation for throughput (16 MB semi-spaces) and lets the old
 * generation grow to its default, memory every worker keeps once touched.
 */
export const WORKER_LIMITS: ResourceLimits = Object.freeze({ maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 64 });

/** @internal */
export type WorkerScript = { kind: 'file'; url: URL } | { kind: 'eval'; code: string } | { kind: 'tsx'; url: URL };

function startWorker(script: WorkerScript, resourceLimits: ResourceLimits): Worker {
  switch (script.kind) {
    case 'file':
      return new Worker(script.url, { resourceLimits });
    case 'eval':
      return new Worker(script.code, { eval: true, resourceLimits });
    case 'tsx':
      return new Worker(new URL('./tsx-worker.mjs', import.meta.url), { resourceLimits, workerData: { tsxWorkerUrl: script.url.href } });
  }
}

// Dev, tests and the containers run the services from TypeScript under tsx. A worker started
// through tsx would load tsx in its own isolate, plus a module-hooks thread and TypeScript
// compilation per worker: tens of MB each. Instead the worker entry is bundled once per process
// with esbuild (the compiler tsx itself runs on) into one plain CommonJS script held in memory —
// nothing is written to disk, so a read-only app directory is fine — and every worker evaluates
// that. Should bundling fail, the workers fall back to the tsx bootstrap.
const bundles = new Map<string, Promise<WorkerScript>>();

/** @internal */
export function workerScript(url: URL): Promise<WorkerScript> {
  if (!url.pathname.endsWith('.ts')) return Promise.resolve({ kind: 'file', url });
  let script = bundles.get(url.href);
  if (!script) {
    script = bundle(url).then(
      (code): WorkerScript => ({ kind: 'eval', code }),
      (): WorkerScript => ({ kind: 'tsx', url }),
    );
    bundles.set(url.href, script);
  }
  return script;
}

async function bundle(url: URL): Promise<string> {
  const esbuild = await import('esbuild');
  try {
    const out = await esbuild.build({
      entryPoints: [fileURLToPath(url)],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: `node${process.versions.node.split('.')[0]}`,
      write: false,
      logLevel: 'silent',
    });
    return out.outputFiles[0].text;
  } finally {
    // The esbuild service is a child process; it is not needed again (esbuild restarts it on demand).
    await esbuild.stop();
  }
}

function defaultWorkerUrl(): URL {
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`./encrypt-worker${ext}`, import.meta.url);
}
