// One connection pool per push-service origin. Push services (FCM, Mozilla autopush, Apple)
// offer HTTP/2: one TLS session then carries every request to that origin. Origins without h2
// get HTTP/1.1 keep-alive sockets. Concurrency is bounded per origin, and every request has a
// deadline, so a slow push service costs a bounded number of sockets and nothing else.
// Every connection goes through the destination policy (destination.ts): https, port 443, a
// host name whose resolved addresses are public — checked in the connection's own lookup. What
// a push service answers is bounded: the status, the headers Node already bounds, a reason
// phrase reduced to a few safe characters; the body is read up to a cap and thrown away.
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import { createDestinationPolicy, DestinationRefusedError, type DestinationPolicy } from './destination.js';

export interface PushClientOptions {
  /** Requests in flight per origin; more wait in a FIFO queue. Default 100. */
  concurrencyPerOrigin?: number;
  /** Deadline for one request, connection included. Default 10 s. */
  timeoutMs?: number;
  /** Extra trusted CA certificate(s), PEM, added to Node's root store. */
  ca?: string | Buffer;
  /** PUSH_TEST_HOSTS: local test push services, exempt from the destination rules. */
  testHosts?: readonly string[];
  /** Replaces the default policy built from testHosts (tests: a fake DNS, another port). */
  destinations?: DestinationPolicy;
}

export interface PushResponse {
  status: number;
  /** Lowercased names. */
  headers: Record<string, string>;
  /** The HTTP/1.1 reason phrase reduced to safe characters (at most 40); '' over HTTP/2. */
  statusText: string;
}

export type Protocol = 'h2' | 'http/1.1';

export interface PushClient {
  post(endpoint: string, headers: Readonly<Record<string, string>>, body: Buffer): Promise<PushResponse>;
  /** The protocol chosen for an origin once it has been contacted. */
  protocolFor(origin: string): Protocol | undefined;
  /** Closes every session and socket; requests still in flight are aborted. */
  close(): Promise<void>;
}

/** `refused`: the destination policy forbids the endpoint (permanent: never retried). */
export type PushRequestErrorCode = 'timeout' | 'reset' | 'network' | 'closed' | 'refused';

export class PushRequestError extends Error {
  override readonly name = 'PushRequestError';
  /**
   * The request had (fully or partly) gone out on a live connection when it broke: the push
   * service may have accepted the message, so a resend may be a duplicate. False when nothing
   * can have been processed (no connection, a stream the server refused, a connect timeout).
   */
  readonly maybeAccepted: boolean;
  constructor(
    readonly code: PushRequestErrorCode,
    message: string,
    readonly origin: string,
    options?: { cause?: unknown; maybeAccepted?: boolean },
  ) {
    super(message, options);
    this.maybeAccepted = options?.maybeAccepted ?? false;
  }
}

/** Response body bytes read (and discarded) before the stream is cut: the status is all we use. */
export const MAX_BODY_BYTES = 64 * 1024;
/** How long an origin refused by the destination policy fails at once, without a new lookup. */
const REFUSAL_MEMORY_MS = 60_000;
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_HTTP2_STREAM_ERROR', 'ERR_HTTP2_SESSION_ERROR',
  'ERR_HTTP2_GOAWAY_SESSION', 'ERR_HTTP2_STREAM_CANCEL', 'ERR_HTTP2_INVALID_SESSION', 'ERR_STREAM_PREMATURE_CLOSE']);

interface Origin {
  url: URL;
  /** The policy's lookup for this origin's connections; undefined: plain DNS (a test host). */
  lookup?: net.LookupFunction;
  refused?: { error: PushRequestError; until: number };
  protocol?: Protocol;
  probing?: Promise<void>;
  session?: http2.ClientHttp2Session;
  agent?: http.Agent;
  active: number;
  waiters: Array<(err?: Error) => void>;
}

