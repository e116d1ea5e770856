// What the Automations page says and sends (docs/console.md, "Automations"): a step's wait and a
// trigger in words, and the create form as the API's body. The API's words are shown as given.
import type { AutomationFields, AutomationStep, AutomationTrigger } from './types';

/** The API's limit on steps (services/campaign/src/automations/automation-input.ts MAX_STEPS). */
export const MAX_STEPS = 10;
export const UNITS = [
  { name: 'minutes', seconds: 60 },
  { name: 'hours', seconds: 3600 },
  { name: 'days', seconds: 86_400 },
] as const;
export type Unit = (typeof UNITS)[number]['name'];

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** A step's wait in words: `after 1 day`, `after 90 minutes`, `at once`. */
export function delayWords(seconds: number): string {
  if (seconds === 0) return 'at once';
  for (const [unit, size] of [['day', 86_400], ['hour', 3600], ['minute', 60]] as const) {
    if (seconds % size === 0) return `after ${plural(seconds / size, unit)}`;
  }
  return `after ${plural(seconds, 'second')}`;
}

/** A best-time window in words: `24h` is `24 hours`, `1h` `1 hour`; anything else as the API gave it. */
const windowWords = (within: string) => (/^\d+h$/.test(within) ? plural(Number(within.slice(0, -1)), 'hour') : within);

/** When a step is sent, in words: its wait, then best time and quiet hours when the step asks for them. */
export function stepTimingWords(step: Pick<AutomationStep, 'delaySeconds' | 'sendTime' | 'respectQuietHours'>): string {
  let words = delayWords(step.delaySeconds);
  if (step.sendTime) words += `, then at each subscription's best hour within ${windowWords(step.sendTime.within)}`;
  if (step.respectQuietHours) words += ', outside quiet hours';
  return words;
}

/** A tag trigger's value in words: a text that would read as a number or yes/no is quoted, so `"5"` and `5` differ. */
const tagValueWords = (value: unknown) => (typeof value === 'string' && (value === 'true' || value === 'false' || (value.trim() !== '' && Number.isFinite(Number(value)))) ? JSON.stringify(value) : String(value));

/** What starts the runs, in words; a kind the page does not know by its type and fields. */
export function triggerWords(trigger: AutomationTrigger): string {
  if (trigger.type === 'subscribed') return 'Welcome: when a person subscribes';
  if (trigger.type === 'event') return `Event ${String((trigger as { name: unknown }).name)}`;
  if (trigger.type === 'tag') {
    const { name, value } = trigger as { name: unknown; value?: unknown };
    return value === undefined ? `Tag ${String(name)}, any value` : `Tag ${String(name)} = ${tagValueWords(value)}`;
  }
  const fields = Object.entries(trigger).filter(([k]) => k !== 'type');
  return [trigger.type, ...fields.map(([k, v]) => `${k} ${typeof v === 'string' ? v : JSON.stringify(v)}`)].join(' ');
}

/** An automation's throttle in words (absent, from a service without the field, is no limit too). */
export const throttleWords = (perMinute: number | null | undefined) => (perMinute == null ? 'No limit' : `At most ${perMinute.toLocaleString('en')} ${perMinute === 1 ? 'person' : 'people'} a minute`);

/** A typed number as a JSON number when it reads as one; otherwise the text itself, for the API to refuse in its words. */
const numberOrText = (text: string): number | string => (/^\s*-?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : text);

/** A throttle as typed, for a change: empty lifts it (null). */
export const throttleChange = (text: string): number | string | null => (text.trim() === '' ? null : numberOrText(text));

export interface StepForm {
  /** Kept apart so a step removed does not pass its fields to the next one. */
  key: number;
  delay: string;
  unit: Unit;
  templateId: string;
  variables: { key: number; name: string; value: string }[];
  /** Best time: each subscription at its best hour of `within` hours (whole hours, as typed) from when the step is due. */
  bestTime: boolean;
  within: string;
  /** Held by the site's quiet hours. */
  quietHours: boolean;
}

let nextKey = 0;
/** A key for a new row of the form (a step, a variable). */
export const newKey = () => ++nextKey;
export const newStep = (templateId: string, delay = '0', unit: Unit = 'hours'): StepForm => ({ key: newKey(), delay, unit, templateId, variables: [], bestTime: false, within: '24', quietHours: false });

/**
 * What a tag trigger waits for: any value, or one typed as text, as a number (the text read as
 * one), or yes/no (true/false). Chosen apart from the text, since `5` and `"5"` are different tag values.
 */
export const TAG_VALUE_KINDS = [
  { kind: 'any', label: 'Any value' },
  { kind: 'text', label: 'This text' },
  { kind: 'number', label: 'This number' },
  { kind: 'true', label: 'Yes (true)' },
  { kind: 'false', label: 'No (false)' },
] as const;
export type TagValueKind = (typeof TAG_VALUE_KINDS)[number]['kind'];

export interface AutomationForm {
  name: string;
  trigger: 'subscribed' | 'event' | 'tag';
  eventName: string;
  tagName: string;
  tagValueKind: TagValueKind;
  tagValue: string;
  steps: StepForm[];
  exitEvents: string;
  /** People a minute at most, as typed; empty for no limit. */
  throttle: string;
}

function triggerOf(form: AutomationForm): AutomationFields['trigger'] {
  if (form.trigger === 'event') return { type: 'event', name: form.eventName };
  if (form.trigger === 'subscribed') return { type: 'subscribed' };
  const name = form.tagName;
  switch (form.tagValueKind) {
    case 'any':
      return { type: 'tag', name };
    case 'text':
      return { type: 'tag', name, value: form.tagValue };
    case 'number': {
      // A text would be a valid tag value of its own: what is not a number goes as null, which the API refuses with its trigger's text.
      const n = form.tagValue.trim() === '' ? NaN : Number(form.tagValue);
      return { type: 'tag', name, value: Number.isFinite(n) ? n : null };
    }
    default:
      return { type: 'tag', name, value: form.tagValueKind === 'true' };
  }
}

/**
 * The form as a create body: a delay that is a number is counted in seconds, anything else sent
 * as typed for the API's own refusal; a step's best time as `sendTime`, and `respectQuietHours`
 * as its box says whenever the box is checked or the step has best time (the API's default is
 * true with best time, false without, so the box is what is stored); an empty throttle is left
 * out (the API's default, no limit).
 */
export function automationRequest(form: AutomationForm): AutomationFields {
  return {
    name: form.name,
    trigger: triggerOf(form),
    steps: form.steps.map((s) => {
      const n = s.delay.trim() === '' ? NaN : Number(s.delay);
      const size = UNITS.find((u) => u.name === s.unit)!.seconds;
      const rows = s.variables.filter((v) => v.name !== '' || v.value !== '');
      return {
        delaySeconds: Number.isFinite(n) ? Math.round(n * size * 1000) / 1000 : s.delay,
        templateId: s.templateId,
        ...(rows.length ? { variables: Object.fromEntries(rows.map((v) => [v.name, v.value])) } : {}),
        ...(s.bestTime ? { sendTime: { mode: 'bestTime' as const, within: `${s.within.trim()}h` } } : {}),
        ...(s.bestTime || s.quietHours ? { respectQuietHours: s.quietHours } : {}),
      };
    }),
    exitOn: {
      events: form.exitEvents
        .split(',')
        .map((e) => e.trim())
        .filter((e) => e !== ''),
    },
    ...(form.throttle.trim() === '' ? {} : { throttlePerMinute: numberOrText(form.throttle) }),
  };
}
