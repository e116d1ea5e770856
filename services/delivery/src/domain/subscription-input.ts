// The site plugin's subscribe/unsubscribe payloads: shape checked by an ajv schema, then the
// rules a schema cannot say (URL host allow-list, key encodings, a point on the curve, no NUL
// or unpaired surrogate in any text: Postgres refuses NUL, UTF-8 cannot carry the other).
import { ECDH } from 'node:crypto';
import { Ajv, type ErrorObject } from 'ajv';
import { BAD_CHARACTERS, hasBadCharacters, someHasBadCharacters } from '../../../shared/src/text.js';
import { ValidationError } from './errors.js';
import { normalizeTopic, sortedSet } from './names.js';
import { endpointAllowed, MAX_ENDPOINT_CHARS, type PushHostRules } from './push-endpoint.js';

export { MAX_ENDPOINT_CHARS };

export const MESSAGES = Object.freeze({
  endpoint: 'subscription.endpoint must be an https URL of a push service',
  p256dh: 'subscription.keys.p256dh must be a base64url P-256 public key',
  auth: 'subscription.keys.auth must be 16 bytes in base64url',
  topics: 'topics must be an array of at most 20 names of 1 to 64 characters',
  topicPrefix: 'topics must not start with "country__"',
  language: 'language must be a string of at most 35 characters',
  timeZone: 'timeZone must be a string of at most 64 characters',
  unsubscribeEndpoint: 'endpoint must be a string of at most 2048 characters',
  // A field that passed the checks above but holds a NUL or an unpaired surrogate. The
  // subscription's endpoint and keys need none: only visible ASCII passes their rules.
  topicsCharacters: `topics ${BAD_CHARACTERS}`,
  languageCharacters: `language ${BAD_CHARACTERS}`,
  timeZoneCharacters: `timeZone ${BAD_CHARACTERS}`,
  endpointCharacters: `endpoint ${BAD_CHARACTERS}`,
});

/** True when `value` is a string holding a NUL or an unpaired surrogate. */
export const badText = (value: unknown): boolean => typeof value === 'string' && hasBadCharacters(value);

export const MAX_TOPICS_PER_REQUEST = 20;

export interface SubscribeInput {
  endpoint: string;
  p256dh: string;
  auth: string;
  /** normalised, sorted, distinct */
  topics: string[];
  language: string | null;
  timeZone: string | null;
}

type Field = 'endpoint' | 'p256dh' | 'auth' | 'topics' | 'language' | 'timeZone';

// JSON pointer of each field, in the order its message is reported.
const FIELD_PATHS: readonly [Field, string][] = [
  ['endpoint', '/subscription/endpoint'],
  ['p256dh', '/subscription/keys/p256dh'],
  ['auth', '/subscription/keys/auth'],
  ['topics', '/topics'],
  ['language', '/language'],
  ['timeZone', '/timeZone'],
];

const SUBSCRIBE_SCHEMA = {
  type: 'object',
  required: ['subscription'],
  properties: {
    subscription: {
      type: 'object',
      required: ['endpoint', 'keys'],
      properties: {
        endpoint: { type: 'string', minLength: 1, maxLength: MAX_ENDPOINT_CHARS },
        keys: {
          type: 'object',
          required: ['p256dh', 'auth'],
          properties: { p256dh: { type: 'string', maxLength: 200 }, auth: { type: 'string', maxLength: 100 } },
        },
      },
    },
    topics: { type: 'array', maxItems: MAX_TOPICS_PER_REQUEST, items: { type: 'string', maxLength: 1000 } },
    language: { type: ['string', 'null'], maxLength: 35 },
    timeZone: { type: ['string', 'null'], maxLength: 64 },
  },
} as const;

