// Validation of the list body (spec's "400 messages on list" table, in its order).
import { echoValue } from '@webpush/shared/text.js';
import { EXAMPLE_DATE, parseUtcDate } from '../base/dates.js';
import { ValidationError } from '../base/errors.js';
import { fill, MESSAGES } from '../base/texts.js';

export type DateField = 'createdAt' | 'scheduleDate';
export type StatusFilter = 'draft' | 'scheduled' | 'sent' | 'failed';

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 60;
// The spec's order, which its message (MESSAGES.invalidStatusValues) lists as allowed.
const STATUS_FILTERS: readonly StatusFilter[] = ['draft', 'scheduled', 'sent', 'failed'];
// The unknown status values a message echoes: the first few, each cut short, unshowable
// characters escaped. The echo is the client's text: unbounded, it once made a 75 kB gRPC
// trailer that broke the connection every tenant's calls shared.
const ECHOED_VALUES = 5;
const ECHOED_VALUE_CHARS = 40;

export interface ListInput {
  /** Effective limit: clamped to MAX_LIMIT. */
  limit: number;
  startDate: Date | null;
  endDate: Date | null;
  dateField: DateField;
  /** Distinct, sorted; empty means no filter. */
  statuses: StatusFilter[];
  cursor: string | null;
}

const isAbsent = (v: unknown) => v === undefined || v === null;

function describe(value: unknown): string {
  if (typeof value === 'string') return echoValue(value, ECHOED_VALUE_CHARS);
  let json: string;
  try {
    json = JSON.stringify(value) ?? String(value);
  } catch {
    json = Array.isArray(value) ? '[…]' : '{…}'; // nested deeper than the stack allows
  }
  return echoValue(json, ECHOED_VALUE_CHARS);
}

/** `a, b, c` or, past ECHOED_VALUES, `a, b, c, d, e and 7 more`. */
function describeAll(values: unknown[]): string {
  const shown = values.slice(0, ECHOED_VALUES).map(describe).join(', ');
  return values.length > ECHOED_VALUES ? `${shown} and ${values.length - ECHOED_VALUES} more` : shown;
}

export function validateListInput(raw: Record<string, unknown>): ListInput {
  const errors: string[] = [];

  let limit = DEFAULT_LIMIT;
  if (raw.limit !== undefined) {
    if (typeof raw.limit !== 'number' || !Number.isInteger(raw.limit) || raw.limit < 1) {
      errors.push(MESSAGES.limitPositive);
    } else {
      limit = Math.min(raw.limit, MAX_LIMIT);
    }
  }

  const date = (value: unknown, message: string): Date | null => {
    if (isAbsent(value)) return null;
    const parsed = parseUtcDate(value);
    if (parsed === null) errors.push(fill(message, { 'UTC date-time': EXAMPLE_DATE }));
    return parsed;
  };
  const startDate = date(raw.startDate, MESSAGES.invalidStartDate);
  const endDate = date(raw.endDate, MESSAGES.invalidEndDate);
  if (startDate && endDate && startDate.getTime() > endDate.getTime()) errors.push(MESSAGES.dateOrder);

  let dateField: DateField = 'createdAt';
  if (!isAbsent(raw.dateField)) {
    if (raw.dateField === 'createdAt' || raw.dateField === 'scheduleDate') dateField = raw.dateField;
    else errors.push(MESSAGES.dateField);
  }

  let statuses: StatusFilter[] = [];
  if (!isAbsent(raw.status)) {
    const values: unknown[] = Array.isArray(raw.status) ? raw.status : [raw.status];
    const invalid = values.filter((v) => !STATUS_FILTERS.includes(v as StatusFilter));
    if (invalid.length > 0) {
      errors.push(fill(MESSAGES.invalidStatusValues, { values: describeAll(invalid) }));
    } else {
      statuses = [...new Set(values as StatusFilter[])].sort();
    }
  }

  let cursor: string | null = null;
  if (!isAbsent(raw.cursor)) {
    if (typeof raw.cursor !== 'string' || raw.cursor === '') errors.push(MESSAGES.cursorNotText);
    else cursor = raw.cursor;
  }

  if (errors.length > 0) throw new ValidationError(errors);
  return { limit, startDate, endDate, dateField, statuses, cursor };
}
