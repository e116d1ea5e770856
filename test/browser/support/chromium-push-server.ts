// Chromium's push service, as far as the browser suite needs it: a local FCM. Chromium's GCM
// client takes its three servers from command-line switches (google_apis/gcm/engine/
// gservices_settings.cc: --gcm-checkin-url, --gcm-registration-url, --gcm-mcs-endpoint), and
// this server is all three:
// - checkin (protobuf over HTTPS): hands the browser profile an Android id and security token;
// - registration (a form POST answered `token=…`): pushManager.subscribe() with a VAPID key is
//   an Instance ID token request (`sender` = the key, base64url; `X-subtype` = Chromium's app id
//   for the service worker); Chromium builds the subscription endpoint from the token itself
//   (chrome/browser/push_messaging/push_messaging_utils.cc: https://fcm.googleapis.com/fcm/send/
//   or, on a build whose channel is not stable such as Debian's, https://jmt17.google.com/fcm/send/);
// - MCS (a TLS socket of length-prefixed protobuf stanzas, version 41): login with that id and
//   token, heartbeats, and the data messages carrying each push.
// Its HTTPS server also answers as the FCM hosts those endpoints name (the delivery service is
// routed here: PUSH_TEST_ROUTES), and checks each push as FCM would: the VAPID JWT signed with
// the subscription's application server key, aud = the endpoint's origin, aes128gcm with a TTL,
// RFC 8030's Urgency. It forwards the body to Chromium STILL ENCRYPTED, as the data message's
// raw_data with `content-encoding: aes128gcm` (what Chromium's GCMEncryptionProvider decrypts):
// this server holds no subscription keys and never decrypts.
//
// What the tests steer: `tamperNext()` flips one byte of the next push on its way (Chromium must
// refuse it).
import { randomBytes, randomInt, createHash, X509Certificate } from 'node:crypto';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { makeCertificates } from '../../../tools/push-simulator/src/certificates.js';
import { checkVapidClaims, parseVapidAuthorization, verifyVapidSignature, VapidError } from '../../../tools/push-simulator/src/vapid.js';

/** The hosts Chromium builds FCM endpoints on (push_messaging_constants.cc). */
export const FCM_HOSTS = ['fcm.googleapis.com', 'jmt17.google.com'] as const;
/** Endpoint paths under those hosts: the GCM path and the Web Push path. */
const ENDPOINT_PATH = /^\/(?:fcm\/send|wp)\/([A-Za-z0-9_:-]{1,300})$/;
/** MCS protocol version Chromium speaks and expects back (connection_handler_impl.cc). */
const MCS_VERSION = 41;
const TAG = { heartbeatPing: 0, heartbeatAck: 1, loginRequest: 2, loginResponse: 3, close: 4, dataMessage: 8 } as const;
/** Bounds so that a misbehaving client cannot grow this server without limit. */
const MAX_BODY = 4096;
const MAX_STANZA = 64 * 1024;

export interface ChromiumSubscription {
  endpointPath: string;
  /** The VAPID key the page subscribed with (base64url, unpadded, as Chromium sends it). */
  applicationServerKey: string;
  /** Chromium's app id for the service worker registration (`X-subtype`). */
  appId: string;
  live: boolean;
}

/** What happened to one push this server took. */
export interface ForwardedPush {
  token: string;
  /** The data message's persistent id. */
  persistentId: string;
  /** The encrypted body as it left this server (after any tampering). */
  bytes: number;
  tampered: boolean;
  /** RFC 8030 headers as received (undefined: none; Urgency then means normal). */
  urgency: string | undefined;
  ttl: number;
  /** Written to Chromium's MCS connection. */
  sent: boolean;
}

export interface RefusedPush {
  path: string;
  status: number;
  reason: string;
}

export interface ChromiumPushServer {
  /** Chromium's switches: its GCM client's servers are this one, and only this server's certificate is trusted besides the usual roots. */
  readonly chromiumArgs: readonly string[];
  /** PUSH_TEST_ROUTES for the delivery service: the FCM hosts, routed to this server. */
  readonly deliveryRoutes: string;
  /** PUSH_EXTRA_CA_FILE for the delivery service: the CA of this server's certificate. */
  readonly caCertFile: string;
  /** Checkins answered (a profile checks in once, then on its interval). */
  checkins(): number;
  /** Whether Chromium is logged in on MCS now. */
  connected(): boolean;
  subscriptions(): ChromiumSubscription[];
  forwarded(): ForwardedPush[];
  refused(): RefusedPush[];
  /** Flip one byte of the ciphertext of the next push received. */
  tamperNext(): void;
  close(): Promise<void>;
}

