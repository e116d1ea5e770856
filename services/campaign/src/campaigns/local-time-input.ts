// Validation of a create's `localTime` (an addition: docs/api-decisions.md, "Local time"): a
// wall-clock time, `HH:MM`, at which each subscriber is sent the campaign in their own zone, on
// the UTC calendar date of the campaign's `scheduleDate` (whose time of day is not used). Only
// with `scheduleMode: scheduled`, which still requires its `scheduleDate`.
import { LOCAL_TIME_PATTERN, type LocalTime } from '@webpush/contracts/local-time.js';
import { MESSAGES } from '../base/texts.js';

/**
 * The last date a local time may be on: a zone behind UTC sends a day's moments on the next UTC
 * date, and after 9999-12-31 there is no date the API can write.
 */
export const LAST_LOCAL_DATE = '9999-12-30';

/** `YYYY-MM-DD` of `at` in UTC. */
export const utcDateOf = (at: Date): string => at.toISOString().slice(0, 10);

/**
 * The local time, or null for none (absent or null). `scheduleDate` is the parsed one (null when
 * it is missing or wrong: its own message is given, so the date is not judged); `now` is the
 * request's moment, whose UTC date the local time's date may not be before.
 */
export function localTimeField(raw: unknown, scheduleMode: unknown, scheduleDate: Date | null, now: Date, errors: string[]): LocalTime | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string' || !LOCAL_TIME_PATTERN.test(raw)) {
    errors.push(MESSAGES.localTimeFormat);
    return null;
  }
  if (scheduleMode !== 'scheduled') {
    errors.push(MESSAGES.localTimeScheduled);
    return null;
  }
  if (scheduleDate === null) return null;
  const date = utcDateOf(scheduleDate);
  if (date < utcDateOf(now)) {
    errors.push(MESSAGES.localTimeDatePassed);
    return null;
  }
  if (date > LAST_LOCAL_DATE) {
    errors.push(MESSAGES.localTimeDateTooLate);
    return null;
  }
  return { date, time: raw };
}
