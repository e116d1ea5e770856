// The HTTP stage of the push path: connections per push-service origin. Push services (FCM,
// Mozilla autopush, Apple) offer HTTP/2, where one connection carries as many requests at once
// as the server advertises (SETTINGS_MAX_CONCURRENT_STREAMS, often 100). A far push service
// needs many requests in flight (at 150 ms per answer, 1000 for ~6,600 pushes/s), so an origin
// gets as many connections as its requests in flight need:
//   - a request takes a free stream on the first open connection that has one (connections
//     fill in the order they were opened, so a quiet origin keeps few);
//   - when every connection is at the server's advertised limit, another is opened — never is a
//     request queued behind a full connection while another may be opened — up to
//     maxConnectionsPerOrigin (PUSH_CONNECTIONS_PER_ORIGIN, 32); past that a request waits for
//     a stream to end (each has a deadline, so one does soon);
//   - requests waiting while connections are opened count on each taking as many as the
//     origin's last advertised limit (100 before the first answer), so a burst of 1000 opens
//     10 connections at once rather than one per request;
//   - a connection counts as open once the server's SETTINGS arrived (its limit is known then);
//     a connection beyond the first that stays idle for a minute is closed.
// Origins without h2 get HTTP/1.1 keep-alive sockets, capped at http1SocketsPerOrigin (the
// sender passes its concurrency ceiling, which its origin gate never exceeds, so the agent never
// queues). The client itself does not limit requests in flight: the origin gate does, in one
// place (origin-gate.ts). Every connection attempt and every request has a deadline, so a slow
// push service costs a bounded number of sockets and nothing else.
// Every connection goes through the destination policy (destination.ts): https, port 443, a
// host name whose resolved addresses are public — checked in the connection's own lookup. What
// a push service answers is bounded: the status, the headers (our HTTP/2 connection bounds them,
// http2/connection.ts; Node's HTTP/1.1 parser its own), a reason phrase reduced to a few safe
// characters; the body is read up to a cap and thrown away.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import { createDestinationPolicy, DestinationRefusedError, type DestinationPolicy, type TestRoute } from './destination.js';
import { Http2Connection, Http2ConnectionClosedError, type PushConnection, type ResponseHandler } from './http2/connection.js';
import { NodeHttp2Connection } from './http2/node-connection.js';
import { FieldSet } from './http2/hpack.js';

export interface PushClientOptions {
  /**
   * Deadline for opening one connection (TLS and the server's SETTINGS), and for one request
   * once it has its stream (over HTTP/1.1: its socket's connection included). Default 10 s.
   */
  timeoutMs?: number;
  /** HTTP/2 connections per origin at most (PUSH_CONNECTIONS_PER_ORIGIN). Default 32. */
  maxConnectionsPerOrigin?: number;
  /** HTTP/1.1 keep-alive sockets per origin at most. Default 100; the sender passes its concurrency ceiling. */
  http1SocketsPerOrigin?: number;
  /** Extra trusted CA certificate(s), PEM, added to Node's root store. */
  ca?: string | Buffer;
  /** PUSH_TEST_HOSTS: local test push services, exempt from the destination rules. */
  testHosts?: readonly string[];
  /** PUSH_TEST_ROUTES: push-service host names connected to at a local test server instead. */
  testRoutes?: ReadonlyMap<string, TestRoute>;
  /** Replaces the default policy built from testHosts and testRoutes (tests: a fake DNS, another port). */
  destinations?: DestinationPolicy;
  /** PUSH_HTTP_CLIENT: whose HTTP/2 carries the requests, ours (http2/connection.ts) or Node's (http2/node-connection.ts). Default own. */
  httpClient?: PushHttpClient;
}

/** The HTTP/2 implementations a connection may use; everything above one connection is the same for both. */
export const PUSH_HTTP_CLIENTS = ['own', 'node'] as const;
export type PushHttpClient = (typeof PUSH_HTTP_CLIENTS)[number];

export interface PushResponse {
  status: number;
  /** Lowercased names. */
  headers: Record<string, string>;
  /** The HTTP/1.1 reason phrase reduced to safe characters (at most 40); '' over HTTP/2. */
  statusText: string;
}

export type Protocol = 'h2' | 'http/1.1';

