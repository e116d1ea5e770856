// Where the push client may connect: the outbound half of the SSRF boundary (the inbound half,
// audience/push-endpoint.ts, decides which endpoints are stored). A push goes over https to port
// 443 of a host NAME, and every address that name resolves to must be public. The check runs
// inside the connection's own DNS lookup (the `lookup` hook of net/tls), so the address checked
// is the address connected to: a name that resolves to a public address when stored and to
// 10.0.0.1 or 169.254.169.254 when sent (DNS rebinding) is refused at that moment. Hosts listed
// in PUSH_TEST_HOSTS (local test push services) skip every rule: http, any port, any address.
// Hosts routed by PUSH_TEST_ROUTES keep every rule of their URLs (a real push service's name,
// https, 443) but are connected to at a local address instead of their DNS name's: a test server
// standing in for a push service whose endpoints a browser builds itself (Chromium's FCM).
import dns from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { addressProblem as defaultAddressProblem } from './ip-ranges.js';

export type Resolver = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
) => void;

/** A destination the push client must not contact; a permanent failure of that push. */
export class DestinationRefusedError extends Error {
  override readonly name = 'DestinationRefusedError';
  readonly code = 'EPUSHDESTINATION';
}

export interface DestinationOptions {
  /** Exact host names or canonical IP literals (`127.0.0.1`, `[::1]`) as URLs write them. */
  testHosts?: readonly string[];
  /** Default: dns.lookup (what Node itself uses). Tests stand in a fake DNS. */
  resolve?: Resolver;
  /** Default 443. Only tests change it, to reach a local server under the production rules. */
  httpsPort?: number;
  /** Default: ip-ranges.ts. */
  addressProblem?: (address: string) => string | null;
  /** PUSH_TEST_ROUTES: exact host names connected to at a loopback address instead (tests only). */
  testRoutes?: ReadonlyMap<string, TestRoute>;
}

/** Where connections for a routed host go: a loopback IP literal and a port. */
export interface TestRoute {
  readonly host: string;
  readonly port: number;
}

export interface DestinationPolicy {
  /** Why the client must not contact this URL at all, or null (decided before any I/O). */
  urlProblem(url: URL): string | null;
  /** The DNS lookup for connections to the URL's host: undefined (plain DNS) for a test host. */
  lookupFor(url: URL): LookupFunction | undefined;
  /** The local address connections for the URL's host go to instead, when PUSH_TEST_ROUTES routes it. */
  routeFor(url: URL): TestRoute | undefined;
}

/** dns.lookup, what Node itself uses. */
export const defaultResolve: Resolver = (hostname, options, callback) => dns.lookup(hostname, options, callback);

/**
 * A `lookup` for net/tls connections that resolves through `resolve` and fails with a
 * DestinationRefusedError when any address of the name has a problem (every request to a
 * customer's URL, outbound.ts, connects through it too).
 */
export function guardedLookup(resolve: Resolver, addressProblem: (address: string) => string | null): LookupFunction {
  // Node calls this for every new connection (net.connect, tls.connect, the agents' sockets);
  // with happy eyeballs it asks for all addresses at once. One bad address refuses the name:
  // a public service has no business resolving to an internal address.
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      if (addresses.length === 0) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
      for (const { address } of addresses) {
        const problem = addressProblem(address);
        if (problem !== null) return callback(new DestinationRefusedError(`${hostname} resolves to ${address} (${problem})`), '');
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

export function createDestinationPolicy(opts: DestinationOptions = {}): DestinationPolicy {
  const testHosts = new Set((opts.testHosts ?? []).map((h) => h.toLowerCase()));
  const httpsPort = opts.httpsPort ?? 443;
  const lookup = guardedLookup(opts.resolve ?? defaultResolve, opts.addressProblem ?? defaultAddressProblem);

  return {
    urlProblem(url) {
      if (testHosts.has(url.hostname)) return null;
      if (url.protocol !== 'https:') return 'not https';
      if (url.port !== '' && Number(url.port) !== httpsPort) return `port ${Number(url.port)} is not ${httpsPort}`;
      if (url.username !== '' || url.password !== '') return 'credentials in the URL';
      if (isIP(url.hostname.replace(/^\[|\]$/g, '')) !== 0) return 'an IP address instead of a host name';
      return null;
    },
    lookupFor(url) {
      return testHosts.has(url.hostname) ? undefined : lookup;
    },
    routeFor(url) {
      return opts.testRoutes?.get(url.hostname);
    },
  };
}
