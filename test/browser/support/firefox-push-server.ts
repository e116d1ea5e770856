// Firefox's push service, as far as the browser suite needs it: the WebSocket protocol of Mozilla's
// autopush that Firefox speaks when `dom.push.serverURL` points here (hello / register /
// unregister / notification / ack / ping), and the push endpoints it hands out, where the
// delivery service POSTs its pushes. It checks each push as a push service would (the VAPID JWT
// signed with the subscription's application server key, aud = this origin, aes128gcm with a TTL)
// and forwards the body to Firefox STILL ENCRYPTED: this server holds no subscription keys and
// never decrypts. Firefox decrypts, runs the site's service worker, and acks each message with a
// code: 100 delivered, 101 decryption error, 102 not delivered.
//
// What the tests steer: `tamperNext()` flips one byte of the next push on its way (Firefox must
// refuse it), and `rotateUaid()` drops Firefox's connection and greets the reconnect with a new
// UAID, which makes Firefox drop every subscription and fire `pushsubscriptionchange` (as
// autopush does when it loses a client's record).
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { checkVapidClaims, parseVapidAuthorization, verifyVapidSignature, VapidError } from '../../../tools/push-simulator/src/vapid.js';

/** What Firefox said of one forwarded push. */
export type AckCode = 100 | 101 | 102;

export interface ForwardedPush {
  channelID: string;
  version: string;
  /** The encrypted body as it left this server (after any tampering). */
  bytes: number;
  tampered: boolean;
  /** The push's RFC 8030 Urgency header, as received (undefined: none, which means normal). */
  urgency: string | undefined;
  /** Firefox's ack code, once it has answered. */
  ack?: AckCode;
}

/** A push this server refused before forwarding, with the status it answered. */
export interface RefusedPush {
  channelID: string;
  status: number;
  reason: string;
}