export interface PushClient {
  /** `endpoint`: the subscription's URL, as text or already parsed (the sender parses each once). */
  post(endpoint: string | URL, headers: Readonly<Record<string, string>>, body: Buffer): Promise<PushResponse>;
  /** The protocol chosen for an origin once it has been contacted. */
  protocolFor(origin: string): Protocol | undefined;
  /** HTTP/2 connections open to an origin now. */
  connectionsTo(origin: string): number;
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
/** A connection beyond an origin's first is closed after this long without a frame. */
const IDLE_CONNECTION_MS = 60_000;
/** Streams a connection being opened is counted on to take, before any server has said (RFC 9113 §6.5.2 advises at least 100). */
const DEFAULT_STREAMS = 100;
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);

interface Connection {
  conn: PushConnection;
  /** Streams taken on it, counted from the moment a request is given one until it settles. */
  streams: number;
}

/** A request waiting for a stream: null means the origin speaks HTTP/1.1. */
interface Waiter {
  resolve(connection: Connection | null): void;
  reject(err: Error): void;
}

interface Origin {
  url: URL;
  /** The :authority of its requests (url.host, kept: a URL's getters build a new string each call). */
  host: string;
  /** The policy's lookup for this origin's connections; undefined: plain DNS (a test host). */
  lookup?: net.LookupFunction;
  /** Where its connections go instead of the URL's host and port (PUSH_TEST_ROUTES). */
  route?: TestRoute;
  refused?: { error: PushRequestError; until: number };
  /** Unknown until the first connection's ALPN answer. */
  protocol?: Protocol;
  /** Open HTTP/2 connections, in the order they were opened. */
  connections: Connection[];
  /** Connections being opened. */
  connecting: number;
  /** The server's last advertised SETTINGS_MAX_CONCURRENT_STREAMS. */
  streamsHint: number;
  agent?: http.Agent;
  /** Requests waiting for a stream, oldest first. */
  waiters: Waiter[];
}

