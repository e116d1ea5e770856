// RFC 8030 §5 "Requesting Push Message Delivery", answered the way browser push services do.
import { decryptAes128gcm, DecryptError } from './aes128gcm.js';
import type { Behaviours } from './behaviours.js';
import type { Delays, ServiceQueue } from './delays.js';
import type { Device } from './device.js';
import type { Exchange } from './exchange.js';
import { randomIds } from './random.js';
import type { SimulatorState, SubscriptionRecord } from './state.js';
import type { Behaviour, SimulatorMode } from './types.js';
import {
  appleRefusesSubject, checkVapidClaims, parseVapidAuthorization, verifyVapidSignature, VapidError, type VapidClaims,
} from './vapid.js';

/** RFC 8291 §4: a push service may refuse bodies over 4096 octets. */
export const MAX_PUSH_BODY = 4096;
const DRAIN_LIMIT = 1024 * 1024;
const URGENCIES = new Set(['very-low', 'low', 'normal', 'high']);
const messageId = randomIds();

type CachedVapid = { key: string; claims: VapidClaims } | VapidError;

/**
 * Sink mode's verdicts on Authorization (+ Crypto-Key) values, at most 10,000. A sender signs one
 * token per push service and sends it with every push until it renews it, so the last value
 * looked up answers nearly every push: comparing with it is far cheaper than hashing a fresh
 * ~400-character header value for the Map (about a microsecond).
 */
export class VapidCache {
  private static readonly LIMIT = 10_000;
  private entries = new Map<string, CachedVapid>();
  private lastKey: string | undefined;
  private lastValue: CachedVapid | undefined;

  get(key: string): CachedVapid | undefined {
    if (key === this.lastKey) return this.lastValue;
    const value = this.entries.get(key);
    if (value !== undefined) this.remember(key, value);
    return value;
  }

  set(key: string, value: CachedVapid): void {
    if (this.entries.size >= VapidCache.LIMIT) this.entries.clear();
    this.entries.set(key, value);
    this.remember(key, value);
  }

  clear(): void {
    this.entries.clear();
    this.lastKey = undefined;
    this.lastValue = undefined;
  }

  private remember(key: string, value: CachedVapid): void {
    this.lastKey = key;
    this.lastValue = value;
  }
}

export interface PushContext {
  origin: string;
  mode: SimulatorMode;
  state: SimulatorState;
  behaviours: Behaviours;
  random: () => number;
  sinkSampleEvery: number;
  maxVapidTtlSec: number;
  /** Apple's answers to VAPID (PushSimulatorOptions.apple). */
  apple: boolean;
  device: Device | undefined;
  /** Every wait before an answer; closed with the simulator. */
  delays: Delays;
  /** Every push is answered this long after its body arrived (a far push service); 0: at once. */
  latencyMs: number;
  /** A service of limited capacity (capacityPerSecond): each push also waits its turn in it. */
  queue: ServiceQueue | undefined;
  vapidCache: VapidCache;
  sinkSeen: { count: number };
}

class Rejection extends Error {
  constructor(readonly status: number, readonly reason: string, message: string) {
    super(message);
  }
}

export async function handlePush(ex: Exchange, subscriptionId: string, ctx: PushContext): Promise<void> {
  const { state } = ctx;
  const record = state.subscriptions.get(subscriptionId);
  if (record?.expired) {
    await drain(ex);
    if (answersLate(ctx) && !(await far(ctx))) return;
    state.counters.afterExpiry++;
    return reject(ex, state, new Rejection(410, 'expired', 'push subscription has expired or was unsubscribed'));
  }

  const behaviour = ctx.behaviours.take(subscriptionId);
  if (behaviour?.latencyMs) await ctx.delays.wait(behaviour.latencyMs);

  const body = await readBody(ex);
  if (body === undefined) return ex.reset();
  // The request has arrived; the answer (whatever it is) comes back after the service's latency.
  if (answersLate(ctx) && !(await far(ctx))) return;
  state.counters.bytes += body.total;

  if (behaviour && chance(ctx, behaviour.resetBeforeAccept)) {
    state.counters.resets.beforeAccept++;
    return ex.reset();
  }
  if (behaviour?.status !== undefined) return answerBehaviour(ex, state, behaviour);

  try {
    const accepted = acceptPush(ex, body, subscriptionId, record, ctx);
    // Taken, whether or not its sender still waits for the answer: a second copy is a duplicate.
    state.noteAccepted(subscriptionId, body.data);
    if (behaviour && chance(ctx, behaviour.resetAfterAccept)) {
      state.counters.resets.afterAccept++;
      return ex.reset();
    }
    state.count(201);
    ex.respond(201, { location: `${ctx.origin}/m/${accepted}` }, '');
  } catch (err) {
    if (err instanceof Rejection) return reject(ex, state, err);
    throw err;
  }
}

