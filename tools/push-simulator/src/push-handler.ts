// RFC 8030 §5 "Requesting Push Message Delivery", answered the way browser push services do.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { constants as h2, Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import { randomBytes } from 'node:crypto';
import { decryptAes128gcm, DecryptError } from './aes128gcm.js';
import type { Behaviours } from './behaviours.js';
import type { Device } from './device.js';
import type { SimulatorState, SubscriptionRecord } from './state.js';
import type { Behaviour, SimulatorMode } from './types.js';
import {
  checkVapidClaims, parseVapidAuthorization, verifyVapidSignature, VapidError, type VapidClaims,
} from './vapid.js';

export type AnyRequest = IncomingMessage | Http2ServerRequest;
export type AnyResponse = ServerResponse | Http2ServerResponse;

/** RFC 8291 §4: a push service may refuse bodies over 4096 octets. */
export const MAX_PUSH_BODY = 4096;
const DRAIN_LIMIT = 1024 * 1024;
const VAPID_CACHE_LIMIT = 10_000;
const URGENCIES = new Set(['very-low', 'low', 'normal', 'high']);

type CachedVapid = { key: string; claims: VapidClaims } | VapidError;

export interface PushContext {
  origin: string;
  mode: SimulatorMode;
  state: SimulatorState;
  behaviours: Behaviours;
  random: () => number;
  sinkSampleEvery: number;
  maxVapidTtlSec: number;
  device: Device | undefined;
  closing: AbortSignal;
  /** Every push is answered this long after its body arrived (a far push service); 0: at once. */
  latencyMs: number;
  vapidCache: Map<string, CachedVapid>;
  sinkSeen: { count: number };
}

class Rejection extends Error {
  constructor(readonly status: number, readonly reason: string, message: string) {
    super(message);
  }
}

export async function handlePush(req: AnyRequest, res: AnyResponse, subscriptionId: string, ctx: PushContext): Promise<void> {
  const { state } = ctx;
  const record = state.subscriptions.get(subscriptionId);
  if (record?.expired) {
    await drain(req);
    if (ctx.latencyMs > 0 && !(await far(ctx))) return;
    state.counters.afterExpiry++;
    return reject(res, state, new Rejection(410, 'expired', 'push subscription has expired or was unsubscribed'));
  }

  const behaviour = ctx.behaviours.take(subscriptionId);
  if (behaviour?.latencyMs) await sleep(behaviour.latencyMs, ctx.closing);

  const body = await readBody(req);
  if (body === undefined) return resetConnection(req);
  // The request has arrived; the answer (whatever it is) comes back after the service's latency.
  if (ctx.latencyMs > 0 && !(await far(ctx))) return;
  state.counters.bytes += body.total;

  if (behaviour && chance(ctx, behaviour.resetBeforeAccept)) {
    state.counters.resets.beforeAccept++;
    return resetConnection(req);
  }
  if (behaviour?.status !== undefined) return answerBehaviour(res, state, behaviour);

  try {
    const accepted = acceptPush(req, body, subscriptionId, record, ctx);
    if (behaviour && chance(ctx, behaviour.resetAfterAccept)) {
      state.counters.resets.afterAccept++;
      return resetConnection(req);
    }
    state.count(201);
    send(res, 201, { location: `${ctx.origin}/m/${accepted}` }, '');
  } catch (err) {
    if (err instanceof Rejection) return reject(res, state, err);
    throw err;
  }
}

/** Validates, authenticates and decrypts one push; returns the message id once stored. */
function acceptPush(req: AnyRequest, body: { data: Buffer; total: number }, subscriptionId: string,
  record: SubscriptionRecord | undefined, ctx: PushContext): string {
  const { state } = ctx;
  const sink = ctx.mode === 'sink';
  if (!record && !sink) throw new Rejection(404, 'unknown-subscription', 'no such push subscription');

  const ttlHeader = header(req, 'ttl');
  if (ttlHeader === undefined) throw new Rejection(400, 'missing-ttl', 'TTL header is required');
  if (!/^\d{1,10}$/.test(ttlHeader.trim())) throw new Rejection(400, 'bad-ttl', 'TTL must be a non-negative integer');
  const ttl = Number(ttlHeader.trim());

  const encoding = header(req, 'content-encoding');
  if (encoding?.trim().toLowerCase() !== 'aes128gcm') {
    throw new Rejection(415, 'bad-content-encoding', 'Content-Encoding must be aes128gcm');
  }
  if (body.total > MAX_PUSH_BODY) throw new Rejection(413, 'payload-too-large', `body exceeds ${MAX_PUSH_BODY} bytes`);
  if (body.total === 0) throw new Rejection(400, 'empty-body', 'an aes128gcm body is required');

  const urgency = header(req, 'urgency')?.trim().toLowerCase();
  if (urgency !== undefined && !URGENCIES.has(urgency)) throw new Rejection(400, 'bad-urgency', 'Urgency must be very-low, low, normal or high');
  const topic = header(req, 'topic')?.trim();
  if (topic !== undefined && !/^[A-Za-z0-9_-]{1,32}$/.test(topic)) {
    throw new Rejection(400, 'bad-topic', 'Topic must be at most 32 base64url characters');
  }

  authenticate(req, record, ctx);

  if (!record) {
    // Seeded audiences point at ids we never issued: nothing to decrypt with, count and move on.
    state.counters.accepted++;
    state.counters.unknownAccepted++;
    return randomBytes(12).toString('base64url');
  }
  const decrypt = !sink || ctx.sinkSeen.count++ % ctx.sinkSampleEvery === 0;
  const id = randomBytes(12).toString('base64url');
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
  ctx.device?.deliver(payload);
  return id;
}

