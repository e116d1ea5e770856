// Which IP addresses a push may be sent to: only public unicast ones. Everything a request from
// inside the network must not reach is refused — loopback, private and unique-local networks,
// link-local (169.254.169.254 is the cloud metadata service), CGNAT, multicast, documentation
// and benchmarking ranges, and whatever is reserved — also when an IPv4 address hides inside an
// IPv6 one (IPv4-mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16). IPv6 outside
// global unicast 2000::/3 is refused as a whole, so new special ranges there stay refused.
// Sources: the IANA IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890 and updates).
import { isIP } from 'node:net';

export type AddressProblem =
  | 'not an IP address'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared (CGNAT)'
  | 'link-local'
  | 'unique-local'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'benchmarking'
  | 'reserved';

/** Why a push must not go to `address`, or null when it is a public unicast address. */
export function addressProblem(address: string): AddressProblem | null {
  const bytes = ipBytes(address);
  if (!bytes) return 'not an IP address';
  return bytes.length === 4 ? ipv4Problem(bytes) : ipv6Problem(bytes);
}

/** 4 bytes for IPv4, 16 for IPv6 (a zone id such as `%eth0` is dropped); null for anything else. */
export function ipBytes(text: string): Uint8Array | null {
  const bracketed = /^\[.*\]$/.test(text); // URLs write IPv6 hosts in brackets, never IPv4
  const bare = bracketed ? text.slice(1, -1) : text;
  const version = isIP(bare);
  if (version === 4 && !bracketed) return Uint8Array.from(bare.split('.').map(Number));
  if (version !== 6) return null;
  let v6 = bare.includes('%') ? bare.slice(0, bare.indexOf('%')) : bare;
  // A dotted IPv4 tail (::ffff:1.2.3.4) becomes its two 16-bit groups.
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(v6);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number);
    v6 = v6.slice(0, tail.index) + ((a << 8) | b).toString(16) + ':' + ((c << 8) | d).toString(16);
  }
  const [head, rest] = v6.split('::') as [string, string | undefined];
  const words = (s: string | undefined) => (s ? s.split(':').map((w) => parseInt(w, 16)) : []);
  const front = words(head);
  const back = words(rest);
  const groups = rest === undefined ? front : [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
  const out = new Uint8Array(16);
  groups.forEach((w, i) => {
    out[2 * i] = w >> 8;
    out[2 * i + 1] = w & 0xff;
  });
  return out;
}

function ipv4Problem([a, b, c, d]: Uint8Array): AddressProblem | null {
  if (a === 0) return 'unspecified'; // 0.0.0.0/8, "this network"
  if (a === 10) return 'private';
  if (a === 100 && (b & 0xc0) === 64) return 'shared (CGNAT)'; // 100.64.0.0/10
  if (a === 127) return 'loopback';
  if (a === 169 && b === 254) return 'link-local';
  if (a === 172 && (b & 0xf0) === 16) return 'private'; // 172.16.0.0/12
  if (a === 192 && b === 0 && c === 0) return 'reserved'; // IETF protocol assignments
  if (a === 192 && b === 0 && c === 2) return 'documentation';
  if (a === 192 && b === 88 && c === 99) return 'reserved'; // former 6to4 relay anycast
  if (a === 192 && b === 168) return 'private';
  if (a === 198 && (b & 0xfe) === 18) return 'benchmarking'; // 198.18.0.0/15
  if (a === 198 && b === 51 && c === 100) return 'documentation';
  if (a === 203 && b === 0 && c === 113) return 'documentation';
  if (a >= 224 && a <= 239) return 'multicast';
  if (a === 255 && b === 255 && c === 255 && d === 255) return 'broadcast';
  if (a >= 240) return 'reserved';
  return null;
}

function ipv6Problem(bytes: Uint8Array): AddressProblem | null {
  const word = (i: number) => (bytes[2 * i] << 8) | bytes[2 * i + 1];
  const zeroWords = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (word(i) !== 0) return false;
    return true;
  };
  const embeddedV4 = (at: number) => ipv4Problem(bytes.subarray(at, at + 4));
  if (zeroWords(0, 8)) return 'unspecified';
  if (zeroWords(0, 7) && word(7) === 1) return 'loopback';
  if (zeroWords(0, 5) && word(5) === 0xffff) return embeddedV4(12); // IPv4-mapped
  if (word(0) === 0x64 && word(1) === 0xff9b && zeroWords(2, 6)) return embeddedV4(12); // NAT64 well-known prefix
  const w0 = word(0);
  if ((w0 & 0xfe00) === 0xfc00) return 'unique-local'; // fc00::/7
  if ((w0 & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  if ((w0 & 0xff00) === 0xff00) return 'multicast';
  if ((w0 & 0xe000) !== 0x2000) return 'reserved'; // outside global unicast (also ::/96, fec0::/10, 100::/64)
  if (w0 === 0x2001 && word(1) === 0x0db8) return 'documentation';
  if (w0 === 0x3fff && word(1) < 0x1000) return 'documentation'; // 3fff::/20
  if (w0 === 0x2001 && word(1) < 0x0200) return 'reserved'; // 2001::/23: Teredo, benchmarking, ORCHID
  if (w0 === 0x2002) return embeddedV4(2); // 6to4 carries the IPv4 address it routes to
  return null;
}
