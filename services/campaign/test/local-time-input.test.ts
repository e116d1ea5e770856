// A create's `localTime` (campaigns/local-time-input.ts) and the plan made from the audience's zones
// (campaigns/local-time-plan.ts): every message, in its place after the other fields'; the date from
// scheduleDate's UTC date; whatever the field holds, a local time or refusals, never anything
// else; and the plan's sends as the shared zone rule makes them.
import { expect } from 'chai';
import fc from 'fast-check';
import { validateCreateInput } from '../src/campaigns/create-input.js';
import { ValidationError } from '../src/base/errors.js';
import { MESSAGES } from '../src/base/texts.js';
import { planLocalTime } from '../src/campaigns/local-time-plan.js';

const NOW = new Date('2026-11-27T15:00:00Z');
const UTC_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const EXTREME_ZONES = ['Pacific/Kiritimati', 'Etc/GMT+12', 'UTC', 'America/Sao_Paulo'].map((zone) => ({ zone, users: 1 }));
const scheduled = (localTime: unknown, overrides: Record<string, unknown> = {}) => ({
  title: 'Good morning',
  body: 'Today\'s headlines',
  link: 'https://news.example/today',
  topics: ['news'],
  status: 'published',
  scheduleMode: 'scheduled',
  scheduleDate: '2026-12-01T23:30:00Z',
  localTime,
  ...overrides,
});

function outcome(body: Record<string, unknown>, now = NOW): { localTime: unknown } | { messages: string[] } {
  try {
    return { localTime: validateCreateInput(body, now).localTime };
  } catch (err) {
    expect(err).to.be.instanceOf(ValidationError);
    return { messages: [...(err as ValidationError).messages] };
  }
}

