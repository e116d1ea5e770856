// One HTTP/2 connection on Node's http2 module (nghttp2), with the interface of our own
// (connection.ts): the way back when ours misbehaves with a push service, PUSH_HTTP_CLIENT=node.
// The push client (../client.ts) does everything above one connection alike for both — the TLS
// connect through the destination policy, ALPN, connections per origin, stream limits, deadlines,
// retiring a connection on GOAWAY — and hands the TLS socket that chose h2 to one or the other.
//
// What Node costs: each request is a Duplex stream with its own events; in the bench's delivery
// part the main thread spent about twice the CPU per push that ours does (docs/operations.md,
// *Push failure ratio high*). What it bounds for an untrusted peer is nghttp2's: frames, HPACK,
// flow control and protocol errors; header lists at 64 KB and 128 fields; the session's memory
// (its unsent output included) at maxSessionMemory, past which new streams are refused.
import http2 from 'node:http2';
import type { TLSSocket } from 'node:tls';
import { Http2ConnectionClosedError, type Http2ConnectionOptions, type PushConnection, type ResponseHandler } from './connection.js';
import type { FieldSet } from './hpack.js';

const { NGHTTP2_NO_ERROR, NGHTTP2_CANCEL, NGHTTP2_REFUSED_STREAM } = http2.constants;

/** The same limits our own connection announces and keeps (connection.ts). */
const MAX_HEADER_LIST = 65_536;
const HEADER_TABLE_SIZE = 4096;
const CONNECTION_WINDOW = 1 << 20;
/** Megabytes the session may hold (Node's default): what a peer that does not read can make us queue. */
const MAX_SESSION_MEMORY_MB = 10;
const UNLIMITED_STREAMS = 2 ** 32 - 1;

/** One request on the connection: its stream and whether its handler has heard the end. */
interface Request {
  stream: http2.ClientHttp2Stream;
  handler: ResponseHandler;
  responded: boolean;
  received: number;
  settled: boolean;
}

/** The request header object a FieldSet stands for, built once per set (the sender shares a set per batch and origin). */
const headerObjects = new WeakMap<FieldSet, Record<string, string>>();
function headersOf(fields: FieldSet): Record<string, string> {
  let headers = headerObjects.get(fields);
  if (!headers) {
    headers = {};
    for (const f of fields.fields) headers[f.name] = f.value;
    headerObjects.set(fields, headers);
  }
  return headers;
}

export class NodeHttp2Connection implements PushConnection {
  onReady: () => void = () => {};
  onGoaway: () => void = () => {};
  onClose: (err?: Error) => void = () => {};
  maxConcurrentStreams = UNLIMITED_STREAMS;

  private readonly session: http2.ClientHttp2Session;
  private readonly requests = new Map<number, Request>();
  private readonly maxBodyBytes: number;
  /** Our ids for requests (cancel() takes one), independent of Node's stream ids. */
  private nextId = 1;
  private ready = false;
  private draining = false;
  private finished = false;
  private error: Error | undefined;

  constructor(socket: TLSSocket, opts: Http2ConnectionOptions) {
    this.maxBodyBytes = opts.maxBodyBytes;
    socket.setNoDelay(true);
    // The URL is only Node's default :authority; every request's fields carry the real one.
    this.session = http2.connect('https://localhost', {
      createConnection: () => socket,
      settings: { enablePush: false, maxHeaderListSize: MAX_HEADER_LIST, headerTableSize: HEADER_TABLE_SIZE },
      maxHeaderListPairs: 128,
      maxSessionMemory: MAX_SESSION_MEMORY_MB,
    });
    const session = this.session;
    session.on('remoteSettings', (settings) => {
      this.maxConcurrentStreams = settings.maxConcurrentStreams ?? UNLIMITED_STREAMS;
      if (this.ready) return;
      this.ready = true;
      // Bodies are read and dropped: a larger connection window, as our own connection has.
      session.setLocalWindowSize(CONNECTION_WINDOW);
      this.onReady();
    });
    session.on('goaway', (code: number, lastStreamId: number) => {
      // Streams above its last id were not processed (RFC 9113 §6.8): they fail as refused
      // before Node ends them (it closes the session after GOAWAY, or destroys it on an error code).
      for (const [id, r] of this.requests) {
        if (r.stream.id === undefined || r.stream.id > lastStreamId) this.settle(id, r, `refused by GOAWAY (code ${code})`, false);
      }
      this.drain();
    });
    session.on('error', (err: Error) => (this.error ??= err));
    session.on('close', () => this.finish(this.error ?? (this.draining ? undefined : new Error('connection closed by the push service'))));
  }

