// Validation of a create's notification options and urgency (additions of 2026-12-05:
// docs/api-decisions.md, "Notification options"): buttons with their own links, badge,
// requireInteraction, renotify, silent, vibrate, timestamp, dir, lang, and the RFC 8030 Urgency.
// Each field absent or null takes its default; every wrong one pushes its own message, after the
// spec's and the earlier additions', in this order.
import {
  allDefault,
  MAX_BUTTONS,
  MAX_VIBRATE_ENTRIES,
  MAX_VIBRATE_MS,
  NOTIFICATION_DIRECTIONS,
  type NotificationAction,
  type NotificationDirection,
  type NotificationOptions,
} from '@webpush/contracts/campaign-content.js';
import { DEFAULT_URGENCY, URGENCIES, type Urgency } from '@webpush/contracts/urgency.js';
import { hasBadCharacters } from '@webpush/shared/text.js';
import { EXAMPLE_DATE, formatUtcDate, parseUtcDate } from '../base/dates.js';
import { graphemeLength } from '../base/text.js';
import { fill, MESSAGES } from '../base/texts.js';
import { isAbsent, isUrl, optionalUrl } from './content-fields.js';

/** A button's text: as long as callToAction's may be. */
const MAX_ACTION_TITLE = 20;
/** RFC 5646 §4.4.1: tags of up to 35 characters must be supported; longer ones are not needed. */
const MAX_LANG_LENGTH = 35;
/** Notification timestamps are milliseconds since 1970 (an unsigned number in browsers). */
const EPOCH = 0;

const ACTION_FIELDS = new Set(['title', 'link']);

function actionsField(value: unknown, callToAction: string, errors: string[]): NotificationAction[] {
  if (isAbsent(value)) return [];
  const isItem = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).every((k) => ACTION_FIELDS.has(k));
  if (!Array.isArray(value) || value.length > MAX_BUTTONS || !value.every(isItem)) {
    errors.push(MESSAGES.actionsList);
    return [];
  }
  const actions: NotificationAction[] = [];
  let wrong = false;
  value.forEach((item: Record<string, unknown>, index) => {
    const at = { index: String(index) };
    const { title, link } = item;
    if (typeof title !== 'string' || title.trim() === '' || graphemeLength(title, MAX_ACTION_TITLE) > MAX_ACTION_TITLE) {
      errors.push(fill(MESSAGES.actionTitle, at));
      wrong = true;
    } else if (hasBadCharacters(title)) {
      errors.push(fill(MESSAGES.actionTitleCharacters, at));
      wrong = true;
    }
    // The rule of the campaign's own link (content-fields.ts): absolute http(s), at most 2048 characters.
    if (typeof link === 'string' && /^https?:\/\//i.test(link) && hasBadCharacters(link)) {
      errors.push(fill(MESSAGES.actionLinkCharacters, at));
      wrong = true;
    } else if (typeof link !== 'string' || !isUrl(link, /^https?:\/\//i)) {
      errors.push(fill(MESSAGES.actionLink, at));
      wrong = true;
    }
    if (!wrong) actions.push({ title: title as string, link: link as string });
  });
  if (wrong) return [];
  if (callToAction !== '' && actions.length > MAX_BUTTONS - 1) {
    errors.push(MESSAGES.actionsWithCallToAction);
    return [];
  }
  return actions;
}

function booleanField(value: unknown, message: string, errors: string[]): boolean {
  if (isAbsent(value)) return false;
  if (typeof value !== 'boolean') {
    errors.push(message);
    return false;
  }
  return value;
}

function vibrateField(value: unknown, errors: string[]): number[] {
  if (isAbsent(value)) return [];
  const isDuration = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_VIBRATE_MS;
  if (!Array.isArray(value) || value.length > MAX_VIBRATE_ENTRIES || !value.every(isDuration)) {
    errors.push(MESSAGES.vibrate);
    return [];
  }
  return value as number[];
}

function timestampField(value: unknown, errors: string[]): string | null {
  if (isAbsent(value)) return null;
  const date = parseUtcDate(value);
  if (date === null || date.getTime() < EPOCH) {
    errors.push(fill(MESSAGES.timestamp, { 'UTC date-time': EXAMPLE_DATE }));
    return null;
  }
  return formatUtcDate(date);
}

function dirField(value: unknown, errors: string[]): NotificationDirection {
  if (isAbsent(value)) return 'auto';
  if (!NOTIFICATION_DIRECTIONS.includes(value as NotificationDirection)) {
    errors.push(MESSAGES.dir);
    return 'auto';
  }
  return value as NotificationDirection;
}

/** A well-formed BCP 47 tag in its canonical case (`pt-br` → `pt-BR`); '' for none. */
function langField(value: unknown, errors: string[]): string {
  if (isAbsent(value) || value === '') return '';
  if (typeof value === 'string' && value.length <= MAX_LANG_LENGTH && /^[A-Za-z0-9-]+$/.test(value)) {
    try {
      return Intl.getCanonicalLocales(value)[0];
    } catch {
      // Not well-formed BCP 47: the message below.
    }
  }
  errors.push(MESSAGES.lang);
  return '';
}

/**
 * The create's notification options, normalised, or null when every one is at its default (the
 * campaign then has none, and its pushes are what they were before options existed).
 * `callToAction` is the validated button text: it is the first of the two buttons when given.
 */
export function notificationOptionsField(raw: Record<string, unknown>, callToAction: string, errors: string[]): NotificationOptions | null {
  const actions = actionsField(raw.actions, callToAction, errors);
  const badge = optionalUrl(raw.badge, { url: MESSAGES.badgeUrl, characters: MESSAGES.badgeCharacters }, errors);
  const requireInteraction = booleanField(raw.requireInteraction, MESSAGES.requireInteraction, errors);
  const renotify = booleanField(raw.renotify, MESSAGES.renotify, errors);
  const silent = booleanField(raw.silent, MESSAGES.silent, errors);
  const vibrate = vibrateField(raw.vibrate, errors);
  // The Notifications API throws on both (a silent notification does not vibrate).
  if (silent && vibrate.length > 0) errors.push(MESSAGES.vibrateSilent);
  const timestamp = timestampField(raw.timestamp, errors);
  const dir = dirField(raw.dir, errors);
  const lang = langField(raw.lang, errors);
  const options: NotificationOptions = { actions, badge, requireInteraction, renotify, silent, vibrate, timestamp, dir, lang };
  return allDefault(options) ? null : options;
}

export function urgencyField(value: unknown, errors: string[]): Urgency {
  if (isAbsent(value)) return DEFAULT_URGENCY;
  if (!URGENCIES.includes(value as Urgency)) {
    errors.push(MESSAGES.urgency);
    return DEFAULT_URGENCY;
  }
  return value as Urgency;
}
