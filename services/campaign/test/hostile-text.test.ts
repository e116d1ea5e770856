// Hostile text (issue 10, defects 1–3): NUL and unpaired surrogates in any create or list field
// are a 400 with one message and store nothing; echoed client values are bounded; the gRPC
// status the service answers is always well-formed and bounded, whatever the error holds.
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import fc from 'fast-check';
import type { Logger } from '@webpush/shared/log.js';
import { linkWithUtm } from '@webpush/contracts/campaign-content.js';
import { echoValue, safeText, truncate } from '@webpush/shared/text.js';
import { validateCreateInput } from '../src/campaigns/create-input.js';
import { ValidationError } from '../src/base/errors.js';
import { validateListInput } from '../src/campaigns/list-input.js';
import { MAX_DETAILS_CHARS } from '@webpush/shared/grpc.js';
import { toStatus } from '../src/grpc/status.js';
import { rejection, startHarness, validCampaign, type Harness, type TestSite } from './support/harness.js';

const BAD = 'must not contain NUL characters or unpaired surrogates';
const ALLOWED = '. Allowed: draft, scheduled, sent, failed';
const DATE = (name: string) => `Invalid ${name} format. Use ISO format (e.g. 2025-01-01T12:00:00Z)`;

/** One NUL or one unpaired surrogate. */
const poison = fc.oneof(fc.constant('\u0000'), fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)));
/** `base` (ASCII, so the inserted surrogate stays unpaired) with poison inserted at or after `from`. */
const poisoned = (base: string, from = 0) =>
  fc.tuple(fc.integer({ min: from, max: base.length }), poison).map(([i, p]) => base.slice(0, i) + p + base.slice(i));
/** Any UTF-16 code units, lone surrogates and NUL included. */
const codeUnits = (maxLength: number) => fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength });

// Each create field, a valid value to poison, where poison may go, and the one message expected.
// status, scheduleMode and scheduleDate keep the spec's message (docs/api-decisions.md).
type CreateCase = { field: string; value: fc.Arbitrary<unknown>; message: string; extra?: Record<string, unknown> };
const CREATE_CASES: CreateCase[] = [
  { field: 'title', value: poisoned('Big sale'), message: `Title ${BAD}` },
  { field: 'body', value: poisoned('Everything half price'), message: `Body ${BAD}` },
  { field: 'link', value: poisoned('https://shop.example/sale?a=1#x'), message: `Link ${BAD}` },
  { field: 'topics', value: fc.tuple(poisoned('sports'), fc.nat(2)).map(([t, i]) => ['news', 'tech'].toSpliced(i, 0, t)), message: `Topics ${BAD}` },
  { field: 'countries', value: fc.tuple(poisoned('country__br'), fc.nat(1)).map(([c, i]) => ['us'].toSpliced(i, 0, c)), message: `Countries ${BAD}` },
  { field: 'callToAction', value: poisoned('Buy now'), message: `Call to action ${BAD}` },
  { field: 'icon', value: poisoned('https://cdn.example/i.png', 8), message: `Icon ${BAD}` },
  { field: 'image', value: poisoned('https://cdn.example/big.png', 8), message: `Image ${BAD}` },
  { field: 'utmSource', value: poisoned('newsletter'), message: `utmSource ${BAD}` },
  { field: 'utmMedium', value: poisoned('push'), message: `utmMedium ${BAD}` },
  { field: 'utmCampaign', value: poisoned('sale-2026'), message: `utmCampaign ${BAD}` },
  { field: 'status', value: poisoned('draft'), message: 'Invalid campaign status' },
  { field: 'scheduleMode', value: poisoned('now'), message: 'Invalid schedule mode' },
  { field: 'scheduleDate', value: poisoned('2031-01-01T00:00:00Z'), message: DATE('schedule date'), extra: { scheduleMode: 'scheduled' } },
];
const createCase = fc.constantFrom(...CREATE_CASES).chain((c) => c.value.map((value) => ({ ...c, body: validCampaign({ ...c.extra, [c.field]: value }) })));

