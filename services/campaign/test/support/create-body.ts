// A valid create body and the messages a body's validation answers: shared by the create
// validation tests (create-input, notification-options-input).
import { expect } from 'chai';
import { validateCreateInput } from '../../src/campaigns/create-input.js';
import { ValidationError } from '../../src/base/errors.js';

/** A create body that passes validation, with `overrides` on top. */
export const validCreateBody = (overrides: Record<string, unknown> = {}) => ({
  title: 'Big sale',
  body: 'Everything half price',
  link: 'https://shop.example/sale',
  topics: ['sports'],
  status: 'published',
  scheduleMode: 'now',
  ...overrides,
});

/** Every message validation answers for `body`; none when it passes. */
export function createMessagesFor(body: Record<string, unknown>): string[] {
  try {
    validateCreateInput(body);
  } catch (err) {
    expect(err).to.be.instanceOf(ValidationError);
    return [...(err as ValidationError).messages];
  }
  return [];
}
