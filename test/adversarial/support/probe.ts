// One hostile request with every check the suite makes on it, and the fast-check driver.
import fc from 'fast-check';
import { request, type RawResult, type RequestSpec } from './http.js';
import { checkAliveAfter, checkAnswer, getCtx, sameSnapshot, SEED, show, snapshot, violation } from './suite.js';

export interface ProbeOptions {
  /** The site whose stored campaigns and subscribers must not change on a 4xx. */
  siteId: string;
  /** Statuses the contract allows here; anything else is a violation. */
  allowed?: readonly number[];
  /** The input holds text no field may carry (NUL, lone surrogate): it must not be accepted. */
  mustReject?: boolean;
  /** A short description of the input for the report. */
  what: string;
  timeoutMs?: number;
  /** Another port than the gateway's (a service reached directly). */
  port?: number;
}

export interface ProbeResult {
  status: number | undefined;
  body: any;
  result: RawResult;
}

export async function probe(cls: string, spec: RequestSpec, opts: ProbeOptions): Promise<ProbeResult> {
  const c = getCtx();
  const before = await snapshot(opts.siteId);
  const result = await request(opts.port ?? c.gatewayPort, spec, { timeoutMs: opts.timeoutMs ?? 12_000 });
  c.tally.http(cls, result);
  if (process.env.ADVERSARIAL_DEBUG && result.ms > 300) console.log(`slow (${result.ms} ms, ${result.ended}, ${result.responses[0]?.status}): ${spec.method} ${String(spec.path).slice(0, 80)} ${opts.what.slice(0, 300)}`);
  const what = `${spec.method} ${show(Buffer.isBuffer(spec.path) ? spec.path.toString('latin1') : spec.path, 90)} ${opts.what}`;
  const status = checkAnswer(cls, what, result, spec.method);
  if (status !== undefined && status < 500 && opts.allowed && !opts.allowed.includes(status)) violation(cls, `${what}: unexpected status ${status} ${result.responses[0].text.slice(0, 120)}`);
  if (status !== undefined && status < 300 && opts.mustReject) violation(cls, `${what}: accepted (${status}) text with a NUL or an unpaired surrogate`);
  if (status === undefined || status >= 400) {
    const after = await snapshot(opts.siteId);
    if (!sameSnapshot(before, after)) violation(cls, `${what}: answered ${status ?? 'nothing'} but stored data changed (${Object.values(before).join(' ')} → ${Object.values(after).join(' ')})`);
  }
  await checkAliveAfter(cls, what, status);
  let body: any;
  try {
    body = result.responses[0] ? JSON.parse(result.responses[0].text) : undefined;
  } catch {
    body = undefined;
  }
  return { status, body, result };
}

/**
 * Runs `fn` on generated values with the suite's fixed seed, at most `numRuns` times and for
 * about `timeMs` (runs past the deadline are skipped, and fast-check's own time limit stops the
 * run shortly after). `fn` records violations instead of throwing, so every input is counted;
 * the call returns only once the last `fn` has finished (no request outlives its test).
 */
export async function fuzz<T>(arb: fc.Arbitrary<T>, opts: { numRuns: number; timeMs: number; seedOffset: number }, fn: (value: T) => Promise<void>): Promise<void> {
  const deadline = Date.now() + opts.timeMs;
  let inFlight: Promise<void> = Promise.resolve();
  await fc.assert(
    fc.asyncProperty(arb, async (value) => {
      if (Date.now() > deadline) return;
      inFlight = fn(value);
      await inFlight;
    }),
    { seed: SEED + opts.seedOffset, numRuns: opts.numRuns, endOnFailure: true, plugins: [fc.interruptAfterTimeLimit(opts.timeMs + 2000)] },
  );
  await inFlight.catch(() => {});
}

/** Runs the async functions with at most `n` at a time. */
export async function pool<T>(items: readonly T[], n: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i], i);
      }
    }),
  );
}
