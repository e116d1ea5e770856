// The API's Campaign object (docs/spec/web-push-campaign-api.md, "Campaign object", with the
// additions of docs/api-decisions.md) as JSON text, from the typed Campaign message
// (protos/campaign/v1/campaign.proto). The one place it is built: the gateway's list and get, and
// the campaign service's export (NDJSON). The spec's fields in the spec's order, no whitespace,
// then `delivery` and the additions, each only where it applies, in the order they were added
// (the notification options and `urgency` only where they differ from their defaults).
// What the message does not carry is added here: `updatedAt` null (/v2 never edits a campaign; a
// draft edited in the console keeps it null too: docs/console.md, "Drafts"),
// `ttlUnit` "seconds", `analytics.totalUsers` and the derived `ctr`/`its`. One template string per
// object rather than JSON.stringify of a built object: a page is 60 of them, on every list call.
import type { Campaign__Output } from './generated/campaign/v1/Campaign.js';
import type { AbTest__Output } from './generated/campaign/v1/AbTest.js';
import type { Delivery__Output } from './generated/campaign/v1/Delivery.js';
import type { LocalTimePlan__Output } from './generated/campaign/v1/LocalTimePlan.js';
import type { NotificationOptions__Output } from './generated/campaign/v1/NotificationOptions.js';
import type { Segment__Output } from './generated/campaign/v1/Segment.js';
import type { TagCondition__Output } from './generated/campaign/v1/TagCondition.js';
import type { SendTime__Output } from './generated/campaign/v1/SendTime.js';
import type { Variant__Output } from './generated/campaign/v1/Variant.js';
import { HOLDOUT_SLOT, rateLift } from './best-time.js';

export type { Campaign__Output as Campaign } from './generated/campaign/v1/Campaign.js';

const text = JSON.stringify;

/** The API's image and icon: null when unset (or empty). */
const textOrNull = (value: string | undefined) => (value === undefined || value === '' ? 'null' : text(value));

const ZERO_ANALYTICS = { clicks: 0, impressions: 0 };
const ZERO_FAILED_BY = { rejected: 0, unauthorized: 0, unreachable: 0, refused: 0 };

/**
 * `part / base` as a percentage rounded half up to two decimals, 0 on a zero base (the spec's
 * ctr and its), as JSON number text: k = ⌊(2·part·10⁴ + base) / (2·base)⌋ hundredths, exact (a
 * double division of integers below 2⁵³ floors exactly; BigInt past that), printed without
 * trailing zeros (33.33, 33.3, 100, 0) — what `Math.round(part * 10000 / base) / 100` gives
 * through JSON.stringify for any counter a campaign can reach.
 */
export function percentJson(part: number, base: number): string {
  if (!(base > 0)) return '0';
  const numerator = part * 20_000 + base;
  if (numerator > Number.MAX_SAFE_INTEGER) return hundredths((BigInt(part) * 20_000n + BigInt(base)) / (2n * BigInt(base)));
  const k = Math.floor(numerator / (2 * base));
  const whole = Math.floor(k / 100);
  const cents = k - whole * 100;
  if (cents === 0) return String(whole);
  return cents % 10 === 0 ? `${whole}.${cents / 10}` : `${whole}.${cents < 10 ? '0' : ''}${cents}`;
}

/** k hundredths as decimal text without trailing zeros, for counters past 2⁵³ (no campaign yet). */
function hundredths(k: bigint): string {
  const cents = k % 100n;
  if (cents === 0n) return String(k / 100n);
  return `${k / 100n}.${String(cents).padStart(2, '0').replace(/0$/, '')}`;
}

/** The API's Campaign object as JSON text. */
export function campaignJson(c: Campaign__Output): string {
  const a = c.analytics ?? ZERO_ANALYTICS;
  return `{"id":${text(c.id)},"title":${text(c.title)},"body":${text(c.body)},"link":${text(c.link)},"topics":${text(c.topics)}` +
    `,"status":${text(c.status)},"scheduleDate":${text(c.scheduleDate)},"scheduleMode":${text(c.scheduleMode)},"createdAt":${text(c.createdAt)}` +
    `,"updatedAt":null,"totalUsers":${c.totalUsers},"image":${textOrNull(c.image)},"icon":${textOrNull(c.icon)}` +
    `,"callToAction":${text(c.callToAction)},"utmSource":${text(c.utmSource)},"utmMedium":${text(c.utmMedium)},"utmCampaign":${text(c.utmCampaign)}` +
    `,"ttl":${c.ttl},"ttlUnit":"seconds","analytics":{"clicks":${a.clicks},"impressions":${a.impressions}` +
    `,"ctr":${percentJson(a.clicks, a.impressions)},"its":${percentJson(a.impressions, c.totalUsers)},"totalUsers":${c.totalUsers}}` +
    `,"delivery":${deliveryJson(c.delivery)}` +
    (c.segment === null ? '' : `,"segment":${segmentJson(c.segment)}`) +
    (c.throttlePerMinute === undefined ? '' : `,"throttlePerMinute":${c.throttlePerMinute}`) +
    (c.ignoreFrequencyCap ? ',"ignoreFrequencyCap":true' : '') +
    (c.localTime === null ? '' : `,"localTime":${localTimeJson(c.localTime)}`) +
    (c.abTest === null ? '' : `,"abTest":${abTestJson(c.abTest)}`) +
    (c.options === null ? '' : optionsJson(c.options)) +
    (c.urgency === '' || c.urgency === 'normal' ? '' : `,"urgency":${text(c.urgency)}`) +
    (c.ignoreQuietHours ? ',"ignoreQuietHours":true' : '') +
    (c.sendTime === null ? '' : `,"sendTime":${sendTimeJson(c.sendTime)}`) +
    '}';
}

