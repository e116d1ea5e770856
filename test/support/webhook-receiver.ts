// A customer's webhook receiver, for the tests: an HTTPS server on 127.0.0.1 (a throwaway
// self-signed certificate, whose PEM file the delivery service is told to trust) that checks
// every request's signature the way docs/webhooks.md tells customers to, keeps what it got, and
// answers as the test tells it (200, an error status, or never).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { testCertificate } from '../../packages/push/test/support/tls.js';

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  event: { id: string; type: string; createdAt: string; data: any };
  /** The signature checked with the docs' code against the receiver's secrets. */
  verified: boolean;
  /** 1 for the first request carrying this event id to this path, 2 for its repeat… (one event goes to every endpoint that wants it, with one id) */
  seen: number;
}

/** What to answer: a status, or 'hang' (never answer: the sender's timeout ends it). */
export type Answer = number | 'hang';

export interface WebhookReceiver {
  /** https://127.0.0.1:<port> */
  url: string;
  port: number;
  /** The PEM file to give as WEBHOOK_EXTRA_CA_FILE. */
  caFile: string;
  /** Secrets a request may be signed with (any one verifying is enough, as during a rotation). */
  secrets: string[];
  received: ReceivedWebhook[];
  /** Decides each answer; default 200. */
  answer: (w: ReceivedWebhook) => Answer;
  /** Distinct (path, event id) received (a repeat counts once), keyed "<path> <id>". */
  distinct(): Map<string, ReceivedWebhook>;
  close(): Promise<void>;
}

/** docs/webhooks.md's verification, line for line (the timestamp window included). */
export function verifiedByDocsCode(header: string | undefined, rawBody: string, secret: string): boolean {
  if (typeof header !== 'string') return false;
  const [t, ...sigs] = header.split(',');
  const ts = t.slice(2), expected = createHmac('sha256', secret).update(`${ts}.${rawBody}`).digest('hex');
  const valid = sigs.some((s) => s.length === expected.length + 3 && timingSafeEqual(Buffer.from(s.slice(3)), Buffer.from(expected)));
  return valid && Math.abs(Date.now() / 1000 - Number(ts)) <= 300;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const { key, cert } = testCertificate();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'webhook-receiver-'));
  const caFile = path.join(dir, 'ca.pem');
  writeFileSync(caFile, cert);
  const sockets = new Set<Socket>();
  const counts = new Map<string, number>();

  const receiver: WebhookReceiver = {
    url: '',
    port: 0,
    caFile,
    secrets: [],
    received: [],
    answer: () => 200,
    distinct() {
      const byId = new Map<string, ReceivedWebhook>();
      for (const w of receiver.received) if (!byId.has(`${w.path} ${w.event.id}`)) byId.set(`${w.path} ${w.event.id}`, w);
      return byId;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };

  const server = https.createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= 4 * 1024 * 1024) chunks.push(c);
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let event: ReceivedWebhook['event'];
      try {
        event = JSON.parse(body);
      } catch {
        res.writeHead(400).end();
        return;
      }
      const key = `${req.url} ${event.id}`;
      const seen = (counts.get(key) ?? 0) + 1;
      counts.set(key, seen);
      const signature = req.headers['webhook-signature'] as string | undefined;
      const w: ReceivedWebhook = {
        path: req.url ?? '',
        headers: req.headers,
        body,
        event,
        verified: receiver.secrets.some((s) => verifiedByDocsCode(signature, body, s)),
        seen,
      };
      receiver.received.push(w);
      const answer = receiver.answer(w);
      if (answer === 'hang') return; // the socket is destroyed by the sender's timeout, or by close()
      res.writeHead(answer, { 'Content-Type': 'text/plain' }).end(answer < 300 ? 'ok' : 'no');
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `https://127.0.0.1:${receiver.port}`;
  return receiver;
}
