// The HTTP stage of outgoing webhooks (docs/webhooks.md): one signed POST of one event to one
// customer endpoint, turned into an attempt record whatever happens. The endpoint URL is the
// customer's, so every request is an SSRF risk; the rules (https, public addresses checked in the
// connection's own lookup, verified certificates, test hosts) are those every request to a
// customer's URL keeps, in @webpush/push/outbound.ts. Here: redirects are not followed, at most
// maxResponseBytes of an answer are read, and one deadline covers the whole attempt (queueing for
// a socket, connect, TLS, the answer and reading it).
import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { clipError as clip, createOutboundAgents, describeConnectionError as describeError, outboundUrlProblem, type Resolver } from '@webpush/push/outbound.js';

export type { Resolver };

export interface WebhookPost {
  url: string;
  body: string;
  eventId: string;
  eventType: string;
  /** current secret first; during a rotation also the previous one */
  secrets: readonly string[];
}

export interface WebhookAttempt {
  ok: boolean;
  /** HTTP status, null when none came */
  status: number | null;
  latencyMs: number;
  /**
   * null when ok; a short English reason otherwise, e.g. 'HTTP 500', 'redirect (302) not
   * followed', 'timed out after 10000 ms', 'refused: hooks.example resolves to 10.0.0.1
   * (private)', 'connection refused', 'certificate: <code>' (at most 300 chars)
   */
  error: string | null;
}

export interface WebhookSenderOptions {
  /** WEBHOOK_TEST_HOSTS: exact host names or IP literals as URLs write them (`127.0.0.1`, `[::1]`, `localhost`). */
  testHosts?: readonly string[];
  /** Extra trusted CA certificate(s), PEM, added to Node's root store. */
  ca?: string;
  /** Default: dns.lookup. Tests stand in a fake DNS. */
  resolve?: Resolver;
  /** Deadline for a whole attempt, connect included. Default 10000. */
  timeoutMs?: number;
  /** Answer body bytes read (and ignored) before the connection is cut. Default 65536. */
  maxResponseBytes?: number;
  /** Default 'webpush-campaigns-webhooks/1'. */
  userAgent?: string;
  /** Wall clock in ms since the epoch, for the signature's timestamp. Default Date.now. */
  now?: () => number;
}

export interface WebhookSender {
  /** Never rejects: every failure is an attempt with ok=false. */
  send(post: WebhookPost): Promise<WebhookAttempt>;
  /** Destroys every socket; attempts in flight end as failures, later ones fail at once. */
  close(): void;
}

/** Kept-alive sockets per receiver host: a few attempts to one endpoint may overlap, not more. */
const SOCKETS_PER_HOST = 4;
/** An idle kept-alive socket is closed after this long (the agent's socket timeout). */
const IDLE_SOCKET_MS = 60_000;

/**
 * `Webhook-Signature`: `t=<ts>,v1=<hex>[,v1=<hex>]`, one HMAC-SHA256 of `${ts}.${body}` per
 * secret (the key is the secret's UTF-8 bytes, exactly as shown to the customer).
 */
export function signatureHeader(secrets: readonly string[], timestampSec: number, body: string): string {
  if (secrets.length === 0) throw new RangeError('no secret to sign with');
  if (!Number.isSafeInteger(timestampSec) || timestampSec < 0) throw new RangeError('timestampSec must be a non-negative integer');
  const signed = `${timestampSec}.${body}`;
  return [`t=${timestampSec}`, ...secrets.map((secret) => `v1=${createHmac('sha256', secret).update(signed).digest('hex')}`)].join(',');
}

export function createWebhookSender(opts: WebhookSenderOptions = {}): WebhookSender {
  const testHosts = opts.testHosts ?? [];
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const maxResponseBytes = opts.maxResponseBytes ?? 64 * 1024;
  const userAgent = opts.userAgent ?? 'webpush-campaigns-webhooks/1';
  const now = opts.now ?? Date.now;
  if (!(timeoutMs > 0)) throw new RangeError('timeoutMs must be positive');
  if (!Number.isInteger(maxResponseBytes) || maxResponseBytes < 0) throw new RangeError('maxResponseBytes must be a non-negative integer');
  const agents = createOutboundAgents({ socketsPerHost: SOCKETS_PER_HOST, idleSocketMs: Math.max(IDLE_SOCKET_MS, timeoutMs), ca: opts.ca, testHosts, resolve: opts.resolve });
  /** Ends an attempt in flight: for close(). */
  const inFlight = new Set<() => void>();
  let closed = false;

  function attempt(url: URL, post: WebhookPost): Promise<WebhookAttempt> {
    return new Promise((resolve) => {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      const body = Buffer.from(post.body, 'utf8');
      let req: http.ClientRequest;
      try {
        req = (url.protocol === 'http:' ? http : https).request(url, {
          method: 'POST',
          agent: url.protocol === 'http:' ? agents.http : agents.https,
          lookup: agents.lookupFor(url),
          headers: {
            'Content-Type': 'application/json',
            'Content-Length': body.length,
            'User-Agent': userAgent,
            'Webhook-Id': post.eventId,
            'Webhook-Event': post.eventType,
            'Webhook-Signature': signatureHeader(post.secrets, Math.floor(now() / 1000), post.body),
          },
        });
      } catch (err) {
        // No secret, or a header value Node refuses (a line break in an event id): a failed
        // attempt too, not an exception. Nothing was sent.
        return resolve({ ok: false, status: null, latencyMs: 0, error: clip(`invalid request: ${(err as Error).message}`) });
      }
      // Set once the answer's headers are in: from then on the attempt is judged by the status
      // alone, however reading the (ignored) body ends.
      let answered: WebhookAttempt | undefined;
      let settled = false;
      const settle = (outcome: WebhookAttempt) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        inFlight.delete(abort);
        resolve(outcome);
      };
      const fail = (error: string) => settle(answered ?? { ok: false, status: null, latencyMs: elapsed(), error: clip(error) });
      const timer = setTimeout(() => {
        fail(`timed out after ${timeoutMs} ms`);
        req.destroy();
      }, timeoutMs);
      const abort = () => {
        fail('sender closed');
        req.destroy();
      };
      inFlight.add(abort);
      req.on('error', (err) => fail(describeError(err, url.hostname)));
      // Without an error first: the connection ended with no answer Node hands over (a 101
      // Switching Protocols, which nobody here takes up).
      req.on('close', () => {
        if (!answered) fail('connection closed without an answer');
      });
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        answered = { ok: status >= 200 && status < 300, status, latencyMs: elapsed(), error: statusError(status) };
        // The body is read and dropped (a fully read one lets the socket be kept alive); past
        // the cap the connection is cut, so an answer that never ends cannot hold a socket.
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= maxResponseBytes) return;
          settle(answered!);
          res.destroy();
        });
        // 'close' follows the end of the body, an error and a destroy alike; the 'error'
        // listener is there so that no error of the answer is ever thrown.
        res.on('close', () => settle(answered!));
        res.on('error', () => settle(answered!));
      });
      req.end(body);
    });
  }

  return {
    async send(post) {
      if (closed) return { ok: false, status: null, latencyMs: 0, error: 'sender closed' };
      const problem = outboundUrlProblem(post.url, testHosts);
      if (problem !== null) return { ok: false, status: null, latencyMs: 0, error: clip(`refused: ${problem}`) };
      return attempt(new URL(post.url), post);
    },
    close() {
      closed = true;
      for (const abort of [...inFlight]) abort();
      agents.destroy();
    },
  };
}

function statusError(status: number): string | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) return `redirect (${status}) not followed`;
  return `HTTP ${status}`;
}
