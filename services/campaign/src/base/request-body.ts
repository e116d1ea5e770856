// Bodies arrive as the JSON text the customer sent; the gateway already parsed it once, but the
// service does not rely on that.
import { ValidationError } from './errors.js';
import { MESSAGES } from './texts.js';

export function parseObjectBody(json: string, emptyMeansEmptyObject: boolean): Record<string, unknown> {
  if (emptyMeansEmptyObject && json.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new ValidationError([MESSAGES.invalidJson]);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ValidationError([MESSAGES.invalidJson]);
  return value as Record<string, unknown>;
}
