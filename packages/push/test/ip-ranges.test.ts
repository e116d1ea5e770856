// The address classifier of the push path, checked against an independent oracle (Node's own
// net.BlockList fed with the IANA special-purpose ranges) over random addresses, and across
// every spelling of the same address (IPv4-mapped, NAT64, 6to4, compressed, expanded, zones).
import { BlockList } from 'node:net';
import { expect } from 'chai';
import fc from 'fast-check';
import { addressProblem, ipBytes } from '../src/ip-ranges.js';

const V4_REFUSED: [string, number, string][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];
const v4Oracle = new BlockList();
for (const [net, prefix] of V4_REFUSED) v4Oracle.addSubnet(net, prefix, 'ipv4');

// Outside 2000::/3 everything is refused; inside it, these. (::ffff:0:0/96, 64:ff9b::/96 and
// 2002::/16 carry an IPv4 address and are judged by it.)
const v6Oracle = new BlockList();
for (const [net, prefix] of [['::', 3], ['4000::', 2], ['8000::', 1], ['2001::', 23], ['2001:db8::', 32], ['3fff::', 20]] as const) v6Oracle.addSubnet(net, prefix, 'ipv6');

const dotted = (b: ArrayLike<number>) => Array.from(b).join('.');
const hexWords = (b: Uint8Array) => Array.from({ length: b.length / 2 }, (_, i) => ((b[2 * i] << 8) | b[2 * i + 1]).toString(16));
const fullV6 = (b: Uint8Array) => hexWords(b).map((w) => w.padStart(4, '0')).join(':');
/** The WHATWG (RFC 5952) compressed form. */
const compressedV6 = (b: Uint8Array) => new URL(`http://[${fullV6(b)}]/`).hostname.slice(1, -1);

function v4Refused(b: Uint8Array): boolean {
  return v4Oracle.check(dotted(b), 'ipv4');
}
function v6Refused(b: Uint8Array): boolean {
  const w = (i: number) => (b[2 * i] << 8) | b[2 * i + 1];
  const zero = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => w(from + i)).every((x) => x === 0);
  if (zero(0, 5) && w(5) === 0xffff) return v4Refused(b.subarray(12));
  if (w(0) === 0x64 && w(1) === 0xff9b && zero(2, 6)) return v4Refused(b.subarray(12));
  if (w(0) === 0x2002) return v4Refused(b.subarray(2, 6));
  return v6Oracle.check(fullV6(b), 'ipv6');
}

const v4 = fc.uint8Array({ minLength: 4, maxLength: 4 });
/** Random IPv4 addresses, half of them inside one of the refused ranges (or at its edges). */
const v4Biased = fc.oneof(
  v4,
  fc.tuple(fc.constantFrom(...V4_REFUSED), fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.constantFrom(-1, 0, 1)).map(([[net, prefix], host, edge]) => {
    const base = net.split('.').reduce((n, o) => n * 256 + Number(o), 0);
    const size = 2 ** (32 - prefix);
    const n = (base + (edge === 0 ? host % size : edge < 0 ? -1 : size) + 2 ** 32) % 2 ** 32;
    return Uint8Array.from([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
  }),
);
/** Random IPv6 addresses, most with a first word that matters. */
const v6 = fc
  .tuple(
    fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.constantFrom(0, 0x64, 0x100, 0x2001, 0x2002, 0x2400, 0x2a00, 0x3fff, 0xfc00, 0xfdff, 0xfe80, 0xfebf, 0xfec0, 0xff02)),
    fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.constantFrom(0, 0xff9b, 0x0db8, 0x01ff, 0x0200, 0x0fff, 0x1000)),
    fc.uint8Array({ minLength: 12, maxLength: 12 }),
    fc.constantFrom('random', 'zeros', 'mapped', 'nat64'),
  )
  .map(([w0, w1, rest, shape]) => {
    const b = Uint8Array.from([w0 >> 8, w0 & 255, w1 >> 8, w1 & 255, ...rest]);
    if (shape === 'zeros') b.fill(0, 4, 14);
    if (shape === 'mapped') b.set([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], 0);
    if (shape === 'nat64') b.set([0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], 0);
    return b;
  });