  get closed(): boolean {
    return this.draining || this.finished || this.session.closed || this.session.destroyed;
  }

  request(fields: FieldSet, path: string, body: Buffer, handler: ResponseHandler): number {
    if (this.closed || !this.ready) throw new Http2ConnectionClosedError('HTTP/2 connection takes no new streams');
    const stream = this.session.request({ ...headersOf(fields), ':path': path, 'content-length': String(body.length) }, { endStream: body.length === 0 });
    const id = this.nextId++;
    const r: Request = { stream, handler, responded: false, received: 0, settled: false };
    this.requests.set(id, r);
    stream.on('response', (headers) => {
      if (r.settled) return;
      r.responded = true;
      handler.response(Number(headers[':status']), flatten(headers));
    });
    stream.on('data', (chunk: Buffer) => {
      r.received += chunk.length;
      // Enough of a body we throw away anyway: the status is what counts.
      if (r.received > this.maxBodyBytes && !r.settled) {
        this.forget(id, r);
        stream.close(NGHTTP2_CANCEL);
        handler.end();
      }
    });
    // Its failure is told by 'close' (rstCode) below; an unheard 'error' would throw.
    stream.on('error', () => {});
    stream.on('close', () => {
      if (r.settled) return;
      const code = stream.rstCode ?? NGHTTP2_NO_ERROR;
      // NO_ERROR after the response: a complete answer (or the server needs no more of the request, RFC 9113 §8.1).
      if (r.responded && code === NGHTTP2_NO_ERROR) {
        this.forget(id, r);
        return handler.end();
      }
      this.settle(id, r, r.responded || code !== NGHTTP2_NO_ERROR ? `stream closed (code ${code})` : (this.error?.message ?? 'connection closed'), code !== NGHTTP2_REFUSED_STREAM);
    });
    if (body.length > 0) stream.end(body);
    return id;
  }

  cancel(id: number): void {
    const r = this.requests.get(id);
    if (!r) return;
    this.forget(id, r);
    r.stream.close(NGHTTP2_CANCEL);
  }

  close(): void {
    if (this.finished) return;
    this.draining = true;
    this.session.close();
  }

  destroy(): void {
    this.finish(new Error('connection destroyed'));
    this.session.destroy();
  }

  setIdleTimeout(ms: number, idle: () => void): void {
    this.session.setTimeout(ms, idle);
  }

  private drain(): void {
    if (this.draining) return;
    this.draining = true;
    this.onGoaway();
  }

  private forget(id: number, r: Request): void {
    r.settled = true;
    this.requests.delete(id);
  }

  private settle(id: number, r: Request, message: string, processed: boolean): void {
    this.forget(id, r);
    r.handler.fail(message, processed);
  }

  /** The connection is over: every request still open fails, once. */
  private finish(err?: Error): void {
    if (this.finished) return;
    this.finished = true;
    const message = err?.message ?? 'connection closed';
    for (const [id, r] of this.requests) this.settle(id, r, message, true);
    this.onClose(err);
  }
}

/** Response headers as our own connection gives them: lowercase names, repeated ones joined with ', ', no pseudo-headers. */
function flatten(headers: http2.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (name[0] === ':' || value === undefined) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}
