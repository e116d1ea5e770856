// The rules of a site's sending settings the delivery service owns — the frequency cap, the
// site's time zone and its quiet hours — checked alike for the operators' CLI (operators.ts:
// `sites set-frequency-cap`, `set-time-zone`, `set-quiet-hours`) and the console's settings
// (console/console-data.ts), each in its own words.
import { canonicalZone, isKnownZone, LOCAL_TIME_PATTERN, type QuietHours } from '@webpush/contracts/local-time.js';
/** A site's frequency cap: at most `campaigns` campaigns per subscriber in any `hours`. */
export interface FrequencyCap {
  campaigns: number;
  hours: number;
}

export const MAX_CAP_CAMPAIGNS = 1000;
/** 30 days: the delivery log keeps what a cap counts at least that long. */
export const MAX_CAP_HOURS = 720;

const wholeIn = (n: number, max: number) => Number.isInteger(n) && n >= 1 && n <= max;

/** Which parts of a cap are refused (none: it is one). */
export function capRefusals(cap: FrequencyCap): ('campaigns' | 'hours')[] {
  return [...(wholeIn(cap.campaigns, MAX_CAP_CAMPAIGNS) ? [] : ['campaigns' as const]), ...(wholeIn(cap.hours, MAX_CAP_HOURS) ? [] : ['hours' as const])];
}

/** The zone as stored (its canonical IANA name), or undefined for a name the platform does not know. */
export function storedZone(zone: string): string | undefined {
  return isKnownZone(zone) ? canonicalZone(zone) : undefined;
}

/** Which parts of a quiet-hours window are refused (none: it is one): a time not `HH:MM`, or a `to` equal to `from`. */
export function quietHoursRefusals(quiet: QuietHours): ('from' | 'to')[] {
  const time = (t: string) => LOCAL_TIME_PATTERN.test(t);
  return [...(time(quiet.from) ? [] : ['from' as const]), ...(time(quiet.to) && quiet.to !== quiet.from ? [] : ['to' as const])];
}
