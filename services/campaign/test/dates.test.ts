// Property tests of the date rule (docs/api-decisions.md, "Dates"): every RFC 3339 spelling of a
// UTC instant is accepted and means the same second; every other offset or malformed date is
// refused with the field's format message, on create and on the list filter alike.
import { expect } from 'chai';
import fc from 'fast-check';
import { parseUtcDate } from '../src/base/dates.js';
import { validateCreateInput } from '../src/campaigns/create-input.js';
import { validateListInput } from '../src/campaigns/list-input.js';
import { ValidationError } from '../src/base/errors.js';
import { contractDocument } from '../../../test/support/openapi.js';

const RUNS = { numRuns: 400, seed: 20261125 };
const pad = (n: number, width: number) => String(n).padStart(width, '0');
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysIn = (year: number, month: number) => [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];

/** A valid calendar second, as its parts. */
const instant = fc
  .record({ year: fc.integer({ min: 1, max: 9999 }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 31 }), hour: fc.integer({ min: 0, max: 23 }), minute: fc.integer({ min: 0, max: 59 }), second: fc.integer({ min: 0, max: 59 }) })
  .map((p) => ({ ...p, day: Math.min(p.day, daysIn(p.year, p.month)) }));
type Parts = typeof instant extends fc.Arbitrary<infer T> ? T : never;

const fraction = fc.oneof(fc.constant(''), fc.stringMatching(/^\.\d{1,9}$/));
const utcZone = fc.constantFrom('Z', 'z', '+00:00', '-00:00');
const separator = fc.constantFrom('T', 't');
const spell = (p: Parts, sep: string, frac: string, zone: string) =>
  `${pad(p.year, 4)}-${pad(p.month, 2)}-${pad(p.day, 2)}${sep}${pad(p.hour, 2)}:${pad(p.minute, 2)}:${pad(p.second, 2)}${frac}${zone}`;
/** The instant truncated to the second, as the canonical answer form. */
const canonical = (p: Parts) => `${pad(p.year, 4)}-${pad(p.month, 2)}-${pad(p.day, 2)}T${pad(p.hour, 2)}:${pad(p.minute, 2)}:${pad(p.second, 2)}.000Z`;

const DATE_MESSAGES = {
  scheduleDate: 'Invalid schedule date format. Use ISO format (e.g. 2025-01-01T12:00:00Z)',
  startDate: 'Invalid startDate format. Use ISO format (e.g. 2025-01-01T12:00:00Z)',
  endDate: 'Invalid endDate format. Use ISO format (e.g. 2025-01-01T12:00:00Z)',
};
const createBody = (scheduleDate: unknown) => ({ title: 'Title', body: 'Body text', link: 'https://x.example/', topics: ['a'], status: 'published', scheduleMode: 'scheduled', scheduleDate });

function messagesOf(fn: () => unknown): string[] {
  try {
    fn();
    return [];
  } catch (err) {
    if (err instanceof ValidationError) return [...err.messages];
    throw err;
  }
}

/** Where the server reads a date: create's scheduleDate and the list filter's two dates. */
function acceptedEverywhere(text: string): string[] {
  return [
    validateCreateInput(createBody(text)).scheduleDate?.toISOString() ?? 'null',
    validateListInput({ startDate: text }).startDate?.toISOString() ?? 'null',
    validateListInput({ endDate: text }).endDate?.toISOString() ?? 'null',
  ];
}
function refusedEverywhere(value: unknown): string[][] {
  return [messagesOf(() => validateCreateInput(createBody(value))), messagesOf(() => validateListInput({ startDate: value })), messagesOf(() => validateListInput({ endDate: value }))];
}
const REFUSED = [[DATE_MESSAGES.scheduleDate], [DATE_MESSAGES.startDate], [DATE_MESSAGES.endDate]];