describe('create validation: localTime', () => {
  it('is none when absent or null, and the campaign is as before', () => {
    for (const localTime of [undefined, null]) expect(outcome(scheduled(localTime))).to.deep.equal({ localTime: null });
    expect(outcome({ ...scheduled(undefined), scheduleMode: 'now', scheduleDate: undefined })).to.deep.equal({ localTime: null });
  });

  it('takes its date from scheduleDate\'s UTC calendar date, whatever its time of day', () => {
    expect(outcome(scheduled('09:00'))).to.deep.equal({ localTime: { date: '2026-12-01', time: '09:00' } });
    expect(outcome(scheduled('00:00', { scheduleDate: '2026-12-01T00:00:00+00:00' }))).to.deep.equal({ localTime: { date: '2026-12-01', time: '00:00' } });
    expect(outcome(scheduled('23:59', { scheduleDate: '2026-12-31T23:59:59.999Z' }))).to.deep.equal({ localTime: { date: '2026-12-31', time: '23:59' } });
  });

  it('accepts today (UTC) and refuses an earlier date, also for a draft', () => {
    expect(outcome(scheduled('08:00', { scheduleDate: '2026-11-27T00:00:00Z' }))).to.deep.equal({ localTime: { date: '2026-11-27', time: '08:00' } });
    expect(outcome(scheduled('08:00', { scheduleDate: '2026-11-26T23:59:59Z' }))).to.deep.equal({ messages: [MESSAGES.localTimeDatePassed] });
    expect(outcome(scheduled('08:00', { scheduleDate: '2020-01-01T00:00:00Z', status: 'draft' }))).to.deep.equal({ messages: [MESSAGES.localTimeDatePassed] });
    expect(outcome(scheduled('08:00', { scheduleDate: '9999-12-30T00:00:00Z' }))).to.deep.equal({ localTime: { date: '9999-12-30', time: '08:00' } });
    expect(outcome(scheduled('08:00', { scheduleDate: '9999-12-31T00:00:00Z' }))).to.deep.equal({ messages: [MESSAGES.localTimeDateTooLate] });
  });

  it('refuses anything but HH:MM from 00:00 to 23:59', () => {
    for (const bad of ['9:00', '09:0', '24:00', '12:60', '09:00:00', ' 09:00', '09h00', '', 900, true, ['09:00'], { time: '09:00' }, '０９:００']) {
      expect(outcome(scheduled(bad)), JSON.stringify(bad)).to.deep.equal({ messages: [MESSAGES.localTimeFormat] });
    }
  });

  it('requires scheduleMode scheduled (whose scheduleDate stays required)', () => {
    expect(outcome(scheduled('09:00', { scheduleMode: 'now' }))).to.deep.equal({ messages: [MESSAGES.localTimeScheduled] });
    expect(outcome(scheduled('09:00', { scheduleMode: 'later' }))).to.deep.equal({ messages: [MESSAGES.invalidScheduleMode, MESSAGES.localTimeScheduled] });
    expect(outcome(scheduled('09:00', { scheduleDate: undefined }))).to.deep.equal({ messages: [MESSAGES.scheduleDateRequired] });
    expect(outcome(scheduled('09:00', { scheduleDate: '2026-12-01' }))).to.deep.equal({ messages: ['Invalid schedule date format. Use ISO format (e.g. 2025-01-01T12:00:00Z)'] });
  });

  it('comes after the spec\'s messages and the earlier additions\', joined in order', () => {
    expect(outcome(scheduled('25:00', { title: 'ab', throttlePerMinute: -1 }))).to.deep.equal({
      messages: [MESSAGES.titleLength, MESSAGES.throttlePerMinute, MESSAGES.localTimeFormat],
    });
  });

  it('whatever `localTime` and the schedule hold, validation answers a local time or refusals, never anything else', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.anything(), fc.string(), fc.stringMatching(/^[0-2][0-9]:[0-6][0-9]$/)),
        fc.oneof(fc.constant('scheduled'), fc.constant('now'), fc.anything()),
        fc.oneof(fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString()), fc.anything()),
        (localTime, scheduleMode, scheduleDate) => {
          const o = outcome(scheduled(localTime, { scheduleMode, scheduleDate }));
          if ('messages' in o) return o.messages.length > 0;
          const lt = o.localTime as { date: string; time: string } | null;
          if (lt === null) return true;
          if (!(lt.time === localTime && lt.date >= '2026-11-27' && lt.date <= '9999-12-30')) return false;
          // Any accepted local time can be planned, in the zones furthest ahead of and behind UTC.
          const plan = planLocalTime(lt, { zones: EXTREME_ZONES, defaultTimeZone: 'UTC' }, NOW);
          return plan.sends.every((g) => UTC_SECONDS.test(g.sendAt) && g.sendAt >= '2026-11-27T15:00:00Z');
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('the local-time plan', () => {
  const local = { date: '2026-12-01', time: '09:00' };

  it('groups the audience\'s zones by their moment, earliest first, and reads first and last send', () => {
    const plan = planLocalTime(
      local,
      { zones: [{ zone: 'Europe/Paris', users: 3 }, { zone: 'America/Sao_Paulo', users: 2 }, { zone: 'Europe/Berlin', users: 4 }, { zone: 'Asia/Tokyo', users: 1 }], defaultTimeZone: 'UTC' },
      NOW,
    );
    expect(plan).to.deep.equal({
      date: '2026-12-01',
      time: '09:00',
      ifPassed: 'nextDay',
      firstSendAt: '2026-12-01T00:00:00Z',
      lastSendAt: '2026-12-01T12:00:00Z',
      sends: [
        { sendAt: '2026-12-01T00:00:00Z', zones: ['Asia/Tokyo'], users: 1, nextDay: false },
        { sendAt: '2026-12-01T08:00:00Z', zones: ['Europe/Berlin', 'Europe/Paris'], users: 7, nextDay: false },
        { sendAt: '2026-12-01T12:00:00Z', zones: ['America/Sao_Paulo'], users: 2, nextDay: false },
      ],
    });
  });

  it('sends a zone whose moment had passed at creation the next day, and says so', () => {
    // Created at 15:00 UTC on 2026-11-27: 09:00 in Paris (08:00 UTC) has passed, in Los Angeles (17:00 UTC) it has not.
    const plan = planLocalTime({ date: '2026-11-27', time: '09:00' }, { zones: [{ zone: 'Europe/Paris', users: 1 }, { zone: 'America/Los_Angeles', users: 1 }], defaultTimeZone: 'UTC' }, NOW);
    expect(plan.sends).to.deep.equal([
      { sendAt: '2026-11-27T17:00:00Z', zones: ['America/Los_Angeles'], users: 1, nextDay: false },
      { sendAt: '2026-11-28T08:00:00Z', zones: ['Europe/Paris'], users: 1, nextDay: true },
    ]);
    expect([plan.firstSendAt, plan.lastSendAt]).to.deep.equal(['2026-11-27T17:00:00Z', '2026-11-28T08:00:00Z']);
  });

  it('with no zones (no audience, or no count by zone), plans one send of 0 users in the site\'s default zone, UTC when it has none', () => {
    expect(planLocalTime(local, { zones: [], defaultTimeZone: 'America/Sao_Paulo' }, NOW).sends).to.deep.equal([
      { sendAt: '2026-12-01T12:00:00Z', zones: ['America/Sao_Paulo'], users: 0, nextDay: false },
    ]);
    expect(planLocalTime(local, { zones: [], defaultTimeZone: '' }, NOW).sends).to.deep.equal([{ sendAt: '2026-12-01T09:00:00Z', zones: ['UTC'], users: 0, nextDay: false }]);
  });

  it('counts a zone this runtime does not know in the default zone, and an unknown default as UTC', () => {
    const plan = planLocalTime(local, { zones: [{ zone: 'Mars/Olympus_Mons', users: 2 }, { zone: 'UTC', users: 1 }], defaultTimeZone: 'Nowhere/Else' }, NOW);
    expect(plan.sends).to.deep.equal([{ sendAt: '2026-12-01T09:00:00Z', zones: ['UTC'], users: 3, nextDay: false }]);
  });
});
