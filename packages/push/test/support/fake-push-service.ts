// A minimal stand-in for a browser push service: records what arrives, answers whatever the
// test says (a status, a reset, or nothing at all), and counts connections and concurrency.
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import { testCertificate } from './tls.js';

export type Reply = { status: number; headers?: Record<string, string>; body?: string } | 'reset' | 'hang';

export interface ReceivedPush {
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  /** 1-based arrival number at this service. */
  seq: number;
}

export type Handler = (push: ReceivedPush) => Reply | Promise<Reply>;

export interface FakePushService {
  origin: string;
  endpoint(path: string): string;
  received: ReceivedPush[];
  /** TCP connections accepted so far (one per HTTP/2 session). */
  readonly connections: number;
  readonly maxConcurrent: number;
  /** The most requests in flight at once on one HTTP/2 connection. */
  readonly maxConcurrentPerConnection: number;
  handler: Handler;
  /** Sends GOAWAY on every open HTTP/2 session. */
  goaway(): void;
  stop(): Promise<void>;
}

export type FakeProtocol = 'h2' | 'https1' | 'http1';

export interface FakeOptions {
  /** HTTP/2: SETTINGS_MAX_CONCURRENT_STREAMS advertised to every connection. */
  maxConcurrentStreams?: number;
}

export async function startFakePushService(protocol: FakeProtocol, handler: Handler = () => ({ status: 201 }), options: FakeOptions = {}): Promise<FakePushService> {
  const { key, cert } = testCertificate();
  const sockets = new Set<Duplex>();
  const sessions = new Set<http2.ServerHttp2Session>();
  let connections = 0;
  let inFlight = 0;
  let maxConcurrent = 0;
  let maxPerConnection = 0;
  const perConnection = new Map<object, number>();
  let seq = 0;

  const onRequest = (req: http.IncomingMessage | http2.Http2ServerRequest, res: http.ServerResponse | http2.Http2ServerResponse) => {
    inFlight += 1;
    maxConcurrent = Math.max(maxConcurrent, inFlight);
    const connection: object = 'stream' in req ? req.stream.session! : req.socket;
    const onConnection = (perConnection.get(connection) ?? 0) + 1;
    perConnection.set(connection, onConnection);
    maxPerConnection = Math.max(maxPerConnection, onConnection);
    let counted = true;
    const done = () => {
      if (counted) {
        inFlight -= 1;
        perConnection.set(connection, perConnection.get(connection)! - 1);
      }
      counted = false;
    };
    res.on('close', done);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (!name.startsWith(':') && value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
      }
      const push: ReceivedPush = { path: req.url ?? '', headers, body: Buffer.concat(chunks), seq: ++seq };
      service.received.push(push);
      const reply = await service.handler(push);
      if (reply === 'hang') return;
      if (reply === 'reset') {
        done();
        if ('stream' in req) req.stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR);
        else req.socket.destroy();
        return;
      }
      done();
      // Both response kinds share this API; the union of their overloads is not callable as is.
      (res as http.ServerResponse).writeHead(reply.status, reply.headers ?? {});
      (res as http.ServerResponse).end(reply.body ?? '');
    });
  };

  const server =
    protocol === 'h2'
      ? http2.createSecureServer({ key, cert, allowHTTP1: true, settings: options.maxConcurrentStreams === undefined ? undefined : { maxConcurrentStreams: options.maxConcurrentStreams } }, onRequest)
      : protocol === 'https1'
        ? https.createServer({ key, cert }, onRequest)
        : http.createServer(onRequest);
  server.on(protocol === 'http1' ? 'connection' : 'secureConnection', (socket: Duplex) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  if (protocol === 'h2') {
    (server as http2.Http2SecureServer).on('session', (session) => {
      sessions.add(session);
      session.on('close', () => sessions.delete(session));
    });
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const origin = `${protocol === 'http1' ? 'http' : 'https'}://127.0.0.1:${port}`;

  const service: FakePushService = {
    origin,
    endpoint: (path) => `${origin}${path.startsWith('/') ? path : `/${path}`}`,
    received: [],
    get connections() {
      return connections;
    },
    get maxConcurrent() {
      return maxConcurrent;
    },
    get maxConcurrentPerConnection() {
      return maxPerConnection;
    },
    handler,
    goaway() {
      for (const session of sessions) session.goaway(http2.constants.NGHTTP2_NO_ERROR);
    },
    async stop() {
      for (const session of sessions) session.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return service;
}