export function createPushClient(opts: PushClientOptions = {}): PushClient {
  const limit = opts.concurrencyPerOrigin ?? 100;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError('concurrencyPerOrigin must be a positive integer');
  if (!(timeoutMs > 0)) throw new RangeError('timeoutMs must be positive');
  const ca = opts.ca ? [...tls.rootCertificates, opts.ca.toString()] : undefined;
  const destinations = opts.destinations ?? createDestinationPolicy({ testHosts: opts.testHosts });
  const origins = new Map<string, Origin>();
  let closed = false;

  function originOf(url: URL): Origin {
    let state = origins.get(url.origin);
    if (!state) {
      state = { url: new URL(url.origin), lookup: destinations.lookupFor(url), active: 0, waiters: [] };
      origins.set(url.origin, state);
    }
    return state;
  }

  function acquire(state: Origin): Promise<void> {
    if (state.active < limit) {
      state.active += 1;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => state.waiters.push((err) => (err ? reject(err) : resolve())));
  }

  function release(state: Origin): void {
    const next = state.waiters.shift();
    if (next) next(); // the slot passes straight to the next waiter
    else state.active -= 1;
  }

  // ALPN decides the protocol; an h2 answer hands its TLS socket to the new session, so
  // choosing costs no extra handshake.
  function connect(state: Origin, deadline: Deadline): Promise<void> {
    if (state.protocol === 'http/1.1' || (state.protocol === 'h2' && state.session)) return Promise.resolve();
    state.probing ??= probe(state, deadline).finally(() => (state.probing = undefined));
    return state.probing;
  }

  function probe(state: Origin, deadline: Deadline): Promise<void> {
    const { url } = state;
    if (url.protocol === 'http:') {
      state.protocol = 'http/1.1';
      state.agent = new http.Agent({ keepAlive: true, maxSockets: limit, lookup: state.lookup });
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const host = url.hostname.replace(/^\[|\]$/g, '');
      const socket = tls.connect({
        host,
        port: Number(url.port || 443),
        servername: net.isIP(host) ? undefined : host,
        ALPNProtocols: ['h2', 'http/1.1'],
        ca,
        lookup: state.lookup,
      });
      const fail = (err: Error) => {
        socket.destroy();
        reject(err);
      };
      const cancel = () => deadline.onExpire(null);
      deadline.onExpire(() => fail(new PushRequestError('timeout', 'connect timed out', url.origin)));
      socket.once('error', (err) => {
        cancel();
        fail(err instanceof DestinationRefusedError ? toRequestError(err, url.origin) : new PushRequestError('network', `connect failed: ${err.message}`, url.origin, { cause: err }));
      });
      socket.once('secureConnect', () => {
        cancel();
        if (closed) return fail(new PushRequestError('closed', 'push client is closed', url.origin));
        if (socket.alpnProtocol === 'h2') {
          state.protocol = 'h2';
          state.session = openSession(state, socket);
        } else {
          socket.destroy();
          state.protocol = 'http/1.1';
          // The agent's sockets resolve the name again: through the same checked lookup.
          state.agent ??= new https.Agent({ keepAlive: true, maxSockets: limit, ca, lookup: state.lookup });
        }
        resolve();
      });
    });
  }

  function openSession(state: Origin, socket: tls.TLSSocket): http2.ClientHttp2Session {
    const session = http2.connect(state.url, { createConnection: () => socket });
    // GOAWAY, an error or a close retires the session; the next request connects afresh.
    const retire = () => {
      if (state.session === session) {
        state.session = undefined;
        state.protocol = undefined;
      }
    };
    session.on('goaway', () => {
      retire();
      session.close();
    });
    session.on('error', retire);
    session.on('close', retire);
    return session;
  }

  // The hot path: one call per push. Kept lean — no per-request helper objects beyond the
  // stream's own listeners — since the main thread's CPU per push bounds the sender.
  function requestH2(state: Origin, url: URL, headers: Readonly<Record<string, string>>, body: Buffer, deadline: Deadline) {
    return new Promise<PushResponse>((resolve, reject) => {
      const session = state.session!;
      const h2Headers: http2.OutgoingHttpHeaders = { ':method': 'POST', ':path': url.pathname + url.search };
      for (const name in headers) h2Headers[name.toLowerCase()] = headers[name];
      h2Headers['content-length'] = body.length;
      let stream: http2.ClientHttp2Stream;
      try {
        stream = session.request(h2Headers);
      } catch (err) {
        return reject(toRequestError(err, url.origin));
      }
      let status = 0;
      let responseHeaders: http2.IncomingHttpHeaders | undefined;
      let size = 0;
      let done = false;
      const finish = (err: Error | null) => {
        if (done) return;
        done = true;
        deadline.onExpire(null);
        if (err) reject(err);
        else resolve({ status, headers: flattenHeaders(responseHeaders!), statusText: '' });
      };
      // Once the stream has an id its HEADERS are on their way; only REFUSED_STREAM (RFC 9113
      // §8.7: a GOAWAY'd or refused stream) says for sure that the server did not process it.
      const onWire = () => stream.id !== undefined && stream.rstCode !== http2.constants.NGHTTP2_REFUSED_STREAM;
      deadline.onExpire(() => {
        const maybeAccepted = onWire();
        stream.close(http2.constants.NGHTTP2_CANCEL);
        finish(new PushRequestError('timeout', `no response within ${timeoutMs} ms`, url.origin, { maybeAccepted }));
      });
      stream.on('response', (h) => {
        status = Number(h[':status']);
        responseHeaders = h;
      });
      // The body is read and dropped; past the cap the stream is cancelled (the session lives on).
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_BODY_BYTES) return;
        finish(null);
        stream.close(http2.constants.NGHTTP2_CANCEL);
      });
      stream.on('error', (err) => finish(toRequestError(err, url.origin, onWire())));
      // 'close' follows the end of the response (or a reset): the one place that settles a
      // stream that got an answer.
      stream.on('close', () => {
        if (status && stream.rstCode === http2.constants.NGHTTP2_NO_ERROR) return finish(null);
        finish(new PushRequestError('reset', `stream closed (code ${stream.rstCode})`, url.origin, { maybeAccepted: onWire() }));
      });
      stream.end(body);
    });
  }

  function requestH1(state: Origin, url: URL, headers: Readonly<Record<string, string>>, body: Buffer, deadline: Deadline) {
    return new Promise<PushResponse>((resolve, reject) => {
      const transport = url.protocol === 'https:' ? https : http;
      let done = false;
      const finish = (err: Error | null, response?: PushResponse) => {
        if (done) return;
        done = true;
        deadline.onExpire(null);
        if (err) reject(err);
        else resolve(response!);
      };
      const req = transport.request(url, {
        method: 'POST',
        agent: state.agent,
        headers: { ...headers, 'content-length': body.length },
      });
      // On the wire once the request has a connected socket (a kept-alive one, or a new one
      // past its handshake): from then on a break may come after the push service took it.
      let onWire = false;
      const wired = () => (onWire = true);
      req.once('socket', (socket) => {
        if (req.reusedSocket) return wired();
        socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', wired);
      });
      req.once('finish', wired);
      deadline.onExpire(() => {
        finish(new PushRequestError('timeout', `no response within ${timeoutMs} ms`, url.origin, { maybeAccepted: onWire }));
        req.destroy();
      });
      req.on('error', (err) => finish(toRequestError(err, url.origin, onWire)));
      req.on('response', (res) => {
        const response = (): PushResponse => ({ status: res.statusCode ?? 0, headers: flattenHeaders(res.headers), statusText: safeStatusText(res.statusMessage) });
        let size = 0;
        // The body is read and dropped; past the cap the socket is given up rather than drained.
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_BODY_BYTES) return;
          finish(null, response());
          res.destroy();
        });
        res.on('end', () => finish(null, response()));
        res.on('error', (err) => finish(toRequestError(err, url.origin, true)));
        res.on('aborted', () => finish(new PushRequestError('reset', 'response aborted', url.origin, { maybeAccepted: true })));
      });
      req.end(body);
    });
  }

  return {
    protocolFor: (origin) => origins.get(new URL(origin).origin)?.protocol,
    async post(endpoint, headers, body) {
      const url = new URL(endpoint);
      if (closed) throw new PushRequestError('closed', 'push client is closed', url.origin);
      const problem = destinations.urlProblem(url);
      if (problem !== null) throw new PushRequestError('refused', `destination refused: ${problem}`, url.origin);
      const state = originOf(url);
      if (state.refused && state.refused.until > Date.now()) throw state.refused.error;
      if (state.active < limit) state.active += 1;
      else await acquire(state);
      const deadline = createDeadline(timeoutMs);
      try {
        // An open h2 session (the usual case) is used straight away; otherwise connect first.
        // A retired session between connect() and use is rare; one more connect covers it.
        for (let round = 0; round < 2; round += 1) {
          if (state.protocol === 'h2' && state.session && !state.session.closed && !state.session.destroyed) {
            return await requestH2(state, url, headers, body, deadline);
          }
          await connect(state, deadline);
          if (state.protocol === 'http/1.1') return await requestH1(state, url, headers, body, deadline);
          if (state.session) return await requestH2(state, url, headers, body, deadline);
        }
        throw new PushRequestError('reset', 'connection closed before the request was sent', url.origin);
      } catch (err) {
        // A refused origin fails at once for a while: no lookup per push of a large campaign.
        if (err instanceof PushRequestError && err.code === 'refused') state.refused = { error: err, until: Date.now() + REFUSAL_MEMORY_MS };
        throw err;
      } finally {
        deadline.clear();
        release(state);
      }
    },
    async close() {
      closed = true;
      for (const state of origins.values()) {
        for (const waiter of state.waiters.splice(0)) {
          waiter(new PushRequestError('closed', 'push client is closed', state.url.origin));
        }
        state.session?.destroy();
        state.agent?.destroy();
      }
      origins.clear();
    },
  };
}

