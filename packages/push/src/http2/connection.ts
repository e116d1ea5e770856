// One HTTP/2 connection (RFC 9113), client side, over a TLS socket that chose h2 by ALPN: what
// the push client (../client.ts) sends its pushes through, in place of Node's http2 module.
//
// Why our own: a push is one small POST and a status back, and Node's client made each of them a
// Duplex stream with its own event emitter, header object copies and an async-resource wrapper
// — about a third of what the delivery's main thread allocated per push, and the garbage
// collection that came with it. Here a request is one record in a map, one frame buffer out
// (HEADERS, then DATA as the windows allow) and three callbacks in; frames written in one turn of
// the event loop leave in one socket write.
//
// What it does not do, on purpose: server push (refused in our SETTINGS), priorities (ignored),
// request trailers, streams opened by the server. Request headers are HPACK-encoded here, when
// the request is written (hpack.ts: the fields pushes repeat are indexed in the server's table),
// so the blocks reach the server in the order the encoder made them.
//
// The peer is untrusted — an endpoint's host is whoever the subscription names — so everything
// it sends is bounded and checked: frames at 16 KB (the default we never raise), header blocks
// at 64 KB across CONTINUATION frames (nothing else may come between them), the HPACK table at
// 4 KB, the receive windows (data past them is a FLOW_CONTROL_ERROR), window sizes at 2^31-1,
// and what we owe it in answers (SETTINGS and PING acknowledgements): when our unsent output
// passes 4 MB the peer is not reading and the connection is dropped. A protocol violation ends
// the connection with GOAWAY and fails its streams; a malformed response fails its stream only.
// Deadlines are the caller's (client.ts: one per request and per connect).
import type { TLSSocket } from 'node:tls';
import { HpackDecoder, HpackEncoder, HpackError, type FieldSet } from './hpack.js';

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
const NO_BYTES = Buffer.alloc(0);

const DATA = 0x0;
const HEADERS = 0x1;
const PRIORITY = 0x2;
const RST_STREAM = 0x3;
const SETTINGS = 0x4;
const PUSH_PROMISE = 0x5;
const PING = 0x6;
const GOAWAY = 0x7;
const WINDOW_UPDATE = 0x8;
const CONTINUATION = 0x9;

const END_STREAM = 0x1;
const ACK = 0x1;
const END_HEADERS = 0x4;
const PADDED = 0x8;
const PRIORITY_FLAG = 0x20;

/** Error codes (RFC 9113 §7). */
export const H2_NO_ERROR = 0x0;
export const H2_PROTOCOL_ERROR = 0x1;
export const H2_FLOW_CONTROL_ERROR = 0x3;
export const H2_FRAME_SIZE_ERROR = 0x6;
export const H2_REFUSED_STREAM = 0x7;
export const H2_CANCEL = 0x8;
export const H2_COMPRESSION_ERROR = 0x9;
export const H2_ENHANCE_YOUR_CALM = 0xb;

const SETTINGS_HEADER_TABLE_SIZE = 0x1;
const SETTINGS_ENABLE_PUSH = 0x2;
const SETTINGS_MAX_CONCURRENT_STREAMS = 0x3;
const SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
const SETTINGS_MAX_FRAME_SIZE = 0x5;
const SETTINGS_MAX_HEADER_LIST_SIZE = 0x6;

const MAX_WINDOW = 2 ** 31 - 1;
const MAX_STREAM_ID = 2 ** 31 - 1;
/** SETTINGS_MAX_FRAME_SIZE's default, which we keep: the largest frame the peer may send us. */
const MAX_FRAME = 16_384;
const DEFAULT_WINDOW = 65_535;
/** The connection's receive window, raised from the default at once: bodies are read and dropped. */
const CONNECTION_WINDOW = 1 << 20;
/** HEADERS plus CONTINUATION fragments of one block, and the decoded list (SETTINGS_MAX_HEADER_LIST_SIZE). */
const MAX_HEADER_BLOCK = 65_536;
const HEADER_TABLE_SIZE = 4096;
/** Output not yet taken by the socket past which the peer is taken for one that does not read. */
const MAX_UNSENT = 4 * 1024 * 1024;
/** Before the server's SETTINGS say otherwise, as Node reports it: no limit. */
const UNLIMITED_STREAMS = 2 ** 32 - 1;

