import { expect } from 'chai';
import { validateListInput } from '../src/campaigns/list-input.js';
import { ValidationError } from '../src/base/errors.js';

function messagesFor(body: Record<string, unknown>): string[] {
  try {
    validateListInput(body);
  } catch (err) {
    expect(err).to.be.instanceOf(ValidationError);
    return [...(err as ValidationError).messages];
  }
  return [];
}

describe('list validation', () => {
  it('when the body is empty, then 10 newest by createdAt with no filter', () => {
    expect(validateListInput({})).to.deep.equal({ limit: 10, startDate: null, endDate: null, dateField: 'createdAt', statuses: [], cursor: null });
  });

  it('when limit is above 60, then it becomes 60; 10.0 counts as 10', () => {
    expect(validateListInput({ limit: 500 }).limit).to.equal(60);
    expect(validateListInput({ limit: 10.0 }).limit).to.equal(10);
    expect(validateListInput({ limit: 1 }).limit).to.equal(1);
  });

  it('when limit is not a positive integer, then "limit must be a positive number"', () => {
    for (const limit of [0, -1, 1.5, '10', null, true]) {
      expect(messagesFor({ limit }), String(limit)).to.deep.equal(['limit must be a positive number']);
    }
  });

  it('when dates are not RFC 3339 UTC instants, then each has its format message', () => {
    expect(messagesFor({ startDate: '2025-01-01', endDate: '2025-01-01T00:00:00+02:00' })).to.deep.equal([
      'Invalid startDate format. Use ISO format (e.g. 2025-01-01T12:00:00Z)',
      'Invalid endDate format. Use ISO format (e.g. 2025-01-01T12:00:00Z)',
    ]);
    expect(messagesFor({ startDate: '' })).to.deep.equal(['Invalid startDate format. Use ISO format (e.g. 2025-01-01T12:00:00Z)']);
  });

  it('when startDate is after endDate, then refused; equal is fine', () => {
    expect(messagesFor({ startDate: '2025-01-02T00:00:00Z', endDate: '2025-01-01T00:00:00Z' })).to.deep.equal(['startDate must be less than or equal to endDate']);
    expect(messagesFor({ startDate: '2025-01-01T00:00:00Z', endDate: '2025-01-01T00:00:00.900Z' })).to.deep.equal([]);
  });

  it('when dateField is unknown, then refused', () => {
    expect(messagesFor({ dateField: 'updatedAt' })).to.deep.equal(['dateField must be createdAt or scheduleDate']);
    expect(validateListInput({ dateField: 'scheduleDate' }).dateField).to.equal('scheduleDate');
  });

  it('when status values are unknown, then they are listed in the order sent', () => {
    expect(messagesFor({ status: ['foo', 'draft', 'bar'] })).to.deep.equal(['Invalid status values: foo, bar. Allowed: draft, scheduled, sent, failed']);
    expect(messagesFor({ status: 'published' })).to.deep.equal(['Invalid status values: published. Allowed: draft, scheduled, sent, failed']);
  });

  it('when status is a single string or has repeats, then it is a set', () => {
    expect(validateListInput({ status: 'sent' }).statuses).to.deep.equal(['sent']);
    expect(validateListInput({ status: ['sent', 'draft', 'sent'] }).statuses).to.deep.equal(['draft', 'sent']);
    expect(validateListInput({ status: [] }).statuses).to.deep.equal([]);
  });

  it('when cursor is empty or not a string, then refused; null means absent', () => {
    for (const cursor of ['', 5, {}]) expect(messagesFor({ cursor })).to.deep.equal(['cursor must be a non-empty string']);
    expect(validateListInput({ cursor: null }).cursor).to.equal(null);
  });

  it('when several fields are wrong, then messages follow the spec table order', () => {
    expect(messagesFor({ cursor: '', status: ['x'], dateField: 'x', endDate: 'x', startDate: 'x', limit: 0 }).join(', ')).to.equal(
      [
        'limit must be a positive number',
        'Invalid startDate format. Use ISO format (e.g. 2025-01-01T12:00:00Z)',
        'Invalid endDate format. Use ISO format (e.g. 2025-01-01T12:00:00Z)',
        'dateField must be createdAt or scheduleDate',
        'Invalid status values: x. Allowed: draft, scheduled, sent, failed',
        'cursor must be a non-empty string',
      ].join(', '),
    );
  });
});
