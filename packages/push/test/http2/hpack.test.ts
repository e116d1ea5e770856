import { expect } from 'chai';
import fc from 'fast-check';
import { FieldSet, HpackDecoder, HpackEncoder, HpackError, huffmanDecode } from '../../src/http2/hpack.js';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');
const huffman = (s: string) => {
  const b = hex(s);
  return huffmanDecode(b, 0, b.length);
};
const pairs = (flat: string[]) => Array.from({ length: flat.length / 2 }, (_, i) => [flat[2 * i], flat[2 * i + 1]]);

describe('HPACK (RFC 7541)', () => {
  describe('Huffman decoding', () => {
    // RFC 7541 Appendix C.4 and C.6: the strings of its examples, Huffman-coded.
    for (const [text, coded] of [
      ['www.example.com', 'f1e3 c2e5 f23a 6ba0 ab90 f4ff'],
      ['no-cache', 'a8eb 1064 9cbf'],
      ['custom-key', '25a8 49e9 5ba9 7d7f'],
      ['custom-value', '25a8 49e9 5bb8 e8b4 bf'],
      ['302', '6402'],
      ['private', 'aec3 771a 4b'],
      ['Mon, 21 Oct 2013 20:13:21 GMT', 'd07a be94 1054 d444 a820 0595 040b 8166 e082 a62d 1bff'],
      ['https://www.example.com', '9d29 ad17 1863 c78f 0b97 c8e9 ae82 ae43 d3'],
    ]) {
      it(`decodes the RFC example "${text}"`, () => expect(huffman(coded)).to.equal(text));
    }

    it('when the padding is longer than 7 bits, or not all ones, or EOS is coded, then it refuses the string', () => {
      expect(() => huffman('f1e3 c2e5 f23a 6ba0 ab90 f4ff ff')).to.throw(HpackError, /padding/); // a whole byte of padding
      expect(() => huffman('00')).to.throw(HpackError, /padding/); // "0" (00000), then three zeros
      expect(() => huffman('ffff fffc')).to.throw(HpackError, /EOS/); // EOS, 30 ones, then two bits
    });
  });

  describe('decoding header blocks', () => {
    it('decodes the RFC request examples, with and without Huffman, keeping the dynamic table across blocks (C.3, C.4)', () => {
      for (const blocks of [
        ['828684410f7777772e6578616d706c652e636f6d', '828684be58086e6f2d6361636865', '828785bf400a637573746f6d2d6b65790c637573746f6d2d76616c7565'],
        ['828684418cf1e3c2e5f23a6ba0ab90f4ff', '828684be5886a8eb10649cbf', '828785bf408825a849e95ba97d7f8925a849e95bb8e8b4bf'],
      ]) {
        const decoder = new HpackDecoder();
        const decoded = blocks.map((b) => pairs(decoder.decode(hex(b))));
        expect(decoded[0]).to.deep.equal([[':method', 'GET'], [':scheme', 'http'], [':path', '/'], [':authority', 'www.example.com']]);
        expect(decoded[1]).to.deep.equal([[':method', 'GET'], [':scheme', 'http'], [':path', '/'], [':authority', 'www.example.com'], ['cache-control', 'no-cache']]);
        expect(decoded[2]).to.deep.equal([[':method', 'GET'], [':scheme', 'https'], [':path', '/index.html'], [':authority', 'www.example.com'], ['custom-key', 'custom-value']]);
      }
    });

    it('evicts the oldest entries when the table is full, and forgets entries past a size update', () => {
      const decoder = new HpackDecoder({ tableLimit: 100 });
      const literal = (name: string, value: string) => Buffer.concat([Buffer.from([0x40, name.length]), Buffer.from(name), Buffer.from([value.length]), Buffer.from(value)]);
      // Each entry weighs 1 + 10 + 32 = 43: two fit in 100, the third evicts the first.
      decoder.decode(Buffer.concat([literal('a', '0123456789'), literal('b', '0123456789'), literal('c', '0123456789')]));
      expect(decoder.decode(Buffer.from([0x80 | 62, 0x80 | 63]))).to.deep.equal(['c', '0123456789', 'b', '0123456789']);
      expect(() => decoder.decode(Buffer.from([0x80 | 64]))).to.throw(HpackError, /out of range/);
      // A size update to 50 keeps only the newest; one to 0 empties the table.
      expect(decoder.decode(Buffer.from([0x20 | 31, 50 - 31, 0x80 | 62]))).to.deep.equal(['c', '0123456789']);
      expect(() => decoder.decode(Buffer.from([0x20, 0x80 | 62]))).to.throw(HpackError, /out of range/);
    });

    it('refuses what a hostile server may send: bad indexes, oversized updates, late updates, huge integers, strings past the end, too large lists', () => {
      const decoder = () => new HpackDecoder({ tableLimit: 4096, maxListSize: 1000 });
      const refused: Array<[string, RegExp]> = [
        ['80', /index 0/], // indexed field 0
        ['bf', /out of range/], // index 63 in an empty dynamic table
        ['3fe21f', /above 4096/], // size update to 4097
        ['8220', /after a header field/], // size update after a field
        ['ffffffffff0f', /integer too large/],
        ['0005616263', /truncated|past the end/], // name of 5 bytes, 3 given
        ['00', /truncated/],
      ];
      for (const [block, reason] of refused) expect(() => decoder().decode(hex(block)), block).to.throw(HpackError, reason);
      // A field weighs its name, its value and 32: 1 + 200 + 32 = 233, so three are over 500.
      const field = Buffer.concat([Buffer.from([0x00, 0x01, 0x78, 0x7f, 200 - 127]), Buffer.alloc(200, 0x61)]);
      const small = () => new HpackDecoder({ maxListSize: 500 });
      expect(small().decode(Buffer.concat([field, field]))).to.have.length(4);
      expect(() => small().decode(Buffer.concat([field, field, field]))).to.throw(HpackError, /too large/);
    });

    it('property: any bytes decode or fail with an HpackError, never anything else, and the list stays bounded', () => {
      fc.assert(
        fc.property(fc.array(fc.uint8Array({ maxLength: 200 }), { minLength: 1, maxLength: 4 }), (blocks) => {
          const decoder = new HpackDecoder({ tableLimit: 256, maxListSize: 2000 });
          for (const block of blocks) {
            try {
              const fields = decoder.decode(Buffer.from(block));
              const weight = pairs(fields).reduce((n, [name, value]) => n + name.length + value.length + 32, 0);
              expect(weight).to.be.at.most(2000);
            } catch (err) {
              expect(err).to.be.instanceOf(HpackError);
            }
          }
        }),
        { numRuns: 2000 },
      );
    });
  });

  describe('encoding', () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,30}$/);
    const value = (maxLength: number) => fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength });
    const pseudo = (authority: string) => [':method', 'POST', ':scheme', 'https', ':authority', authority];
    /** What the server decodes from a request block: pseudo-header fields, :path, the rest, content-length. */
    const expected = (flat: string[], path: string, length: number) => {
      const at = flat.findIndex((f, i) => i % 2 === 0 && !f.startsWith(':'));
      const split = at < 0 ? flat.length : at;
      return [...flat.slice(0, split), ':path', path, ...flat.slice(split), 'content-length', String(length)];
    };

    it('property: every block decodes to its fields in a server table kept by the blocks, whatever the server sets its table size to between them', () => {
      // Short values and small tables as well as long ones: evictions at every insertion, and
      // entries that fit the table to the byte, are where an encoder gets out of step.
      const set = fc.tuple(fc.constantFrom('push.example', 'push.example:8443', 'fcm.example'), fc.array(fc.tuple(name, fc.oneof(value(8), value(500))), { maxLength: 6 }));
      const step = fc.oneof(
        { weight: 5, arbitrary: fc.record({ set: fc.nat(), path: fc.stringMatching(/^\/[A-Za-z0-9/_%.-]{0,200}$/), length: fc.nat() }) },
        { weight: 1, arbitrary: fc.record({ tableSize: fc.oneof(fc.constantFrom(0, 4096, 65536), fc.integer({ min: 30, max: 300 })) }) },
      );
      fc.assert(
        fc.property(fc.array(set, { minLength: 1, maxLength: 4 }), fc.array(step, { maxLength: 60 }), (sets, steps) => {
          const flats = sets.map(([authority, fields]) => [...pseudo(authority), ...fields.flat()]);
          const fieldSets = flats.map((flat) => new FieldSet(flat));
          const encoder = new HpackEncoder();
          const decoder = new HpackDecoder({ tableLimit: 4096 });
          for (const st of steps) {
            if ('tableSize' in st) {
              encoder.setMaxTableSize(st.tableSize);
              continue;
            }
            const i = st.set % sets.length;
            const block = encoder.requestBlock(fieldSets[i], st.path, st.length);
            expect(decoder.decode(block)).to.deep.equal(expected(flats[i], st.path, st.length));
          }
        }),
        { numRuns: 500 },
      );
    });

    it('sends the fields pushes repeat as one-byte indexes once the first request put them in the table', () => {
      const authorization = `vapid t=${'a'.repeat(300)}, k=${'b'.repeat(87)}`;
      const set = new FieldSet([...pseudo('fcm.example'), 'ttl', '2419200', 'content-encoding', 'aes128gcm', 'authorization', authorization]);
      const encoder = new HpackEncoder();
      const decoder = new HpackDecoder();
      const first = encoder.requestBlock(set, '/fcm/send/abc', 230);
      const second = encoder.requestBlock(set, '/fcm/send/def', 231);
      expect(first.length).to.be.above(authorization.length);
      expect(second.length).to.be.below(40);
      expect(decoder.decode(first)).to.deep.equal(expected([...pseudo('fcm.example'), 'ttl', '2419200', 'content-encoding', 'aes128gcm', 'authorization', authorization], '/fcm/send/abc', 230));
      expect(decoder.decode(second)).to.include(authorization);
      // A server table too small for the authorization: it goes out as a literal, never inserted.
      encoder.setMaxTableSize(200);
      const third = encoder.requestBlock(set, '/fcm/send/ghi', 232);
      expect(decoder.decode(third)).to.include(authorization);
      expect(encoder.requestBlock(set, '/fcm/send/jkl', 233).length).to.be.above(authorization.length);
    });

    it('refuses names and values HTTP/2 does not allow, and pseudo-header fields after the others: nothing malformed is sent', () => {
      expect(() => new FieldSet(['TTL', '60'])).to.throw(TypeError, /name/);
      expect(() => new FieldSet(['bad name', '1'])).to.throw(TypeError, /name/);
      expect(() => new FieldSet(['topic', 'a\r\nx-injected: 1'])).to.throw(TypeError, /value/);
      expect(() => new FieldSet(['topic', 'a\0'])).to.throw(TypeError, /value/);
      expect(() => new FieldSet(['topic', 'snow ☃'])).to.throw(TypeError, /value/);
      expect(() => new FieldSet(['ttl', '60', ':authority', 'push.example'])).to.throw(TypeError, /pseudo-header/);
    });
  });
});
