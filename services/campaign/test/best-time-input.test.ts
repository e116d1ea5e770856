// A create's `sendTime` (campaigns/best-time-input.ts): a best-time delivery with its defaults,
// every refusal's message, and whatever the field holds, a best time or refusals, never anything else.
import { expect } from 'chai';
import fc from 'fast-check';
import { validateCreateInput } from '../src/campaigns/create-input.js';
import { ValidationError } from '../src/base/errors.js';
import { MESSAGES } from '../src/base/texts.js';

const create = (delivery: unknown, overrides: Record<string, unknown> = {}) => ({
  title: 'Good morning',
  body: "Today's headlines",
  link: 'https://news.example/today',
  topics: ['news'],
  status: 'published',
  scheduleMode: 'now',
  sendTime: delivery,
  ...overrides,
});

function outcome(body: Record<string, unknown>): { bestTime: unknown } | { messages: string[] } {
  try {
    return { bestTime: validateCreateInput(body).bestTime };
  } catch (err) {
    expect(err).to.be.instanceOf(ValidationError);
    return { messages: [...(err as ValidationError).messages] };
  }
}

describe('create validation: sendTime (best time)', () => {
  it('is none when absent or null', () => {
    for (const delivery of [undefined, null]) expect(outcome(create(delivery))).to.deep.equal({ bestTime: null });
  });

  it('takes a window of 1h to 72h and a holdout of 0 to 50 %, 24h and 10 % when absent', () => {
    expect(outcome(create({ mode: 'bestTime' }))).to.deep.equal({ bestTime: { withinHours: 24, holdoutPercent: 10 } });
    expect(outcome(create({ mode: 'bestTime', within: '1h', holdout: 0 }))).to.deep.equal({ bestTime: { withinHours: 1, holdoutPercent: 0 } });
    expect(outcome(create({ mode: 'bestTime', within: '72h', holdout: 50 }))).to.deep.equal({ bestTime: { withinHours: 72, holdoutPercent: 50 } });
  });

  it('refuses each wrong part with its message, a local time too', () => {
    const refused = (delivery: unknown, overrides: Record<string, unknown> = {}) => (outcome(create(delivery, overrides)) as { messages: string[] }).messages;
    for (const d of ['bestTime', 1, [], true]) expect(refused(d)).to.deep.equal([MESSAGES.sendTimeObject]);
    expect(refused({ mode: 'bestTime', at: 'x' })).to.deep.equal(['sendTime has an unknown field: at']);
    for (const mode of [undefined, 'now', 'BESTTIME', 1]) expect(refused({ mode })).to.deep.equal([MESSAGES.sendTimeMode]);
    for (const within of ['0h', '73h', '24', 24, '1.5h', '024h', ' 24h', null]) expect(refused({ mode: 'bestTime', within }), String(within)).to.deep.equal([MESSAGES.sendTimeWithin]);
    for (const holdout of [-1, 51, 10.5, '10', null]) expect(refused({ mode: 'bestTime', holdout }), String(holdout)).to.deep.equal([MESSAGES.sendTimeHoldout]);
    expect(refused({ mode: 'x', within: 'x', holdout: 'x' })).to.deep.equal([MESSAGES.sendTimeMode, MESSAGES.sendTimeWithin, MESSAGES.sendTimeHoldout]);
    expect(refused({ mode: 'bestTime' }, { scheduleMode: 'scheduled', scheduleDate: '2099-01-01T00:00:00Z', localTime: '09:00' })).to.deep.equal([MESSAGES.sendTimeLocalTime]);
  });

  it('answers a best time or refusals for anything in the field (property)', () => {
    fc.assert(
      fc.property(fc.anything(), (delivery) => {
        const o = outcome(create(delivery));
        if ('messages' in o) expect(o.messages.length).to.be.greaterThan(0);
        else if (o.bestTime !== null) expect(o.bestTime).to.have.all.keys('withinHours', 'holdoutPercent');
      }),
    );
  });
});
