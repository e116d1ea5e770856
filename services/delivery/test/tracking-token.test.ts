// Tracking tokens name campaign and subscriber without revealing the internal subscriber id
// (a global sequence): the id is enciphered, and tokens of the first format still verify.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import { createTrackingTokens, deriveTrackingKey } from '../src/tracking/tracking-token.js';

const key = deriveTrackingKey(randomBytes(32));
const tokens = createTrackingTokens(key);
const idBytes = (token: string) => Buffer.from(token, 'base64url').subarray(16, 24);
const uuid = fc.uuid({ version: 4 });
const subscriberId = fc.bigInt({ min: 1n, max: 2n ** 63n - 1n }).map(String);

/** A token as the first format made it: the id in clear, MAC under the tracking key itself. */
function v1Token(campaignId: string, id: string): string {
  const data = Buffer.alloc(24);
  Buffer.from(campaignId.replace(/-/g, ''), 'hex').copy(data, 0);
  data.writeBigUInt64BE(BigInt(id), 16);
  return Buffer.concat([data, createHmac('sha256', key).update(data).digest().subarray(0, 16)]).toString('base64url');
}

describe('delivery: tracking tokens', () => {
  it('when a token is signed, then it verifies to the same campaign and subscriber, in 54 characters', () => {
    fc.assert(
      fc.property(uuid, subscriberId, (campaignId, id) => {
        const token = tokens.sign({ campaignId, subscriberId: id });
        expect(token).to.match(/^[A-Za-z0-9_-]{54}$/);
        expect(tokens.verify(token)).to.deep.equal({ campaignId, subscriberId: id });
      }),
      { numRuns: 2000 },
    );
  });

  it('when a chunk of subscribers is signed at once, then each token is the one signed alone and verifies to its subscriber', () => {
    fc.assert(
      fc.property(uuid, fc.array(subscriberId, { minLength: 0, maxLength: 300 }), (campaignId, ids) => {
        const all = tokens.signAll(campaignId, ids);
        expect(all).to.have.length(ids.length);
        all.forEach((token, i) => {
          expect(token).to.equal(tokens.sign({ campaignId, subscriberId: ids[i] }));
          expect(tokens.verify(token)).to.deep.equal({ campaignId, subscriberId: ids[i] });
        });
      }),
      { numRuns: 100 },
    );
  });

  it('when tokens are signed under a fixed key, then they are byte for byte those of the v2 format as first released (tokens already in browsers keep verifying)', () => {
    // Made by the one-id-at-a-time code of 2026-11-27 (before chunks were signed at once).
    const fixed = createTrackingTokens(Buffer.alloc(32, 7));
    const known: [string, string, string][] = [
      ['0f8fad5b-d9cb-469f-a165-70867728950e', '1', 'D4-tW9nLRp-hZXCGdyiVDj0PoAmalEkuTnkm1fc2XHbABfSAzlSKOw'],
      ['0f8fad5b-d9cb-469f-a165-70867728950e', '9007199254740993', 'D4-tW9nLRp-hZXCGdyiVDstFIit_mTnqLLPDj1nMbb0wYFwG165BtQ'],
      ['7c9e6679-7425-40de-944b-e07fc1f90ae7', '18446744073709551615', 'fJ5meXQlQN6US-B_wfkK5wa7h-xSyZnXHLUC_3nLEAt7RDPQJAsL7w'],
    ];
    for (const [campaignId, id, token] of known) {
      expect(fixed.sign({ campaignId, subscriberId: id })).to.equal(token);
      expect(fixed.verify(token)).to.deep.equal({ campaignId, subscriberId: id });
    }
    expect(fixed.signAll(known[0][0], [known[0][1], known[1][1]])).to.deep.equal([known[0][2], known[1][2]]);
  });

  it('when consecutive subscribers get tokens, then the tokens do not show their ids, their order or their distance', () => {
    const campaignId = randomUUID();
    const enciphered = Array.from({ length: 20 }, (_, i) => idBytes(tokens.sign({ campaignId, subscriberId: String(i + 1) })));
    enciphered.forEach((bytes, i) => expect(bytes.readBigUInt64BE(0)).to.not.equal(BigInt(i + 1)));
    const asNumbers = enciphered.map((b) => b.readBigUInt64BE(0));
    expect([...asNumbers].sort((a, b) => (a < b ? -1 : 1))).to.not.deep.equal(asNumbers); // 1 in 20! to fail by chance
    // Neighbours differ in about half of their 64 bits, not in the last few.
    const bitsApart = asNumbers.slice(1).map((n, i) => (n ^ asNumbers[i]).toString(2).replace(/0/g, '').length);
    expect(bitsApart.reduce((a, b) => a + b, 0) / bitsApart.length).to.be.within(20, 44);
  });

  it('when the same subscriber gets tokens for two campaigns, then the enciphered ids differ', () => {
    const a = idBytes(tokens.sign({ campaignId: randomUUID(), subscriberId: '42' }));
    const b = idBytes(tokens.sign({ campaignId: randomUUID(), subscriberId: '42' }));
    expect(a.equals(b)).to.equal(false);
  });

  it('when a token of the first format (id in clear) comes back, then it still verifies; with another key it does not', () => {
    fc.assert(
      fc.property(uuid, subscriberId, (campaignId, id) => {
        expect(tokens.verify(v1Token(campaignId, id))).to.deep.equal({ campaignId, subscriberId: id });
        expect(createTrackingTokens(deriveTrackingKey(randomBytes(32))).verify(v1Token(campaignId, id))).to.equal(null);
      }),
      { numRuns: 200 },
    );
  });

  it('when any bit of a token is flipped, then it verifies to nothing', () => {
    const token = tokens.sign({ campaignId: randomUUID(), subscriberId: '987654321' });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 * 8 - 1 }), (bit) => {
        const raw = Buffer.from(token, 'base64url');
        raw[bit >> 3] ^= 1 << (bit & 7);
        expect(tokens.verify(raw.toString('base64url'))).to.equal(null);
      }),
      { numRuns: 320 },
    );
  });
});
