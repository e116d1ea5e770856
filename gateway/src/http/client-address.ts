// Who the client is: the gateway is the edge, and the only one (docs/security.md). The address
// is the socket's peer, unless that peer is a configured trusted proxy (TRUSTED_PROXIES): then
// X-Forwarded-For is walked from the right, each trusted hop skipped, and the first address not
// trusted is the client. Entries left of it were written by the client and are never read, so a
// client cannot pick its own rate-limit bucket. The country (COUNTRY_HEADER, e.g. cf-ipcountry)
// is believed only on a connection from a trusted proxy, and only as an ISO 3166-1 alpha-2 code.
import { BlockList, isIP, isIPv4 } from 'node:net';
import type { IncomingMessage } from 'node:http';

export interface Client {
  address: string;
  /** ISO 3166-1 alpha-2 in capitals; undefined when not told by a trusted proxy. */
  country?: string;
}

export type ClientResolver = (req: IncomingMessage) => Client;

/** `::ffff:192.0.2.1` (an IPv4 peer on a dual-stack socket) is 192.0.2.1; brackets and ports go. */
export function canonicalAddress(raw: string): string | null {
  let value = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(value);
  if (bracketed) value = bracketed[1];
  else if (/^[0-9.]+:\d{1,5}$/.test(value)) value = value.slice(0, value.lastIndexOf(':'));
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(value);
  if (mapped) value = mapped[1];
  if (isIP(value) === 0) return null;
  return value.toLowerCase();
}

/** The trusted proxies as a BlockList; throws naming the first entry that is not an address or CIDR. */
export function parseTrustedProxies(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [raw, prefix, ...rest] = entry.split('/');
    const address = canonicalAddress(raw);
    const type = address && isIPv4(address) ? 'ipv4' : 'ipv6';
    const max = type === 'ipv4' ? 32 : 128;
    if (!address || rest.length > 0 || raw.includes('[') || (prefix !== undefined && !/^\d{1,3}$/.test(prefix)) || Number(prefix ?? 0) > max) {
      throw new Error(`"${entry}" is not an IP address or CIDR range`);
    }
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

// ISO 3166-1 reserves these alpha-2 codes for private use (AA, QM–QZ, XA–XZ, ZZ); proxies use
// them for "unknown" (Cloudflare's XX). XK (Kosovo) is private-use but a country in practice.
const PRIVATE_USE = /^(AA|Q[M-Z]|X[A-JL-Z]|ZZ)$/;

function countryCode(value: string | string[] | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  const code = value.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) && !PRIVATE_USE.test(code) ? code : undefined;
}

export function createClientResolver(opts: { trustedProxies: readonly string[]; countryHeader: string }): ClientResolver {
  const trusted = parseTrustedProxies(opts.trustedProxies);
  const anyTrusted = opts.trustedProxies.length > 0;
  const isTrusted = (address: string) => trusted.check(address, isIPv4(address) ? 'ipv4' : 'ipv6');

  return (req) => {
    const peer = canonicalAddress(req.socket.remoteAddress ?? '') ?? 'unknown';
    if (!anyTrusted || peer === 'unknown' || !isTrusted(peer)) return { address: peer };
    let address = peer;
    // Node joins repeated X-Forwarded-For headers with ", ", in order: one list.
    const forwarded = req.headers['x-forwarded-for'];
    const hops = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? '')).split(',');
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = canonicalAddress(hops[i]);
      // A malformed entry here was written by a trusted hop (or is empty): stop at that hop.
      if (hop === null) break;
      address = hop;
      if (!isTrusted(hop)) break;
    }
    const country = opts.countryHeader === '' ? undefined : countryCode(req.headers[opts.countryHeader]);
    return country ? { address, country } : { address };
  };
}
