// A site's sending settings in the console (docs/console.md, "Site settings"): the default
// throttle, which the campaign service owns (new campaigns take it), and the frequency cap, time
// zone and quiet hours, which the delivery service owns (sending applies them). Each service checks its own
// by the operators' rules; the gateway only reads the body's shape. A change is checked by both
// owners first (validate_only) and written only when neither refuses, so a refusal writes nothing.
import { status as Status } from '@grpc/grpc-js';
import { withField } from '@webpush/shared/console-texts.js';
import { hasBadCharacters } from '@webpush/shared/text.js';
import type { SiteSettingsResponse__Output } from '@webpush/contracts/generated/delivery/v1/SiteSettingsResponse.js';
import type { SiteThrottle__Output } from '@webpush/contracts/generated/campaign/v1/SiteThrottle.js';
import type { CallContext, ConsoleBackend, ConsoleDataBackend } from '../grpc/clients.js';
import { isGrpcError } from '../grpc/status-map.js';
import { HttpError, MESSAGES } from '../texts.js';

export interface SettingsBackends {
  console: Pick<ConsoleBackend, 'siteThrottle' | 'setSiteThrottle'>;
  consoleData: Pick<ConsoleDataBackend, 'siteSettings' | 'updateSendingSettings'>;
}

export interface SiteSettingsJson {
  defaultThrottlePerMinute: number | null;
  frequencyCap: { campaigns: number; hours: number } | null;
  timeZone: string;
  quietHours: { from: string; to: string } | null;
}

const SETTINGS = ['defaultThrottlePerMinute', 'frequencyCap', 'timeZone', 'quietHours'] as const;

function settingsJson(throttle: SiteThrottle__Output, sending: SiteSettingsResponse__Output): SiteSettingsJson {
  return {
    defaultThrottlePerMinute: throttle.defaultThrottlePerMinute ?? null,
    frequencyCap: sending.frequencyCap ? { campaigns: sending.frequencyCap.campaigns, hours: sending.frequencyCap.hours } : null,
    timeZone: sending.timeZone,
    quietHours: sending.quietHours ? { from: sending.quietHours.from, to: sending.quietHours.to } : null,
  };
}

export async function readSettings(backends: SettingsBackends, siteId: string, ctx: CallContext): Promise<SiteSettingsJson> {
  const [throttle, sending] = await Promise.all([backends.console.siteThrottle(siteId, ctx), backends.consoleData.siteSettings(siteId, ctx)]);
  return settingsJson(throttle, sending);
}

/** A number as the owner's rule will judge it: anything but a JSON number goes as NaN, which every rule refuses with its own message. */
const numberOr = (value: unknown): number => (typeof value === 'number' ? value : Number.NaN);

/** The body's change: a setting absent stays; null lifts the throttle, the cap or the quiet hours, or sets the zone back to UTC. */
function changeOf(body: Readonly<Record<string, unknown>>) {
  const unknown = Object.keys(body).find((k) => !(SETTINGS as readonly string[]).includes(k));
  if (unknown !== undefined) throw new HttpError(400, withField(MESSAGES.settingUnknown, unknown.slice(0, 100)));
  const given = (name: (typeof SETTINGS)[number]) => Object.hasOwn(body, name);
  if (!SETTINGS.some(given)) throw new HttpError(400, MESSAGES.settingsEmpty);
  const cap = body.frequencyCap;
  if (given('frequencyCap') && cap !== null && (typeof cap !== 'object' || Array.isArray(cap))) throw new HttpError(400, MESSAGES.frequencyCapObject);
  const zone = body.timeZone;
  if (given('timeZone') && zone !== null) {
    if (typeof zone !== 'string') throw new HttpError(400, withField(MESSAGES.fieldString, 'timeZone'));
    if (hasBadCharacters(zone)) throw new HttpError(400, withField(MESSAGES.fieldCharacters, 'timeZone'));
  }
  const quiet = body.quietHours as Readonly<Record<string, unknown>> | null | undefined;
  if (given('quietHours') && quiet !== null) {
    if (typeof quiet !== 'object' || Array.isArray(quiet)) throw new HttpError(400, MESSAGES.quietHoursObject);
    const extra = Object.keys(quiet).find((k) => k !== 'from' && k !== 'to');
    if (extra !== undefined) throw new HttpError(400, MESSAGES.quietHoursObject);
    for (const end of ['from', 'to'] as const) if (typeof quiet[end] !== 'string') throw new HttpError(400, withField(MESSAGES.fieldString, `quietHours.${end}`));
  }
  const capObject = cap as Readonly<Record<string, unknown>> | null;
  return {
    throttle: given('defaultThrottlePerMinute') ? { perMinute: body.defaultThrottlePerMinute === null ? undefined : numberOr(body.defaultThrottlePerMinute) } : undefined,
    sending: given('frequencyCap') || given('timeZone') || given('quietHours')
      ? {
          setFrequencyCap: given('frequencyCap'),
          frequencyCap: capObject ? { campaigns: numberOr(capObject.campaigns), hours: numberOr(capObject.hours) } : undefined,
          setTimeZone: given('timeZone'),
          timeZone: zone === null ? undefined : (zone as string | undefined),
          setQuietHours: given('quietHours'),
          // The strings as given: the delivery service judges them, a refused one writes nothing.
          quietHours: quiet ? { from: quiet.from as string, to: quiet.to as string } : undefined,
        }
      : undefined,
  };
}

/** Each owner's INVALID_ARGUMENT texts of a check; anything else is the call's failure. */
async function refusalsOf(check: Promise<unknown> | undefined): Promise<string[]> {
  try {
    await check;
    return [];
  } catch (err) {
    if (isGrpcError(err) && err.code === Status.INVALID_ARGUMENT && err.details) return [err.details];
    throw err;
  }
}

export async function changeSettings(backends: SettingsBackends, siteId: string, body: Readonly<Record<string, unknown>>, ctx: CallContext): Promise<SiteSettingsJson> {
  const { throttle, sending } = changeOf(body);
  const throttleCall = (validateOnly: boolean) => (throttle ? backends.console.setSiteThrottle({ siteId, ...throttle, validateOnly }, ctx) : undefined);
  const sendingCall = (validateOnly: boolean) => (sending ? backends.consoleData.updateSendingSettings({ siteId, ...sending, validateOnly }, ctx) : undefined);
  const refusals = (await Promise.all([refusalsOf(throttleCall(true)), refusalsOf(sendingCall(true))])).flat();
  if (refusals.length > 0) throw new HttpError(400, refusals.join(', '));
  // Both accepted: the delivery service's part, then the campaign service's. A failure between
  // the two leaves the first written; the same PATCH again finishes it (each write sets a value).
  await sendingCall(false);
  await throttleCall(false);
  return readSettings(backends, siteId, ctx);
}