/**
 * The notification options as top-level members (the create's fields), each only when it differs
 * from its default, in campaign-content.ts NotificationOptions order, each led by its comma.
 */
function optionsJson(o: NotificationOptions__Output): string {
  let json = '';
  if (o.actions.length > 0) json += `,"actions":[${o.actions.map((a) => `{"title":${text(a.title)},"link":${text(a.link)}}`).join(',')}]`;
  if (o.badge !== undefined) json += `,"badge":${text(o.badge)}`;
  if (o.requireInteraction) json += ',"requireInteraction":true';
  if (o.renotify) json += ',"renotify":true';
  if (o.silent) json += ',"silent":true';
  if (o.vibrate.length > 0) json += `,"vibrate":[${o.vibrate.join(',')}]`;
  if (o.timestamp !== undefined) json += `,"timestamp":${text(o.timestamp)}`;
  if (o.dir !== '' && o.dir !== 'auto') json += `,"dir":${text(o.dir)}`;
  if (o.lang !== '') json += `,"lang":${text(o.lang)}`;
  return json;
}

/** `capped` only when some subscribers were capped, `byBrowser` once the campaign finished. */
function deliveryJson(d: Delivery__Output | null): string {
  if (d === null) return `{"sent":0,"failed":0,"expired":0,"pending":0,"failedBy":${failedByJson(ZERO_FAILED_BY)}}`;
  let json = `{"sent":${d.sent},"failed":${d.failed},"expired":${d.expired},"pending":${d.pending},"failedBy":${failedByJson(d.failedBy ?? ZERO_FAILED_BY)}`;
  if (d.capped > 0) json += `,"capped":${d.capped}`;
  if (d.byBrowser.length > 0) {
    json += `,"byBrowser":{${d.byBrowser.map((b) => `${text(b.browser)}:{"sent":${b.sent},"failed":${b.failed},"expired":${b.expired},"capped":${b.capped}}`).join(',')}}`;
  }
  return json + '}';
}

function failedByJson(f: typeof ZERO_FAILED_BY): string {
  return `{"rejected":${f.rejected},"unauthorized":${f.unauthorized},"unreachable":${f.unreachable},"refused":${f.refused}}`;
}

/** In segment.ts SEGMENT_FIELDS order, each condition only when given (lists are never empty). */
function segmentJson(s: Segment__Output): string {
  const parts: string[] = [];
  if (s.languages.length > 0) parts.push(`"languages":${text(s.languages)}`);
  if (s.timeZones.length > 0) parts.push(`"timeZones":${text(s.timeZones)}`);
  if (s.utcOffset !== null) parts.push(`"utcOffset":{"min":${s.utcOffset.min},"max":${s.utcOffset.max}}`);
  if (s.browsers.length > 0) parts.push(`"browsers":${text(s.browsers)}`);
  if (s.subscribedAfter !== undefined) parts.push(`"subscribedAfter":${text(s.subscribedAfter)}`);
  if (s.subscribedBefore !== undefined) parts.push(`"subscribedBefore":${text(s.subscribedBefore)}`);
  if (s.engagedWithinDays !== undefined) parts.push(`"engagedWithinDays":${s.engagedWithinDays}`);
  if (s.notEngagedForDays !== undefined) parts.push(`"notEngagedForDays":${s.notEngagedForDays}`);
  if (s.tags.length > 0) parts.push(`"tags":[${s.tags.map(tagConditionJson).join(',')}]`);
  return `{${parts.join(',')}}`;
}

/** segment.ts TagCondition: `values` for "in", `value` for the operators that compare one, neither for exists and notExists. */
function tagConditionJson(c: TagCondition__Output): string {
  const values = c.values.map((v) => (v.kind === 'number' ? JSON.stringify(v.number) : v.kind === 'boolean' ? String(v.boolean) : text(v.text ?? '')));
  const operand = c.operator === 'in' ? `,"values":[${values.join(',')}]` : values.length > 0 ? `,"value":${values[0]}` : '';
  return `{"key":${text(c.key)},"operator":${text(c.operator)}${operand}}`;
}