function authenticate(req: AnyRequest, record: SubscriptionRecord | undefined, ctx: PushContext): void {
  const authorization = header(req, 'authorization');
  const cryptoKey = header(req, 'crypto-key');
  ctx.state.noteAuthorization(authorization);
  try {
    let verified: { key: string; claims: VapidClaims };
    if (ctx.mode === 'sink') {
      const cacheKey = `${authorization ?? ''}\n${cryptoKey ?? ''}`;
      let cached = ctx.vapidCache.get(cacheKey);
      if (cached === undefined) {
        cached = verifyUncached(authorization, cryptoKey, ctx.state);
        if (ctx.vapidCache.size >= VAPID_CACHE_LIMIT) ctx.vapidCache.clear();
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
  } catch (err) {
    if (err instanceof VapidError) throw new Rejection(err.status, err.reason, err.message);
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

function answerBehaviour(res: AnyResponse, state: SimulatorState, behaviour: Behaviour): void {
  const status = behaviour.status!;
  const headers: Record<string, string> = {};
  if (behaviour.retryAfter !== undefined) headers['retry-after'] = behaviour.retryAfter;
  state.count(status, 'behaviour');
  sendJson(res, status, headers, { reason: 'behaviour', message: `simulated ${status}` });
}

function reject(res: AnyResponse, state: SimulatorState, rejection: Rejection): void {
  state.count(rejection.status, rejection.reason);
  sendJson(res, rejection.status, {}, { reason: rejection.reason, message: rejection.message });
}

/**
 * Waits latencyMs on a timer of its own, so other streams go on meanwhile; false when the
 * simulator closed during the wait (its connections are gone: nothing to answer).
 */
async function far(ctx: PushContext): Promise<boolean> {
  await sleep(ctx.latencyMs, ctx.closing);
  return !ctx.closing.aborted;
}

function chance(ctx: PushContext, probability: number | undefined): boolean {
  return probability !== undefined && probability > 0 && ctx.random() < probability;
}

function header(req: AnyRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Reads up to MAX_PUSH_BODY + 1 bytes and counts the rest; undefined when absurdly large. */
function readBody(req: AnyRequest): Promise<{ data: Buffer; total: number } | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let total = 0;
    req.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (kept <= MAX_PUSH_BODY) {
        chunks.push(chunk);
        kept += chunk.length;
      }
      if (total > DRAIN_LIMIT) {
        req.removeAllListeners('data');
        resolve(undefined);
      }
    });
    req.on('end', () => resolve({ data: Buffer.concat(chunks), total }));
    // A client that gave up before the body was read: nothing to answer.
    req.on('close', () => resolve(undefined));
    req.on('error', reject);
  });
}

function drain(req: AnyRequest): Promise<void> {
  return readBody(req).then(() => undefined, () => undefined);
}

export function resetConnection(req: AnyRequest): void {
  // HTTP/2 multiplexes many pushes on one connection; a stream reset is what a client sees
  // when the service drops that one request, so other streams survive.
  if (req instanceof Http2ServerRequest) req.stream.close(h2.NGHTTP2_INTERNAL_ERROR);
  else req.socket.destroy();
}

interface MinimalResponse {
  headersSent: boolean;
  writeHead(status: number, headers: Record<string, string | number>): unknown;
  end(body?: string | Buffer): unknown;
}

export function send(res: AnyResponse, status: number, headers: Record<string, string>, body: string): void {
  const r = res as unknown as MinimalResponse;
  if (r.headersSent) return;
  r.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(body) });
  r.end(body);
}

export function sendJson(res: AnyResponse, status: number, headers: Record<string, string>, value: unknown): void {
  send(res, status, { ...headers, 'content-type': 'application/json' }, JSON.stringify(value));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
