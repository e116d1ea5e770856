import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import { buildPushPayload, linkWithUtm, pushPayloads, MAX_PUSH_PLAINTEXT_BYTES, TRACKING_TOKEN_RESERVED_CHARS } from '@webpush/contracts/campaign-content.js';
import { canonicalJson } from '../src/base/canonical-json.js';
import { createCursorCodec } from '../src/campaigns/cursor.js';
import { formatUtcDate, parseUtcDate } from '../src/base/dates.js';
import { validateListInput } from '../src/campaigns/list-input.js';

describe('push payload', () => {
  const base = { title: 'T', body: 'B', link: 'https://x.example/p', utmSource: '', utmMedium: '', utmCampaign: '', icon: null, image: null, callToAction: '' };

  it('is compact JSON with the agreed keys; action is omitted when the button text is empty; the send time is the timestamp', () => {
    expect(buildPushPayload('c1', base, 'tok', 1764936000000)).to.equal('{"v":1,"id":"c1","title":"T","body":"B","url":"https://x.example/p","icon":null,"image":null,"timestamp":1764936000000,"token":"tok"}');
    expect(JSON.parse(buildPushPayload('c1', { ...base, callToAction: 'Buy', icon: 'https://i' }, 'tok', 5))).to.deep.equal({
      v: 1, id: 'c1', title: 'T', body: 'B', url: 'https://x.example/p', icon: 'https://i', image: null, action: 'Buy', timestamp: 5, token: 'tok',
    });
  });

  it('carries each notification option that differs from its default, the buttons with their links and the UTM parameters, and the campaign timestamp over the send time', () => {
    const options = {
      actions: [{ title: 'Scores', link: 'https://x.example/scores#top' }],
      badge: 'https://x.example/badge.png',
      requireInteraction: true,
      renotify: true,
      silent: false,
      vibrate: [200, 100, 200],
      timestamp: '2026-12-05T10:00:00Z',
      dir: 'rtl' as const,
      lang: 'pt-BR',
    };
    expect(JSON.parse(buildPushPayload('c1', { ...base, utmSource: 'push', options }, 'tok', 5))).to.deep.equal({
      v: 1, id: 'c1', title: 'T', body: 'B', url: 'https://x.example/p?utm_source=push', icon: null, image: null,
      actions: [{ title: 'Scores', url: 'https://x.example/scores?utm_source=push#top' }],
      badge: 'https://x.example/badge.png', requireInteraction: true, renotify: true, vibrate: [200, 100, 200], dir: 'rtl', lang: 'pt-BR',
      timestamp: Date.parse('2026-12-05T10:00:00Z'), token: 'tok',
    });
    const defaults = { actions: [], badge: null, requireInteraction: false, renotify: false, silent: false, vibrate: [], timestamp: null, dir: 'auto' as const, lang: '' };
    expect(buildPushPayload('c1', { ...base, options: defaults }, 'tok', 5), 'options at their defaults: the payload of a campaign without').to.equal(buildPushPayload('c1', base, 'tok', 5));
    expect(JSON.parse(buildPushPayload('c1', { ...base, options: { ...defaults, silent: true } }, 'tok', 5))).to.include({ silent: true });
  });

  it('when the payloads of one campaign are made for many tokens, then each is the JSON of the whole object with that token last', () => {
    const text = fc.string({ unit: 'binary', maxLength: 40 });
    const content = fc.record({
      title: text, body: text, link: text, utmSource: text, utmMedium: text, utmCampaign: text,
      icon: fc.option(text, { nil: null }), image: fc.option(text, { nil: null }), callToAction: text,
    });
    fc.assert(
      fc.property(text, content, fc.array(text, { maxLength: 5 }), fc.nat(), (campaignId, c, tokens, sentAt) => {
        const payloads = pushPayloads(campaignId, c, sentAt);
        for (const token of tokens) {
          const expected: Record<string, unknown> = { v: 1, id: campaignId, title: c.title, body: c.body, url: linkWithUtm(c.link, c), icon: c.icon, image: c.image };
          if (c.callToAction !== '') expected.action = c.callToAction;
          expected.timestamp = sentAt;
          expected.token = token;
          expect(payloads(token)).to.equal(JSON.stringify(expected));
          expect(buildPushPayload(campaignId, c, token, sentAt)).to.equal(JSON.stringify(expected));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('appends non-empty UTM parameters, keeping an existing query and fragment', () => {
    const utm = { utmSource: 'news letter', utmMedium: '', utmCampaign: 'spring&sale' };
    expect(linkWithUtm('https://x.example/p', utm)).to.equal('https://x.example/p?utm_source=news%20letter&utm_campaign=spring%26sale');
    expect(linkWithUtm('https://x.example/p?a=1#top', utm)).to.equal('https://x.example/p?a=1&utm_source=news%20letter&utm_campaign=spring%26sale#top');
    expect(linkWithUtm('https://x.example/p?', { utmSource: 's', utmMedium: 'm', utmCampaign: '' })).to.equal('https://x.example/p?utm_source=s&utm_medium=m');
    expect(linkWithUtm('https://x.example/p#f', { utmSource: '', utmMedium: '', utmCampaign: '' })).to.equal('https://x.example/p#f');
  });

  it('exports the size limits', () => {
    expect([MAX_PUSH_PLAINTEXT_BYTES, TRACKING_TOKEN_RESERVED_CHARS]).to.deep.equal([3993, 200]);
  });
});

describe('dates and canonical JSON', () => {
  it('formats dates to the second with Z', () => {
    expect(formatUtcDate(new Date('2025-03-04T05:06:07.890Z'))).to.equal('2025-03-04T05:06:07Z');
    expect(parseUtcDate('0999-12-31T23:59:59Z')?.toISOString()).to.equal('0999-12-31T23:59:59.000Z');
  });

  it('canonical JSON ignores key order and spacing', () => {
    expect(canonicalJson(JSON.parse('{"b":1, "a":{"d":[1,{"y":2,"x":1}],"c":null}}'))).to.equal('{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}');
  });

  it('canonical JSON is the text the recursive walk made (stored Idempotency-Key hashes stay valid), also nested 10,000 deep', () => {
    const recursive = (value: unknown): string => {
      if (Array.isArray(value)) return `[${value.map(recursive).join(',')}]`;
      if (value !== null && typeof value === 'object') {
        return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${recursive((value as Record<string, unknown>)[k])}`).join(',')}}`;
      }
      return JSON.stringify(value) ?? 'null';
    };
    fc.assert(fc.property(fc.jsonValue(), (v) => canonicalJson(v) === recursive(v)), { numRuns: 500 });
    for (const [open, close] of [['{"a":', '}'], ['[', ']']]) {
      const text = open.repeat(10_000) + '1' + close.repeat(10_000);
      expect(canonicalJson(JSON.parse(text))).to.equal(text);
    }
  });
});

describe('cursor codec', () => {
  const codec = createCursorCodec(randomBytes(32));
  const site = '11111111-1111-4111-8111-111111111111';
  const input = validateListInput({ limit: 5, status: ['sent', 'draft'] });
  const position = { sortKey: '2025-01-01T12:00:00.123456Z', id: '22222222-2222-4222-8222-222222222222' };
  const cursor = codec.encode(site, input, position);

  it('round-trips for the same site, filters and limit (status as a set)', () => {
    expect(codec.decode(cursor, site, validateListInput({ limit: 5, status: ['draft', 'sent', 'draft'] }))).to.deep.equal(position);
  });

  it('rejects every single-character change, truncation, other site, filters, limit or secret', () => {
    for (let i = 0; i < cursor.length; i++) {
      const flipped = cursor.slice(0, i) + String.fromCharCode(cursor.charCodeAt(i) ^ 1) + cursor.slice(i + 1);
      expect(codec.decode(flipped, site, input), `flip at ${i}`).to.equal(null);
    }
    for (const len of [1, 10, cursor.length - 1]) expect(codec.decode(cursor.slice(0, len), site, input)).to.equal(null);
    expect(codec.decode(cursor, '33333333-3333-4333-8333-333333333333', input)).to.equal(null);
    expect(codec.decode(cursor, site, validateListInput({ limit: 5, status: ['sent'] }))).to.equal(null);
    expect(codec.decode(cursor, site, validateListInput({ limit: 6, status: ['sent', 'draft'] }))).to.equal(null);
    expect(createCursorCodec(randomBytes(32)).decode(cursor, site, input)).to.equal(null);
  });
});
