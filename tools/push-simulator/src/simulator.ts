// Composition: certificates, the HTTP/2 (+HTTP/1.1) server, state, behaviours and devices.
import http from 'node:http';
import http2, { type Http2Session, type IncomingHttpHeaders, type ServerHttp2Stream } from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import { Behaviours } from './behaviours.js';
import { makeCertificates, type Certificates } from './certificates.js';
import { MAX_CAPACITY } from './config.js';
import { Delays, ServiceQueue } from './delays.js';
import { handleControl } from './control-api.js';
import { createDevice, type Device } from './device.js';
import { acceptStream, Http1Exchange, Http2Exchange, type Exchange } from './exchange.js';
import { handlePush, sendJson, VapidCache, type PushContext } from './push-handler.js';
import { seededRandom } from './random.js';
import { SimulatorState } from './state.js';
import type { PushSimulator, PushSimulatorOptions, SimulatorStats } from './types.js';

const PUSH_PATH = /^\/push\/([A-Za-z0-9_-]{1,200})$/;

export async function startPushSimulator(opts: PushSimulatorOptions = {}): Promise<PushSimulator> {
  const host = opts.host ?? '127.0.0.1';
  const tls = opts.tls ?? true;
  const mode = opts.mode ?? 'record';
  if (mode !== 'record' && mode !== 'sink') throw new Error(`push simulator: unknown mode "${String(mode)}"`);
  const sinkSampleEvery = opts.sinkSampleEvery ?? 100;
  if (!(Number.isInteger(sinkSampleEvery) && sinkSampleEvery >= 1)) throw new Error('push simulator: sinkSampleEvery must be a positive integer');
  const log = opts.log ?? (() => {});
  if (opts.device && !opts.trackingBaseUrl) throw new Error('push simulator: device mode needs trackingBaseUrl');
  if (opts.trackingBaseUrl) new URL(opts.trackingBaseUrl); // fails fast on a malformed URL
  const latencyMs = opts.latencyMs ?? 0;
  if (!(Number.isFinite(latencyMs) && latencyMs >= 0 && latencyMs <= 600_000)) throw new Error('push simulator: latencyMs must be between 0 and 600000');
  const capacityPerSecond = opts.capacityPerSecond;
  if (capacityPerSecond !== undefined && !(Number.isFinite(capacityPerSecond) && capacityPerSecond > 0 && capacityPerSecond <= MAX_CAPACITY)) {
    throw new Error('push simulator: capacityPerSecond must be a number above 0 and at most 1000000');
  }
  const maxConcurrentStreams = opts.maxConcurrentStreams;
  if (maxConcurrentStreams !== undefined && !(Number.isInteger(maxConcurrentStreams) && maxConcurrentStreams >= 1 && maxConcurrentStreams <= 2 ** 32 - 1)) {
    throw new Error('push simulator: maxConcurrentStreams must be an integer between 1 and 4294967295');
  }

  const certificates: Certificates | undefined = tls ? await makeCertificates() : undefined;
  const state = new SimulatorState(mode === 'sink' ? 1000 : opts.maxRecorded ?? 100_000, opts.keepReplaced === true);
  const behaviours = new Behaviours();
  const delays = new Delays();
  let device: Device | undefined;
  let connections = 0;
  let http2Sessions = 0;
  const sockets = new Set<Socket>();
  const sessions = new Set<Http2Session>();

  let origin = '';
  let ctx: PushContext | undefined;
  let simulator: PushSimulator | undefined;

  const serve = (ex: Exchange): void => {
    void route(ex).catch((err: unknown) => {
      log('push simulator request failed', { error: (err as Error).message });
      try {
        sendJson(ex, 500, {}, { message: 'internal error' });
      } catch {
        // the connection is already gone
      }
    });
  };
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse): void => serve(new Http1Exchange(req, res));
  const onStream = (stream: ServerHttp2Stream, headers: IncomingHttpHeaders): void => {
    if (acceptStream(stream, headers)) serve(new Http2Exchange(stream, headers));
  };

  const route = async (ex: Exchange): Promise<void> => {
    // A push's target as sent is its path (only unreserved characters): no URL to parse for it.
    let push = PUSH_PATH.exec(ex.target);
    if (push && ex.method === 'POST') return handlePush(ex, push[1], ctx!);
    const url = new URL(ex.target, 'http://simulator');
    push = PUSH_PATH.exec(url.pathname);
    if (push && ex.method === 'POST') return handlePush(ex, push[1], ctx!);
    if (url.pathname.startsWith('/_sim/')) return handleControl(ex, url, simulator!);
    ex.body.resume();
    sendJson(ex, push ? 405 : 404, {}, { message: push ? 'pushes are POSTed' : 'not found' });
  };

  const trackSocket = (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };

  let server: http.Server | http2.Http2SecureServer;
  if (certificates) {
    const secure = http2.createSecureServer({
      key: certificates.keyPem,
      cert: certificates.certPem,
      allowHTTP1: true,
      // Unset: Node's default, which advertises no limit (4294967295).
      ...(maxConcurrentStreams === undefined ? {} : { settings: { maxConcurrentStreams } }),
    });
    secure.on('secureConnection', trackSocket);
    secure.on('session', (session: Http2Session) => {
      http2Sessions++;
      sessions.add(session);
      session.once('close', () => sessions.delete(session));
    });
    // allowHTTP1: Node's HTTP/1.1 fallback emits 'request'. Adding a 'request' listener also
    // makes Node answer HTTP/2 streams through its compatibility layer (a 'stream' listener of
    // its own, added then); that one is removed, so HTTP/2 streams reach onStream only.
    secure.on('request', onRequest);
    secure.removeAllListeners('stream');
    secure.on('stream', onStream);
    server = secure;
  } else {
    const plain = http.createServer({ keepAlive: true }, onRequest);
    plain.on('connection', trackSocket);
    server = plain;
  }

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    await certificates?.remove();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  origin = `${tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;

  if (opts.device) {
    device = createDevice(opts.device, opts.trackingBaseUrl!, log);
  }
  ctx = {
    origin,
    mode,
    state,
    behaviours,
    random: seededRandom(opts.seed),
    sinkSampleEvery,
    maxVapidTtlSec: opts.maxVapidTtlSec ?? 86_400,
    apple: opts.apple ?? false,
    device,
    delays,
    latencyMs,
    queue: capacityPerSecond === undefined ? undefined : new ServiceQueue(capacityPerSecond),
    vapidCache: new VapidCache(),
    sinkSeen: { count: 0 },
  };

  let closed: Promise<void> | undefined;
  simulator = {
    origin,
    mode,
    caCertPem: certificates?.caCertPem ?? '',
    caCertFile: certificates?.caCertFile ?? '',
    createSubscription: (applicationServerKey) => state.issue(origin, applicationServerKey),
    expireSubscription(id) {
      const record = state.subscriptions.get(id);
      if (!record) return false;
      record.expired = true;
      return true;
    },
    received: (subscriptionId) => state.received(subscriptionId),
    stats(): SimulatorStats {
      const c = state.counters;
      return {
        ...c,
        rejected: { total: c.rejected.total, byReason: { ...c.rejected.byReason } },
        byStatus: { ...c.byStatus },
        resets: { ...c.resets },
        vapid: { ...c.vapid },
        connections,
        http2Sessions,
        device: device?.stats() ?? { impressionsSent: 0, clicksSent: 0, errors: 0, dropped: 0 },
      };
    },
    setBehaviour: (b) => behaviours.add(b),
    clearBehaviours: () => behaviours.clear(),
    reset() {
      state.forget();
      device?.resetStats();
      ctx!.vapidCache.clear();
      ctx!.sinkSeen.count = 0;
      connections = 0;
      http2Sessions = 0;
    },
    whenDeviceIdle: (timeoutMs = 10_000) => device?.whenIdle(timeoutMs) ?? Promise.resolve(),
    close() {
      closed ??= (async () => {
        delays.close();
        device?.stop();
        behaviours.clear();
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const session of sessions) session.destroy();
        for (const socket of sockets) socket.destroy();
        await stopped;
        await certificates?.remove();
      })();
      return closed;
    },
  };
  log('push simulator listening', { origin, mode, tls, latencyMs, capacityPerSecond: capacityPerSecond ?? 'unlimited', maxConcurrentStreams: maxConcurrentStreams ?? 'default' });
  return simulator;
}
