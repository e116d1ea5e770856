// The HTTP stage of outgoing webhooks (docs/webhooks.md): one signed POST of one event to one
// customer endpoint, turned into an attempt record whatever happens. The endpoint URL is the
// customer's, so every request is an SSRF risk; the rules are those of the push path
// (packages/push/src/destination.ts, packages/push/src/ip-ranges.ts):
//   - only https (any port); no credentials; no IP literal or well-known local name that is not
//     public (webhookUrlProblem: when the endpoint is saved, and again before every attempt);
//   - a host name is resolved in the connection's own `lookup` hook, which refuses the name when
//     any address is not public — so the address checked is the address connected to, and a
//     name that later resolves somewhere internal (DNS rebinding) is refused at that moment.
//     (An IP literal never goes through `lookup`: webhookUrlProblem is its check.)
//   - certificates are verified, redirects are not followed, at most maxResponseBytes of an
//     answer are read, and one deadline covers the whole attempt (queueing for a socket,
//     connect, TLS, the answer and reading it).
// Hosts listed in WEBHOOK_TEST_HOSTS (local test receivers) skip the address rules and may use http.
import { createHmac } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import { defaultResolve, DestinationRefusedError, guardedLookup, type Resolver } from '@webpush/push/destination.js';
import { addressProblem, ipBytes } from '@webpush/push/ip-ranges.js';

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

const URL_REQUIRED = 'url is required';
const URL_NOT_HTTPS = 'url must be an https URL of at most 2048 characters';
const URL_CREDENTIALS = 'url must not contain credentials';
const URL_PRIVATE = 'url must not point to a private, loopback, link-local or metadata address';
const MAX_URL_LENGTH = 2048;
const MAX_ERROR_LENGTH = 300;
/** Kept-alive sockets per receiver host: a few attempts to one endpoint may overlap, not more. */
const SOCKETS_PER_HOST = 4;
/** An idle kept-alive socket is closed after this long (the agent's socket timeout). */
const IDLE_SOCKET_MS = 60_000;
/** How long the create-time check waits for DNS before letting the name pass. */
const RESOLVE_TIMEOUT_MS = 5_000;

// Names refused without asking DNS. They can only mean a machine on our side of the network:
//   - a single label (`metadata`, `redis`, `localhost`): the resolver completes it with its
//     search domains (in Kubernetes `redis` is redis.<namespace>.svc.cluster.local);
//   - `localhost` and `*.localhost` (RFC 6761: always loopback), `*.local` (RFC 6762 multicast
//     DNS, the local link; also Kubernetes' cluster.local), `*.internal` (reserved by ICANN for
//     private use in 2024; metadata.google.internal, ec2.internal) and `*.home.arpa` (RFC 8375).
// Other names are judged by the addresses they resolve to: these rules only give a clear answer
// when the endpoint is saved, the address checks are the boundary.
const LOCAL_NAME = /(^|\.)(localhost|local|internal|home\.arpa)$/;

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

/**
 * Why an endpoint URL is not acceptable, as the message the API answers with (docs/webhooks.md,
 * "Validation"), or null. Synchronous: the rules that need DNS are resolvedAddressProblem's.
 * A test host skips every rule but these: present, a string of at most 2048 characters that
 * parses as an http or https URL.
 */
export function webhookUrlProblem(raw: unknown, testHosts: readonly string[]): string | null {
  if (raw === undefined || raw === null || raw === '') return URL_REQUIRED;
  if (typeof raw !== 'string' || raw.length > MAX_URL_LENGTH) return URL_NOT_HTTPS;
  // The URL is stored and sent as given: no control character (NUL cannot even be stored) and no
  // unpaired surrogate, which the parser would quietly have replaced.
  if (/[\u0000-\u001f\u007f]/.test(raw) || !raw.isWellFormed()) return URL_NOT_HTTPS;
  const url = URL.parse(raw);
  if (!url) return URL_NOT_HTTPS;
  if (isTestHost(url, testHosts)) return url.protocol === 'https:' || url.protocol === 'http:' ? null : URL_NOT_HTTPS;
  if (url.protocol !== 'https:') return URL_NOT_HTTPS;
  if (url.username !== '' || url.password !== '') return URL_CREDENTIALS;
  // The WHATWG parser has already made every spelling of an IPv4 address (2130706433, 0x7f.1,
  // 127.1, a trailing dot) dotted-decimal, and an IPv6 one compressed within brackets.
  if (ipBytes(url.hostname) !== null) return addressProblem(url.hostname) === null ? null : URL_PRIVATE;
  const name = url.hostname.replace(/\.+$/, ''); // `localhost.` is localhost
  if (!name.includes('.') || LOCAL_NAME.test(name)) return URL_PRIVATE;
  return null;
}