// keepCase: the field names as Chromium's .proto files write them.
const schema = new protobuf.Root().loadSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'chromium-gcm.proto'), { keepCase: true });
const type = (name: string) => schema.lookupType(`chromium_gcm.${name}`);
const Checkin = { request: type('AndroidCheckinRequest'), response: type('AndroidCheckinResponse') };
const Mcs = {
  heartbeatAck: type('HeartbeatAck'),
  loginRequest: type('LoginRequest'),
  loginResponse: type('LoginResponse'),
  dataMessage: type('DataMessageStanza'),
};
const asObject = (t: protobuf.Type, message: protobuf.Message) => t.toObject(message, { longs: String, bytes: Buffer }) as Record<string, any>;

/** One stanza on the wire: tag, varint length, message (Chromium's ConnectionHandlerImpl framing). */
function frame(tag: number, t: protobuf.Type, fields: Record<string, unknown>): Buffer {
  const body = t.encode(t.fromObject(fields)).finish();
  const length = protobuf.Writer.create().uint32(body.length).finish();
  return Buffer.concat([Buffer.from([tag]), length, body]);
}

interface Device {
  securityToken: string;
}

export async function startChromiumPushServer(): Promise<ChromiumPushServer> {
  const certificates = await makeCertificates(FCM_HOSTS);
  // Chromium trusts exactly this leaf, by the hash of its public key (the switch is honoured
  // with --user-data-dir, which every test profile has): no CA is added to any trust store.
  const spki = createHash('sha256').update(new X509Certificate(certificates.certPem).publicKey.export({ type: 'spki', format: 'der' })).digest('base64');
  const devices = new Map<string, Device>();
  /** By token. */
  const subscriptions = new Map<string, ChromiumSubscription>();
  const forwarded: ForwardedPush[] = [];
  const refused: RefusedPush[] = [];
  /** Data messages waiting for Chromium to be logged in (FCM stores them the same way). */
  const pending: { push: ForwardedPush; stanza: Buffer }[] = [];
  let mcsClient: tls.TLSSocket | undefined;
  let checkins = 0;
  let tamper = false;

  const readBody = (req: http2.Http2ServerRequest, limit: number) =>
    new Promise<Buffer | null>((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= limit) chunks.push(chunk);
      });
      req.on('end', () => resolve(size > limit ? null : Buffer.concat(chunks)));
      req.on('error', () => resolve(null));
    });

  /** The device an `Authorization: AidLogin <android id>:<security token>` header names, if this server issued it. */
  const deviceOf = (authorization: string | undefined): string | undefined => {
    const m = /^AidLogin (\d+):(\d+)$/.exec(authorization ?? '');
    return m && devices.get(m[1])?.securityToken === m[2] ? m[1] : undefined;
  };

  function checkin(body: Buffer, res: http2.Http2ServerResponse) {
    let request: Record<string, any>;
    try {
      request = asObject(Checkin.request, Checkin.request.decode(body));
    } catch {
      return void res.writeHead(400).end();
    }
    // A known device checks in again with its id and token; anything else gets a new one.
    const known = devices.has(request.id) && devices.get(request.id)!.securityToken === request.security_token;
    const androidId = known ? (request.id as string) : String(randomInt(1, 2 ** 47));
    if (!known) devices.set(androidId, { securityToken: String(randomInt(1, 2 ** 47)) });
    checkins += 1;
    const response = Checkin.response.encode(
      Checkin.response.fromObject({ stats_ok: true, time_msec: Date.now(), settings_diff: false, android_id: androidId, security_token: devices.get(androidId)!.securityToken }),
    ).finish();
    res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end(Buffer.from(response));
  }

  function register(req: http2.Http2ServerRequest, body: Buffer, res: http2.Http2ServerResponse) {
    const device = deviceOf(req.headers.authorization);
    if (!device) return void res.writeHead(401).end('Error=AUTHENTICATION_FAILED');
    const form = new URLSearchParams(body.toString('utf8'));
    const sender = form.get('sender') ?? '';
    const appId = form.get('X-subtype') ?? form.get('app') ?? '';
    if (sender === '' || appId === '') return void res.writeHead(200).end('Error=INVALID_PARAMETERS');
    if (form.get('delete') === 'true') {
      // pushManager unsubscribe() deletes the worker's Instance ID: every token of the app (sender `*`).
      for (const sub of subscriptions.values()) if (sub.appId === appId && (sender === '*' || sub.applicationServerKey === sender)) sub.live = false;
      return void res.writeHead(200).end(`token=${form.get('appid') ?? ''}`);
    }
    // Chromium registers for its own features too (a numeric GCM sender id); only a web push
    // subscription (a P-256 public key as sender) becomes an endpoint of this server.
    const token = `${form.get('appid') ?? 'x'}:APA91b${randomBytes(48).toString('base64url')}`;
    const key = Buffer.from(sender, 'base64url');
    if (key.length === 65 && key[0] === 0x04) {
      subscriptions.set(token, { endpointPath: `/fcm/send/${token}`, applicationServerKey: sender, appId, live: true });
    }
    res.writeHead(200).end(`token=${token}`);
  }

  function push(req: http2.Http2ServerRequest, token: string, body: Buffer | null, res: http2.Http2ServerResponse) {
    const refuse = (status: number, reason: string) => {
      refused.push({ path: req.url, status, reason });
      res.writeHead(status, { 'Content-Type': 'text/plain' }).end(reason);
    };
    const host = String(req.authority ?? req.headers.host ?? '').toLowerCase();
    const subscription = subscriptions.get(token);
    if (!subscription?.live) return refuse(404, 'subscription not found');
    if (body === null) return refuse(413, 'payload too large');
    if ((req.headers['content-encoding'] ?? '').toLowerCase() !== 'aes128gcm') return refuse(400, 'Content-Encoding must be aes128gcm');
    const ttl = String(req.headers.ttl ?? '');
    if (!/^\d+$/.test(ttl)) return refuse(400, 'TTL header is required');
    const urgency = req.headers.urgency as string | undefined;
    if (urgency !== undefined && !['very-low', 'low', 'normal', 'high'].includes(urgency)) return refuse(400, 'invalid Urgency header');
    try {
      const credentials = parseVapidAuthorization(req.headers.authorization, req.headers['crypto-key'] as string | undefined);
      checkVapidClaims(credentials.key, verifyVapidSignature(credentials), {
        origin: `https://${host}`,
        applicationServerKey: subscription.applicationServerKey,
        nowSec: Math.floor(Date.now() / 1000),
        maxTtlSec: 24 * 3600,
      });
    } catch (err) {
      if (err instanceof VapidError) return refuse(err.status, err.reason);
      throw err;
    }
    const tampered = tamper;
    if (tamper) {
      tamper = false;
      // The last byte is inside the AEAD tag: any flipped bit fails authentication.
      body[body.length - 1] ^= 0x01;
    }
    const persistentId = `0:${Date.now()}%${randomBytes(8).toString('hex')}`;
    const record: ForwardedPush = { token, persistentId, bytes: body.length, tampered, urgency, ttl: Number(ttl), sent: false };
    forwarded.push(record);
    // As FCM hands a Web Push message to Chromium: the app (Chromium's product category) with the
    // service worker's app id as subtype, the VAPID key as sender, the ciphertext as raw_data.
    const stanza = frame(TAG.dataMessage, Mcs.dataMessage, {
      id: persistentId,
      from: subscription.applicationServerKey,
      category: 'org.chromium.linux',
      app_data: [
        { key: 'subtype', value: subscription.appId },
        { key: 'content-encoding', value: 'aes128gcm' },
      ],
      persistent_id: persistentId,
      ttl: Number(ttl),
      sent: Math.floor(Date.now() / 1000),
      raw_data: body,
    });
    pending.push({ push: record, stanza });
    flush();
    res.writeHead(201, { Location: `https://${host}/fcm/send/${token}/m/${persistentId}` }).end();
  }

  function flush() {
    if (!mcsClient) return;
    for (const { push, stanza } of pending.splice(0)) {
      mcsClient.write(stanza);
      push.sent = true;
    }
  }

  const web = http2.createSecureServer({ key: certificates.keyPem, cert: certificates.certPem, allowHTTP1: true }, async (req, res) => {
    const host = String(req.authority ?? req.headers.host ?? '').toLowerCase();
    const endpoint = ENDPOINT_PATH.exec(req.url);
    if (req.method !== 'POST') return void res.writeHead(405).end();
    if ((FCM_HOSTS as readonly string[]).includes(host) && endpoint) return push(req, endpoint[1], await readBody(req, MAX_BODY), res);
    const body = await readBody(req, MAX_BODY);
    if (body === null) return void res.writeHead(413).end();
    if (req.url === '/checkin') return checkin(body, res);
    if (req.url === '/c2dm/register3') return register(req, body, res);
    res.writeHead(404).end();
  });

  // MCS: the first bytes from Chromium are the protocol version, then stanzas.
  const mcs = tls.createServer({ key: certificates.keyPem, cert: certificates.certPem }, (socket) => {
    let buffer = Buffer.alloc(0);
    let versionRead = false;
    let loggedIn = false;
    const drop = () => socket.destroy();
    socket.on('error', drop);
    socket.on('close', () => {
      if (mcsClient === socket) mcsClient = undefined;
    });
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (buffer.length > MAX_STANZA + 16) return drop();
      for (;;) {
        if (!versionRead) {
          if (buffer.length < 1) return;
          if (buffer[0] !== MCS_VERSION) return drop();
          versionRead = true;
          buffer = buffer.subarray(1);
        }
        if (buffer.length < 2) return;
        const reader = protobuf.Reader.create(buffer.subarray(1));
        let length: number;
        try {
          length = reader.uint32();
        } catch {
          return; // the length's varint is not complete yet
        }
        if (length > MAX_STANZA) return drop();
        const start = 1 + reader.pos;
        if (buffer.length < start + length) return;
        const tag = buffer[0];
        const message = buffer.subarray(start, start + length);
        buffer = buffer.subarray(start + length);
        try {
          stanza(tag, message);
        } catch {
          return drop();
        }
      }
    });

    function stanza(tag: number, message: Buffer) {
      if (!loggedIn && tag !== TAG.loginRequest) return drop();
      switch (tag) {
        case TAG.loginRequest: {
          const login = asObject(Mcs.loginRequest, Mcs.loginRequest.decode(message));
          // The MCS login is the checkin's id (user) and security token (auth_token).
          if (devices.get(login.user)?.securityToken !== login.auth_token) return drop();
          loggedIn = true;
          socket.write(Buffer.concat([Buffer.from([MCS_VERSION]), frame(TAG.loginResponse, Mcs.loginResponse, { id: login.id, stream_id: 1, last_stream_id_received: 1, server_timestamp: Date.now() })]));
          if (mcsClient && mcsClient !== socket) mcsClient.destroy();
          mcsClient = socket;
          flush();
          return;
        }
        case TAG.heartbeatPing:
          return void socket.write(frame(TAG.heartbeatAck, Mcs.heartbeatAck, {}));
        case TAG.close:
          return void socket.end();
        default:
          // Heartbeat acks, Chromium's acknowledgements (IqStanza, tag 7; Chromium sends them in
          // batches, not per message) and upstream messages: nothing this server acts on.
          return;
      }
    }
  });

  const mcsSockets = new Set<tls.TLSSocket>();
  mcs.on('secureConnection', (socket: tls.TLSSocket) => {
    mcsSockets.add(socket);
    socket.on('close', () => mcsSockets.delete(socket));
  });
  const webSessions = new Set<http2.ServerHttp2Session>();
  web.on('session', (session: http2.ServerHttp2Session) => {
    webSessions.add(session);
    session.on('close', () => webSessions.delete(session));
  });

  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => mcs.listen(0, '127.0.0.1', resolve));
  const webPort = (web.address() as AddressInfo).port;
  const mcsPort = (mcs.address() as AddressInfo).port;

  return {
    chromiumArgs: [
      `--gcm-checkin-url=https://127.0.0.1:${webPort}/checkin`,
      `--gcm-registration-url=https://127.0.0.1:${webPort}/c2dm/register3`,
      `--gcm-mcs-endpoint=https://127.0.0.1:${mcsPort}`,
      `--ignore-certificate-errors-spki-list=${spki}`,
    ],
    deliveryRoutes: FCM_HOSTS.map((host) => `${host}=127.0.0.1:${webPort}`).join(','),
    caCertFile: certificates.caCertFile,
    checkins: () => checkins,
    connected: () => mcsClient !== undefined,
    subscriptions: () => [...subscriptions.values()].map((s) => ({ ...s })),
    forwarded: () => forwarded.map((f) => ({ ...f })),
    refused: () => [...refused],
    tamperNext() {
      tamper = true;
    },
    async close() {
      mcsClient = undefined;
      // Open connections (Chromium's MCS socket, kept-alive sessions) would hold close() open.
      for (const socket of mcsSockets) socket.destroy();
      const mcsClosed = new Promise<void>((resolve) => mcs.close(() => resolve()));
      const webClosed = new Promise<void>((resolve) => web.close(() => resolve()));
      for (const session of webSessions) session.destroy();
      await Promise.all([mcsClosed, webClosed]);
      await certificates.remove();
    },
  };
}
