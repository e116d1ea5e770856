// The console's own bodies, checked at the edge before any call: each field's JSON type, and no
// text the services could not keep as it was sent (NUL, unpaired surrogates: protobuf would encode
// a lone surrogate as U+FFFD, so it must be refused here, not there). Rules of meaning (a
// password's length, a label's) are the campaign service's. Bodies of the /v2 routes the console
// runs are the /v2 routes' business, passed on as their JSON text.
import type { IncomingMessage } from 'node:http';
import { withField } from '@webpush/shared/console-texts.js';
import { hasBadCharacters } from '@webpush/shared/text.js';
import { HttpError, MESSAGES } from '../texts.js';

/**
 * A string field; `optional`: absent or null is ''. Wrong types and text with NUL or unpaired
 * surrogates are refused with the field's name.
 */
export function stringField(body: Readonly<Record<string, unknown>>, name: string, opts: { optional?: boolean } = {}): string {
  const value = Object.hasOwn(body, name) ? body[name] : undefined;
  if ((value === undefined || value === null) && opts.optional) return '';
  if (typeof value !== 'string') throw new HttpError(400, withField(MESSAGES.fieldString, name));
  if (hasBadCharacters(value)) throw new HttpError(400, withField(MESSAGES.fieldCharacters, name));
  return value;
}

/** A list of strings (at most `maxItems`, else refused as not one), each checked as stringField checks one. */
export function stringListField(body: Readonly<Record<string, unknown>>, name: string, maxItems = 1000): string[] {
  const value = Object.hasOwn(body, name) ? body[name] : undefined;
  if (!Array.isArray(value) || value.length > maxItems || !value.every((v) => typeof v === 'string')) throw new HttpError(400, withField(MESSAGES.fieldStringList, name));
  if (value.some((v) => hasBadCharacters(v as string))) throw new HttpError(400, withField(MESSAGES.fieldCharacters, name));
  return value as string[];
}

const objectOr = (value: unknown): Readonly<Record<string, unknown>> => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

/**
 * A browser's PushSubscription as its toJSON() gives it (`{subscription: {endpoint, keys:
 * {p256dh, auth}}}`): each field as given when it is a string, '' otherwise. Its rules are the
 * delivery service's, which refuses either with the plugin's subscribe messages (a missing or
 * wrong-typed field is refused there as an empty one is).
 */
export function subscriptionFields(body: Readonly<Record<string, unknown>>): { endpoint: string; p256dh: string; auth: string } {
  const subscription = objectOr(body.subscription);
  const keys = objectOr(subscription.keys);
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return { endpoint: text(subscription.endpoint), p256dh: text(keys.p256dh), auth: text(keys.auth) };
}

/** `days` of the audience's daily counts: absent is `fallback`; otherwise a whole number from 1 to 365. */
export function daysQuery(value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^[0-9]{1,3}$/.test(value) || Number(value) < 1 || Number(value) > 365) throw new HttpError(400, MESSAGES.daysRange);
  return Number(value);
}

/**
 * A body must be declared JSON. Browsers send `application/json` only from script of the same
 * origin (anything else needs a CORS preflight, which the gateway never grants), so a form of
 * another site — which can post `text/plain` that parses as JSON — cannot log anyone in, nor
 * reach any other route with a body.
 */
export function requireJsonContentType(req: IncomingMessage): void {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json') throw new HttpError(415, MESSAGES.jsonContentType);
}

/** True when the request says it carries a body (Content-Length over 0, or chunked). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}