function localTimeJson(l: LocalTimePlan__Output): string {
  const sends = l.sends.map((s) => `{"sendAt":${text(s.sendAt)},"zones":${text(s.zones)},"users":${s.users},"nextDay":${s.nextDay}${s.held ? ',"held":true' : ''}}`);
  return `{"date":${text(l.date)},"time":${text(l.time)},"ifPassed":${text(l.ifPassed)},"firstSendAt":${text(l.firstSendAt)},"lastSendAt":${text(l.lastSendAt)},"sends":[${sends.join(',')}]}`;
}

/** A variant's changes in ab-test.ts VARIANT_FIELDS order; an empty icon or image is the API's null. */
function variantJson(v: Variant__Output): string {
  const parts: string[] = [];
  if (v.title !== undefined) parts.push(`"title":${text(v.title)}`);
  if (v.body !== undefined) parts.push(`"body":${text(v.body)}`);
  if (v.link !== undefined) parts.push(`"link":${text(v.link)}`);
  if (v.icon !== undefined) parts.push(`"icon":${textOrNull(v.icon)}`);
  if (v.image !== undefined) parts.push(`"image":${textOrNull(v.image)}`);
  if (v.callToAction !== undefined) parts.push(`"callToAction":${text(v.callToAction)}`);
  return `{${parts.join(',')}}`;
}

/** The test as stored, then each variant's results (ctr and its rounded as the analytics), the winner and the window's end. */
function abTestJson(t: AbTest__Output): string {
  const results = t.results.map((r) =>
    `{"variant":${r.variant},"sent":${r.sent},"impressions":${r.impressions},"clicks":${r.clicks},"ctr":${percentJson(r.clicks, r.impressions)},"its":${percentJson(r.impressions, r.sent)}}`);
  const winner = t.winner === null ? 'null' : `{"variant":${t.winner.variant},"decidedAt":${text(t.winner.decidedAt)},"by":${text(t.winner.by)}}`;
  return `{"variants":[${t.variants.map(variantJson).join(',')}],"testPercent":${t.testPercent},"winnerMetric":${text(t.winnerMetric)},"windowMinutes":${t.windowMinutes}` +
    `,"results":[${results.join(',')}],"winner":${winner},"windowEndsAt":${t.windowEndsAt === undefined ? 'null' : text(t.windowEndsAt)}}`;
}

/** The UTC hour of the day of an ISO 8601 moment; null for none (a slot not reported with one). */
function utcHourJson(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? 'null' : String(new Date(ms).getUTCHours());
}

/**
 * A best-time campaign's window and holdout, then its results: the holdout's and the best-time
 * group's (every slot's added), each slot's by when it was sent with its rates, and the lift of best time over
 * the holdout in clicks and impressions per push sent, with its 95 % interval (best-time.ts).
 */
function sendTimeJson(t: SendTime__Output): string {
  const zero = { planned: 0, sent: 0, impressions: 0, clicks: 0 };
  const holdout = t.slots.find((s) => s.slot === HOLDOUT_SLOT) ?? zero;
  const slots = t.slots.filter((s) => s.slot !== HOLDOUT_SLOT);
  const best = slots.reduce((sum, s) => ({ planned: sum.planned + s.planned, sent: sum.sent + s.sent, impressions: sum.impressions + s.impressions, clicks: sum.clicks + s.clicks }), zero);
  const counts = (g: typeof zero) => `"planned":${g.planned},"sent":${g.sent},"impressions":${g.impressions},"clicks":${g.clicks}`;
  const group = (g: typeof zero) => `{${counts(g)},"clickRate":${percentJson(g.clicks, g.sent)},"impressionRate":${percentJson(g.impressions, g.sent)}}`;
  // Each hour's own rates too, and its UTC hour of the day (what the model predicts by), so the
  // hours compare without a client's arithmetic; `ctr` is the API's (clicks per impression).
  const byHour = slots.map(
    (s) =>
      `{"sendAt":${text(s.sendAt)},"hour":${utcHourJson(s.sendAt)},${counts(s)}` +
      `,"clickRate":${percentJson(s.clicks, s.sent)},"impressionRate":${percentJson(s.impressions, s.sent)},"ctr":${percentJson(s.clicks, s.impressions)}}`,
  );
  const lift = `{"clickRate":${text(rateLift(best.clicks, best.sent, holdout.clicks, holdout.sent))},"impressionRate":${text(rateLift(best.impressions, best.sent, holdout.impressions, holdout.sent))}}`;
  return `{"mode":${text(t.mode)},"within":"${t.withinHours}h","holdout":${t.holdoutPercent}` +
    `,"results":{"holdout":${group(holdout)},"bestTime":${group(best)},"byHour":[${byHour.join(',')}],"lift":${lift}}}`;
}