/** What a request hears back: response() at most once, then exactly one of end() or fail(). */
export interface ResponseHandler {
  /** The final (non-1xx) response: its status and headers (names lowercase, repeated ones joined with ', '). */
  response(status: number, headers: Record<string, string>): void;
  /** The response is complete (or its body passed the cap, and the stream was cancelled). */
  end(): void;
  /**
   * The stream failed. `processed`: false only when the server said it did not process it
   * (REFUSED_STREAM, or a stream above a GOAWAY's last stream id, RFC 9113 §8.7).
   */
  fail(message: string, processed: boolean): void;
}

/**
 * What the push client (../client.ts) needs of an HTTP/2 connection: ours (Http2Connection,
 * below) or Node's (node-connection.ts), chosen by PUSH_HTTP_CLIENT.
 */
export interface PushConnection {
  /** The server's first SETTINGS arrived: the stream limit is known. */
  onReady: () => void;
  /** GOAWAY received (or stream ids used up): no new streams; those below its last id still end. */
  onGoaway: () => void;
  /** The connection is over; every stream has had its callback. `err` unless closed gracefully. */
  onClose: (err?: Error) => void;
  /** The server's SETTINGS_MAX_CONCURRENT_STREAMS. */
  readonly maxConcurrentStreams: number;
  /** Takes no new streams (GOAWAY, close(), the end of the connection). */
  readonly closed: boolean;
  /**
   * Sends a request: its header fields are `fields` (pseudo-header fields first) with `path`
   * and the body's content-length. Returns an id for cancel(). Throws
   * Http2ConnectionClosedError when the connection takes no new streams.
   */
  request(fields: FieldSet, path: string, body: Buffer, handler: ResponseHandler): number;
  /** Cancels a stream (RST_STREAM CANCEL): its handler hears nothing more. */
  cancel(id: number): void;
  /** No new streams; the connection ends once its streams have. */
  close(): void;
  /** Ends the connection at once; open streams fail. */
  destroy(): void;
  /** Calls `idle` after every `ms` without traffic. */
  setIdleTimeout(ms: number, idle: () => void): void;
}

interface Stream {
  id: number;
  handler: ResponseHandler;
  /** What the server's stream window still allows us to send. */
  sendWindow: number;
  /** Request body bytes not sent yet (flow control), or null once END_STREAM is out. */
  unsent: Buffer | null;
  responded: boolean;
  /** Body bytes received. */
  received: number;
  /** Bytes received on the stream since its last WINDOW_UPDATE. */
  unacknowledged: number;
  /** In `blocked` (which drops ended streams lazily). */
  queued: boolean;
}

export interface Http2ConnectionOptions {
  /** Response body bytes read (and dropped) before the stream is cancelled; the response counts as complete. */
  maxBodyBytes: number;
}

export class Http2ConnectionClosedError extends Error {
  override readonly name = 'Http2ConnectionClosedError';
}

export class Http2Connection implements PushConnection {
  /** The server's first SETTINGS arrived: the stream limit is known. */
  onReady: () => void = () => {};
  /** GOAWAY received (or stream ids used up): no new streams; those below its last id still end. */
  onGoaway: () => void = () => {};
  /** The connection is over; every stream has had its callback. `err` unless closed gracefully. */
  onClose: (err?: Error) => void = () => {};

