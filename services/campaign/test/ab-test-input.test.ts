// A create's `abTest` (campaigns/ab-test-input.ts): the test's shape with a message per wrong part,
// each variant field checked by exactly the rule of the create's field of the same name (its
// message prefixed with the variant), each variant's notification within one push; normalised;
// and whatever the field holds, an A/B test or refusals, never anything else.
import { expect } from 'chai';
import fc from 'fast-check';
import { validateCreateInput } from '../src/campaigns/create-input.js';
import { ValidationError } from '../src/base/errors.js';
import { MESSAGES } from '../src/base/texts.js';

const campaign = (abTest: unknown, overrides: Record<string, unknown> = {}) => ({
  title: 'Big sale',
  body: 'Everything half price',
  link: 'https://shop.example/sale',
  topics: ['sports'],
  status: 'published',
  scheduleMode: 'now',
  abTest,
  ...overrides,
});
const test = (overrides: Record<string, unknown> = {}) => ({ variants: [{}, { title: 'Bigger sale' }], testPercent: 20, winnerMetric: 'ctr', windowMinutes: 60, ...overrides });

function outcome(body: Record<string, unknown>): { abTest: unknown } | { messages: string[] } {
  try {
    return { abTest: validateCreateInput(body).abTest };
  } catch (err) {
    expect(err).to.be.instanceOf(ValidationError);
    return { messages: [...(err as ValidationError).messages] };
  }
}
const v = (i: number, message: string) => `abTest.variants[${i}]: ${message}`;

