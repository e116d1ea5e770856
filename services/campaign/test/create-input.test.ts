import { expect } from 'chai';
import { validateCreateInput, DEFAULT_TTL_SECONDS } from '../src/campaigns/create-input.js';
import { ValidationError } from '../src/base/errors.js';
import { createMessagesFor as messagesFor, validCreateBody as valid } from './support/create-body.js';

const DATE_FORMAT = 'Invalid schedule date format. Use ISO format (e.g. 2025-01-01T12:00:00Z)';

describe('create validation', () => {
  it('when the body is valid, then the input is normalised with defaults', () => {
    const input = validateCreateInput(valid());
    expect(input).to.deep.include({ title: 'Big sale', icon: null, image: null, callToAction: '', utmSource: '', ttl: DEFAULT_TTL_SECONDS, scheduleDate: null });
    expect(input.destinations).to.deep.equal(['sports']);
  });

  describe('title and body', () => {
    for (const missing of [undefined, null, '', '   ']) {
      it(`when title and body are ${JSON.stringify(missing)}, then both are required`, () => {
        expect(messagesFor(valid({ title: missing, body: missing }))).to.deep.equal(['Title is required', 'Body is required']);
      });
    }
    it('when title is too short, too long or not a string, then the length message', () => {
      for (const title of ['ab', 'x'.repeat(101), 42, ['abc'], true]) {
        expect(messagesFor(valid({ title }))).to.deep.equal(['Title must be between 3 and 100 characters']);
      }
    });
    it('when body is too short or too long, then the length message', () => {
      expect(messagesFor(valid({ body: 'ab' }))).to.deep.equal(['Body must be between 3 and 300 characters']);
      expect(messagesFor(valid({ body: 'x'.repeat(301) }))).to.deep.equal(['Body must be between 3 and 300 characters']);
      expect(messagesFor(valid({ body: 'x'.repeat(300) }))).to.deep.equal([]);
    });
    it('when emoji are used, then each grapheme cluster counts as one character', () => {
      expect(messagesFor(valid({ title: '👍🏽👨‍👩‍👧🇧🇷' }))).to.deep.equal([]);
      expect(messagesFor(valid({ title: '👍🏽👨‍👩‍👧' }))).to.deep.equal(['Title must be between 3 and 100 characters']);
      expect(messagesFor(valid({ title: '👨‍👩‍👧'.repeat(100) }))).to.deep.equal([]);
      expect(messagesFor(valid({ title: '👨‍👩‍👧'.repeat(101) }))).to.deep.equal(['Title must be between 3 and 100 characters']);
    });
    it('when the title has surrounding spaces, then it is stored as sent', () => {
      expect(validateCreateInput(valid({ title: '  abc  ' })).title).to.equal('  abc  ');
    });
  });

  describe('link', () => {
    it('when missing, null or empty, then "Link is required"', () => {
      for (const link of [undefined, null, '']) expect(messagesFor(valid({ link }))).to.deep.equal(['Link is required']);
    });
    it('when not an absolute http(s) URL, then "Link must be a valid URL"', () => {
      for (const link of ['javascript:alert(1)', 'data:text/html,hi', 'ftp://x.example', 'shop.example', ' https://x.example', 'https://', 42, 'https://x.example/' + 'a'.repeat(2048)]) {
        expect(messagesFor(valid({ link })), String(link)).to.deep.equal(['Link must be a valid URL']);
      }
    });
    it('when http or https, then accepted', () => {
      expect(messagesFor(valid({ link: 'http://x.example/a?b=c#d' }))).to.deep.equal([]);
    });
  });

  describe('topics and countries', () => {
    it('when both are absent or empty, then an audience is required', () => {
      for (const extra of [{ topics: undefined }, { topics: [] }, { topics: [], countries: [] }, { topics: ['  ', ''] }, { topics: null, countries: null }]) {
        expect(messagesFor(valid(extra))).to.deep.equal(['At least one topic or country must be specified']);
      }
    });
    it('when a value is not an array of strings, then the audience message', () => {
      for (const extra of [{ topics: 'sports' }, { topics: [1] }, { topics: ['a'], countries: 'br' }, { countries: [{}] }]) {
        expect(messagesFor(valid(extra))).to.deep.equal(['At least one topic or country must be specified']);
      }
    });
    it('when names vary in case, spacing, prefix and repeat, then they are normalised and merged in order', () => {
      const input = validateCreateInput(valid({ topics: [' Sports ', 'NEWS', 'sports', ''], countries: ['BR', 'country__us', ' br '] }));
      expect(input.topics).to.deep.equal(['sports', 'news']);
      expect(input.countries).to.deep.equal(['country__br', 'country__us']);
      expect(input.destinations).to.deep.equal(['sports', 'news', 'country__br', 'country__us']);
    });
    it('when only countries are given, then they are the audience', () => {
      expect(validateCreateInput(valid({ topics: undefined, countries: ['br'] })).destinations).to.deep.equal(['country__br']);
    });
    it('when more than 100 names are given, then refused', () => {
      const topics = Array.from({ length: 101 }, (_, i) => `t${i}`);
      expect(messagesFor(valid({ topics }))).to.deep.equal(['At most 100 topics and countries may be specified']);
      expect(messagesFor(valid({ topics: topics.slice(1) }))).to.deep.equal([]);
    });
  });

  describe('optional fields', () => {
    it('when callToAction exceeds 20 characters or is not a string, then refused', () => {
      expect(messagesFor(valid({ callToAction: 'x'.repeat(21) }))).to.deep.equal(['Call to action must not exceed 20 characters']);
      expect(messagesFor(valid({ callToAction: 5 }))).to.deep.equal(['Call to action must not exceed 20 characters']);
      expect(messagesFor(valid({ callToAction: '👍🏽'.repeat(20) }))).to.deep.equal([]);
    });
    it('when icon or image do not start with https://, then each has its message', () => {
      expect(messagesFor(valid({ icon: 'http://x.example/i.png', image: 'x' }))).to.deep.equal(['Icon must be a valid URL', 'Image must be a valid URL']);
      expect(messagesFor(valid({ icon: 'HTTPS://x.example/i.png' }))).to.deep.equal(['Icon must be a valid URL']);
    });
    it('when icon or image are null or empty, then they are null', () => {
      const input = validateCreateInput(valid({ icon: '', image: null }));
      expect([input.icon, input.image]).to.deep.equal([null, null]);
    });
    it('when a UTM parameter is too long or not a string, then refused', () => {
      expect(messagesFor(valid({ utmSource: 'x'.repeat(201), utmMedium: 1, utmCampaign: 'ok' }))).to.deep.equal([
        'utmSource must be a string of at most 200 characters',
        'utmMedium must be a string of at most 200 characters',
      ]);
    });
  });

  describe('status, mode and date', () => {
    it('when status or mode are unknown or missing, then their messages', () => {
      expect(messagesFor(valid({ status: 'sent', scheduleMode: 'later' }))).to.deep.equal(['Invalid campaign status', 'Invalid schedule mode']);
      expect(messagesFor(valid({ status: undefined, scheduleMode: undefined }))).to.deep.equal(['Invalid campaign status', 'Invalid schedule mode']);
      expect(messagesFor(valid({ status: 'Published' }))).to.deep.equal(['Invalid campaign status']);
    });
    it('when scheduled without a date, then the date is required', () => {
      for (const scheduleDate of [undefined, null, '']) {
        expect(messagesFor(valid({ scheduleMode: 'scheduled', scheduleDate }))).to.deep.equal(['Schedule date is required for schedule mode']);
      }
    });
    it('when the date is not an RFC 3339 UTC instant, then the format message', () => {
      for (const scheduleDate of ['2025-01-01T12:00:00+01:00', '2025-01-01T12:00:00-03:00', '2025-01-01T12:00:00+0000', '2025-01-01T12:00:00', '2025-01-01 12:00:00Z', '2025-02-30T12:00:00Z', '2025-01-01T24:00:00Z', '2025-01-01T12:00:00.1234567890Z', '2025-01-01T12:00:60Z', '2025-1-01T12:00:00Z', 1735732800000, 'tomorrow']) {
        expect(messagesFor(valid({ scheduleMode: 'scheduled', scheduleDate })), String(scheduleDate)).to.deep.equal([DATE_FORMAT]);
      }
    });
    it('when the date has milliseconds, then it is truncated to the second', () => {
      expect(validateCreateInput(valid({ scheduleMode: 'scheduled', scheduleDate: '2030-05-06T07:08:09.999Z' })).scheduleDate?.toISOString()).to.equal('2030-05-06T07:08:09.000Z');
      expect(validateCreateInput(valid({ scheduleMode: 'scheduled', scheduleDate: '2030-05-06T07:08:09.123456Z' })).scheduleDate?.toISOString()).to.equal('2030-05-06T07:08:09.000Z');
      expect(validateCreateInput(valid({ scheduleMode: 'scheduled', scheduleDate: '2024-02-29T00:00:00Z' })).scheduleDate?.toISOString()).to.equal('2024-02-29T00:00:00.000Z');
    });
    it('when the date is what Java, .NET, Go or Python send for a UTC instant, then accepted', () => {
      for (const scheduleDate of ['2030-05-06T07:08:09.123456789Z', '2030-05-06T07:08:09.1234567Z', '2030-05-06T07:08:09.123456+00:00', '2030-05-06T07:08:09-00:00', '2030-05-06t07:08:09z']) {
        expect(validateCreateInput(valid({ scheduleMode: 'scheduled', scheduleDate })).scheduleDate?.toISOString(), scheduleDate).to.equal('2030-05-06T07:08:09.000Z');
      }
    });
    it('when the mode is now, then any scheduleDate is ignored', () => {
      expect(messagesFor(valid({ scheduleMode: 'now', scheduleDate: 'garbage' }))).to.deep.equal([]);
    });
    it('when a draft is scheduled, then the date is kept', () => {
      expect(validateCreateInput(valid({ status: 'draft', scheduleMode: 'scheduled', scheduleDate: '2030-01-01T00:00:00Z' })).scheduleDate).to.not.equal(null);
    });
  });

  describe('ttl', () => {
    it('when absent, null or 0, then the default', () => {
      for (const ttl of [undefined, null, 0]) expect(validateCreateInput(valid({ ttl })).ttl).to.equal(DEFAULT_TTL_SECONDS);
    });
    it('when an integer in range (60.0 counts), then kept', () => {
      expect(validateCreateInput(valid({ ttl: 60.0 })).ttl).to.equal(60);
      expect(validateCreateInput(valid({ ttl: 2419200 })).ttl).to.equal(2419200);
    });
    it('when negative, fractional, too big or a string, then refused', () => {
      for (const ttl of [-1, 1.5, 2419201, '60', true]) {
        expect(messagesFor(valid({ ttl })), String(ttl)).to.deep.equal(['TTL must be between 0 and 28 days in seconds']);
      }
    });
  });

  it('when every field is wrong, then all messages are joined in the spec table order', () => {
    const err = (() => {
      try {
        validateCreateInput({ title: 'a', body: 1, topics: [], callToAction: 'x'.repeat(30), icon: 'http://x', image: 'ftp://x', status: 'x', scheduleMode: 'scheduled', ttl: -5 });
      } catch (e) {
        return e as ValidationError;
      }
      throw new Error('no error');
    })();
    expect(err.message).to.equal(
      [
        'Title must be between 3 and 100 characters',
        'Body must be between 3 and 300 characters',
        'Link is required',
        'At least one topic or country must be specified',
        'Call to action must not exceed 20 characters',
        'Icon must be a valid URL',
        'Image must be a valid URL',
        'Invalid campaign status',
        'Schedule date is required for schedule mode',
        'TTL must be between 0 and 28 days in seconds',
      ].join(', '),
    );
  });

  describe('notification size', () => {
    it('when the push payload would exceed 3993 bytes, then refused', () => {
      const big = { link: 'https://x.example/' + 'a'.repeat(2000), icon: 'https://x.example/' + 'b'.repeat(2000), image: 'https://x.example/' + 'c'.repeat(1000) };
      expect(messagesFor(valid(big))).to.deep.equal(['Notification is too large to send (over 4096 bytes encrypted)']);
    });
    it('when large but within the limit, then accepted', () => {
      expect(messagesFor(valid({ link: 'https://x.example/' + 'a'.repeat(2000), icon: 'https://x.example/' + 'b'.repeat(1000) }))).to.deep.equal([]);
    });
    it('when other fields are wrong, then only their messages are given', () => {
      const big = { title: 'a', link: 'https://x.example/' + 'a'.repeat(2000), icon: 'https://x.example/' + 'b'.repeat(2000), image: 'https://x.example/' + 'c'.repeat(2000) };
      expect(messagesFor(valid(big))).to.deep.equal(['Title must be between 3 and 100 characters']);
    });
  });
});