  /** The server's SETTINGS_MAX_CONCURRENT_STREAMS. */
  maxConcurrentStreams = UNLIMITED_STREAMS;
  private readonly streams = new Map<number, Stream>();
  private readonly decoder = new HpackDecoder({ tableLimit: HEADER_TABLE_SIZE, maxListSize: MAX_HEADER_BLOCK });
  private readonly encoder = new HpackEncoder(HEADER_TABLE_SIZE);
  private readonly maxBodyBytes: number;
  private nextId = 1;
  /** Highest stream id opened. */
  private lastId = 0;
  private ready = false;
  /** No new streams: GOAWAY received, close() called, ids used up, or the connection is over. */
  private draining = false;
  private finished = false;
  private sendWindow = DEFAULT_WINDOW;
  private peerInitialWindow = DEFAULT_WINDOW;
  private peerMaxFrame = MAX_FRAME;
  /** Received on the connection since our last connection WINDOW_UPDATE. */
  private unacknowledged = 0;
  /** Streams waiting for window to send the rest of their body, oldest first (ended ones are dropped as met). */
  private blocked: Stream[] = [];
  /** A header block being continued: its stream, END_STREAM, fragments so far. */
  private continued: { id: number; endStream: boolean; fragments: Buffer[]; size: number } | null = null;
  private pending: Buffer | null = null;
  private out: Buffer[] = [];
  private flushing: NodeJS.Immediate | null = null;

  constructor(
    private readonly socket: TLSSocket,
    opts: Http2ConnectionOptions,
  ) {
    this.maxBodyBytes = opts.maxBodyBytes;
    // Writes are batched per turn of the event loop already (write()); Nagle would only delay them.
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    socket.on('error', (err) => this.finish(err));
    socket.on('end', () => this.finish(new Error('connection closed by the push service')));
    socket.on('close', () => this.finish(new Error('connection closed')));
    const settings = Buffer.alloc(18);
    settings.writeUInt16BE(SETTINGS_ENABLE_PUSH, 0);
    settings.writeUInt32BE(0, 2);
    settings.writeUInt16BE(SETTINGS_MAX_HEADER_LIST_SIZE, 6);
    settings.writeUInt32BE(MAX_HEADER_BLOCK, 8);
    settings.writeUInt16BE(SETTINGS_HEADER_TABLE_SIZE, 12);
    settings.writeUInt32BE(HEADER_TABLE_SIZE, 14);
    const windowUpdate = Buffer.alloc(4);
    windowUpdate.writeUInt32BE(CONNECTION_WINDOW - DEFAULT_WINDOW, 0);
    this.write(Buffer.concat([PREFACE, frame(SETTINGS, 0, 0, settings), frame(WINDOW_UPDATE, 0, 0, windowUpdate)]));
  }

  /** Streams open now. */
  get active(): number {
    return this.streams.size;
  }

  /** Takes no new streams (GOAWAY, close(), the end of the connection). */
  get closed(): boolean {
    return this.draining || this.finished;
  }

  /**
   * Sends a request: its header fields are `fields` (pseudo-header fields first) with `path`
   * after the pseudo-header fields and the body's content-length; `body` goes out as DATA as the
   * flow-control windows allow. Returns the stream id. Throws Http2ConnectionClosedError when the
   * connection takes no new streams.
   */
  request(fields: FieldSet, path: string, body: Buffer, handler: ResponseHandler): number {
    if (this.closed || !this.ready) throw new Http2ConnectionClosedError('HTTP/2 connection takes no new streams');
    // Before encoding: a block made but not sent would leave the encoder's table out of step.
    if (fields.bound + path.length + 64 > this.peerMaxFrame) throw new RangeError('request header block larger than a frame');
    const block = this.encoder.requestBlock(fields, path, body.length);
    const id = this.nextId;
    this.nextId += 2;
    this.lastId = id;
    const stream: Stream = { id, handler, sendWindow: this.peerInitialWindow, unsent: body, responded: false, received: 0, unacknowledged: 0, queued: false };
    this.streams.set(id, stream);
    const length = body.length;
    if (length === 0) {
      stream.unsent = null;
      this.write(frame(HEADERS, END_HEADERS | END_STREAM, id, block));
    } else if (length <= this.sendWindow && length <= stream.sendWindow && length <= this.peerMaxFrame) {
      // The usual case: HEADERS and the whole body in one buffer.
      const buf = Buffer.allocUnsafe(18 + block.length + length);
      writeFrameHeader(buf, 0, block.length, HEADERS, END_HEADERS, id);
      block.copy(buf, 9);
      writeFrameHeader(buf, 9 + block.length, length, DATA, END_STREAM, id);
      body.copy(buf, 18 + block.length);
      this.sendWindow -= length;
      stream.sendWindow -= length;
      stream.unsent = null;
      this.write(buf);
    } else {
      this.write(frame(HEADERS, END_HEADERS, id, block));
      this.sendBody(stream);
    }
    if (this.nextId > MAX_STREAM_ID) this.drain();
    return id;
  }

