// A site's opt-in prompts (docs/site-plugin.md, "Opt-in prompts"): the soft prompt the site
// plugin shows before the browser's own (a slide-down or a modal with the site's texts, on the
// nth page view and/or after a delay, snoozed for some days after "not now"), the bell, and the
// topics a visitor may choose in the prompt. Its owners and editors set them in the console
// (console/console-data.ts); the plugin reads them in the site's public configuration (routes.ts),
// so nothing here is secret. A change names the fields it changes (one left out, or a nested
// one such as trigger.delaySeconds, stays as it is); the result is checked whole here (every
// refused field named, nothing written then).
import { BAD_CHARACTERS, echoValue, hasBadCharacters } from '@webpush/shared/text.js';
import { normalizeTopic } from '../audience/index.js';
import { ValidationError } from '../errors.js';

export const PROMPT_KINDS = ['none', 'slidedown', 'modal'] as const;
export const BELL_POSITIONS = ['bottom-right', 'bottom-left'] as const;
export const PROMPT_LIMITS = {
  title: 80,
  body: 300,
  /** The accept and not-now buttons, and each topic's label. */
  label: 40,
  pageViews: 100,
  /** Five minutes: a prompt later than that is for a visitor who already left. */
  delaySeconds: 300,
  snoozeDays: 365,
  topics: 10,
} as const;

export interface PromptTopic {
  /** A topic name as stored (lowercase): the subscriber gets it when they keep it checked. */
  name: string;
  /** What the visitor reads next to its checkbox. */
  label: string;
}

export interface OptInPrompts {
  kind: (typeof PROMPT_KINDS)[number];
  title: string;
  body: string;
  acceptLabel: string;
  notNowLabel: string;
  /** Shown from the nth page view of the visitor on the site, after delaySeconds on that page. */
  trigger: { pageViews: number; delaySeconds: number };
  /** Days the prompt stays away after "not now" (or Escape). */
  snoozeDays: number;
  bell: { enabled: boolean; position: (typeof BELL_POSITIONS)[number] };
  topics: PromptTopic[];
}

export const DEFAULT_PROMPTS: Readonly<OptInPrompts> = Object.freeze<OptInPrompts>({
  kind: 'none',
  title: 'Get notifications',
  body: '',
  acceptLabel: 'Allow',
  notNowLabel: 'Not now',
  trigger: { pageViews: 1, delaySeconds: 0 },
  snoozeDays: 7,
  bell: { enabled: false, position: 'bottom-right' },
  topics: [],
});

export const PROMPT_MESSAGES = {
  object: 'The opt-in prompts must be a JSON object',
  unknown: (field: string) => `${field} is not a field of the opt-in prompts`,
  kind: `kind must be one of: ${PROMPT_KINDS.join(', ')}`,
  text: (field: string, max: number, required: boolean) => `${field} must be plain text of ${required ? 1 : 0} to ${max} characters`,
  characters: (field: string) => `${field} ${BAD_CHARACTERS}`,
  trigger: 'trigger must be an object {pageViews, delaySeconds}',
  pageViews: `trigger.pageViews must be a whole number from 1 to ${PROMPT_LIMITS.pageViews}`,
  delaySeconds: `trigger.delaySeconds must be a whole number from 0 to ${PROMPT_LIMITS.delaySeconds}`,
  snoozeDays: `snoozeDays must be a whole number from 1 to ${PROMPT_LIMITS.snoozeDays}`,
  bell: 'bell must be an object {enabled, position}',
  bellEnabled: 'bell.enabled must be true or false',
  bellPosition: `bell.position must be one of: ${BELL_POSITIONS.join(', ')}`,
  topics: `topics must be a list of at most ${PROMPT_LIMITS.topics} objects {name, label}`,
  topicName: 'topics[].name must be a topic name of 1 to 64 characters (not "country__…")',
  topicTwice: 'topics[].name must not repeat a topic',
} as const;

const FIELDS = Object.keys(DEFAULT_PROMPTS) as (keyof OptInPrompts)[];
// Plain text: shown as text by the plugin (never as HTML), on one line but the body's.
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f]/;
const LINE_BREAK = /[\n\u2028\u2029]/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const wholeIn = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/**
 * `base` with the change applied, or ValidationError naming every refused field. Texts are
 * trimmed; the title and the two button labels may be empty only while no prompt is shown.
 */
