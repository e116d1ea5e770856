// The site plugin's payloads (subscribe, unsubscribe, page view, subscription change): shape
// checked by an ajv schema, then the rules a schema cannot say (URL host allow-list, key
// encodings, a point on the curve, no NUL or unpaired surrogate in any text: Postgres refuses
// NUL, UTF-8 cannot carry the other). Every message the plugin's endpoints answer is here.
import { ECDH } from 'node:crypto';
import { Ajv, type ErrorObject } from 'ajv';
import { canonicalZone } from '@webpush/contracts/local-time.js';
import { BAD_CHARACTERS, hasBadCharacters, someHasBadCharacters } from '@webpush/shared/text.js';
import { ValidationError } from '../errors.js';
import { promptIdOf } from '../optin/index.js';
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
  declarative: 'declarative must be true or false',
  endpointString: 'endpoint must be a string of at most 2048 characters',
  // A field that passed the checks above but holds a NUL or an unpaired surrogate. The
  // subscription's endpoint and keys need none: only visible ASCII passes their rules.
  topicsCharacters: `topics ${BAD_CHARACTERS}`,
  languageCharacters: `language ${BAD_CHARACTERS}`,
  timeZoneCharacters: `timeZone ${BAD_CHARACTERS}`,
  endpointCharacters: `endpoint ${BAD_CHARACTERS}`,
  oldEndpoint: 'oldEndpoint must be a string of at most 2048 characters',
  oldEndpointCharacters: `oldEndpoint ${BAD_CHARACTERS}`,
  sameEndpoints: 'oldEndpoint and endpoint must differ',
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
  /** The browser shows Declarative Web Push messages itself; null when the request does not say (kept as stored). */
  declarative: boolean | null;
  /** The opt-in prompt that led here (the snippet's subscribe); null when not said (a refresh, the worker's re-registration). */
  promptId: string | null;
}

type Field = 'endpoint' | 'p256dh' | 'auth' | 'topics' | 'language' | 'timeZone' | 'declarative';

// JSON pointer of each field, in the order its message is reported.
const FIELD_PATHS: readonly [Field, string][] = [
  ['endpoint', '/subscription/endpoint'],
  ['p256dh', '/subscription/keys/p256dh'],
  ['auth', '/subscription/keys/auth'],
  ['topics', '/topics'],
  ['language', '/language'],
  ['timeZone', '/timeZone'],
  ['declarative', '/declarative'],
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
    declarative: { type: 'boolean' },
  },
} as const;

const UNSUBSCRIBE_SCHEMA = {
  type: 'object',
  required: ['endpoint'],
  properties: { endpoint: { type: 'string', minLength: 1, maxLength: MAX_ENDPOINT_CHARS } },
} as const;

const PAGE_VIEW_SCHEMA = {
  type: 'object',
  required: ['endpoint'],
  properties: {
    endpoint: { type: 'string', minLength: 1, maxLength: MAX_ENDPOINT_CHARS },
    topics: { type: 'array', maxItems: MAX_TOPICS_PER_REQUEST, items: { type: 'string', maxLength: 1000 } },
  },
} as const;

const SUBSCRIPTION_CHANGE_SCHEMA = {
  type: 'object',
  required: ['oldEndpoint', 'endpoint'],
  properties: {
    oldEndpoint: { type: 'string', minLength: 1, maxLength: MAX_ENDPOINT_CHARS },
    endpoint: { type: 'string', minLength: 1, maxLength: MAX_ENDPOINT_CHARS },
  },
} as const;

export interface PageViewInput {
  endpoint: string;
  /** normalised, sorted, distinct; may be empty (the view only confirms the subscription) */
  topics: string[];
}

export interface SubscriptionChangeInput {
  oldEndpoint: string;
  endpoint: string;
}

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

/** The topics of a request that passed its schema: normalised, or the messages saying why not. */
function topicNames(raw: unknown, messages: string[]): string[] {
  if (someHasBadCharacters(raw)) {
    messages.push(MESSAGES.topicsCharacters);
    return [];
  }
  const given = (raw as string[] | undefined) ?? [];
  const names = given.map(normalizeTopic);
  const countryLike = given.map((t) => t.trim().toLowerCase().startsWith('country__'));
  if (countryLike.some(Boolean)) messages.push(MESSAGES.topicPrefix);
  if (names.some((n, i) => n === null && !countryLike[i])) messages.push(MESSAGES.topics);
  return names.every((n) => n !== null) ? sortedSet(names as string[]) : [];
}