  /** Cancels a stream (RST_STREAM CANCEL): its handler hears nothing more. */
  cancel(id: number): void {
    if (this.forget(id)) this.reset(id, H2_CANCEL);
  }

  /** No new streams; the connection ends once its streams have. */
  close(): void {
    if (this.finished) return;
    this.draining = true;
    if (this.streams.size === 0) this.end(H2_NO_ERROR);
  }

  /** Ends the connection at once; open streams fail. */
  destroy(): void {
    this.finish(new Error('connection destroyed'));
    this.socket.destroy();
  }

  /** Calls `idle` after every `ms` without traffic on the socket. */
  setIdleTimeout(ms: number, idle: () => void): void {
    this.socket.setTimeout(ms);
    this.socket.on('timeout', idle);
  }

  // —— reading ——

  private read(chunk: Buffer): void {
    if (this.finished) return;
    const buf = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = null;
    let at = 0;
    while (buf.length - at >= 9) {
      const length = (buf[at] << 16) | (buf[at + 1] << 8) | buf[at + 2];
      if (length > MAX_FRAME) return this.abort(H2_FRAME_SIZE_ERROR, `frame of ${length} bytes`);
      if (buf.length - at < 9 + length) break;
      const type = buf[at + 3];
      const flags = buf[at + 4];
      const id = buf.readUInt32BE(at + 5) & 0x7fffffff;
      const start = at + 9;
      at = start + length;
      this.frame(type, flags, id, buf, start, at);
      if (this.finished) return;
    }
    if (at < buf.length) this.pending = buf.subarray(at);
  }