/** Validates, authenticates and decrypts one push; returns the message id once stored. */
function acceptPush(ex: Exchange, body: { data: Buffer; total: number }, subscriptionId: string,
  record: SubscriptionRecord | undefined, ctx: PushContext): string {
  const { state } = ctx;
  const sink = ctx.mode === 'sink';
  if (!record && !sink) throw new Rejection(404, 'unknown-subscription', 'no such push subscription');

  const ttlHeader = ex.header('ttl');
  if (ttlHeader === undefined) throw new Rejection(400, 'missing-ttl', 'TTL header is required');
  if (!/^\d{1,10}$/.test(ttlHeader.trim())) throw new Rejection(400, 'bad-ttl', 'TTL must be a non-negative integer');
  const ttl = Number(ttlHeader.trim());

  const encoding = ex.header('content-encoding');
  if (encoding?.trim().toLowerCase() !== 'aes128gcm') {
    throw new Rejection(415, 'bad-content-encoding', 'Content-Encoding must be aes128gcm');
  }
  if (body.total > MAX_PUSH_BODY) throw new Rejection(413, 'payload-too-large', `body exceeds ${MAX_PUSH_BODY} bytes`);
  if (body.total === 0) throw new Rejection(400, 'empty-body', 'an aes128gcm body is required');

  const urgency = ex.header('urgency')?.trim().toLowerCase();
  if (urgency !== undefined && !URGENCIES.has(urgency)) throw new Rejection(400, 'bad-urgency', 'Urgency must be very-low, low, normal or high');
  const topic = ex.header('topic')?.trim();
  if (topic !== undefined && !/^[A-Za-z0-9_-]{1,32}$/.test(topic)) {
    throw new Rejection(400, 'bad-topic', 'Topic must be at most 32 base64url characters');
  }

  authenticate(ex, record, ctx);

  if (!record) {
    // Seeded audiences point at ids we never issued: nothing to decrypt with, count and move on.
    state.counters.accepted++;
    state.counters.unknownAccepted++;
    return messageId();
  }
  const decrypt = !sink || ctx.sinkSeen.count++ % ctx.sinkSampleEvery === 0;
  const id = messageId();
  if (!decrypt) {
    state.counters.accepted++;
    return id;
  }
  let payload: string;
  try {
    payload = decryptAes128gcm(body.data, record.receiver).toString('utf8');
  } catch (err) {
    if (err instanceof DecryptError) throw new Rejection(400, 'decryption-failed', `cannot decrypt: ${err.message}`);
    throw err;
  }
  state.counters.decrypted++;
  state.counters.accepted++;
  const message = {
    id, subscriptionId, payload, headers: { ttl, urgency, topic }, receivedAt: Date.now(), delivered: ctx.device !== undefined,
  };
  state.record(message);
  ctx.device?.deliver(payload, subscriptionId);
  return id;
}

