// The rules of a campaign's content fields a notification shows (title, body, link, icon, image,
// callToAction), one function per field, shared by the create's own fields (create-input.ts) and
// an A/B test's variants (ab-test-input.ts), which must follow exactly the same rules. Each
// returns the normalised value and pushes its message(s) to `errors` (docs/api-decisions.md, "Create").
import type { CampaignContent } from '@webpush/contracts/campaign-content.js';
import type { VARIANT_FIELDS } from '@webpush/contracts/ab-test.js';
import { hasBadCharacters } from '@webpush/shared/text.js';
import { graphemeLength } from '../base/text.js';
import { MESSAGES } from '../base/texts.js';

const MAX_URL_LENGTH = 2048;

export const isAbsent = (v: unknown) => v === undefined || v === null;

/** `text`, or '' with `message` (the field's `… must not contain NUL characters or unpaired surrogates`). */
export function clean(text: string, message: string, errors: string[]): string {
  if (!hasBadCharacters(text)) return text;
  errors.push(message);
  return '';
}

/**
 * Not a string, or only whitespace, counts as missing for the `… is required` messages. The
 * spec's checks of a field come first; NUL and unpaired surrogates are refused after them
 * (one message per field).
 */
function textField(value: unknown, min: number, max: number, m: { required: string; length: string; characters: string }, errors: string[]): string {
  if (isAbsent(value) || (typeof value === 'string' && value.trim() === '')) {
    errors.push(m.required);
    return '';
  }
  const length = typeof value === 'string' ? graphemeLength(value, max) : -1;
  if (length < min || length > max) {
    errors.push(m.length);
    return '';
  }
  return clean(value as string, m.characters, errors);
}

function hasControlCharacters(s: string): boolean {
  return /[\u0000-\u001f\u007f]/.test(s);
}

/** An absolute URL of that scheme with a host, at most 2048 characters, without control characters. */
export function isUrl(s: string, scheme: RegExp): boolean {
  if (s.length > MAX_URL_LENGTH || !scheme.test(s) || hasControlCharacters(s)) return false;
  try {
    return new URL(s).hostname !== '';
  } catch {
    return false;
  }
}

function linkField(value: unknown, errors: string[]): string {
  if (isAbsent(value) || value === '') {
    errors.push(MESSAGES.linkRequired);
    return '';
  }
  if (typeof value === 'string' && hasBadCharacters(value)) return clean(value, MESSAGES.linkCharacters, errors);
  if (typeof value !== 'string' || !isUrl(value, /^https?:\/\//i)) {
    errors.push(MESSAGES.linkUrl);
    return '';
  }
  return value;
}

/** An optional https URL (icon, image, badge): absent, null or '' → null; else the field's messages. */
export function optionalUrl(value: unknown, m: { url: string; characters: string }, errors: string[]): string | null {
  if (isAbsent(value) || value === '') return null;
  // The spec's rule (starts with https://) first, then the characters, then the rest of a URL.
  if (typeof value === 'string' && value.startsWith('https://') && hasBadCharacters(value)) return clean(value, m.characters, errors) || null;
  if (typeof value !== 'string' || !isUrl(value, /^https:\/\//)) {
    errors.push(m.url);
    return null;
  }
  return value;
}

function callToActionField(value: unknown, errors: string[]): string {
  if (isAbsent(value)) return '';
  if (typeof value !== 'string' || graphemeLength(value, 20) > 20) {
    errors.push(MESSAGES.callToActionLength);
    return '';
  }
  return clean(value, MESSAGES.callToActionCharacters, errors);
}

type ContentRules = { [F in (typeof VARIANT_FIELDS)[number]]: (value: unknown, errors: string[]) => CampaignContent[F] };

/** The rule of each content field a variant may change, as the create applies it to its own field. */
export const CONTENT_FIELD_RULES: Readonly<ContentRules> = Object.freeze({
  title: (v, errors) => textField(v, 3, 100, { required: MESSAGES.titleRequired, length: MESSAGES.titleLength, characters: MESSAGES.titleCharacters }, errors),
  body: (v, errors) => textField(v, 3, 300, { required: MESSAGES.bodyRequired, length: MESSAGES.bodyLength, characters: MESSAGES.bodyCharacters }, errors),
  link: linkField,
  icon: (v, errors) => optionalUrl(v, { url: MESSAGES.iconUrl, characters: MESSAGES.iconCharacters }, errors),
  image: (v, errors) => optionalUrl(v, { url: MESSAGES.imageUrl, characters: MESSAGES.imageCharacters }, errors),
  callToAction: callToActionField,
});