  private frame(type: number, flags: number, id: number, buf: Buffer, start: number, end: number): void {
    const length = end - start;
    if (this.continued && (type !== CONTINUATION || id !== this.continued.id)) {
      return this.abort(H2_PROTOCOL_ERROR, 'a header block interrupted');
    }
    if (!this.ready && type !== SETTINGS) return this.abort(H2_PROTOCOL_ERROR, 'the server did not start with SETTINGS');
    switch (type) {
      case DATA:
        return this.data(flags, id, buf, start, end);
      case HEADERS: {
        if (id === 0 || id % 2 === 0) return this.abort(H2_PROTOCOL_ERROR, 'HEADERS on a stream we did not open');
        let from = start;
        let to = end;
        if (flags & PADDED) {
          if (length < 1) return this.abort(H2_FRAME_SIZE_ERROR, 'padded HEADERS without its pad length');
          to -= buf[from++];
        }
        if (flags & PRIORITY_FLAG) from += 5;
        if (to < from) return this.abort(H2_PROTOCOL_ERROR, 'HEADERS padding past the frame');
        const fragment = buf.subarray(from, to);
        if (flags & END_HEADERS) return this.headers(id, fragment, (flags & END_STREAM) !== 0);
        this.continued = { id, endStream: (flags & END_STREAM) !== 0, fragments: [Buffer.from(fragment)], size: fragment.length };
        return;
      }
      case CONTINUATION: {
        const c = this.continued;
        if (!c) return this.abort(H2_PROTOCOL_ERROR, 'CONTINUATION without HEADERS');
        c.size += length;
        if (c.size > MAX_HEADER_BLOCK) return this.abort(H2_ENHANCE_YOUR_CALM, 'header block too large');
        c.fragments.push(Buffer.from(buf.subarray(start, end)));
        if (!(flags & END_HEADERS)) return;
        this.continued = null;
        return this.headers(c.id, Buffer.concat(c.fragments), c.endStream);
      }
      case PRIORITY:
        if (id === 0) return this.abort(H2_PROTOCOL_ERROR, 'PRIORITY on stream 0');
        if (length !== 5) return this.abort(H2_FRAME_SIZE_ERROR, 'PRIORITY of the wrong size');
        return;
      case RST_STREAM:
        if (id === 0 || id > this.lastId) return this.abort(H2_PROTOCOL_ERROR, 'RST_STREAM on an idle stream');
        if (length !== 4) return this.abort(H2_FRAME_SIZE_ERROR, 'RST_STREAM of the wrong size');
        return this.resetByPeer(id, buf.readUInt32BE(start));
      case SETTINGS:
        return this.settings(flags, id, buf, start, end);
      case PUSH_PROMISE:
        return this.abort(H2_PROTOCOL_ERROR, 'PUSH_PROMISE though push is disabled');
      case PING:
        if (id !== 0) return this.abort(H2_PROTOCOL_ERROR, 'PING on a stream');
        if (length !== 8) return this.abort(H2_FRAME_SIZE_ERROR, 'PING of the wrong size');
        if (!(flags & ACK)) this.write(frame(PING, ACK, 0, buf.subarray(start, end)));
        return;
      case GOAWAY:
        if (id !== 0) return this.abort(H2_PROTOCOL_ERROR, 'GOAWAY on a stream');
        if (length < 8) return this.abort(H2_FRAME_SIZE_ERROR, 'GOAWAY too short');
        return this.goaway(buf.readUInt32BE(start) & 0x7fffffff, buf.readUInt32BE(start + 4));
      case WINDOW_UPDATE:
        if (length !== 4) return this.abort(H2_FRAME_SIZE_ERROR, 'WINDOW_UPDATE of the wrong size');
        return this.windowUpdate(id, buf.readUInt32BE(start) & 0x7fffffff);
      default:
        return; // unknown frame types are ignored (RFC 9113 §4.1)
    }
  }

  private data(flags: number, id: number, buf: Buffer, start: number, end: number): void {
    if (id === 0) return this.abort(H2_PROTOCOL_ERROR, 'DATA on stream 0');
    if (id > this.lastId || id % 2 === 0) return this.abort(H2_PROTOCOL_ERROR, 'DATA on an idle stream');
    const length = end - start;
    // The whole frame counts against the windows, padding included (RFC 9113 §6.9.1).
    this.unacknowledged += length;
    if (this.unacknowledged > CONNECTION_WINDOW) return this.abort(H2_FLOW_CONTROL_ERROR, 'DATA beyond the connection window');
    if (this.unacknowledged >= CONNECTION_WINDOW / 2) {
      this.write(windowUpdateFrame(0, this.unacknowledged));
      this.unacknowledged = 0;
    }
    let size = length;
    if (flags & PADDED) {
      if (length < 1 || buf[start] >= length) return this.abort(H2_PROTOCOL_ERROR, 'DATA padding past the frame');
      size = length - 1 - buf[start];
    }
    const stream = this.streams.get(id);
    if (!stream) return; // a stream we cancelled or that ended: its frames may still be on their way
    if (!stream.responded) return this.streamError(stream, H2_PROTOCOL_ERROR, 'DATA before the response headers');
    stream.unacknowledged += length;
    if (stream.unacknowledged > DEFAULT_WINDOW) return this.streamError(stream, H2_FLOW_CONTROL_ERROR, 'DATA beyond the stream window');
    stream.received += size;
    if (stream.received > this.maxBodyBytes) {
      // Enough of a body we throw away anyway: the status is what counts.
      this.forget(id);
      this.reset(id, H2_CANCEL);
      return stream.handler.end();
    }
    if (flags & END_STREAM) return this.complete(stream);
    if (stream.unacknowledged >= DEFAULT_WINDOW / 2) {
      this.write(windowUpdateFrame(id, stream.unacknowledged));
      stream.unacknowledged = 0;
    }
  }

