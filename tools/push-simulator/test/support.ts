// Test helpers: a real application server (web-push) and a raw client for hand-made requests.
import { createPrivateKey, sign } from 'node:crypto';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import webpush from 'web-push';
import { startPushSimulator, type PushSimulator, type SimulatedSubscription } from '../src/index.js';

export interface AppServer {
  publicKey: string;
  privateKey: string;
  subject: string;
}

export function newAppServer(subject = 'mailto:ops@example.test'): AppServer {
  const keys = webpush.generateVAPIDKeys();
  return { publicKey: keys.publicKey, privateKey: keys.privateKey, subject };
}

export function agentFor(sim: PushSimulator): https.Agent {
  return new https.Agent({ ca: sim.caCertPem, keepAlive: true, maxSockets: 8 });
}

export function pushOptions(app: AppServer, agent: https.Agent, extra: Partial<webpush.RequestOptions> = {}): webpush.RequestOptions {
  return {
    vapidDetails: { subject: app.subject, publicKey: app.publicKey, privateKey: app.privateKey },
    TTL: 60,
    agent,
    timeout: 10_000,
    ...extra,
  };
}

/** Signs a VAPID JWT with any claims, so tests can forge what web-push refuses to make. */
export function vapidJwt(app: AppServer, claims: Record<string, unknown>, header: Record<string, unknown> = { typ: 'JWT', alg: 'ES256' }): string {
  const pub = Buffer.from(app.publicKey, 'base64url');
  const key = createPrivateKey({
    key: {
      kty: 'EC', crv: 'P-256', d: app.privateKey,
      x: pub.subarray(1, 33).toString('base64url'), y: pub.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const unsigned = `${b64json(header)}.${b64json(claims)}`;
  const signature = sign('sha256', Buffer.from(unsigned), { key, dsaEncoding: 'ieee-p1363' });
  return `${unsigned}.${signature.toString('base64url')}`;
}

function b64json(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** Where a simulator is and which CA to trust; a PushSimulator or a separate process's announcement. */
export type Trust = Pick<PushSimulator, 'origin' | 'caCertPem'>;

export interface RawRequest {
  headers: Record<string, string | number>;
  body: Buffer;
}

/** What web-push would send, as editable headers and body. */
export function webPushRequest(sub: SimulatedSubscription, payload: string, app: AppServer, extra: Partial<webpush.RequestOptions> = {}): RawRequest {
  const details = webpush.generateRequestDetails(sub, payload, {
    vapidDetails: { subject: app.subject, publicKey: app.publicKey, privateKey: app.privateKey }, TTL: 60, ...extra,
  });
  return { headers: { ...(details.headers as Record<string, string | number>) }, body: details.body as Buffer };
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export function postRaw(url: string, request: RawRequest, sim: Trust): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const options = { method: 'POST', headers: request.headers, timeout: 10_000 };
    const onResponse = (res: http.IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    };
    const req = target.protocol === 'https:'
      ? https.request(target, { ...options, ca: sim.caCertPem, agent: false }, onResponse)
      : http.request(target, { ...options, agent: false }, onResponse);
    req.on('timeout', () => req.destroy(new Error('test request timed out')));
    req.on('error', reject);
    req.end(request.body);
  });
}

export async function controlJson(sim: Trust, method: string, path: string, body?: unknown): Promise<RawResponse> {
  return postLike(sim, method, path, body === undefined ? undefined : Buffer.from(JSON.stringify(body)));
}

function postLike(sim: Trust, method: string, path: string, body: Buffer | undefined): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const target = new URL(path, sim.origin);
    const headers: Record<string, string | number> = body ? { 'content-type': 'application/json', 'content-length': body.length } : {};
    const onResponse = (res: http.IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    };
    const req = target.protocol === 'https:'
      ? https.request(target, { method, headers, ca: sim.caCertPem, agent: false, timeout: 10_000 }, onResponse)
      : http.request(target, { method, headers, agent: false, timeout: 10_000 }, onResponse);
    req.on('timeout', () => req.destroy(new Error('test request timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

export interface H2Answer {
  status: number;
  /** milliseconds from the request to its answer */
  ms: number;
}

/** One push as its own stream on `session`, like the delivery service sends them. */
export function h2Push(session: http2.ClientHttp2Session, sub: SimulatedSubscription, payload: string, app: AppServer): Promise<H2Answer> {
  return new Promise((resolve, reject) => {
    const { headers, body } = webPushRequest(sub, payload, app);
    const h2headers: http2.OutgoingHttpHeaders = { ':method': 'POST', ':path': new URL(sub.endpoint).pathname };
    for (const [name, value] of Object.entries(headers)) h2headers[name.toLowerCase()] = value;
    const started = performance.now();
    const stream = session.request(h2headers);
    let status = 0;
    let ms = 0;
    stream.on('response', (h) => {
      status = Number(h[':status']);
      ms = performance.now() - started;
    });
    stream.on('error', reject);
    stream.on('close', () => (status ? resolve({ status, ms }) : reject(new Error(`stream closed with code ${stream.rstCode}`))));
    stream.resume();
    stream.end(body);
  });
}

/** A new HTTP/2 session and the SETTINGS the server sends on it (listened for before they can arrive). */
export function connectH2(sim: Trust): { session: http2.ClientHttp2Session; settings: Promise<http2.Settings> } {
  const session = http2.connect(sim.origin, { ca: sim.caCertPem });
  const settings = new Promise<http2.Settings>((resolve, reject) => {
    session.once('remoteSettings', resolve);
    session.once('error', reject);
  });
  session.on('error', () => {});
  return { session, settings };
}

export function closeH2(session: http2.ClientHttp2Session): Promise<void> {
  if (session.closed || session.destroyed) return Promise.resolve();
  return new Promise((resolve) => session.close(() => resolve()));
}

/** Starts simulators for the tests of a describe block and closes them after each test (call it in the block). */
export function simulatorsPerTest(): (opts: Parameters<typeof startPushSimulator>[0]) => Promise<PushSimulator> {
  const sims: PushSimulator[] = [];
  afterEach(async () => {
    await Promise.all(sims.splice(0).map((s) => s.close()));
  });
  return async (opts) => {
    const sim = await startPushSimulator(opts);
    sims.push(sim);
    return sim;
  };
}