export interface FirefoxPushServer {
  /** For `dom.push.serverURL`. */
  readonly url: string;
  /** Where push endpoints live (http on 127.0.0.1: the stack lists it in PUSH_TEST_HOSTS). */
  readonly origin: string;
  /** Subscriptions Firefox registered and has not unregistered (the key is base64url, unpadded). */
  subscriptions(): { endpoint: string; applicationServerKey: string | undefined }[];
  forwarded(): ForwardedPush[];
  refused(): RefusedPush[];
  /** Unregister requests Firefox sent, by channel. */
  unregistered(): string[];
  /** Firefox's current UAID, once it said hello. */
  uaid(): string | undefined;
  /** Flip one byte of the ciphertext of the next push received. */
  tamperNext(): void;
  /** Close Firefox's connection; its next hello gets a new UAID. Resolves when Firefox is back. */
  rotateUaid(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/** Bounds so that a misbehaving client cannot grow this server without limit. */
const MAX_BODY = 4096;
const MAX_WS_MESSAGE = 64 * 1024;

interface Channel {
  key: string | undefined;
  live: boolean;
}

export async function startFirefoxPushServer(): Promise<FirefoxPushServer> {
  const channels = new Map<string, Channel>();
  const forwarded: ForwardedPush[] = [];
  const refused: RefusedPush[] = [];
  const unregistered: string[] = [];
  /** Pushes waiting for Firefox to be connected (autopush stores them the same way). */
  const pending: { channelID: string; version: string; data: string }[] = [];
  let client: WebSocket | undefined;
  let currentUaid: string | undefined;
  let rotate = false;
  let tamper = false;
  let helloWaiters: (() => void)[] = [];

  const server = http.createServer((req, res) => {
    const match = /^\/wpush\/([0-9a-f-]{36})$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !match) return void res.writeHead(404).end();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => {
      const channelID = match[1];
      const refuse = (status: number, reason: string) => {
        refused.push({ channelID, status, reason });
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify({ code: status, errno: 0, error: reason }));
      };
      const channel = channels.get(channelID);
      if (!channel?.live) return refuse(410, 'subscription is gone');
      if (size > MAX_BODY) return refuse(413, 'payload too large');
      if ((req.headers['content-encoding'] ?? '').toLowerCase() !== 'aes128gcm') return refuse(400, 'Content-Encoding must be aes128gcm');
      if (!/^\d+$/.test(String(req.headers.ttl ?? ''))) return refuse(400, 'TTL header is required');
      // Autopush refuses an Urgency other than RFC 8030's four.
      const urgency = req.headers.urgency as string | undefined;
      if (urgency !== undefined && !['very-low', 'low', 'normal', 'high'].includes(urgency)) return refuse(400, 'invalid Urgency header');
      try {
        const credentials = parseVapidAuthorization(req.headers.authorization, req.headers['crypto-key'] as string | undefined);
        const claims = verifyVapidSignature(credentials);
        checkVapidClaims(credentials.key, claims, {
          origin,
          applicationServerKey: channel.key,
          nowSec: Math.floor(Date.now() / 1000),
          maxTtlSec: 24 * 3600,
        });
      } catch (err) {
        if (err instanceof VapidError) return refuse(err.status, err.reason);
        throw err;
      }
      const body = Buffer.concat(chunks);
      const tampered = tamper;
      if (tamper) {
        tamper = false;
        // The last byte is inside the AEAD tag: any flipped bit fails authentication.
        body[body.length - 1] ^= 0x01;
      }
      const version = randomUUID();
      forwarded.push({ channelID, version, bytes: body.length, tampered, urgency });
      pending.push({ channelID, version, data: body.toString('base64url') });
      flush();
      res.writeHead(201, { Location: `${origin}/m/${version}`, TTL: req.headers.ttl ?? '0' }).end();
    });
  });

  function send(ws: WebSocket, message: unknown) {
    ws.send(JSON.stringify(message));
  }

  function flush() {
    if (!client || !currentUaid) return;
    for (const p of pending.splice(0)) {
      send(client, { messageType: 'notification', channelID: p.channelID, version: p.version, data: p.data, headers: { encoding: 'aes128gcm' } });
    }
  }

  const wss = new WebSocketServer({ server, maxPayload: MAX_WS_MESSAGE });
  wss.on('connection', (ws) => {
    ws.on('message', (raw) => {
      let msg: any;
      try {
        msg = JSON.parse(String(raw));
      } catch {
        return void ws.close(4000, 'not JSON');
      }
      if (msg === null || typeof msg !== 'object') return void ws.close(4000, 'not an object');
      if (msg.messageType === undefined) return void send(ws, {}); // a ping
      switch (msg.messageType) {
        case 'hello': {
          const known = typeof msg.uaid === 'string' && msg.uaid === currentUaid;
          if (!known || rotate) {
            // A new UAID: Firefox drops what it had; so do we.
            for (const channel of channels.values()) channel.live = false;
            currentUaid = randomUUID().replace(/-/g, '');
            rotate = false;
          }
          client = ws;
          send(ws, { messageType: 'hello', status: 200, uaid: currentUaid, use_webpush: true, broadcasts: {} });
          flush();
          for (const resolve of helloWaiters.splice(0)) resolve();
          return;
        }
        case 'register': {
          if (typeof msg.channelID !== 'string' || !/^[0-9a-f-]{36}$/.test(msg.channelID)) {
            return void send(ws, { messageType: 'register', channelID: msg.channelID, status: 400 });
          }
          // Firefox sends the application server key base64url WITH padding.
          const key = typeof msg.key === 'string' ? Buffer.from(msg.key, 'base64url').toString('base64url') : undefined;
          channels.set(msg.channelID, { key, live: true });
          return void send(ws, { messageType: 'register', channelID: msg.channelID, status: 200, pushEndpoint: `${origin}/wpush/${msg.channelID}` });
        }
        case 'unregister': {
          const channel = channels.get(msg.channelID);
          if (channel) channel.live = false;
          unregistered.push(String(msg.channelID));
          return void send(ws, { messageType: 'unregister', channelID: msg.channelID, status: 200 });
        }
        case 'ack': {
          for (const update of Array.isArray(msg.updates) ? msg.updates : []) {
            const push = forwarded.find((f) => f.version === update?.version && f.channelID === update?.channelID);
            if (push && (update.code === 100 || update.code === 101 || update.code === 102)) push.ack = update.code;
          }
          return;
        }
        default:
          // nack, broadcast_subscribe: nothing this server needs to act on.
          return;
      }
    });
    ws.on('close', () => {
      if (client === ws) client = undefined;
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  return {
    url: `ws://127.0.0.1:${port}/`,
    origin,
    subscriptions: () => [...channels].filter(([, c]) => c.live).map(([id, c]) => ({ endpoint: `${origin}/wpush/${id}`, applicationServerKey: c.key })),
    forwarded: () => forwarded.map((f) => ({ ...f })),
    refused: () => [...refused],
    unregistered: () => [...unregistered],
    uaid: () => currentUaid,
    tamperNext() {
      tamper = true;
    },
    async rotateUaid(timeoutMs) {
      rotate = true;
      const back = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`Firefox did not reconnect to the push server within ${timeoutMs} ms`)), timeoutMs);
        helloWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      client?.terminate();
      await back;
    },
    async close() {
      helloWaiters = [];
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