  private headers(id: number, block: Buffer, endStream: boolean): void {
    if (id > this.lastId) return this.abort(H2_PROTOCOL_ERROR, 'HEADERS on an idle stream');
    let fields: string[];
    try {
      // Decoded even for a stream we no longer track: the table must stay in step (RFC 7541 §2.2).
      fields = this.decoder.decode(block);
    } catch (err) {
      if (err instanceof HpackError) return this.abort(H2_COMPRESSION_ERROR, err.message);
      throw err;
    }
    const stream = this.streams.get(id);
    if (!stream) return;
    if (stream.responded) {
      // Trailers: they end the stream, and say nothing we use.
      if (!endStream) return this.streamError(stream, H2_PROTOCOL_ERROR, 'trailers without END_STREAM');
      return this.complete(stream);
    }
    let status = '';
    const headers: Record<string, string> = {};
    for (let i = 0; i < fields.length; i += 2) {
      const name = fields[i];
      if (name === ':status') status = fields[i + 1];
      else if (name[0] !== ':') {
        const key = name.toLowerCase();
        headers[key] = key in headers ? `${headers[key]}, ${fields[i + 1]}` : fields[i + 1];
      }
    }
    if (!/^[1-5][0-9][0-9]$/.test(status)) return this.streamError(stream, H2_PROTOCOL_ERROR, 'response without a valid :status');
    const code = Number(status);
    if (code < 200) {
      // Informational: the final response is still to come.
      if (endStream) return this.streamError(stream, H2_PROTOCOL_ERROR, 'informational response ends the stream');
      return;
    }
    stream.responded = true;
    stream.handler.response(code, headers);
    if (endStream) this.complete(stream);
  }

  private settings(flags: number, id: number, buf: Buffer, start: number, end: number): void {
    if (id !== 0) return this.abort(H2_PROTOCOL_ERROR, 'SETTINGS on a stream');
    if (flags & ACK) {
      if (end !== start) return this.abort(H2_FRAME_SIZE_ERROR, 'SETTINGS acknowledgement with a payload');
      return;
    }
    if ((end - start) % 6 !== 0) return this.abort(H2_FRAME_SIZE_ERROR, 'SETTINGS of the wrong size');
    for (let at = start; at < end; at += 6) {
      const key = buf.readUInt16BE(at);
      const value = buf.readUInt32BE(at + 2);
      switch (key) {
        case SETTINGS_ENABLE_PUSH:
          if (value > 1) return this.abort(H2_PROTOCOL_ERROR, 'SETTINGS_ENABLE_PUSH above 1');
          break;
        case SETTINGS_MAX_CONCURRENT_STREAMS:
          this.maxConcurrentStreams = value;
          break;
        case SETTINGS_INITIAL_WINDOW_SIZE: {
          if (value > MAX_WINDOW) return this.abort(H2_FLOW_CONTROL_ERROR, 'SETTINGS_INITIAL_WINDOW_SIZE above 2^31-1');
          // A new initial window moves every open stream's window by the difference (RFC 9113 §6.9.2).
          const delta = value - this.peerInitialWindow;
          this.peerInitialWindow = value;
          for (const stream of this.streams.values()) {
            stream.sendWindow += delta;
            if (stream.sendWindow > MAX_WINDOW) return this.abort(H2_FLOW_CONTROL_ERROR, 'a stream window above 2^31-1');
          }
          break;
        }
        case SETTINGS_MAX_FRAME_SIZE:
          if (value < MAX_FRAME || value > 2 ** 24 - 1) return this.abort(H2_PROTOCOL_ERROR, 'SETTINGS_MAX_FRAME_SIZE out of range');
          this.peerMaxFrame = value;
          break;
        case SETTINGS_HEADER_TABLE_SIZE:
          this.encoder.setMaxTableSize(value);
          break;
        default:
          break; // the server's header list size is advisory (our blocks are small); unknown settings are ignored
      }
    }
    this.write(frame(SETTINGS, ACK, 0, Buffer.alloc(0)));
    this.unblock();
    if (!this.ready) {
      this.ready = true;
      this.onReady();
    }
  }