describe('dates: every RFC 3339 spelling of a UTC instant', () => {
  it('when a valid instant is written with T/t, 0–9 fraction digits and Z, z, +00:00 or -00:00, then every date field accepts it as that second', () => {
    fc.assert(
      fc.property(instant, separator, fraction, utcZone, (p, sep, frac, zone) => {
        const expected = canonical(p);
        expect(acceptedEverywhere(spell(p, sep, frac, zone))).to.deep.equal([expected, expected, expected]);
      }),
      RUNS,
    );
  });

  it('when the fraction would round up, then it is truncated: the last second of year 9999 stays valid and in its second', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }), utcZone, (digits, zone) => {
        expect(parseUtcDate(`9999-12-31T23:59:59.${'9'.repeat(digits)}${zone}`)?.toISOString()).to.equal('9999-12-31T23:59:59.000Z');
      }),
      RUNS,
    );
  });

  it('when the offset is anything but ±00:00, then every date field answers its format message', () => {
    const offset = fc
      .record({ sign: fc.constantFrom('+', '-'), hours: fc.integer({ min: 0, max: 23 }), minutes: fc.integer({ min: 0, max: 59 }) })
      .filter((o) => o.hours !== 0 || o.minutes !== 0)
      .map((o) => `${o.sign}${pad(o.hours, 2)}:${pad(o.minutes, 2)}`);
    fc.assert(
      fc.property(instant, fraction, offset, (p, frac, zone) => {
        expect(refusedEverywhere(spell(p, 'T', frac, zone))).to.deep.equal(REFUSED);
      }),
      RUNS,
    );
  });

  it('when the spelling is not RFC 3339 (no zone, compact offset, space, 10+ digits, leap second, impossible day), then the format message', () => {
    const malformed = fc.oneof(
      instant.map((p) => spell(p, 'T', '', '')),
      instant.map((p) => spell(p, 'T', '', '+0000')),
      instant.map((p) => spell(p, ' ', '', 'Z')),
      fc.tuple(instant, fc.stringMatching(/^\.\d{10,15}$/)).map(([p, frac]) => spell(p, 'T', frac, 'Z')),
      instant.map((p) => spell({ ...p, second: 60 }, 'T', '', 'Z')),
      instant.map((p) => spell({ ...p, day: daysIn(p.year, p.month) + 1 }, 'T', '', 'Z')),
      instant.map((p) => spell({ ...p, hour: 24 }, 'T', '', 'Z')),
      instant.map((p) => spell({ ...p, year: 0 }, 'T', '', 'Z')),
    );
    fc.assert(
      fc.property(malformed, (text) => {
        expect(refusedEverywhere(text), text).to.deep.equal(REFUSED);
      }),
      RUNS,
    );
  });

  it('the OpenAPI pattern of request dates (DateTimeInput) matches exactly the spellings the server accepts', () => {
    const schemas = (contractDocument().components as { schemas: Record<string, { pattern: string }> }).schemas;
    const pattern = new RegExp(schemas.DateTimeInput.pattern);
    fc.assert(
      fc.property(instant, separator, fraction, utcZone, (p, sep, frac, zone) => {
        expect(pattern.test(spell(p, sep, frac, zone))).to.equal(true);
      }),
      RUNS,
    );
    const misspelled = fc.oneof(
      fc.tuple(instant, fc.constantFrom('', '+0000', '+01:00', '-03:00', 'UTC', 'Z ')).map(([p, zone]) => spell(p, 'T', '', zone)),
      instant.map((p) => spell(p, ' ', '', 'Z')),
      fc.tuple(instant, fc.stringMatching(/^\.\d{10,15}$/)).map(([p, frac]) => spell(p, 'T', frac, 'Z')),
    );
    fc.assert(
      fc.property(misspelled, (text) => {
        expect([pattern.test(text), parseUtcDate(text)], text).to.deep.equal([false, null]);
      }),
      RUNS,
    );
  });

  it('when the value is not a string, then the format message', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.boolean(), fc.array(fc.string(), { minLength: 1 }), fc.object()), (value) => {
        expect(refusedEverywhere(value)).to.deep.equal(REFUSED);
      }),
      RUNS,
    );
  });

  it('when the same instant is spelled two ways, then the list filter treats them alike (startDate = endDate is no inverted interval)', () => {
    fc.assert(
      fc.property(instant, fraction, utcZone, fraction, utcZone, (p, f1, z1, f2, z2) => {
        expect(messagesOf(() => validateListInput({ startDate: spell(p, 't', f1, z1), endDate: spell(p, 'T', f2, z2) }))).to.deep.equal([]);
      }),
      RUNS,
    );
  });
});
