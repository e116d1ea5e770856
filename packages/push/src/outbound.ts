// What every request to a customer's URL shares — the outgoing webhooks (the delivery service's
// webhooks/sender.ts) and the feeds (the campaign service's feeds/feed-fetch.ts): the URL is the
// customer's, so every request is an SSRF risk, and the rules are those of the push path
// (destination.ts, ip-ranges.ts), kept here once:
//   - only https (any port); no credentials; no IP literal or well-known local name that is not
//     public (outboundUrlProblem: when the URL is saved, and again before every request);
//   - a host name is resolved in the connection's own `lookup` hook (guardedLookup), which
//     refuses the name when any address is not public — so the address checked is the address
//     connected to, and a name that later resolves somewhere internal (DNS rebinding) is refused
//     at that moment. (An IP literal never goes through `lookup`: outboundUrlProblem is its check.)
//   - certificates are verified (outboundAgents), whatever NODE_TLS_REJECT_UNAUTHORIZED says.
// Hosts listed in the callers' test-host settings (WEBHOOK_TEST_HOSTS, FEED_TEST_HOSTS: local
// test servers) skip the address rules and may use http.
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import tls from 'node:tls';
import { defaultResolve, DestinationRefusedError, guardedLookup, type Resolver } from './destination.js';
import { addressProblem, ipBytes } from './ip-ranges.js';

export type { Resolver };

const URL_REQUIRED = 'url is required';
const URL_NOT_HTTPS = 'url must be an https URL of at most 2048 characters';
const URL_CREDENTIALS = 'url must not contain credentials';
const URL_PRIVATE = 'url must not point to a private, loopback, link-local or metadata address';
const MAX_URL_LENGTH = 2048;
const MAX_ERROR_LENGTH = 300;
/** How long the save-time check waits for DNS before letting the name pass. */
const RESOLVE_TIMEOUT_MS = 5_000;

// Names refused without asking DNS. They can only mean a machine on our side of the network:
//   - a single label (`metadata`, `redis`, `localhost`): the resolver completes it with its
//     search domains (in Kubernetes `redis` is redis.<namespace>.svc.cluster.local);
//   - `localhost` and `*.localhost` (RFC 6761: always loopback), `*.local` (RFC 6762 multicast
//     DNS, the local link; also Kubernetes' cluster.local), `*.internal` (reserved by ICANN for
//     private use in 2024; metadata.google.internal, ec2.internal) and `*.home.arpa` (RFC 8375).
// Other names are judged by the addresses they resolve to: these rules only give a clear answer
// when the URL is saved, the address checks are the boundary.
const LOCAL_NAME = /(^|\.)(localhost|local|internal|home\.arpa)$/;

/**
 * Why a customer's URL is not acceptable, as the message the API answers with (docs/webhooks.md,
 * "Validation"; docs/api-decisions.md, "Feeds"), or null. Synchronous: the rules that need DNS
 * are resolvedAddressProblem's. A test host skips every rule but these: present, a string of at
 * most 2048 characters that parses as an http or https URL.
 */
export function outboundUrlProblem(raw: unknown, testHosts: readonly string[]): string | null {
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
 * When the URL is saved: the 'must not point to a private…' message if any address the URL's
 * host name resolves to now is not public, else null. Null too for a test host, an IP literal or
 * an unparsable URL (outboundUrlProblem judges those), and for a name that does not resolve
 * (within timeoutMs): it may exist later, and a request to it fails then.
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

export function isTestHost(url: URL, testHosts: readonly string[]): boolean {
  return testHosts.some((host) => host.toLowerCase() === url.hostname);
}

export interface OutboundAgentOptions {
  /** Kept-alive sockets per host. */
  socketsPerHost: number;
  /** An idle kept-alive socket is closed after this long. */
  idleSocketMs: number;
  /** Extra trusted CA certificate(s), PEM, added to Node's root store. */
  ca?: string;
}

export interface OutboundAgents {
  https: https.Agent;
  /** Only test hosts may use http (outboundUrlProblem). */
  http: http.Agent;
  /** The DNS lookup for connections to the URL's host: the guarded one, plain DNS for a test host (it may be loopback). */
  lookupFor(url: URL): LookupFunction | undefined;
  destroy(): void;
}

export function createOutboundAgents(opts: OutboundAgentOptions & { testHosts?: readonly string[]; resolve?: Resolver }): OutboundAgents {
  const testHosts = opts.testHosts ?? [];
  const lookup = guardedLookup(opts.resolve ?? defaultResolve, addressProblem);
  // The agent's `timeout` closes idle kept-alive sockets; on a socket in use it only emits an
  // event, and each request's own deadline is what ends a slow one.
  const agentOptions = { keepAlive: true, maxSockets: opts.socketsPerHost, timeout: opts.idleSocketMs };
  // Explicitly true: NODE_TLS_REJECT_UNAUTHORIZED=0 in the environment would otherwise turn
  // verification off. The agent's options override a request's, so no request can either.
  const httpsAgent = new https.Agent({
    ...agentOptions,
    rejectUnauthorized: true,
    // One context for every connection: building one from ~150 roots costs ~30 ms of CPU.
    secureContext: opts.ca ? tls.createSecureContext({ ca: [...tls.rootCertificates, opts.ca] }) : undefined,
  });
  const httpAgent = new http.Agent(agentOptions);
  return {
    https: httpsAgent,
    http: httpAgent,
    lookupFor: (url) => (isTestHost(url, testHosts) ? undefined : lookup),
    destroy() {
      httpsAgent.destroy();
      httpAgent.destroy();
    },
  };
}

/** A connection's failure as a lastError: short, no more than the code where one says it all. */
export function describeConnectionError(err: Error, hostname: string): string {
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

/** One line of at most 300 characters: what a lastError may hold. */
export function clipError(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').slice(0, MAX_ERROR_LENGTH);
}
