// The composer's best time in the console's pure modules: the API's sendTime messages put at their
// fields (field-errors.ts), as the composer's best-time group shows them.
import { expect } from 'chai';
import { splitMessage } from '../src/lib/field-errors';

describe('console: best time', () => {
  it("puts the create's sendTime messages at their fields, the audience's beside them", () => {
    const m = splitMessage(
      'At least one topic or country must be specified, sendTime.within must be a whole number of hours from 1h to 72h (e.g. 24h), sendTime.holdout must be a whole percent from 0 to 50, sendTime bestTime cannot be combined with localTime',
    );
    expect(m.byField).to.deep.equal({
      audience: ['At least one topic or country must be specified'],
      'sendTime.within': ['sendTime.within must be a whole number of hours from 1h to 72h (e.g. 24h)'],
      'sendTime.holdout': ['sendTime.holdout must be a whole percent from 0 to 50'],
      sendTime: ['sendTime bestTime cannot be combined with localTime'],
    });
    expect(m.rest).to.deep.equal([]);
    expect(splitMessage('sendTime has an unknown field: when, sendTime.mode must be bestTime').byField).to.deep.equal({
      sendTime: ['sendTime has an unknown field: when'],
      'sendTime.mode': ['sendTime.mode must be bestTime'],
    });
  });
});
