// A local-time campaign's plan (docs/api-decisions.md, "Local time"): its sends over the
// audience's zones, as the create answers it, the campaign stores it and shows it as `localTime`.
// The zone groups are packages/contracts/src/local-time.ts's (the delivery service sends by the
// same rule); here they are only put in the API's form.
import { DEFAULT_TIME_ZONE, IF_PASSED, isKnownZone, planZoneGroups, usersByEffectiveZone, type LocalTime, type QuietHours } from '@webpush/contracts/local-time.js';
import { formatUtcDate } from '../base/dates.js';

export interface PlannedSend {
  /** `YYYY-MM-DDTHH:MM:SSZ`. */
  sendAt: string;
  zones: string[];
  users: number;
  /** The zones' moment had passed when the campaign was created: they are sent the next time their clocks show the time. */
  nextDay: boolean;
  /** The zones' moment fell in the site's quiet hours: `sendAt` is the window's end there. Absent otherwise. */
  held?: true;
}

/** The API's `localTime` object. */
export interface LocalTimePlan {
  date: string;
  time: string;
  ifPassed: typeof IF_PASSED;
  firstSendAt: string;
  lastSendAt: string;
  sends: PlannedSend[];
}

/** The audience by zone as the delivery service counts it (CountAudience with zones). */
export interface AudienceZones {
  zones: { zone: string; users: number }[];
  /** The site's default zone ('' when the answer has none: UTC). */
  defaultTimeZone: string;
  /** The site's quiet hours (absent or null: none; a delivery service that does not answer them yet). */
  quietHours?: QuietHours | null;
}

/**
 * The plan of a campaign created at `createdAt`. Zones are the subscribers' effective zones; one
 * this runtime does not know is counted in the site's default zone (and an unknown default is
 * UTC), so planning never fails on a name. A zone whose moment falls in the site's quiet hours
 * is sent at their end there (`held`), unless the campaign ignores them. No zones at all (an empty audience, or a delivery
 * service that does not count by zone yet): one send, in the default zone, of 0 users.
 */
export function planLocalTime(local: LocalTime, audience: AudienceZones, createdAt: Date, ignoreQuietHours = false): LocalTimePlan {
  const fallback = isKnownZone(audience.defaultTimeZone) ? audience.defaultTimeZone : DEFAULT_TIME_ZONE;
  const users = usersByEffectiveZone(audience.zones, fallback);
  const zones = users.size > 0 ? [...users].map(([zone, n]) => ({ zone, users: n })) : [{ zone: fallback, users: 0 }];
  const sends = planZoneGroups(local, zones, createdAt, ignoreQuietHours ? null : (audience.quietHours ?? null)).map((g) => ({
    sendAt: formatUtcDate(new Date(g.sendAt)),
    zones: g.zones,
    users: g.users,
    nextDay: g.nextDay,
    ...(g.held ? { held: true as const } : {}),
  }));
  return {
    date: local.date,
    time: local.time,
    ifPassed: IF_PASSED,
    firstSendAt: sends[0].sendAt,
    lastSendAt: sends[sends.length - 1].sendAt,
    sends,
  };
}