  private goaway(lastStreamId: number, code: number): void {
    // Streams above its last id were not processed (RFC 9113 §6.8): they fail as refused.
    for (const stream of [...this.streams.values()]) {
      if (stream.id <= lastStreamId) continue;
      this.forget(stream.id);
      stream.handler.fail(`refused by GOAWAY (code ${code})`, false);
    }
    if (!this.draining) {
      this.draining = true;
      this.onGoaway();
    }
    if (this.streams.size === 0) this.end(H2_NO_ERROR);
  }

  private windowUpdate(id: number, increment: number): void {
    if (id === 0) {
      if (increment === 0) return this.abort(H2_PROTOCOL_ERROR, 'WINDOW_UPDATE of 0');
      this.sendWindow += increment;
      if (this.sendWindow > MAX_WINDOW) return this.abort(H2_FLOW_CONTROL_ERROR, 'connection window above 2^31-1');
      return this.unblock();
    }
    if (id > this.lastId || id % 2 === 0) return this.abort(H2_PROTOCOL_ERROR, 'WINDOW_UPDATE on an idle stream');
    const stream = this.streams.get(id);
    if (!stream) return;
    if (increment === 0) return this.streamError(stream, H2_PROTOCOL_ERROR, 'WINDOW_UPDATE of 0');
    stream.sendWindow += increment;
    if (stream.sendWindow > MAX_WINDOW) return this.streamError(stream, H2_FLOW_CONTROL_ERROR, 'stream window above 2^31-1');
    if (stream.unsent && this.sendWindow > 0) this.sendBody(stream);
  }

  private resetByPeer(id: number, code: number): void {
    const stream = this.streams.get(id);
    if (!stream) return;
    this.forget(id);
    // NO_ERROR after the response: the server needs no more of the request (RFC 9113 §8.1).
    if (code === H2_NO_ERROR && stream.responded) return stream.handler.end();
    stream.handler.fail(`stream closed (code ${code})`, code !== H2_REFUSED_STREAM);
  }

  // —— streams ——

  private complete(stream: Stream): void {
    // Answered before the whole body went out: the rest is not wanted.
    if (stream.unsent) this.reset(stream.id, H2_CANCEL);
    this.forget(stream.id);
    stream.handler.end();
  }

  /** A malformed response: the stream fails, the connection lives on. */
  private streamError(stream: Stream, code: number, message: string): void {
    this.forget(stream.id);
    this.reset(stream.id, code);
    stream.handler.fail(`malformed response: ${message}`, true);
  }

  /** Drops a stream from the books (and what it had left to send); true when it was there. */
  private forget(id: number): boolean {
    const stream = this.streams.get(id);
    if (!stream) return false;
    this.streams.delete(id);
    stream.unsent = null;
    if (this.draining && this.streams.size === 0 && !this.finished) queueMicrotask(() => this.end(H2_NO_ERROR));
    return true;
  }

  /** Sends what the windows allow of a stream's body; the rest waits for WINDOW_UPDATE. */
  private sendBody(stream: Stream): void {
    let body = stream.unsent!;
    while (body.length > 0) {
      const n = Math.min(body.length, stream.sendWindow, this.sendWindow, this.peerMaxFrame);
      if (n <= 0) break;
      // The frame header and the body as they are: the socket write copies them once (flush).
      const last = n === body.length;
      const header = Buffer.allocUnsafe(9);
      writeFrameHeader(header, 0, n, DATA, last ? END_STREAM : 0, stream.id);
      this.write(header);
      this.write(last ? body : body.subarray(0, n));
      stream.sendWindow -= n;
      this.sendWindow -= n;
      body = last ? NO_BYTES : body.subarray(n);
    }
    stream.unsent = body.length > 0 ? body : null;
    if (stream.unsent && !stream.queued) {
      stream.queued = true;
      this.blocked.push(stream);
    }
  }