function authenticate(ex: Exchange, record: SubscriptionRecord | undefined, ctx: PushContext): void {
  const authorization = ex.header('authorization');
  const cryptoKey = ex.header('crypto-key');
  ctx.state.noteAuthorization(authorization);
  try {
    let verified: { key: string; claims: VapidClaims };
    if (ctx.mode === 'sink') {
      // The Authorization value itself when there is no Crypto-Key (RFC 8292 senders): no new
      // string to build on every push. Header values cannot contain "\n".
      const cacheKey = cryptoKey === undefined ? authorization ?? '' : `${authorization ?? ''}\n${cryptoKey}`;
      let cached = ctx.vapidCache.get(cacheKey);
      if (cached === undefined) {
        cached = verifyUncached(authorization, cryptoKey, ctx.state);
        ctx.vapidCache.set(cacheKey, cached);
      }
      if (cached instanceof VapidError) throw cached;
      verified = cached;
    } else {
      const result = verifyUncached(authorization, cryptoKey, ctx.state);
      if (result instanceof VapidError) throw result;
      verified = result;
    }
    checkVapidClaims(verified.key, verified.claims, {
      origin: ctx.origin,
      applicationServerKey: record?.applicationServerKey,
      nowSec: Math.floor(Date.now() / 1000),
      maxTtlSec: ctx.maxVapidTtlSec,
    });
    if (ctx.apple && appleRefusesSubject(verified.claims.sub)) throw new VapidError(403, 'bad-sub', 'sub is no contact at a public domain');
  } catch (err) {
    // Apple answers every JWT problem alike, with its own reason word.
    if (err instanceof VapidError) throw ctx.apple ? new Rejection(403, 'BadJwtToken', err.message) : new Rejection(err.status, err.reason, err.message);
    throw err;
  }
}

function verifyUncached(authorization: string | undefined, cryptoKey: string | undefined, state: SimulatorState): CachedVapid {
  state.counters.vapid.verifications++;
  try {
    const credentials = parseVapidAuthorization(authorization, cryptoKey);
    return { key: credentials.key, claims: verifyVapidSignature(credentials) };
  } catch (err) {
    if (err instanceof VapidError) return err;
    throw err;
  }
}

function answerBehaviour(ex: Exchange, state: SimulatorState, behaviour: Behaviour): void {
  const status = behaviour.status!;
  const headers: Record<string, string> = {};
  if (behaviour.retryAfter !== undefined) headers['retry-after'] = behaviour.retryAfter;
  state.count(status, 'behaviour');
  sendJson(ex, status, headers, { reason: 'behaviour', message: `simulated ${status}` });
}

function reject(ex: Exchange, state: SimulatorState, rejection: Rejection): void {
  state.count(rejection.status, rejection.reason);
  sendJson(ex, rejection.status, {}, { reason: rejection.reason, message: rejection.message });
}

const answersLate = (ctx: PushContext) => ctx.latencyMs > 0 || ctx.queue !== undefined;

/**
 * Waits latencyMs, and the push's turn in a service of limited capacity, on a timer of its own,
 * so other streams go on meanwhile; false when the simulator closed during the wait (its
 * connections are gone: nothing to answer).
 */
async function far(ctx: PushContext): Promise<boolean> {
  await ctx.delays.wait(ctx.latencyMs + (ctx.queue?.turn() ?? 0));
  return !ctx.delays.closed;
}

function chance(ctx: PushContext, probability: number | undefined): boolean {
  return probability !== undefined && probability > 0 && ctx.random() < probability;
}

/**
 * Reads up to MAX_PUSH_BODY + 1 bytes and counts the rest; undefined when absurdly large or when
 * the client went away (a closed connection, a reset stream) before the body was read.
 */
function readBody(ex: Exchange): Promise<{ data: Buffer; total: number } | undefined> {
  const stream = ex.body;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let total = 0;
    stream.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (kept <= MAX_PUSH_BODY) {
        chunks.push(chunk);
        kept += chunk.length;
      }
      if (total > DRAIN_LIMIT) {
        stream.removeAllListeners('data');
        resolve(undefined);
      }
    });
    // A push's body mostly arrives as one chunk: no copy then.
    stream.on('end', () => resolve({ data: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks), total }));
    // Also after an error (a reset stream, a broken connection): 'close' follows it. The error
    // itself is not ours to handle: an HTTP/2 stream's is ignored where the stream is accepted,
    // and an HTTP/1.1 request emits none without a listener.
    stream.on('close', () => resolve(undefined));
  });
}

async function drain(ex: Exchange): Promise<void> {
  await readBody(ex);
}

/** `headers`: a fresh object; it becomes the answer's. */
export function sendJson(ex: Exchange, status: number, headers: Record<string, string>, value: unknown): void {
  headers['content-type'] = 'application/json';
  ex.respond(status, headers, JSON.stringify(value));
}