/**
 * When the endpoint is saved: the 'must not point to a private…' message if any address the
 * URL's host name resolves to now is not public, else null. Null too for a test host, an IP
 * literal or an unparsable URL (webhookUrlProblem judges those), and for a name that does not
 * resolve (within timeoutMs): it may exist later, and an attempt to it fails and is retried.
 */
export async function resolvedAddressProblem(
  url: string,
  testHosts: readonly string[],
  resolve: Resolver = defaultResolve,
  timeoutMs = RESOLVE_TIMEOUT_MS,
): Promise<string | null> {
  const parsed = URL.parse(url);
  if (!parsed || isTestHost(parsed, testHosts) || ipBytes(parsed.hostname) !== null) return null;
  const addresses = await new Promise<LookupAddress[]>((done) => {
    const timer = setTimeout(() => done([]), timeoutMs);
    resolve(parsed.hostname, { all: true }, (err, found) => {
      clearTimeout(timer);
      done(err ? [] : found);
    });
  });
  return addresses.some(({ address }) => addressProblem(address) !== null) ? URL_PRIVATE : null;
}

export function createWebhookSender(opts: WebhookSenderOptions = {}): WebhookSender {
  const testHosts = opts.testHosts ?? [];
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const maxResponseBytes = opts.maxResponseBytes ?? 64 * 1024;
  const userAgent = opts.userAgent ?? 'webpush-campaigns-webhooks/1';
  const now = opts.now ?? Date.now;
  if (!(timeoutMs > 0)) throw new RangeError('timeoutMs must be positive');
  if (!Number.isInteger(maxResponseBytes) || maxResponseBytes < 0) throw new RangeError('maxResponseBytes must be a non-negative integer');
  const lookup = guardedLookup(opts.resolve ?? defaultResolve, addressProblem);
  // The agent's `timeout` closes idle kept-alive sockets; on a socket in use it only emits an
  // event, and the attempt's own deadline (never longer) is what ends a slow one.
  const agentOptions = { keepAlive: true, maxSockets: SOCKETS_PER_HOST, timeout: Math.max(IDLE_SOCKET_MS, timeoutMs) };
  // Explicitly true: NODE_TLS_REJECT_UNAUTHORIZED=0 in the environment would otherwise turn
  // verification off. The agent's options override a request's, so no request can either.
  const httpsAgent = new https.Agent({
    ...agentOptions,
    rejectUnauthorized: true,
    // One context for every connection: building one from ~150 roots costs ~30 ms of CPU.
    secureContext: opts.ca ? tls.createSecureContext({ ca: [...tls.rootCertificates, opts.ca] }) : undefined,
  });
  // Only test hosts may use http (webhookUrlProblem).
  const httpAgent = new http.Agent(agentOptions);
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
          agent: url.protocol === 'http:' ? httpAgent : httpsAgent,
          // Connections to a test host resolve with plain DNS (they may be loopback).
          lookup: isTestHost(url, testHosts) ? undefined : lookup,
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
      const problem = webhookUrlProblem(post.url, testHosts);
      if (problem !== null) return { ok: false, status: null, latencyMs: 0, error: clip(`refused: ${problem}`) };
      return attempt(new URL(post.url), post);
    },
    close() {
      closed = true;
      for (const abort of [...inFlight]) abort();
      httpsAgent.destroy();
      httpAgent.destroy();
    },
  };
}

function isTestHost(url: URL, testHosts: readonly string[]): boolean {
  return testHosts.some((host) => host.toLowerCase() === url.hostname);
}

function statusError(status: number): string | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) return `redirect (${status}) not followed`;
  return `HTTP ${status}`;
}

/** A connection's failure as lastError: short, no more than the code where one says it all. */
function describeError(err: Error, hostname: string): string {
  if (err instanceof DestinationRefusedError) return `refused: ${err.message}`;
  const code = (err as NodeJS.ErrnoException).code ?? '';
  // OpenSSL's verification codes (DEPTH_ZERO_SELF_SIGNED_CERT, CERT_HAS_EXPIRED,
  // UNABLE_TO_VERIFY_LEAF_SIGNATURE…) and Node's ERR_TLS_CERT_ALTNAME_INVALID.
  if (/CERT|SELF_SIGNED|UNABLE_TO_|INVALID_CA|INVALID_PURPOSE|HOSTNAME_MISMATCH|PATH_LENGTH/.test(code)) return `certificate: ${code}`;
  if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_')) return `TLS: ${code}`;
  if (code.startsWith('HPE_')) return `invalid HTTP answer (${code})`;
  if (code.startsWith('EAI_')) return `DNS: ${hostname} lookup failed (${code})`;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'connection reset';
    case 'ENOTFOUND':
      return `DNS: ${hostname} not found`;
    default:
      return `connection failed: ${code || err.message}`;
  }
}

/** One line of at most MAX_ERROR_LENGTH characters. */
function clip(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').slice(0, MAX_ERROR_LENGTH);
}
