// A create's `segment` (campaigns/segment-input.ts): each wrong condition named once, in order, after
// the spec's messages; a right one normalised so equal segments are stored alike; and whatever
// the field holds, validation answers (never throws anything but its own refusal).
import { expect } from 'chai';
import fc from 'fast-check';
import { validateCreateInput } from '../src/campaigns/create-input.js';
import { ValidationError } from '../src/base/errors.js';
import { MESSAGES } from '../src/base/texts.js';

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
      fc.property(fc.oneof(fc.anything(), fc.dictionary(fc.constantFrom('languages', 'timeZones', 'utcOffset', 'browsers', 'subscribedAfter', 'engagedWithinDays'), fc.anything())), (s) => {
        const o = outcome(s);
        if ('messages' in o) return o.messages.length > 0 && o.messages.every((m) => m.startsWith('segment'));
        return true;
      }),
      { numRuns: 500 },
    );
  });
});