interface Deadline {
  /** Sets the function to run once when the deadline passes (replacing any earlier one); null: none. */
  onExpire(fn: (() => void) | null): void;
  clear(): void;
}

function createDeadline(ms: number): Deadline {
  let pending: (() => void) | null = null;
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    const fn = pending;
    pending = null;
    fn?.();
  }, ms);
  return {
    onExpire(fn) {
      if (expired && fn) queueMicrotask(fn); // e.g. the connect used up the time: fail at once
      else pending = fn;
    },
    clear() {
      clearTimeout(timer);
      pending = null;
    },
  };
}

/** A reason phrase as something safe to store and log: letters, digits and a few marks, 40 at most. */
export function safeStatusText(text: string | undefined): string {
  return (text ?? '').replace(/[^A-Za-z0-9 .,:'()/_-]/g, '').replace(/ {2,}/g, ' ').trim().slice(0, 40).trim();
}

function flattenHeaders(headers: http.IncomingHttpHeaders | http2.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name.startsWith(':') || value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}

/** `onWire`: the request had reached a live connection (see PushRequestError.maybeAccepted). */
function toRequestError(err: unknown, origin: string, onWire = false): PushRequestError {
  if (err instanceof PushRequestError) return err;
  if (err instanceof DestinationRefusedError) return new PushRequestError('refused', `destination refused: ${err.message}`, origin, { cause: err });
  const e = err as NodeJS.ErrnoException;
  const code = RESET_CODES.has(e?.code ?? '') || /socket hang up|stream closed|aborted/i.test(e?.message ?? '') ? 'reset' : 'network';
  return new PushRequestError(code, e?.message ?? String(err), origin, { cause: err, maybeAccepted: onWire });
}
