// Delivery at the subscriber's local time (an addition to POST /v2/campaign/create,
// docs/api-decisions.md "Local time"): a campaign scheduled for a wall-clock time on a date
// reaches each subscriber when that time comes in the subscriber's zone. One rule, used by the
// campaign service (the plan it answers at create, the campaign's first send) and the delivery
// service (the zone groups it sends): a zone whose moment is before the campaign's creation gets
// the same time on the next day. Subscribers without a zone, or with one this runtime does not
// know, take the site's default zone (UTC when unset). A site's quiet hours hold a zone's pushes
// due inside them until they end there (below).

import { TIME_ZONE_LINKS } from './time-zone-links.js';

export interface LocalTime {
  /** The calendar date, `YYYY-MM-DD`. */
  date: string;
  /** The wall-clock time, `HH:MM` (24 hours). */
  time: string;
}

/** What happens to a zone whose moment had passed when the campaign was created: sent the next time its clock shows the time. */
export const IF_PASSED = 'nextDay';

export const DEFAULT_TIME_ZONE = 'UTC';

export const LOCAL_TIME_PATTERN = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatterFor(zone: string): Intl.DateTimeFormat | null {
  let f = formatters.get(zone);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      f = null;
    }
    // Bounded: zone names come from subscribers; unknown ones are remembered as null too.
    if (formatters.size < 5000) formatters.set(zone, f);
  }
  return f;
}

/** True for an IANA zone this runtime knows (`Europe/Lisbon`, `UTC`, `Etc/GMT+11`). */
export function isKnownZone(zone: string): boolean {
  return zone.length > 0 && zone.length <= 64 && formatterFor(zone) !== null;
}

const canonicalNames = new Map<string, string>();

/**
 * The one name the platform stores and matches a zone by: IANA's name for it. Browsers report
 * the same zone by different names (Chrome reports CLDR's `Asia/Calcutta`, Firefox IANA's
 * `Asia/Kolkata`; likewise `Asia/Katmandu`, `Europe/Kiev`, `America/Buenos_Aires`), so a segment
 * on one would miss the other. Two names are the same zone when this runtime's ICU resolves them
 * to the same zone; of such a class, the name is IANA's (its link table, `time-zone-links.ts`) when
 * ICU resolves that one to the class too, else ICU's. Every UTC alias (`Etc/UTC`, `GMT`, `Zulu`)
 * is `UTC`. A zone this runtime does not know is returned as given.
 */
export function canonicalZone(zone: string): string {
  let name = canonicalNames.get(zone);
  if (name === undefined) {
    const icu = isKnownZone(zone) ? formatterFor(zone)!.resolvedOptions().timeZone : null;
    if (icu === null) name = zone;
    else if (icu === 'UTC' || icu === 'Etc/UTC') name = DEFAULT_TIME_ZONE;
    else {
      const iana = TIME_ZONE_LINKS[icu];
      name = iana && isKnownZone(iana) && formatterFor(iana)!.resolvedOptions().timeZone === icu ? iana : icu;
    }
    if (canonicalNames.size < 5000) canonicalNames.set(zone, name);
  }
  return name;
}

let namesByZone: Map<string, string[]> | undefined;

/**
 * Every name stored rows may hold for the zones given (their canonical names and the other names
 * of the same zone, from the link table and this runtime's zones): what a query matches on, so a
 * row written before names were canonical (or by an older release) is still found.
 */
export function zoneNames(zones: readonly string[]): string[] {
  if (!namesByZone) {
    namesByZone = new Map();
    const all = new Set([...Intl.supportedValuesOf('timeZone'), ...Object.keys(TIME_ZONE_LINKS), ...Object.values(TIME_ZONE_LINKS), 'UTC', 'Etc/UTC']);
    for (const name of all) {
      const c = canonicalZone(name);
      const names = namesByZone.get(c) ?? [];
      names.push(name);
      namesByZone.set(c, names);
    }
  }
  const out = new Set<string>();
  for (const zone of zones) {
    out.add(zone);
    const c = canonicalZone(zone);
    out.add(c);
    for (const n of namesByZone.get(c) ?? []) out.add(n);
  }
  return [...out].sort();
}