describe('create validation: abTest', () => {
  it('is none when absent or null', () => {
    for (const abTest of [undefined, null]) expect(outcome(campaign(abTest))).to.deep.equal({ abTest: null });
  });

  it('is stored normalised: the test\'s fields and each variant\'s in a fixed order, the field rules\' values', () => {
    expect(
      outcome(
        campaign({
          windowMinutes: 10080,
          winnerMetric: 'impressions',
          variants: [{}, { callToAction: null, title: 'Other title', icon: '' }, { image: 'https://cdn.example/b.png', link: 'https://shop.example/b', body: 'Another body' }],
          testPercent: 100,
        }),
      ),
    ).to.deep.equal({
      abTest: {
        variants: [{}, { title: 'Other title', icon: null, callToAction: '' }, { body: 'Another body', link: 'https://shop.example/b', image: 'https://cdn.example/b.png' }],
        testPercent: 100,
        winnerMetric: 'impressions',
        windowMinutes: 10080,
      },
    });
    expect(outcome(campaign(test({ testPercent: 1, windowMinutes: 1, winnerMetric: 'ctr', variants: [{}, {}, {}, {}, {}] })))).to.have.property('abTest');
  });

  it('refuses a test that is not an object, and names the first unknown field (escaped, cut short)', () => {
    for (const abTest of ['ab', 7, true, [], [test()]]) expect(outcome(campaign(abTest)), JSON.stringify(abTest)).to.deep.equal({ messages: [MESSAGES.abTestObject] });
    expect(outcome(campaign(test({ colour: 'red', size: 1 })))).to.deep.equal({ messages: ['abTest has an unknown field: colour'] });
    expect(outcome(campaign(JSON.parse('{"variants": [{}, {}], "testPercent": 5, "winnerMetric": "ctr", "windowMinutes": 5, "__proto__": {"x": 1}}')))).to.deep.equal({
      messages: ['abTest has an unknown field: __proto__'],
    });
    expect(outcome(campaign(test({ ['a\u0000b' + 'x'.repeat(100)]: 1 })))).to.deep.equal({ messages: [`abTest has an unknown field: a\\u0000b${'x'.repeat(31)}…`] });
  });

  it('names each wrong part of the test, in order', () => {
    expect(outcome(campaign({}))).to.deep.equal({ messages: [MESSAGES.abTestVariants, MESSAGES.abTestTestPercent, MESSAGES.abTestWinnerMetric, MESSAGES.abTestWindowMinutes] });
    expect(outcome(campaign({ variants: [{}], testPercent: 0, winnerMetric: 'clicks', windowMinutes: 10081 }))).to.deep.equal({
      messages: [MESSAGES.abTestVariants, MESSAGES.abTestTestPercent, MESSAGES.abTestWinnerMetric, MESSAGES.abTestWindowMinutes],
    });
    for (const variants of [[], [{}], Array(6).fill({}), 'two', [{}, null], [{}, []], [{}, 'title']]) {
      expect(outcome(campaign(test({ variants }))), JSON.stringify(variants)).to.deep.equal({ messages: [MESSAGES.abTestVariants] });
    }
    for (const testPercent of [0, 101, 50.5, '50', null, -1]) expect(outcome(campaign(test({ testPercent })))).to.deep.equal({ messages: [MESSAGES.abTestTestPercent] });
    for (const windowMinutes of [0, 10081, 1.5, '60', null]) expect(outcome(campaign(test({ windowMinutes })))).to.deep.equal({ messages: [MESSAGES.abTestWindowMinutes] });
    for (const winnerMetric of ['CTR', 'clicks', null, 1]) expect(outcome(campaign(test({ winnerMetric })))).to.deep.equal({ messages: [MESSAGES.abTestWinnerMetric] });
    expect(outcome(campaign(test({ testPercent: 50.0, windowMinutes: 60.0 })))).to.have.property('abTest');
  });

  it('checks each variant field with the create\'s rule for that field, the message prefixed with the variant', () => {
    expect(
      outcome(
        campaign(
          test({
            variants: [
              { title: 'ab', body: 'x'.repeat(301) },
              { link: 'javascript:alert(1)', icon: 'http://cdn.example/i.png', image: 'ftp://x', callToAction: 'x'.repeat(21) },
              { title: null, link: null, colour: 'red' },
              { title: 'Ti\u0000tle' },
            ],
          }),
        ),
      ),
    ).to.deep.equal({
      messages: [
        v(0, MESSAGES.titleLength),
        v(0, MESSAGES.bodyLength),
        v(1, MESSAGES.linkUrl),
        v(1, MESSAGES.iconUrl),
        v(1, MESSAGES.imageUrl),
        v(1, MESSAGES.callToActionLength),
        'abTest.variants[2] has an unknown field: colour',
        v(2, MESSAGES.titleRequired),
        v(2, MESSAGES.linkRequired),
        v(3, MESSAGES.titleCharacters),
      ],
    });
    expect(v(1, MESSAGES.titleLength)).to.equal('abTest.variants[1]: Title must be between 3 and 100 characters');
    // The same rules as the create's own fields: an emoji is one character, a title is stored as sent.
    expect(outcome(campaign(test({ variants: [{}, { title: '👍🏽👨‍👩‍👧🇧🇷' }, { title: '  abc  ' }] })))).to.deep.equal({
      abTest: { variants: [{}, { title: '👍🏽👨‍👩‍👧🇧🇷' }, { title: '  abc  ' }], testPercent: 20, winnerMetric: 'ctr', windowMinutes: 60 },
    });
  });

  it('refuses a variant whose notification would not fit one push, as for the campaign\'s own', () => {
    const long = 'https://shop.example/' + 'a'.repeat(2000);
    const body = 'é'.repeat(300);
    // The campaign fits; its variant with a long image and icon besides does not.
    expect(outcome(campaign(test({ variants: [{}, { icon: long, image: long }] }), { body, link: long }))).to.deep.equal({
      messages: [v(1, MESSAGES.notificationTooLarge)],
    });
    expect(outcome(campaign(test({ variants: [{ title: 'Other title' }, { icon: null, image: null }] }), { body, link: long, icon: long, image: long }))).to.deep.equal({
      messages: [MESSAGES.notificationTooLarge, v(0, MESSAGES.notificationTooLarge)],
    });
  });

  it('comes after the spec\'s messages and the other additions\', joined in order', () => {
    expect(outcome(campaign(test({ testPercent: 0 }), { title: 'ab', localTime: '09:00' }))).to.deep.equal({
      messages: [MESSAGES.titleLength, MESSAGES.localTimeScheduled, MESSAGES.abTestTestPercent],
    });
  });

  it('whatever `abTest` holds, validation answers an A/B test or refusals about it, never anything else', () => {
    const field = fc.constantFrom('title', 'body', 'link', 'icon', 'image', 'callToAction', 'colour');
    const value = fc.oneof(fc.anything(), fc.string(), fc.constantFrom('Fine title', 'https://cdn.example/x.png', null, ''));
    const variant = fc.oneof(fc.dictionary(field, value, { maxKeys: 4 }), fc.anything());
    const abTest = fc.oneof(
      fc.anything(),
      fc.record(
        { variants: fc.oneof(fc.array(variant, { maxLength: 6 }), fc.anything()), testPercent: fc.oneof(fc.integer({ min: -5, max: 105 }), fc.anything()), winnerMetric: fc.oneof(fc.constantFrom('ctr', 'impressions', 'x'), fc.anything()), windowMinutes: fc.oneof(fc.integer({ min: 0, max: 10100 }), fc.anything()), extra: fc.anything() },
        { requiredKeys: ['variants', 'testPercent', 'winnerMetric', 'windowMinutes'] },
      ),
    );
    fc.assert(
      fc.property(abTest, (t) => {
        const o = outcome(campaign(t));
        if ('messages' in o) return o.messages.length > 0 && o.messages.every((m) => m.startsWith('abTest'));
        const stored = o.abTest as { variants: unknown[]; testPercent: number } | null;
        return stored === null || (stored.variants.length >= 2 && stored.variants.length <= 5 && Number.isInteger(stored.testPercent));
      }),
      { numRuns: 1000 },
    );
  });
});
