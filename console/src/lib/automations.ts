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

/** When a step is sent, in words: its wait, then best time and quiet hours when the step asks for them. */
export function stepTimingWords(step: Pick<AutomationStep, 'delaySeconds' | 'sendTime' | 'respectQuietHours'>): string {
  let words = delayWords(step.delaySeconds);
  if (step.sendTime) words += `, then at each subscription's best hour within ${step.sendTime.within}`;
  if (step.respectQuietHours) words += ', outside quiet hours';
  return words;
}

/** What starts the runs, in words; a kind the page does not know by its type and fields. */
export function triggerWords(trigger: AutomationTrigger): string {
  if (trigger.type === 'subscribed') return 'Welcome: when a person subscribes';
  if (trigger.type === 'event') return `Event ${String((trigger as { name: unknown }).name)}`;
  const fields = Object.entries(trigger).filter(([k]) => k !== 'type');
  if (trigger.type === 'tag') {
    const named = (trigger as { name?: unknown; key?: unknown }).name ?? (trigger as { key?: unknown }).key;
    const value = (trigger as { value?: unknown }).value;
    return `Tag ${String(named ?? '')}${value === undefined ? '' : ` = ${String(value)}`}`.trim();
  }
  return [trigger.type, ...fields.map(([k, v]) => `${k} ${typeof v === 'string' ? v : JSON.stringify(v)}`)].join(' ');
}

export interface StepForm {
  /** Kept apart so a step removed does not pass its fields to the next one. */
  key: number;
  delay: string;
  unit: Unit;
  templateId: string;
  variables: { key: number; name: string; value: string }[];
}

let nextKey = 0;
/** A key for a new row of the form (a step, a variable). */
export const newKey = () => ++nextKey;
export const newStep = (templateId: string, delay = '0', unit: Unit = 'hours'): StepForm => ({ key: newKey(), delay, unit, templateId, variables: [] });

/** The form as a create body: a delay that is a number is counted in seconds, anything else sent as typed for the API's own refusal. */
export function automationRequest(form: { name: string; trigger: 'subscribed' | 'event'; eventName: string; steps: StepForm[]; exitEvents: string }): AutomationFields {
  return {
    name: form.name,
    trigger: form.trigger === 'event' ? { type: 'event', name: form.eventName } : { type: 'subscribed' },
    steps: form.steps.map((s) => {
      const n = s.delay.trim() === '' ? NaN : Number(s.delay);
      const size = UNITS.find((u) => u.name === s.unit)!.seconds;
      const rows = s.variables.filter((v) => v.name !== '' || v.value !== '');
      return {
        delaySeconds: Number.isFinite(n) ? Math.round(n * size * 1000) / 1000 : s.delay,
        templateId: s.templateId,
        ...(rows.length ? { variables: Object.fromEntries(rows.map((v) => [v.name, v.value])) } : {}),
      };
    }),
    exitOn: {
      events: form.exitEvents
        .split(',')
        .map((e) => e.trim())
        .filter((e) => e !== ''),
    },
  };
}
