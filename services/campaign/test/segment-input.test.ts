// A create's `segment` (campaigns/segment-input.ts): each wrong condition named once, in order, after
// the spec's messages; a right one normalised so equal segments are stored alike; and whatever
// the field holds, validation answers (never throws anything but its own refusal).
import { expect } from 'chai';
import fc from 'fast-check';
import { validateCreateInput } from '../src/campaigns/create-input.js';
import { ValidationError } from '../src/base/errors.js';
import { fill, MESSAGES } from '../src/base/texts.js';

const valid = (segment: unknown) => ({ title: 'Big sale', body: 'Everything half price', link: 'https://shop.example/sale', topics: ['sports'], status: 'published', scheduleMode: 'now', segment });

function outcome(segment: unknown): { segment: unknown } | { messages: string[] } {
  try {
    return { segment: validateCreateInput(valid(segment)).segment };
  } catch (err) {
    expect(err).to.be.instanceOf(ValidationError);
    return { messages: [...(err as ValidationError).messages] };
  }
}

describe('create validation: segment', () => {
  it('is none when absent, null or empty', () => {
    for (const s of [undefined, null, {}]) expect(outcome(s)).to.deep.equal({ segment: null });
  });

  it('normalises every condition: lowercase languages, sorted distinct lists, dates to the second, fields in a fixed order', () => {
    expect(
      outcome({
        notEngagedForDays: 90,
        browsers: ['firefox', 'chrome', 'firefox'],
        languages: ['pt-BR', 'EN', 'pt-br'],
        timeZones: ['UTC', 'America/Sao_Paulo'],
        utcOffset: { max: 60, min: -180 },
        subscribedBefore: '2026-02-01T00:00:00.900Z',
        subscribedAfter: '2026-01-01T00:00:00+00:00',
        engagedWithinDays: 365,
      }),
    ).to.deep.equal({
      segment: {
        languages: ['en', 'pt-br'],
        timeZones: ['America/Sao_Paulo', 'UTC'],
        utcOffset: { min: -180, max: 60 },
        browsers: ['chrome', 'firefox'],
        subscribedAfter: '2026-01-01T00:00:00Z',
        subscribedBefore: '2026-02-01T00:00:00Z',
        engagedWithinDays: 365,
        notEngagedForDays: 90,
      },
    });
  });

  it('names each zone by its IANA name, so a segment on one name reaches the subscribers who reported another', () => {
    expect(outcome({ timeZones: ['Asia/Calcutta', 'Asia/Kolkata', 'Europe/Kiev', 'Etc/UTC'] })).to.deep.equal({
      segment: { timeZones: ['Asia/Kolkata', 'Europe/Kyiv', 'UTC'] },
    });
  });

  it('names every wrong condition, in order', () => {
    expect(
      outcome({
        languages: ['portuguese!'],
        timeZones: ['Mars/Olympus_Mons'],
        utcOffset: { min: 60, max: -60 },
        browsers: ['netscape'],
        subscribedAfter: '2026-01-01',
        subscribedBefore: 'tomorrow',
        engagedWithinDays: 0,
        notEngagedForDays: 1.5,
      }),
    ).to.deep.equal({
      messages: [
        MESSAGES.segmentLanguages,
        MESSAGES.segmentTimeZones,
        MESSAGES.segmentUtcOffset,
        MESSAGES.segmentBrowsers,
        'segment.subscribedAfter must be a UTC date-time (e.g. 2025-01-01T12:00:00Z)',
        'segment.subscribedBefore must be a UTC date-time (e.g. 2025-01-01T12:00:00Z)',
        MESSAGES.segmentEngagedWithin,
        MESSAGES.segmentNotEngagedFor,
      ],
    });
    expect(outcome({ subscribedAfter: '2026-02-01T00:00:00Z', subscribedBefore: '2026-01-01T00:00:00Z' })).to.deep.equal({ messages: [MESSAGES.segmentSubscribedOrder] });
    for (const s of ['young', [], 7, { languages: ['pt'], colour: 'red' }, JSON.parse('{"__proto__": {"languages": ["pt"]}}')]) {
      expect(outcome(s), JSON.stringify(s)).to.deep.equal({ messages: [MESSAGES.segmentObject] });
    }
    expect(outcome({ languages: [] })).to.deep.equal({ messages: [MESSAGES.segmentLanguages] });
    expect(outcome({ languages: Array(51).fill('pt') })).to.deep.equal({ messages: [MESSAGES.segmentLanguages] });
    expect(outcome({ utcOffset: { min: -721, max: 0 } })).to.deep.equal({ messages: [MESSAGES.segmentUtcOffset] });
    expect(outcome({ utcOffset: { min: 0, max: 0, extra: 1 } })).to.deep.equal({ messages: [MESSAGES.segmentUtcOffset] });
  });

  it('comes after the spec\'s messages when the rest of the body is wrong too', () => {
    const messages = (() => {
      try {
        validateCreateInput({ ...valid({ browsers: [] }), title: '' });
        return [];
      } catch (err) {
        return [...(err as ValidationError).messages];
      }
    })();
    expect(messages).to.deep.equal([MESSAGES.titleRequired, MESSAGES.segmentBrowsers]);
  });

  it('whatever `segment` holds, validation answers a segment or refusals, never anything else', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.dictionary(fc.constantFrom('languages', 'timeZones', 'utcOffset', 'browsers', 'subscribedAfter', 'engagedWithinDays', 'tags'), fc.anything())), (s) => {
        const o = outcome(s);
        if ('messages' in o) return o.messages.length > 0 && o.messages.every((m) => m.startsWith('segment'));
        return true;
      }),
      { numRuns: 500 },
    );
  });

  describe('tag conditions', () => {
    const at = (template: string, i: number, operator = '') => fill(template, { i: String(i), operator });

    it('normalises each operator: a date-like string is a date (its UTC instant), in-lists sorted without repeats, conditions sorted without repeats', () => {
      expect(
        outcome({
          tags: [
            { operator: 'equals', key: 'plan', value: 'pro' },
            { key: 'signup', operator: 'equals', value: '2026-12-07' },
            { key: 'plan', operator: 'in', values: ['pro', 3, 'pro', true, '2026-12-07T10:00:00+01:00', '3'] },
            { key: 'vip', operator: 'exists' },
            { key: 'churned', operator: 'notExists' },
            { key: 'score', operator: 'gte', value: 10.5 },
            { key: 'score', operator: 'lt', value: -1 },
            { key: 'last_order', operator: 'after', value: '-P7D' },
            { key: 'last_order', operator: 'before', value: '2026-01-01T00:00:00+02:00' },
            { key: 'vip', operator: 'exists' },
          ],
        }),
      ).to.deep.equal({
        segment: {
          tags: [
            { key: 'churned', operator: 'notExists' },
            { key: 'last_order', operator: 'after', value: '-P7D' },
            { key: 'last_order', operator: 'before', value: '2025-12-31T22:00:00.000Z' },
            { key: 'plan', operator: 'equals', value: 'pro' },
            { key: 'plan', operator: 'in', values: ['2026-12-07T09:00:00.000Z', '3', 'pro', 3, true] },
            { key: 'score', operator: 'gte', value: 10.5 },
            { key: 'score', operator: 'lt', value: -1 },
            { key: 'signup', operator: 'equals', value: '2026-12-07T00:00:00.000Z' },
            { key: 'vip', operator: 'exists' },
          ],
        },
      });
    });

    it('combines with the other conditions (every one must hold), in their fixed order', () => {
      expect(outcome({ tags: [{ key: 'a', operator: 'exists' }], browsers: ['chrome'] })).to.deep.equal({ segment: { browsers: ['chrome'], tags: [{ key: 'a', operator: 'exists' }] } });
    });

    it('names each wrong condition by its index: unknown operator, wrong value type for the operator, too many conditions, too long', () => {
      expect(
        outcome({
          tags: [
            { key: 'plan', operator: 'like', value: 'p%' },
            { key: 'Plan', operator: 'equals', value: 'pro' },
            { key: 'score', operator: 'gt', value: '5' },
            { key: 'last', operator: 'before', value: 'yesterday' },
            { key: 'last', operator: 'after', value: 'P1M' },
            { key: 'plan', operator: 'equals', value: 'x'.repeat(257) },
            { key: 'plan', operator: 'in', values: Array(101).fill('a') },
            { key: 'vip', operator: 'exists', value: true },
            { key: 'plan', operator: 'equals', value: '2026-02-30' },
            { key: 'plan', operator: 'equals', value: 'a\u0000b' },
          ],
        }),
      ).to.deep.equal({
        messages: [
          at(MESSAGES.segmentTagOperator, 0),
          at(MESSAGES.segmentTagKey, 1),
          at(MESSAGES.segmentTagNumber, 2, 'gt'),
          at(MESSAGES.segmentTagDate, 3, 'before'),
          at(MESSAGES.segmentTagDate, 4, 'after'),
          at(MESSAGES.segmentTagEquals, 5),
          at(MESSAGES.segmentTagIn, 6),
          at(MESSAGES.segmentTagNoValue, 7, 'exists'),
          at(MESSAGES.segmentTagEquals, 8),
          at(MESSAGES.segmentTagCharacters, 9),
        ],
      });
      expect(outcome({ tags: Array(11).fill({ key: 'a', operator: 'exists' }) })).to.deep.equal({ messages: [MESSAGES.segmentTags] });
      for (const t of [[], {}, 'plan', null]) expect(outcome({ tags: t }), JSON.stringify(t)).to.deep.equal({ messages: [MESSAGES.segmentTags] });
      expect(outcome({ tags: [{ key: 'a', operator: 'equals', value: 1, extra: 1 }] })).to.deep.equal({ messages: [at(MESSAGES.segmentTagCondition, 0)] });
      expect(outcome({ tags: [{ key: 'a', operator: 'equals', values: [1] }] })).to.deep.equal({ messages: [at(MESSAGES.segmentTagCondition, 0)] });
      expect(outcome({ tags: [{ key: 'a', operator: 'gt', value: 1e400 }] })).to.deep.equal({ messages: [at(MESSAGES.segmentTagNumber, 0, 'gt')] });
      expect(outcome({ tags: [{ key: 'a', operator: 'after', value: 'P3651D' }] })).to.deep.equal({ messages: [at(MESSAGES.segmentTagDate, 0, 'after')] });
      expect(outcome({ tags: [{ key: 'a', operator: 'after', value: 'P3650D' }] })).to.deep.equal({ segment: { tags: [{ key: 'a', operator: 'after', value: 'P3650D' }] } });
    });

    it('whatever a tag condition holds, validation answers a segment or refusals naming segment.tags', () => {
      const condition = fc.dictionary(fc.constantFrom('key', 'operator', 'value', 'values', 'other'), fc.oneof(fc.anything(), fc.constantFrom('plan', 'equals', 'in', 'gt', 'before', 'exists', '-P7D', '2026-12-07')));
      fc.assert(
        fc.property(fc.array(fc.oneof(condition, fc.anything()), { maxLength: 12 }), (tags) => {
          const o = outcome({ tags });
          if ('messages' in o) return o.messages.length > 0 && o.messages.every((m) => m.startsWith('segment.tags'));
          return true;
        }),
        { numRuns: 500 },
      );
    });
  });
});
