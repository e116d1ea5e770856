// Validation of a create's `sendTime` (an addition: docs/api-decisions.md, "Best time"):
// `{"mode": "bestTime", "within": "24h", "holdout": 10}` sends each subscriber in their best hour
// of the window (`within`, whole hours, 1h to 72h; 24h when absent) and the `holdout` percent of
// the audience (0 to 50; 10 when absent) at once, to measure the lift. Named `sendTime`, not
// `delivery`: a campaign's `delivery` is already its delivery counts. Not with a local time,
// which fixes the hour itself.
import { BEST_TIME_MODE, DEFAULT_HOLDOUT_PERCENT, MAX_HOLDOUT_PERCENT, MAX_WITHIN_HOURS, MIN_WITHIN_HOURS, WITHIN_PATTERN, type BestTime } from '@webpush/contracts/best-time.js';
import { fill, MESSAGES } from '../base/texts.js';

const FIELDS = new Set(['mode', 'within', 'holdout']);
const DEFAULT_WITHIN_HOURS = 24;

/**
 * The best-time delivery, or null for none (absent or null). `localTime`: whether the create has
 * one. `forNotification`: a notification's or an automation step's (docs/api-decisions.md,
 * "Notifications", "Send time"), the same shape without a holdout (absent, null or 0), which only
 * a campaign's results measure.
 */
export function bestTimeField(raw: unknown, localTime: unknown, errors: string[], forNotification = false): BestTime | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    errors.push(forNotification ? MESSAGES.notificationSendTimeObject : MESSAGES.sendTimeObject);
    return null;
  }
  const unknown = Object.keys(raw).find((k) => !FIELDS.has(k));
  if (unknown !== undefined) {
    errors.push(fill(MESSAGES.sendTimeUnknownField, { name: unknown.slice(0, 40) }));
    return null;
  }
  const { mode, within, holdout } = raw as Record<string, unknown>;
  const before = errors.length;
  if (mode !== BEST_TIME_MODE) errors.push(MESSAGES.sendTimeMode);
  const hours = within === undefined ? DEFAULT_WITHIN_HOURS : typeof within === 'string' && WITHIN_PATTERN.test(within) ? Number(within.slice(0, -1)) : NaN;
  if (!(hours >= MIN_WITHIN_HOURS && hours <= MAX_WITHIN_HOURS)) errors.push(MESSAGES.sendTimeWithin);
  if (forNotification) {
    if (holdout !== undefined && holdout !== null && holdout !== 0) errors.push(MESSAGES.notificationSendTimeHoldout);
    return errors.length > before ? null : { withinHours: hours, holdoutPercent: 0 };
  }
  const percent = holdout === undefined ? DEFAULT_HOLDOUT_PERCENT : holdout;
  if (typeof percent !== 'number' || !Number.isInteger(percent) || percent < 0 || percent > MAX_HOLDOUT_PERCENT) errors.push(MESSAGES.sendTimeHoldout);
  if (localTime !== undefined && localTime !== null) errors.push(MESSAGES.sendTimeLocalTime);
  return errors.length > before ? null : { withinHours: hours, holdoutPercent: percent as number };
}
