// One request and its answer, whichever protocol carries it. HTTP/2 streams are served through
// Node's stream API rather than its compatibility layer (Http2ServerRequest/Response): the layer
// allocates two objects, trailers machinery and listeners per push, which was a good part of the
// simulator's CPU per push, and the simulator shares the machine with the platform it measures.
// HTTP/1.1 (web-push's https client, allowHTTP1) keeps Node's http request/response.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { constants as h2, type IncomingHttpHeaders, type ServerHttp2Stream } from 'node:http2';
import type { Readable } from 'node:stream';

export interface Exchange {
  readonly method: string;
  /** The request target as sent: path and query. */
  readonly target: string;
  /** The request body. */
  readonly body: Readable;
  /** A request header by its lower-case name; repeated headers joined with ", ". */
  header(name: string): string | undefined;
  /**
   * Answers with a complete body. Does nothing once answered or when the client has gone (a
   * stream reset while the answer waited for latency). `headers` becomes the answer's: callers
   * pass a fresh object.
   */
  respond(status: number, headers: Record<string, string | number>, body: string): void;
  /**
   * Drops the request as a push service that fails mid-request does: HTTP/2 multiplexes many
   * pushes on one connection, so a stream reset (other streams survive); HTTP/1.1 loses the
   * connection.
   */
  reset(): void;
}

function joined(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

export class Http2Exchange implements Exchange {
  constructor(private readonly stream: ServerHttp2Stream, private readonly headers: IncomingHttpHeaders) {}

  get method(): string {
    return this.headers[':method'] ?? 'GET';
  }

  get target(): string {
    return this.headers[':path'] ?? '/';
  }

  get body(): Readable {
    return this.stream;
  }

  header(name: string): string | undefined {
    return joined(this.headers[name]);
  }

  respond(status: number, headers: Record<string, string | number>, body: string): void {
    const stream = this.stream;
    if (stream.headersSent || stream.destroyed || stream.closed) return;
    const length = Buffer.byteLength(body);
    headers[':status'] = status;
    headers['content-length'] = length;
    // An empty answer ends the stream with its HEADERS frame: no empty DATA frame to write.
    stream.respond(headers, { endStream: length === 0 });
    if (length > 0) stream.end(body);
  }

  reset(): void {
    this.stream.close(h2.NGHTTP2_INTERNAL_ERROR);
  }
}

export class Http1Exchange implements Exchange {
  constructor(private readonly req: IncomingMessage, private readonly res: ServerResponse) {}

  get method(): string {
    return this.req.method ?? 'GET';
  }

  get target(): string {
    return this.req.url ?? '/';
  }

  get body(): Readable {
    return this.req;
  }

  header(name: string): string | undefined {
    return joined(this.req.headers[name]);
  }

  respond(status: number, headers: Record<string, string | number>, body: string): void {
    if (this.res.headersSent) return;
    headers['content-length'] = Buffer.byteLength(body);
    this.res.writeHead(status, headers);
    this.res.end(body);
  }

  reset(): void {
    this.req.socket.destroy();
  }
}

/**
 * What Node's compatibility layer did before emitting 'request' that a stream handler must do
 * itself; false when the stream is already answered. Stream errors (a client's reset) are
 * ignored as the layer ignores them: an 'error' event without a listener would end the process.
 */
export function acceptStream(stream: ServerHttp2Stream, headers: IncomingHttpHeaders): boolean {
  stream.on('error', ignore);
  if (headers[':method'] === 'CONNECT') {
    stream.respond({ ':status': 405 }, { endStream: true });
    return false;
  }
  const expect = headers.expect;
  if (expect === undefined) return true;
  if (expect === '100-continue') {
    stream.additionalHeaders({ ':status': 100 });
    return true;
  }
  stream.respond({ ':status': 417 }, { endStream: true });
  return false;
}

function ignore(): void {}
