// The campaign service's catalogue of `message` texts (src/base/texts.ts).
import { expect } from 'chai';
import { fill, MESSAGES, OWN_MESSAGES, SPEC_MESSAGES } from '../src/base/texts.js';
import { itChecksTheCatalogue } from '../../../test/support/spec-texts.js';

describe('campaign service: the message catalogue', () => {
  itChecksTheCatalogue({ file: 'services/campaign/src/base/texts.ts', sources: 'services/campaign/src', spec: SPEC_MESSAGES, own: OWN_MESSAGES, all: MESSAGES });

  it('fill() puts values in for placeholders, as they are, and leaves unknown placeholders', () => {
    expect(fill(MESSAGES.invalidStatusValues, { values: 'x, "$&", $1' })).to.equal('Invalid status values: x, "$&", $1. Allowed: draft, scheduled, sent, failed');
    expect(fill(MESSAGES.invalidStartDate, { 'UTC date-time': '2025-01-01T12:00:00Z' })).to.equal('Invalid startDate format. Use ISO format (e.g. 2025-01-01T12:00:00Z)');
    expect(fill('a <b> <c>', { b: '<c>' })).to.equal('a <c> <c>');
  });
});
