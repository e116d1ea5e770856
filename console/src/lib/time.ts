// Dates in the owner's time zone. The API speaks UTC only (`YYYY-MM-DDTHH:MM:SSZ`); the console
// shows and takes wall-clock times in a time zone the owner picks (the browser's by default), and
// converts with the browser's own time-zone data (Intl), daylight saving included.

/** The browser's IANA time zone, or UTC when it reports none. */
export function browserZone(): string {
  try {
    return new Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Every IANA zone the browser knows (the browser's own zone first when missing from the list). */
export function knownZones(): string[] {
  const supported = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf;
  const zones = supported ? supported('timeZone') : [];
  const all = zones.includes('UTC') ? zones : ['UTC', ...zones];
  const mine = browserZone();
  return all.includes(mine) ? all : [mine, ...all];
}

export function isValidZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const partsFormatters = new Map<string, Intl.DateTimeFormat>();

function partsIn(zone: string, ms: number): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  let f = partsFormatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      era: 'short',
    });
    partsFormatters.set(zone, f);
  }
  const out: Record<string, string> = {};
  for (const p of f.formatToParts(new Date(ms))) out[p.type] = p.value;
  const year = out.era === 'BC' || out.era === 'B' ? 1 - Number(out.year) : Number(out.year);
  return { year, month: Number(out.month), day: Number(out.day), hour: Number(out.hour) % 24, minute: Number(out.minute), second: Number(out.second) };
}

/** The zone's offset from UTC at that instant, in minutes (east positive: São Paulo −180). */
export function offsetMinutes(zone: string, ms: number): number {
  const p = partsIn(zone, ms);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

/** `UTC−03:00`, `UTC+05:30`, `UTC`. */
export function offsetLabel(minutes: number): string {
  if (minutes === 0) return 'UTC';
  const sign = minutes < 0 ? '−' : '+';
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

const WALL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * The instant a wall-clock time (`YYYY-MM-DDTHH:MM`, as <input type="datetime-local"> gives it)
 * names in a zone. `exact` is false when that time does not exist there (the hour skipped when
 * clocks go forward): the instant is then the same time shifted by the jump, as browsers do.
 * Of a time that happens twice (clocks going back), the first.
 */
export function wallToInstant(wall: string, zone: string): { ms: number; exact: boolean } | null {
  const m = WALL.exec(wall);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number);
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  const asUtc = Date.UTC(y, mo - 1, d, h, mi, s);
  if (new Date(asUtc).getUTCDate() !== d) return null;
  // The two offsets around the guess; the earlier instant that shows this wall time wins.
  const candidates = [offsetMinutes(zone, asUtc - 86_400_000), offsetMinutes(zone, asUtc), offsetMinutes(zone, asUtc + 86_400_000)]
    .map((off) => asUtc - off * 60_000)
    .sort((a, b) => a - b);
  for (const ms of candidates) if (instantToWall(ms, zone, true) === wallOf(y, mo, d, h, mi, s)) return { ms, exact: true };
  // Not a time of that zone (skipped by a change of offset): the offset before the change applies.
  return { ms: asUtc - offsetMinutes(zone, asUtc - 86_400_000) * 60_000, exact: false };
}

function wallOf(y: number, mo: number, d: number, h: number, mi: number, s: number): string {
  const p2 = (n: number) => String(n).padStart(2, '0');
  return `${String(y).padStart(4, '0')}-${p2(mo)}-${p2(d)}T${p2(h)}:${p2(mi)}:${p2(s)}`;
}

/** The wall-clock time of an instant in a zone: `YYYY-MM-DDTHH:MM` (with `:SS` when asked). */
export function instantToWall(ms: number, zone: string, seconds = false): string {
  const p = partsIn(zone, ms);
  const full = wallOf(p.year, p.month, p.day, p.hour, p.minute, p.second);
  return seconds ? full : full.slice(0, 16);
}

/** The API's date form: `YYYY-MM-DDTHH:MM:SSZ` (seconds kept, milliseconds dropped). */
export function apiDate(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A wall-clock time in a zone as the API's UTC date, or null when it is not a date. */
export function wallToApiDate(wall: string, zone: string): string | null {
  const at = wallToInstant(wall, zone);
  return at ? apiDate(at.ms) : null;
}

const displayFormatters = new Map<string, Intl.DateTimeFormat>();

/** An API date shown in a zone: `27 Nov 2026, 14:05`. */
export function showDate(iso: string | null | undefined, zone: string): string {
  if (!iso) return '—';
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  let f = displayFormatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone: zone, day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    displayFormatters.set(zone, f);
  }
  return f.format(ms);
}

/** An API date shown in UTC: `2026-11-27 17:05 UTC`. */
export function showUtc(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/**
 * A time axis's labels in a zone, as the console writes dates (showDate: 24-hour clock, day then
 * month): `14:05` between ticks less than a day apart, with the date under the first tick and
 * under each one on a new day (`14:05\n27 Nov`); `27 Nov` for days, `Nov 2026` for months.
 * `splits`: the ticks in Unix seconds; `incr`: the seconds between them.
 */
export function timeAxisLabels(splits: readonly number[], incr: number, zone: string): string[] {
  let lastDay = '';
  return splits.map((s) => {
    const p = partsIn(zone, s * 1000);
    const day = `${p.day} ${MONTHS[p.month - 1]}`;
    if (incr >= 28 * 86_400) return `${MONTHS[p.month - 1]} ${p.year}`;
    if (incr >= 86_400) return day;
    const time = `${two(p.hour)}:${two(p.minute)}`;
    const newDay = `${p.year}-${day}` !== lastDay;
    lastDay = `${p.year}-${day}`;
    return newDay ? `${time}\n${day}` : time;
  });
}
