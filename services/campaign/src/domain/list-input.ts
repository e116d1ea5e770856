// Validation of the list body (spec's "400 messages on list" table, in its order).
import { EXAMPLE_DATE, parseUtcDate } from './dates.js';
import { ValidationError } from './errors.js';

export type DateField = 'createdAt' | 'scheduleDate';
export type StatusFilter = 'draft' | 'scheduled' | 'sent' | 'failed';

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 60;
const STATUS_FILTERS: readonly StatusFilter[] = ['draft', 'scheduled', 'sent', 'failed'];

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
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function validateListInput(raw: Record<string, unknown>): ListInput {
  const errors: string[] = [];

  let limit = DEFAULT_LIMIT;
  if (raw.limit !== undefined) {
    if (typeof raw.limit !== 'number' || !Number.isInteger(raw.limit) || raw.limit < 1) {
      errors.push('limit must be a positive number');
    } else {
      limit = Math.min(raw.limit, MAX_LIMIT);
    }
  }

  const date = (value: unknown, name: string): Date | null => {
    if (isAbsent(value)) return null;
    const parsed = parseUtcDate(value);
    if (parsed === null) errors.push(`Invalid ${name} format. Use ISO format (e.g. ${EXAMPLE_DATE})`);
    return parsed;
  };
  const startDate = date(raw.startDate, 'startDate');
  const endDate = date(raw.endDate, 'endDate');
  if (startDate && endDate && startDate.getTime() > endDate.getTime()) errors.push('startDate must be less than or equal to endDate');

  let dateField: DateField = 'createdAt';
  if (!isAbsent(raw.dateField)) {
    if (raw.dateField === 'createdAt' || raw.dateField === 'scheduleDate') dateField = raw.dateField;
    else errors.push('dateField must be createdAt or scheduleDate');
  }

  let statuses: StatusFilter[] = [];
  if (!isAbsent(raw.status)) {
    const values: unknown[] = Array.isArray(raw.status) ? raw.status : [raw.status];
    const invalid = values.filter((v) => !STATUS_FILTERS.includes(v as StatusFilter));
    if (invalid.length > 0) {
      errors.push(`Invalid status values: ${invalid.map(describe).join(', ')}. Allowed: ${STATUS_FILTERS.join(', ')}`);
    } else {
      statuses = [...new Set(values as StatusFilter[])].sort();
    }
  }

  let cursor: string | null = null;
  if (!isAbsent(raw.cursor)) {
    if (typeof raw.cursor !== 'string' || raw.cursor === '') errors.push('cursor must be a non-empty string');
    else cursor = raw.cursor;
  }

  if (errors.length > 0) throw new ValidationError(errors);
  return { limit, startDate, endDate, dateField, statuses, cursor };
}
