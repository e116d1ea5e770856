// Best time per subscriber (an addition to POST /v2/campaign/create, docs/api-decisions.md
// "Best time"): `sendTime: {mode: "bestTime", within: "24h", holdout: 10}` sends each subscriber
// in the hour of the window they are most likely to engage in (the delivery service's model,
// migrations/20261207040000_best_time.sql), and a holdout share at once, whose results measure
// the lift. The rules both services use: the window's slots and the lift's interval.

/** A campaign's best-time delivery, as the dispatch job carries it. */
export interface BestTime {
  /** The window, in whole hours from the campaign's send: one slot per hour. */
  withinHours: number;
  /** The share of the audience sent at once (the holdout), in percent. */
  holdoutPercent: number;
}

/**
 * A notification's (or an automation step's) best time (docs/api-decisions.md, "Notifications",
 * "Send time"): a campaign's without a holdout, whose lift only a campaign's results measure. Its
 * dispatch job carries it as a BestTime with a holdout of 0.
 */
export type NotificationBestTime = Pick<BestTime, 'withinHours'>;

export const BEST_TIME_MODE = 'bestTime';
export const MIN_WITHIN_HOURS = 1;
export const MAX_WITHIN_HOURS = 72;
export const DEFAULT_HOLDOUT_PERCENT = 10;
export const MAX_HOLDOUT_PERCENT = 50;
/** The API's `within`: whole hours, `1h` to `72h`. */
export const WITHIN_PATTERN = /^([1-9][0-9]?)h$/;

const HOUR_MS = 3600_000;

/** One hourly slot of a best-time window. */
export interface BestTimeSlot {
  slot: number;
  /** When the slot's subscribers are sent: the window's start for the first, the top of its hour for the others. */
  at: Date;
  /** The UTC hour of the day the slot is in, 0–23. */
  hour: number;
}

/**
 * The slots of a window starting at `start`: the first is the rest of `start`'s UTC hour, each
 * next one a whole UTC hour, `withinHours` in all, so every slot begins inside the window (the
 * last one less than an hour before its end) and each is one hour of the day, which is what the
 * model predicts by.
 */
export function bestTimeSlots(start: Date, withinHours: number): BestTimeSlot[] {
  const top = Math.floor(start.getTime() / HOUR_MS) * HOUR_MS;
  return Array.from({ length: withinHours }, (_, slot) => {
    const at = slot === 0 ? start : new Date(top + slot * HOUR_MS);
    return { slot, at, hour: at.getUTCHours() };
  });
}

/** A group's results: pushes sent, and the impressions and clicks they got. */
export interface GroupResults {
  sent: number;
  impressions: number;
  clicks: number;
}

/** A slot's results as the delivery service reports them (the stats event's `bestTime`); slot -1 is the holdout. */
export interface SlotResult extends GroupResults {
  slot: number;
  /** When the slot was sent (planned), ISO 8601. */
  sendAt: string;
  /** Subscribers assigned to the slot. */
  planned: number;
}

/** The slot number of the holdout (sent at the window's start). */
export const HOLDOUT_SLOT = -1;

/** A difference of two rates with its 95 % interval, in percentage points; null bounds: too few sends to say. */
export interface Lift {
  /** The best-time group's rate minus the holdout's. */
  difference: number;
  low: number | null;
  high: number | null;
  /** The difference relative to the holdout's rate, in percent (null when the holdout's is 0). */
  relative: number | null;
}

const Z95 = 1.959964;

/** Wilson's 95 % interval of a proportion. */
function wilson(successes: number, n: number): [number, number] {
  const p = successes / n;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [centre - half, centre + half];
}

/**
 * The lift of rate a/n over rate b/m with Newcombe's hybrid score interval (his method 10: the
 * two Wilson intervals combined), which keeps its coverage for rates near 0 such as CTRs, where
 * the plain Wald interval is too narrow. Percentage points, rounded to 0.01.
 */
export function rateLift(a: number, n: number, b: number, m: number): Lift {
  const r = (x: number) => Math.round(x * 10000) / 100;
  const p1 = n > 0 ? a / n : 0;
  const p2 = m > 0 ? b / m : 0;
  const d = p1 - p2;
  const relative = p2 > 0 ? Math.round((d / p2) * 1000) / 10 : null;
  if (n === 0 || m === 0) return { difference: r(d), low: null, high: null, relative };
  const [l1, u1] = wilson(a, n);
  const [l2, u2] = wilson(b, m);
  const low = d - Math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2);
  const high = d + Math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2);
  return { difference: r(d), low: r(low), high: r(high), relative };
}