type ListCase = { field: string; value: fc.Arbitrary<unknown>; message: (value: unknown) => string };
const LIST_CASES: ListCase[] = [
  { field: 'status', value: poisoned('draft').map((s) => [s]), message: (v) => `Invalid status values: ${echoValue((v as string[])[0], 40)}${ALLOWED}` },
  { field: 'status', value: poisoned('sent'), message: (v) => `Invalid status values: ${echoValue(v as string, 40)}${ALLOWED}` },
  { field: 'dateField', value: poisoned('createdAt'), message: () => 'dateField must be createdAt or scheduleDate' },
  { field: 'startDate', value: poisoned('2025-01-01T00:00:00Z'), message: () => DATE('startDate') },
  { field: 'endDate', value: poisoned('2025-01-01T00:00:00Z'), message: () => DATE('endDate') },
  { field: 'cursor', value: poisoned('eyJ2IjoxfQ.AAAA'), message: () => 'Invalid pagination cursor' },
];
const listCase = fc.constantFrom(...LIST_CASES).chain((c) => c.value.map((value) => ({ body: { [c.field]: value }, message: c.message(value) })));

function messagesOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(ValidationError);
    return [...(err as ValidationError).messages];
  }
  return [];
}

const silent: Logger = { debug() {}, info() {}, warn() {}, error() {} } as unknown as Logger;

describe('hostile text: validation', () => {
  it('property: NUL or an unpaired surrogate in any create field gives exactly that field\'s one message', () => {
    fc.assert(
      fc.property(createCase, (c) => {
        expect(messagesOf(() => validateCreateInput(c.body)), c.field).to.deep.equal([c.message]);
      }),
      { numRuns: 400 },
    );
  });

  it('the spec\'s checks of a field come first: a too-long title with a NUL gets the length message only', () => {
    expect(messagesOf(() => validateCreateInput(validCampaign({ title: '\u0000'.repeat(101) })))).to.deep.equal(['Title must be between 3 and 100 characters']);
    expect(messagesOf(() => validateCreateInput(validCampaign({ icon: 'http://x/\u0000' })))).to.deep.equal(['Icon must be a valid URL']);
    expect(messagesOf(() => validateCreateInput(validCampaign({ topics: [1, '\u0000'] })))).to.deep.equal(['At least one topic or country must be specified']);
  });

  it('when every text field is poisoned, then each message comes once, in the spec table\'s order', () => {
    const body = {
      title: 'ab\u0000', body: 'abc\ud800', link: 'https://a.example/\udc00', topics: ['\u0000'], countries: ['\ud800'],
      callToAction: '\u0000', icon: 'https://\u0000', image: 'https://\ud800', utmSource: '\u0000', utmMedium: '\u0000', utmCampaign: '\u0000',
      status: 'draft\u0000', scheduleMode: 'now\u0000',
    };
    expect(messagesOf(() => validateCreateInput(body))).to.deep.equal([
      `Title ${BAD}`, `Body ${BAD}`, `Link ${BAD}`, `Topics ${BAD}`, `Countries ${BAD}`, `Call to action ${BAD}`, `Icon ${BAD}`, `Image ${BAD}`,
      `utmSource ${BAD}`, `utmMedium ${BAD}`, `utmCampaign ${BAD}`, 'Invalid campaign status', 'Invalid schedule mode',
    ]);
  });

  it('paired surrogates (emoji) are text, not poison', () => {
    expect(messagesOf(() => validateCreateInput(validCampaign({ title: '👍🏽 sale', topics: ['🎵'], utmSource: '🔥' })))).to.deep.equal([]);
  });

  it('property: NUL or an unpaired surrogate in any list field gives that field\'s message (the spec\'s, value escaped in the echo)', () => {
    fc.assert(
      fc.property(listCase, (c) => {
        // The cursor is only decoded by the use case; its validation lets a non-empty string through.
        if ('cursor' in c.body) return;
        const messages = messagesOf(() => validateListInput(c.body));
        expect(messages).to.deep.equal([c.message]);
        expect(messages[0].isWellFormed() && !messages[0].includes('\u0000')).to.equal(true);
      }),
      { numRuns: 300 },
    );
  });

  it('huge values cost no more than long ones: a 1,000,000-character title is refused in well under a second', () => {
    const started = Date.now();
    expect(messagesOf(() => validateCreateInput(validCampaign({ title: 'é̀'.repeat(500_000), callToAction: '👨‍👩‍👧'.repeat(300_000) })))).to.deep.equal([
      'Title must be between 3 and 100 characters',
      'Call to action must not exceed 20 characters',
    ]);
    expect(messagesOf(() => validateCreateInput(validCampaign({ topics: Array(5000).fill('a') })))).to.deep.equal(['At most 100 topics and countries may be specified']);
    expect(Date.now() - started).to.be.below(1000);
  });
});