describe('push destination: address classifier', () => {
  it('refuses an IPv4 address exactly when it lies in a special-purpose range (oracle: net.BlockList)', () => {
    fc.assert(
      fc.property(v4Biased, (b) => {
        expect(addressProblem(dotted(b)) !== null, dotted(b)).to.equal(v4Refused(b));
      }),
      { numRuns: 5000 },
    );
  });

  it('names the range an IPv4 address lies in', () => {
    fc.assert(
      fc.property(fc.constantFrom(...V4_REFUSED), fc.integer({ min: 0, max: 2 ** 32 - 1 }), ([net, prefix, label], host) => {
        const n = (net.split('.').reduce((a, o) => a * 256 + Number(o), 0) + (host % 2 ** (32 - prefix))) >>> 0;
        const address = dotted([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
        const expected = address === '255.255.255.255' ? 'broadcast' : label;
        expect(addressProblem(address), address).to.equal(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('judges an IPv4 address the same in every IPv6 spelling that carries it (mapped, NAT64, 6to4)', () => {
    fc.assert(
      fc.property(v4Biased, (b) => {
        const [hi, lo] = hexWords(b);
        const verdict = addressProblem(dotted(b));
        const spellings = [
          `::ffff:${dotted(b)}`,
          `::FFFF:${dotted(b)}`,
          `::ffff:${hi}:${lo}`,
          `0:0:0:0:0:ffff:${hi}:${lo}`,
          `0000:0000:0000:0000:0000:FFFF:${hi.padStart(4, '0')}:${lo.padStart(4, '0')}`,
          `[::ffff:${dotted(b)}]`,
          `64:ff9b::${dotted(b)}`,
          `64:ff9b::${hi}:${lo}`,
        ];
        for (const s of spellings) expect(addressProblem(s), s).to.equal(verdict);
        // 6to4 routes to the IPv4 address in its second and third words.
        expect(addressProblem(`2002:${hi}:${lo}::1`) !== null).to.equal(verdict !== null);
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses an IPv6 address exactly when it is not public unicast (oracle: net.BlockList)', () => {
    fc.assert(
      fc.property(v6, (b) => {
        expect(addressProblem(fullV6(b)) !== null, fullV6(b)).to.equal(v6Refused(b));
      }),
      { numRuns: 5000 },
    );
  });

  it('reads every spelling of an IPv6 address as the same bytes and the same verdict', () => {
    fc.assert(
      fc.property(v6, (b) => {
        const spellings = [fullV6(b), fullV6(b).toUpperCase(), compressedV6(b), `[${compressedV6(b)}]`, hexWords(b).join(':'), `${compressedV6(b)}%eth0`];
        const verdict = addressProblem(fullV6(b));
        for (const s of spellings) {
          expect(Array.from(ipBytes(s) ?? []), s).to.deep.equal(Array.from(b));
          expect(addressProblem(s), s).to.equal(verdict);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('names the well-known dangerous addresses, and lets public push-service addresses through', () => {
    const refused: Record<string, string> = {
      '169.254.169.254': 'link-local', // cloud metadata
      'fd00:ec2::254': 'unique-local', // AWS metadata over IPv6
      '::ffff:169.254.169.254': 'link-local',
      '::ffff:a9fe:a9fe': 'link-local',
      '64:ff9b::a9fe:a9fe': 'link-local',
      '2002:a9fe:a9fe::1': 'link-local',
      '0.0.0.0': 'unspecified',
      '::': 'unspecified',
      '::1': 'loopback',
      '127.1.2.3': 'loopback',
      '::ffff:127.0.0.1': 'loopback',
      '100.64.0.1': 'shared (CGNAT)',
      '100.127.255.255': 'shared (CGNAT)',
      '10.255.255.255': 'private',
      '172.31.0.1': 'private',
      '192.168.0.1': 'private',
      'fc00::1': 'unique-local',
      'fe80::1': 'link-local',
      'fe80::1%eth0': 'link-local',
      'febf::1': 'link-local',
      'fec0::1': 'reserved',
      'ff02::1': 'multicast',
      '239.255.255.250': 'multicast',
      '255.255.255.255': 'broadcast',
      '240.0.0.1': 'reserved',
      '::127.0.0.1': 'reserved', // deprecated IPv4-compatible
      '100::1': 'reserved', // discard-only
      '2001::1': 'reserved', // Teredo
      '2001:2::1': 'reserved', // benchmarking
      '2001:db8::1': 'documentation',
      '3fff::1': 'documentation',
      '192.0.2.1': 'documentation',
      '198.19.255.255': 'benchmarking',
    };
    for (const [address, problem] of Object.entries(refused)) expect(addressProblem(address), address).to.equal(problem);
    const allowed = ['8.8.8.8', '1.1.1.1', '142.250.185.74', '17.57.144.10', '100.63.255.255', '100.128.0.0', '172.15.255.255', '172.32.0.0',
      '169.253.255.255', '169.255.0.0', '192.0.1.1', '192.169.0.0', '198.17.255.255', '198.20.0.0', '223.255.255.255',
      '2a00:1450:4001:82b::200a', '2606:4700::1111', '2001:200::1', '2002:808:808::1', '::ffff:8.8.8.8', '64:ff9b::808:808', '3fff:1000::1'];
    for (const address of allowed) expect(addressProblem(address), address).to.equal(null);
  });

  it('refuses anything that is not an IP address', () => {
    for (const text of ['', 'localhost', 'push.example.com', '1.2.3', '01.2.3.4', '1.2.3.4.5', '256.1.1.1', '::g', '1::2::3', '[1.2.3.4]', ' 1.2.3.4']) {
      expect(addressProblem(text), JSON.stringify(text)).to.equal('not an IP address');
    }
  });
});