export function createPushClient(opts: PushClientOptions = {}): PushClient {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const maxConnections = opts.maxConnectionsPerOrigin ?? 32;
  const h1Sockets = opts.http1SocketsPerOrigin ?? 100;
  if (!(timeoutMs > 0)) throw new RangeError('timeoutMs must be positive');
  if (!Number.isInteger(maxConnections) || maxConnections < 1) throw new RangeError('maxConnectionsPerOrigin must be a positive integer');
  if (!Number.isInteger(h1Sockets) || h1Sockets < 1) throw new RangeError('http1SocketsPerOrigin must be a positive integer');
  // One context for every connection: building one from ~150 root certificates costs ~30 ms of
  // the main thread, too much per connection when a burst opens ten.
  const secureContext = opts.ca ? tls.createSecureContext({ ca: [...tls.rootCertificates, opts.ca.toString()] }) : undefined;
  const destinations = opts.destinations ?? createDestinationPolicy({ testHosts: opts.testHosts, testRoutes: opts.testRoutes });
  const H2 = opts.httpClient === 'node' ? NodeHttp2Connection : Http2Connection;
  const origins = new Map<string, Origin>();
  /** Connections being opened, to end when the client closes. */
  const opening = new Set<() => void>();
  /** HTTP/1.1 sockets past their (TLS) connect. */
  const connectedSockets = new WeakSet<object>();
  let closed = false;

  function originOf(url: URL, origin: string): Origin {
    let state = origins.get(origin);
    if (!state) {
      state = { url: new URL(origin), host: url.host, lookup: destinations.lookupFor(url), route: destinations.routeFor(url), connections: [], connecting: 0, streamsHint: DEFAULT_STREAMS, waiters: [] };
      if (url.protocol === 'http:') {
        state.protocol = 'http/1.1';
        state.agent = new http.Agent({ keepAlive: true, maxSockets: h1Sockets, lookup: state.lookup });
      }
      origins.set(origin, state);
    }
    return state;
  }

  const capacity = (c: Connection) => c.conn.maxConcurrentStreams;

  /** The first open connection with a free stream. */
  function freeConnection(state: Origin): Connection | undefined {
    for (const c of state.connections) if (c.streams < capacity(c) && !c.conn.closed) return c;
    return undefined;
  }

  /** A stream at once when one is free and nobody waits before us (the usual case, no promise). */
  function takeFreeStream(state: Origin): Connection | undefined {
    if (state.protocol !== 'h2' || state.waiters.length > 0) return undefined;
    const c = freeConnection(state);
    if (c) c.streams += 1;
    return c;
  }

  function waitForStream(state: Origin): Promise<Connection | null> {
    return new Promise((resolve, reject) => {
      state.waiters.push({ resolve, reject });
      pump(state);
    });
  }

  function releaseStream(state: Origin, c: Connection): void {
    c.streams -= 1;
    if (state.waiters.length > 0) pump(state);
  }

  // Gives waiting requests free streams, oldest first; opens connections for the ones that the
  // connections being opened will not take (see the top of the file).
  function pump(state: Origin): void {
    const { waiters } = state;
    if (state.protocol === 'http/1.1') {
      for (const w of waiters.splice(0)) w.resolve(null);
      return;
    }
    while (waiters.length > 0) {
      const c = freeConnection(state);
      if (!c) break;
      c.streams += 1;
      waiters.shift()!.resolve(c);
    }
    if (waiters.length === 0 || closed) return;
    // Before the first ALPN answer too: push services speak h2, and a burst then opens its
    // connections at once rather than one after another (an http/1.1 answer closes the others).
    while (waiters.length > state.connecting * state.streamsHint && state.connections.length + state.connecting < maxConnections) open(state);
  }

  function open(state: Origin): void {
    state.connecting += 1;
    connect(state).then(
      (c) => {
        state.connecting -= 1;
        if (c && state.protocol === 'http/1.1') c.conn.close();
        else if (c) {
          state.protocol = 'h2';
          state.connections.push(c);
          if (capacity(c) > 0) state.streamsHint = capacity(c);
        }
        pump(state);
      },
      (err: Error) => {
        state.connecting -= 1;
        // The requests that the connections still being opened will not take fail with this
        // error (their pushes are retried, with backoff): a failing connect is not repeated at once.
        for (const w of state.waiters.splice(state.connecting * state.streamsHint)) w.reject(err);
      },
    );
  }

  // One TLS connection; ALPN decides the protocol. An h2 answer hands its TLS socket to an HTTP/2
  // connection (http2/connection.ts), ready once the server's SETTINGS arrived; an http/1.1 answer
  // switches the origin to keep-alive sockets (null), so choosing costs no extra handshake.
  function connect(state: Origin): Promise<Connection | null> {
    const { url } = state;
    return new Promise<Connection | null>((resolve, reject) => {
      const host = url.hostname.replace(/^\[|\]$/g, '');
      const socket = tls.connect({
        host: state.route?.host ?? host,
        port: state.route?.port ?? Number(url.port || 443),
        // A routed host is still the name the certificate must be valid for.
        servername: net.isIP(host) ? undefined : host,
        ALPNProtocols: ['h2', 'http/1.1'],
        secureContext,
        lookup: state.lookup,
      });
      let h2: PushConnection | undefined;
      let settled = false;
      const done = () => {
        settled = true;
        clearTimeout(timer);
        opening.delete(abort);
      };
      const fail = (err: Error) => {
        if (settled) return;
        done();
        h2?.destroy();
        socket.destroy();
        reject(err);
      };
      const abort = () => fail(new PushRequestError('closed', 'push client is closed', url.origin));
      opening.add(abort);
      const timer = setTimeout(() => fail(new PushRequestError('timeout', 'connect timed out', url.origin)), timeoutMs);
      socket.once('error', (err) => {
        fail(err instanceof DestinationRefusedError ? toRequestError(err, url.origin) : new PushRequestError('network', `connect failed: ${err.message}`, url.origin, { cause: err }));
      });
      socket.once('secureConnect', () => {
        if (closed) return fail(new PushRequestError('closed', 'push client is closed', url.origin));
        if (socket.alpnProtocol !== 'h2') {
          done();
          socket.destroy();
          state.protocol = 'http/1.1';
          // The agent's sockets resolve the name again: through the same checked lookup.
          state.agent ??= new https.Agent({ keepAlive: true, maxSockets: h1Sockets, secureContext, lookup: state.lookup });
          return resolve(null);
        }
        const conn = new H2(socket, { maxBodyBytes: MAX_BODY_BYTES });
        h2 = conn;
        conn.onClose = (err) =>
          fail(new PushRequestError('network', `connection closed before the server's settings${err ? `: ${err.message}` : ''}`, url.origin, { cause: err }));
        conn.onReady = () => {
          if (settled) return;
          if (closed) return fail(new PushRequestError('closed', 'push client is closed', url.origin));
          done();
          resolve(adopt(state, conn));
        };
      });
    });
  }

  // A ready connection joins the origin's connections; GOAWAY, its end or a long idle time (for
  // all but the origin's first) retires it, and requests go to the others or to a new one. After
  // GOAWAY the connection ends by itself once its streams have.
  function adopt(state: Origin, conn: PushConnection): Connection {
    const c: Connection = { conn, streams: 0 };
    const retire = () => {
      const i = state.connections.indexOf(c);
      if (i < 0) return;
      state.connections.splice(i, 1);
      if (state.waiters.length > 0) pump(state);
    };
    conn.onGoaway = retire;
    conn.onClose = retire;
    conn.setIdleTimeout(IDLE_CONNECTION_MS, () => {
      if (c.streams > 0 || state.connections[0] === c) return;
      retire();
      conn.close();
    });
    return c;
  }

  // The hot path: one call per push. One object per request (the handler the connection calls
  // back, with its timer), since the main thread's CPU per push bounds the sender and whatever a
  // request keeps while in flight is what the garbage collector walks.
  class H2Request implements ResponseHandler {
    id = 0;
    timer: NodeJS.Timeout | undefined;
    private status = 0;
    private headers: Record<string, string> = {};
    private done = false;
    constructor(
      private readonly state: Origin,
      private readonly c: Connection,
      private readonly origin: string,
      private readonly resolve: (r: PushResponse) => void,
      private readonly reject: (err: Error) => void,
    ) {}
    response(status: number, headers: Record<string, string>): void {
      this.status = status;
      this.headers = headers;
    }
    end(): void {
      if (this.settle()) this.resolve({ status: this.status, headers: this.headers, statusText: '' });
    }
    fail(message: string, processed: boolean): void {
      if (this.settle()) this.reject(new PushRequestError('reset', message, this.origin, { maybeAccepted: processed }));
    }
    /** Its HEADERS were written: the push service may have taken it, unless it says otherwise. */
    timeout(): void {
      this.c.conn.cancel(this.id);
      if (this.settle()) this.reject(new PushRequestError('timeout', `no response within ${timeoutMs} ms`, this.origin, { maybeAccepted: true }));
    }
    /** Frees the stream's slot, once; false when the request was already settled. */
    private settle(): boolean {
      if (this.done) return false;
      this.done = true;
      clearTimeout(this.timer);
      releaseStream(this.state, this.c);
      return true;
    }
  }
  const onTimeout = (request: H2Request) => request.timeout();

  // The header fields a batch's pushes to one origin share (the sender builds one object per
  // batch and origin), checked once; each request adds its path and length.
  const fieldSets = new WeakMap<Readonly<Record<string, string>>, { host: string; set: FieldSet }>();
  function fieldsFor(host: string, headers: Readonly<Record<string, string>>): FieldSet {
    let shared = fieldSets.get(headers);
    if (shared?.host !== host) {
      const fields = [':method', 'POST', ':scheme', 'https', ':authority', host];
      for (const name in headers) fields.push(name.toLowerCase(), headers[name]);
      shared = { host, set: new FieldSet(fields) };
      fieldSets.set(headers, shared);
    }
    return shared.set;
  }

  function requestH2(state: Origin, c: Connection, url: URL, origin: string, headers: Readonly<Record<string, string>>, body: Buffer) {
    return new Promise<PushResponse>((resolve, reject) => {
      const request = new H2Request(state, c, origin, resolve, reject);
      try {
        request.id = c.conn.request(fieldsFor(state.host, headers), url.pathname + url.search, body, request);
      } catch (err) {
        releaseStream(state, c);
        return reject(toRequestError(err, origin));
      }
      request.timer = setTimeout(onTimeout, timeoutMs, request);
    });
  }

  async function postAfterWait(state: Origin, url: URL, origin: string, headers: Readonly<Record<string, string>>, body: Buffer): Promise<PushResponse> {
    try {
      const c = state.protocol === 'http/1.1' ? null : await waitForStream(state);
      return await (c ? requestH2(state, c, url, origin, headers, body) : requestH1(state, url, headers, body));
    } catch (err) {
      // A refused origin fails at once for a while: no lookup per push of a large campaign.
      if (err instanceof PushRequestError && err.code === 'refused') state.refused = { error: err, until: Date.now() + REFUSAL_MEMORY_MS };
      throw err;
    }
  }

  function requestH1(state: Origin, url: URL, headers: Readonly<Record<string, string>>, body: Buffer) {
    return new Promise<PushResponse>((resolve, reject) => {
      const transport = url.protocol === 'https:' ? https : http;
      let done = false;
      const finish = (err: Error | null, response?: PushResponse) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        if (err) reject(err);
        else resolve(response!);
      };
      const { route } = state;
      const req = transport.request(url, {
        method: 'POST',
        agent: state.agent,
        headers: { ...headers, 'content-length': body.length, ...(route && { host: url.host }) },
        // A routed host: the connection goes to the route, the name stays in SNI and Host.
        ...(route && { hostname: route.host, port: route.port, servername: url.hostname }),
      });
      // On the wire once the request has a connected socket (a kept-alive one, or a new one
      // past its handshake): from then on a break may come after the push service took it.
      let onWire = false;
      const wired = () => (onWire = true);
      // (A socket the agent hands from its queue to a waiting request is not `reusedSocket`:
      // the set of connected sockets tells it too, and keeps listeners from piling up on it.)
      req.once('socket', (socket) => {
        if (req.reusedSocket || connectedSockets.has(socket)) return wired();
        socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
          connectedSockets.add(socket);
          wired();
        });
      });
      req.once('finish', wired);
      const timer = setTimeout(() => {
        finish(new PushRequestError('timeout', `no response within ${timeoutMs} ms`, url.origin, { maybeAccepted: onWire }));
        req.destroy();
      }, timeoutMs);
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
    connectionsTo: (origin) => origins.get(new URL(origin).origin)?.connections.length ?? 0,
    post(endpoint, headers, body) {
      let url: URL;
      let origin: string;
      let state: Origin;
      try {
        url = typeof endpoint === 'string' ? new URL(endpoint) : endpoint;
        origin = url.origin;
        if (closed) throw new PushRequestError('closed', 'push client is closed', origin);
        const problem = destinations.urlProblem(url);
        if (problem !== null) throw new PushRequestError('refused', `destination refused: ${problem}`, origin);
        state = originOf(url, origin);
        if (state.refused && state.refused.until > Date.now()) throw state.refused.error;
      } catch (err) {
        return Promise.reject(err);
      }
      // An open connection with a free stream (the usual case) is used straight away, without an
      // async frame of its own: one call per push. A request on an open connection is never
      // refused (the policy is checked when connecting).
      // The request's deadline starts once it has its stream (or, over HTTP/1.1, is handed to the agent).
      const c = takeFreeStream(state);
      return c ? requestH2(state, c, url, origin, headers, body) : postAfterWait(state, url, origin, headers, body);
    },
    async close() {
      closed = true;
      for (const abort of [...opening]) abort();
      for (const state of origins.values()) {
        for (const waiter of state.waiters.splice(0)) {
          waiter.reject(new PushRequestError('closed', 'push client is closed', state.url.origin));
        }
        for (const c of state.connections.splice(0)) c.conn.destroy();
        state.agent?.destroy();
      }
      origins.clear();
    },
  };
}

/** A reason phrase as something safe to store and log: letters, digits and a few marks, 40 at most. */
export function safeStatusText(text: string | undefined): string {
  return (text ?? '').replace(/[^A-Za-z0-9 .,:'()/_-]/g, '').replace(/ {2,}/g, ' ').trim().slice(0, 40).trim();
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (name[0] === ':' || value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}

/** `onWire`: the request had reached a live connection (see PushRequestError.maybeAccepted). */
function toRequestError(err: unknown, origin: string, onWire = false): PushRequestError {
  if (err instanceof PushRequestError) return err;
  if (err instanceof DestinationRefusedError) return new PushRequestError('refused', `destination refused: ${err.message}`, origin, { cause: err });
  if (err instanceof Http2ConnectionClosedError) return new PushRequestError('reset', err.message, origin, { cause: err });
  const e = err as NodeJS.ErrnoException;
  const code = RESET_CODES.has(e?.code ?? '') || /socket hang up|stream closed|aborted/i.test(e?.message ?? '') ? 'reset' : 'network';
  return new PushRequestError(code, e?.message ?? String(err), origin, { cause: err, maybeAccepted: onWire });
}