export function optInPromptsOf(input: unknown, base: OptInPrompts = DEFAULT_PROMPTS): OptInPrompts {
  if (!isObject(input)) throw new ValidationError([PROMPT_MESSAGES.object]);
  const refusals: string[] = [];
  for (const key of Object.keys(input)) if (!(FIELDS as string[]).includes(key)) refusals.push(PROMPT_MESSAGES.unknown(echoValue(key, 64)));
  const given = <K extends keyof OptInPrompts>(key: K): unknown => (Object.hasOwn(input, key) ? input[key] : base[key]);

  const kind = given('kind');
  if (!(PROMPT_KINDS as readonly unknown[]).includes(kind)) refusals.push(PROMPT_MESSAGES.kind);
  const shown = kind === 'slidedown' || kind === 'modal';
  const text = (field: string, value: unknown, max: number, opts: { required: boolean; lines?: boolean }): string => {
    if (typeof value === 'string' && hasBadCharacters(value)) {
      refusals.push(PROMPT_MESSAGES.characters(field));
      return '';
    }
    const trimmed = typeof value === 'string' ? value.trim() : '';
    if (typeof value !== 'string' || trimmed.length > max || (opts.required && trimmed === '') || CONTROL.test(trimmed) || (!opts.lines && LINE_BREAK.test(trimmed))) {
      refusals.push(PROMPT_MESSAGES.text(field, max, opts.required));
    }
    return trimmed;
  };
  const title = text('title', given('title'), PROMPT_LIMITS.title, { required: shown });
  const body = text('body', given('body'), PROMPT_LIMITS.body, { required: false, lines: true });
  const acceptLabel = text('acceptLabel', given('acceptLabel'), PROMPT_LIMITS.label, { required: shown });
  const notNowLabel = text('notNowLabel', given('notNowLabel'), PROMPT_LIMITS.label, { required: shown });

  const trigger = given('trigger');
  if (!isObject(trigger) || Object.keys(trigger).some((k) => k !== 'pageViews' && k !== 'delaySeconds')) refusals.push(PROMPT_MESSAGES.trigger);
  const pageViews = isObject(trigger) ? (trigger.pageViews ?? base.trigger.pageViews) : 1;
  const delaySeconds = isObject(trigger) ? (trigger.delaySeconds ?? base.trigger.delaySeconds) : 0;
  if (!wholeIn(pageViews, 1, PROMPT_LIMITS.pageViews)) refusals.push(PROMPT_MESSAGES.pageViews);
  if (!wholeIn(delaySeconds, 0, PROMPT_LIMITS.delaySeconds)) refusals.push(PROMPT_MESSAGES.delaySeconds);

  const snoozeDays = given('snoozeDays');
  if (!wholeIn(snoozeDays, 1, PROMPT_LIMITS.snoozeDays)) refusals.push(PROMPT_MESSAGES.snoozeDays);

  const bell = given('bell');
  if (!isObject(bell) || Object.keys(bell).some((k) => k !== 'enabled' && k !== 'position')) refusals.push(PROMPT_MESSAGES.bell);
  const enabled = isObject(bell) ? (bell.enabled ?? base.bell.enabled) : false;
  const position = isObject(bell) ? (bell.position ?? base.bell.position) : base.bell.position;
  if (typeof enabled !== 'boolean') refusals.push(PROMPT_MESSAGES.bellEnabled);
  if (!(BELL_POSITIONS as readonly unknown[]).includes(position)) refusals.push(PROMPT_MESSAGES.bellPosition);

  const rawTopics = given('topics');
  const topics: PromptTopic[] = [];
  if (!Array.isArray(rawTopics) || rawTopics.length > PROMPT_LIMITS.topics || !rawTopics.every((t) => isObject(t) && Object.keys(t).every((k) => k === 'name' || k === 'label'))) {
    refusals.push(PROMPT_MESSAGES.topics);
  } else {
    for (const t of rawTopics as Record<string, unknown>[]) {
      const name = typeof t.name === 'string' ? normalizeTopic(t.name) : null;
      if (name === null) refusals.push(PROMPT_MESSAGES.topicName);
      else if (topics.some((o) => o.name === name)) refusals.push(PROMPT_MESSAGES.topicTwice);
      topics.push({ name: name ?? '', label: text('topics[].label', t.label, PROMPT_LIMITS.label, { required: true }) });
    }
  }

  if (refusals.length > 0) throw new ValidationError([...new Set(refusals)]);
  return {
    kind: kind as OptInPrompts['kind'],
    title,
    body,
    acceptLabel,
    notNowLabel,
    trigger: { pageViews: pageViews as number, delaySeconds: delaySeconds as number },
    snoozeDays: snoozeDays as number,
    bell: { enabled: enabled as boolean, position: position as OptInPrompts['bell']['position'] },
    topics,
  };
}

/** What the public configuration carries: nothing when the site shows neither a prompt nor the bell. */
export function publicPrompts(prompts: OptInPrompts): OptInPrompts | undefined {
  return prompts.kind === 'none' && !prompts.bell.enabled ? undefined : prompts;
}
