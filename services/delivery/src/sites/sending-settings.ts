// The rules of a site's sending settings the delivery service owns — the frequency cap and the
// site's time zone — checked alike for the operators' CLI (operators.ts: `sites set-frequency-cap`,
// `set-time-zone`) and the console's settings (console/console-data.ts), each in its own words.
import { canonicalZone, isKnownZone } from '@webpush/contracts/local-time.js';
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