/** Whether an ajv error concerns the top-level `field` (its value, or its absence). */
function concerns(errors: ErrorObject[], field: string): boolean {
  return errors.some((e) => e.instancePath === `/${field}` || e.instancePath.startsWith(`/${field}/`) || (e.params as { missingProperty?: string }).missingProperty === field);
}

function optionalText(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

export function createSubscriptionInputRules(hosts: PushHostRules) {
  const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
  const checkSubscribe = ajv.compile(SUBSCRIBE_SCHEMA);
  const checkUnsubscribe = ajv.compile(UNSUBSCRIBE_SCHEMA);
  const checkPageView = ajv.compile(PAGE_VIEW_SCHEMA);
  const checkChange = ajv.compile(SUBSCRIPTION_CHANGE_SCHEMA);

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
    else topics = topicNames(body.topics, messages);
    if (failed.has('language')) messages.push(MESSAGES.language);
    else if (badText(body.language)) messages.push(MESSAGES.languageCharacters);
    if (failed.has('timeZone')) messages.push(MESSAGES.timeZone);
    else if (badText(body.timeZone)) messages.push(MESSAGES.timeZoneCharacters);
    if (failed.has('declarative')) messages.push(MESSAGES.declarative);
    const promptId = promptIdOf(body.promptId, messages);
    if (messages.length > 0) throw new ValidationError(messages);
    return {
      endpoint: sub!.endpoint,
      p256dh: sub!.keys.p256dh,
      auth: sub!.keys.auth,
      topics,
      language: optionalText(body.language),
      // Stored by its one name, so a segment or local-time group on `Asia/Kolkata` finds Chrome's `Asia/Calcutta`.
      timeZone: nullableZone(optionalText(body.timeZone)),
      declarative: typeof body.declarative === 'boolean' ? body.declarative : null,
      promptId,
    };
  }

  /** `promptId`: the snippet's opt-out names it (the opt-in funnel counts it); absent otherwise. */
  function parseUnsubscribe(body: Record<string, unknown>): { endpoint: string; promptId: string | null } {
    if (!checkUnsubscribe(body)) throw new ValidationError([MESSAGES.endpointString]);
    if (badText(body.endpoint)) throw new ValidationError([MESSAGES.endpointCharacters]);
    const messages: string[] = [];
    const promptId = promptIdOf((body as Record<string, unknown>).promptId, messages);
    if (messages.length > 0) throw new ValidationError(messages);
    return { endpoint: body.endpoint as string, promptId };
  }

  function parsePageView(body: Record<string, unknown>): PageViewInput {
    const errors = checkPageView(body) ? [] : (checkPageView.errors ?? []);
    const messages: string[] = [];
    if (concerns(errors, 'endpoint')) messages.push(MESSAGES.endpointString);
    else if (badText(body.endpoint)) messages.push(MESSAGES.endpointCharacters);
    let topics: string[] = [];
    if (concerns(errors, 'topics')) messages.push(MESSAGES.topics);
    else topics = topicNames(body.topics, messages);
    if (messages.length > 0) throw new ValidationError(messages);
    return { endpoint: body.endpoint as string, topics };
  }

  function parseSubscriptionChange(body: Record<string, unknown>): SubscriptionChangeInput {
    const errors = checkChange(body) ? [] : (checkChange.errors ?? []);
    const messages: string[] = [];
    if (concerns(errors, 'oldEndpoint')) messages.push(MESSAGES.oldEndpoint);
    else if (badText(body.oldEndpoint)) messages.push(MESSAGES.oldEndpointCharacters);
    if (concerns(errors, 'endpoint')) messages.push(MESSAGES.endpointString);
    else if (badText(body.endpoint)) messages.push(MESSAGES.endpointCharacters);
    if (messages.length === 0 && body.oldEndpoint === body.endpoint) messages.push(MESSAGES.sameEndpoints);
    if (messages.length > 0) throw new ValidationError(messages);
    return { oldEndpoint: body.oldEndpoint as string, endpoint: body.endpoint as string };
  }

  return { parseSubscribe, parseUnsubscribe, parsePageView, parseSubscriptionChange };
}

function nullableZone(zone: string | null): string | null {
  return zone === null ? null : canonicalZone(zone);
}