const UNSUBSCRIBE_SCHEMA = {
  type: 'object',
  required: ['endpoint'],
  properties: { endpoint: { type: 'string', minLength: 1, maxLength: MAX_ENDPOINT_CHARS } },
} as const;

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** Which fields an ajv error concerns: the error's pointer and every field under or above it. */
function failedFields(errors: ErrorObject[]): Set<Field> {
  const failed = new Set<Field>();
  for (const e of errors) {
    const missing = (e.params as { missingProperty?: string }).missingProperty;
    const at = missing === undefined ? e.instancePath : `${e.instancePath}/${missing}`;
    for (const [field, path] of FIELD_PATHS) {
      if (path === at || path.startsWith(at + '/') || at.startsWith(path + '/')) failed.add(field);
    }
  }
  return failed;
}

function decodeBase64url(raw: string): Buffer | null {
  return BASE64URL.test(raw) ? Buffer.from(raw, 'base64url') : null;
}

function validP256dh(raw: string): boolean {
  const bytes = decodeBase64url(raw);
  if (!bytes || bytes.length !== 65 || bytes[0] !== 0x04) return false;
  try {
    // Decoding the point checks that it lies on the curve.
    ECDH.convertKey(bytes, 'prime256v1');
    return true;
  } catch {
    return false;
  }
}

function optionalText(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

export function createSubscriptionInputRules(hosts: PushHostRules) {
  const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
  const checkSubscribe = ajv.compile(SUBSCRIBE_SCHEMA);
  const checkUnsubscribe = ajv.compile(UNSUBSCRIBE_SCHEMA);

  /** Unknown fields are ignored; `country` in particular never comes from the body. */
  function parseSubscribe(body: Record<string, unknown>): SubscribeInput {
    const failed = checkSubscribe(body) ? new Set<Field>() : failedFields(checkSubscribe.errors ?? []);
    const messages: string[] = [];
    const sub = body.subscription as { endpoint: string; keys: { p256dh: string; auth: string } } | undefined;
    if (failed.has('endpoint') || !endpointAllowed(sub!.endpoint, hosts)) messages.push(MESSAGES.endpoint);
    if (failed.has('p256dh') || !validP256dh(sub!.keys.p256dh)) messages.push(MESSAGES.p256dh);
    if (failed.has('auth') || decodeBase64url(sub!.keys.auth)?.length !== 16) messages.push(MESSAGES.auth);
    let topics: string[] = [];
    if (failed.has('topics')) messages.push(MESSAGES.topics);
    else if (someHasBadCharacters(body.topics)) messages.push(MESSAGES.topicsCharacters);
    else {
      const raw = (body.topics as string[] | undefined) ?? [];
      const names = raw.map(normalizeTopic);
      const countryLike = raw.map((t) => t.trim().toLowerCase().startsWith('country__'));
      if (countryLike.some(Boolean)) messages.push(MESSAGES.topicPrefix);
      if (names.some((n, i) => n === null && !countryLike[i])) messages.push(MESSAGES.topics);
      if (names.every((n) => n !== null)) topics = sortedSet(names as string[]);
    }
    if (failed.has('language')) messages.push(MESSAGES.language);
    else if (badText(body.language)) messages.push(MESSAGES.languageCharacters);
    if (failed.has('timeZone')) messages.push(MESSAGES.timeZone);
    else if (badText(body.timeZone)) messages.push(MESSAGES.timeZoneCharacters);
    if (messages.length > 0) throw new ValidationError(messages);
    return {
      endpoint: sub!.endpoint,
      p256dh: sub!.keys.p256dh,
      auth: sub!.keys.auth,
      topics,
      language: optionalText(body.language),
      timeZone: optionalText(body.timeZone),
    };
  }

  function parseUnsubscribe(body: Record<string, unknown>): { endpoint: string } {
    if (!checkUnsubscribe(body)) throw new ValidationError([MESSAGES.unsubscribeEndpoint]);
    if (badText(body.endpoint)) throw new ValidationError([MESSAGES.endpointCharacters]);
    return { endpoint: body.endpoint as string };
  }

  return { parseSubscribe, parseUnsubscribe };
}