  // After the connection window grew: the blocked streams in order, until it is used up again
  // (one pass per connection WINDOW_UPDATE however many streams wait, not one per stream's).
  // The list is compacted in place: thousands of streams may wait behind a small window, and a
  // new array per WINDOW_UPDATE was garbage in proportion to all of them.
  private unblock(): void {
    const waiting = this.blocked;
    let kept = 0;
    let i = 0;
    for (; i < waiting.length && this.sendWindow > 0; i++) {
      const stream = waiting[i];
      if (stream.unsent && stream.sendWindow > 0) this.sendBody(stream);
      if (stream.unsent) waiting[kept++] = stream;
      else stream.queued = false;
    }
    if (kept === i) return;
    for (; i < waiting.length; i++) waiting[kept++] = waiting[i];
    waiting.length = kept;
  }

  private drain(): void {
    if (this.draining) return;
    this.draining = true;
    this.onGoaway();
    if (this.streams.size === 0) this.end(H2_NO_ERROR);
  }

  // —— writing and ending ——

  private reset(id: number, code: number): void {
    const payload = Buffer.allocUnsafe(4);
    payload.writeUInt32BE(code, 0);
    this.write(frame(RST_STREAM, 0, id, payload));
  }

  private write(buf: Buffer): void {
    if (this.finished) return;
    this.out.push(buf);
    // Everything written in this turn of the event loop leaves in one socket write.
    this.flushing ??= setImmediate(() => this.flush());
  }

  private flush(): void {
    this.flushing = null;
    if (this.finished || this.out.length === 0) return;
    const out = this.out.length === 1 ? this.out[0] : Buffer.concat(this.out);
    this.out = [];
    this.socket.write(out);
    if (this.socket.writableLength > MAX_UNSENT) this.abort(H2_ENHANCE_YOUR_CALM, 'the push service does not read what we send');
  }

  /** A connection error (RFC 9113 §5.4.1): GOAWAY with the code, then the connection is over. */
  private abort(code: number, message: string): void {
    this.end(code, new Error(`HTTP/2 protocol error from the push service: ${message}`));
  }

  /** Sends GOAWAY (the last stream the server opened: none) after what is queued, and closes the socket. */
  private end(code: number, err?: Error): void {
    if (this.finished) return;
    const payload = Buffer.alloc(8);
    payload.writeUInt32BE(code, 4);
    const out = Buffer.concat([...this.out, frame(GOAWAY, 0, 0, payload)]);
    this.finish(err);
    this.socket.end(out);
    // A peer that never closes its side does not keep the socket.
    setTimeout(() => this.socket.destroy(), 1000).unref();
  }

  /** The connection is over: every stream still open fails, once. */
  private finish(err?: Error): void {
    if (this.finished) return;
    this.finished = true;
    if (this.flushing) clearImmediate(this.flushing);
    this.flushing = null;
    this.out = [];
    this.pending = null;
    this.continued = null;
    this.blocked = [];
    const open = [...this.streams.values()];
    this.streams.clear();
    const message = err?.message ?? 'connection closed';
    for (const stream of open) stream.handler.fail(message, true);
    this.onClose(err);
  }
}

function writeFrameHeader(buf: Buffer, at: number, length: number, type: number, flags: number, id: number): void {
  buf[at] = (length >>> 16) & 0xff;
  buf[at + 1] = (length >>> 8) & 0xff;
  buf[at + 2] = length & 0xff;
  buf[at + 3] = type;
  buf[at + 4] = flags;
  buf.writeUInt32BE(id, at + 5);
}

function frame(type: number, flags: number, id: number, payload: Uint8Array): Buffer {
  const buf = Buffer.allocUnsafe(9 + payload.length);
  writeFrameHeader(buf, 0, payload.length, type, flags, id);
  buf.set(payload, 9);
  return buf;
}

function windowUpdateFrame(id: number, increment: number): Buffer {
  const payload = Buffer.allocUnsafe(4);
  payload.writeUInt32BE(increment, 0);
  return frame(WINDOW_UPDATE, 0, id, payload);
}