/** The zone a subscriber is sent in: its own when known (by its canonical name), else the site's default. */
export function effectiveZone(zone: string | null | undefined, siteDefault: string): string {
  return zone && isKnownZone(zone) ? canonicalZone(zone) : siteDefault;
}

/** Subscriber counts by reported zone (null: none) summed by effective zone. */
export function usersByEffectiveZone(reported: Iterable<{ zone: string | null; users: number }>, siteDefault: string): Map<string, number> {
  const byZone = new Map<string, number>();
  for (const { zone, users } of reported) {
    const name = effectiveZone(zone, siteDefault);
    byZone.set(name, (byZone.get(name) ?? 0) + users);
  }
  return byZone;
}

/** Minutes `zone` is ahead of UTC at `at`. */
export function utcOffsetMinutes(zone: string, at: Date): number {
  const f = formatterFor(zone);
  if (!f) throw new Error(`unknown time zone ${zone}`);
  const parts = Object.fromEntries(f.formatToParts(at).map((p) => [p.type, p.value]));
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return Math.round((wall - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

/**
 * The instant the wall clock in `zone` shows `date` `time`, as Postgres reads
 * `(date + time) AT TIME ZONE zone`: a time skipped by a change of the clocks (02:30 when they
 * jump from 02:00 to 03:00) is read with the offset from before the jump, so it lands as far
 * after it (03:30); a time shown twice (clocks going back) is the later of its two instants.
 * Changes at any hour are read alike, midnight included (Egypt's clocks went from 24:00 back to
 * 23:00 on 2023-10-26: 23:00 that day is 21:00Z, not 20:00Z).
 */
export function wallClockInstant(date: string, time: string, zone: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  const [hh, mm] = time.split(':').map(Number);
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  // The offsets in force a day either side (no zone changes its clocks twice within two days),
  // and those found at the instants they give: an instant is a reading of the wall time when its
  // own offset is the one it was read with.
  const before = utcOffsetMinutes(zone, new Date(wall - 24 * 3600_000));
  const offsets = new Set([before, utcOffsetMinutes(zone, new Date(wall + 24 * 3600_000))]);
  for (const o of [...offsets]) offsets.add(utcOffsetMinutes(zone, new Date(wall - o * 60_000)));
  let latest: number | null = null;
  for (const o of offsets) {
    const at = wall - o * 60_000;
    if (utcOffsetMinutes(zone, new Date(at)) === o && (latest === null || at > latest)) latest = at;
  }
  return new Date(latest ?? wall - before * 60_000);
}

/** The day after `date` (`YYYY-MM-DD`). */
export function nextDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

/**
 * The moment a subscriber in `zone` is sent: the wall-clock time there on the date, or, when
 * that was before `createdAt`, the next time that zone's clock shows it (the next day; two days
 * on in zones far ahead of UTC when the date is today in UTC).
 */
export function zoneSendAt(local: LocalTime, zone: string, createdAt: Date): Date {
  let date = local.date;
  let at = wallClockInstant(date, local.time, zone);
  for (let day = 0; day < 3 && at.getTime() < createdAt.getTime(); day++) {
    date = nextDate(date);
    at = wallClockInstant(date, local.time, zone);
  }
  return at;
}

// A site's quiet hours (docs/api-decisions.md, "Quiet hours"): a daily window of wall-clock time,
// in each subscriber's zone, when no push of a campaign is sent; one due inside it is held until
// the window ends in that zone. The same rule for the plan a campaign answers and the groups the
// delivery service sends, for local-time campaigns and for those sent at one instant alike.

/** From `from` (included) to `to` (excluded), `HH:MM`; `from` after `to` wraps midnight (21:00 to 08:00). */
export interface QuietHours {
  from: string;
  to: string;
}

const minuteOfDay = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** The wall-clock date (`YYYY-MM-DD`) and minute of the day in `zone` at `at`. */
function wallClock(zone: string, at: Date): { date: string; minute: number } {
  const wall = new Date(at.getTime() + utcOffsetMinutes(zone, at) * 60_000);
  return { date: wall.toISOString().slice(0, 10), minute: wall.getUTCHours() * 60 + wall.getUTCMinutes() };
}

/** True when the clock in `zone` at `at` shows a time inside the window. */
export function inQuietHours(quiet: QuietHours, zone: string, at: Date): boolean {
  const { minute } = wallClock(zone, at);
  const from = minuteOfDay(quiet.from);
  const to = minuteOfDay(quiet.to);
  return from < to ? minute >= from && minute < to : minute >= from || minute < to;
}

/**
 * When a push due at `at` in `zone` is sent: at `at` outside the window; inside it, the window's
 * end — the next instant after `at` the zone's clock shows `to`, read as local time reads a
 * wall-clock time (a `to` skipped by a change of the clocks lands as far after the change; one
 * shown twice is its later instant). No window (null): at `at`.
 */
export function quietHoursRelease(quiet: QuietHours | null, zone: string, at: Date): Date {
  if (!quiet || !inQuietHours(quiet, zone, at)) return at;
  let date = wallClock(zone, at).date;
  let end = wallClockInstant(date, quiet.to, zone);
  // Bounded: the next day's `to` is always after `at` (no clock change moves a day).
  for (let day = 0; day < 2 && end.getTime() <= at.getTime(); day++) {
    date = nextDate(date);
    end = wallClockInstant(date, quiet.to, zone);
  }
  return end;
}

/** One send of a local-time campaign: the zones whose moment it is, and how many subscribers they hold. */
export interface ZoneGroup {
  /** UTC ISO 8601 (milliseconds). */
  sendAt: string;
  zones: string[];
  users: number;
  /** True when the zones' moment had passed at creation: they are sent the next day. */
  nextDay: boolean;
  /** The zones' moment fell in the site's quiet hours (below): sent at the window's end. Absent otherwise. */
  held?: true;
}

/** A zone's moment, before and after the site's quiet hours. */
interface ZoneMoment {
  zone: string;
  users: number;
  at: Date;
  nextDay: boolean;
  held: boolean;
}

/** Zones sent at one moment, one group each (earliest first, zones in name order). */
function groupByMoment(moments: ZoneMoment[]): ZoneGroup[] {
  const groups = new Map<string, ZoneGroup>();
  for (const { zone, users, at, nextDay, held } of moments) {
    // Kiritimati's next day can be Honolulu's same moment: two groups, each saying which it is.
    const key = `${at.getTime()}:${nextDay}:${held}`;
    const group = groups.get(key) ?? { sendAt: at.toISOString(), zones: [], users: 0, nextDay, ...(held ? { held: true as const } : {}) };
    group.zones.push(zone);
    group.users += users;
    groups.set(key, group);
  }
  const plan = [...groups.values()].sort((a, b) => a.sendAt.localeCompare(b.sendAt) || Number(a.nextDay) - Number(b.nextDay) || Number(a.held ?? false) - Number(b.held ?? false));
  for (const g of plan) g.zones.sort();
  return plan;
}

/**
 * The sends of a local-time campaign over the audience's zones (effective zones, with their
 * subscriber counts), earliest first; zones within a group in name order. With the site's quiet
 * hours, a zone whose moment falls in them is sent at the window's end there (`held`).
 */
export function planZoneGroups(local: LocalTime, zones: { zone: string; users: number }[], createdAt: Date, quiet: QuietHours | null = null): ZoneGroup[] {
  return groupByMoment(
    zones.map(({ zone, users }) => {
      const sameDay = wallClockInstant(local.date, local.time, zone);
      const due = zoneSendAt(local, zone, createdAt);
      const at = quietHoursRelease(quiet, zone, due);
      return { zone, users, at, nextDay: due.getTime() !== sameDay.getTime(), held: at !== due };
    }),
  );
}

/**
 * The sends of a campaign due at one instant (sent now, or scheduled) on a site with quiet hours:
 * zones outside the window at `at` together at `at`, each other zone at the window's end there.
 */
export function planQuietHoursGroups(zones: { zone: string; users: number }[], at: Date, quiet: QuietHours): ZoneGroup[] {
  return groupByMoment(
    zones.map(({ zone, users }) => {
      const release = quietHoursRelease(quiet, zone, at);
      return { zone, users, at: release, nextDay: false, held: release !== at };
    }),
  );
}