describe('hostile text: echoed values are bounded', () => {
  it('a 75,000-character status value is echoed as its first 39 characters and "…"', () => {
    expect(messagesOf(() => validateListInput({ status: ['x'.repeat(75_000)] }))).to.deep.equal([`Invalid status values: ${'x'.repeat(39)}…${ALLOWED}`]);
  });

  it('at most 5 values are shown, then how many more; control characters and lone surrogates are escaped', () => {
    const status = ['a', 'b\u0000', '\ud800', 'd', 'e', 'f', 'g', 'draft'];
    expect(messagesOf(() => validateListInput({ status }))).to.deep.equal([`Invalid status values: a, b\\u0000, \\ud800, d, e and 2 more${ALLOWED}`]);
    expect(messagesOf(() => validateListInput({ status: [1, null, { a: 'x'.repeat(100) }] }))).to.deep.equal([
      `Invalid status values: 1, null, {"a":"${'x'.repeat(33)}…${ALLOWED}`,
    ]);
  });

  it('property: whatever the status filter holds, the message is well-formed, has no NUL and stays under 400 characters', () => {
    const value = fc.oneof(codeUnits(2000), fc.jsonValue({ maxDepth: 3 }));
    fc.assert(
      fc.property(fc.oneof(value, fc.array(value, { maxLength: 50 })), (status) => {
        const messages = messagesOf(() => validateListInput({ status }));
        for (const m of messages) {
          expect(m.length).to.be.at.most(400);
          expect(m.isWellFormed() && !m.includes('\u0000')).to.equal(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('property: echoValue, truncate and safeText never exceed their bound and safeText is always well-formed', () => {
    fc.assert(
      fc.property(codeUnits(300), fc.integer({ min: 1, max: 100 }), (text, max) => {
        expect(truncate(text, max).length).to.be.at.most(max);
        expect(echoValue(text, max).length).to.be.at.most(max);
        const safe = safeText(text, max);
        expect(safe.length).to.be.at.most(max);
        expect(safe.isWellFormed()).to.equal(true);
        if (text.length <= max && text.isWellFormed()) expect(safe).to.equal(text);
      }),
      { numRuns: 500 },
    );
  });
});

describe('hostile text: the status the service answers', () => {
  const anyError = fc.oneof(
    codeUnits(10_000).map((m) => new ValidationError([m])),
    fc.array(codeUnits(2_000), { maxLength: 40 }).map((ms) => new ValidationError(ms)),
    codeUnits(5_000).map((m) => new Error(m)),
    fc.anything(),
  );

  it(`property: toStatus never throws; details are well-formed, encodeURI-safe and at most ${MAX_DETAILS_CHARS} characters`, () => {
    fc.assert(
      fc.property(anyError, fc.constantFrom('CreateCampaign', 'ListCampaigns'), (err, method) => {
        const status = toStatus(err, method, silent);
        expect(status.details!.length).to.be.at.most(MAX_DETAILS_CHARS);
        expect(status.details!.isWellFormed()).to.equal(true);
        expect(() => encodeURI(status.details!)).to.not.throw();
      }),
      { numRuns: 300 },
    );
  });

  it('toStatus answers even when the log itself throws', () => {
    const throwing = { ...silent, error() { throw new Error('log down'); } } as Logger;
    expect(toStatus(new Error('boom'), 'ListCampaigns', throwing)).to.deep.equal({ code: grpc.status.INTERNAL, details: 'Internal server error' });
  });

  it('property: linkWithUtm never throws, whatever the link and the UTM values hold', () => {
    fc.assert(
      fc.property(codeUnits(100), codeUnits(50), codeUnits(50), codeUnits(50), (link, utmSource, utmMedium, utmCampaign) => {
        expect(() => linkWithUtm(link, { utmSource, utmMedium, utmCampaign })).to.not.throw();
      }),
      { numRuns: 300 },
    );
  });
});

describe('hostile text: over gRPC, against Postgres', function () {
  this.timeout(60_000);
  let h: Harness;
  let site: TestSite;
  let other: TestSite;
  const campaignCount = async () => Number((await h.pool.query('SELECT count(*) FROM campaign.campaigns')).rows[0].count);
  const create = (s: TestSite, body: unknown) => h.call('CreateCampaign', { siteId: s.siteId, bodyJson: JSON.stringify(body), idempotencyKey: '' });
  const list = (s: TestSite, body: unknown) => h.call('ListCampaigns', { siteId: s.siteId, bodyJson: JSON.stringify(body) });

  before(async () => {
    h = await startHarness('campaign_hostile_text');
    site = await h.newSite();
    other = await h.newSite();
  });
  after(async () => h?.stop());

  it('property: a create with NUL or an unpaired surrogate in any field answers INVALID_ARGUMENT with one message and stores nothing', async () => {
    const before_ = await campaignCount();
    await fc.assert(
      fc.asyncProperty(createCase, async (c) => {
        const err = await rejection(create(site, c.body));
        expect({ code: err.code, details: err.details }, c.field).to.deep.equal({ code: grpc.status.INVALID_ARGUMENT, details: c.message });
      }),
      { numRuns: 120 },
    );
    expect(await campaignCount()).to.equal(before_);
    // Still serving: a valid create goes through.
    await create(site, validCampaign());
    expect(await campaignCount()).to.equal(before_ + 1);
  });

  it('property: a list with NUL or an unpaired surrogate in any field answers INVALID_ARGUMENT with its message', async () => {
    await fc.assert(
      fc.asyncProperty(listCase, async (c) => {
        const err = await rejection(list(site, c.body));
        expect({ code: err.code, details: err.details }).to.deep.equal({ code: grpc.status.INVALID_ARGUMENT, details: c.message });
      }),
      { numRuns: 120 },
    );
  });

  it('defect 1: a lone surrogate in the status filter is answered (not a crash) and the service keeps serving', async () => {
    for (const status of [['\ud800'], '\ud800', ['\udfff', 'draft']]) {
      const err = await rejection(list(site, { status }));
      expect(err.code).to.equal(grpc.status.INVALID_ARGUMENT);
      expect(err.details).to.match(/^Invalid status values: \\ud(800|fff)\. Allowed/);
    }
    await list(other, {});
  });

  it('defect 2: a 75,000-character status value is answered at once and other sites\' concurrent calls are unaffected', async () => {
    const started = Date.now();
    const big = rejection(list(site, { status: ['x'.repeat(75_000)] }));
    const others = Array.from({ length: 10 }, () => list(other, {}));
    const err = await big;
    expect(err.code).to.equal(grpc.status.INVALID_ARGUMENT);
    expect(err.details).to.equal(`Invalid status values: ${'x'.repeat(39)}…${ALLOWED}`);
    await Promise.all(others);
    expect(Date.now() - started).to.be.below(3000);
  });

  it('NUL in a topic, a country or the title never reaches Postgres (it would refuse it: a 500 before)', async () => {
    const before_ = await campaignCount();
    for (const overrides of [{ title: 'Big\u0000sale' }, { topics: ['spo\u0000rts'] }, { countries: ['b\u0000r'] }, { utmSource: '\ud800' }]) {
      const err = await rejection(create(site, validCampaign(overrides)));
      expect(err.code, JSON.stringify(overrides)).to.equal(grpc.status.INVALID_ARGUMENT);
    }
    expect(await campaignCount()).to.equal(before_);
  });
});
