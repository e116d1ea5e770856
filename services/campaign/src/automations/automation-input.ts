// Validation of /v2/automations and POST /v2/events (docs/api-decisions.md, "Automations"). Every
// failing field contributes its message; the templates' existence (a stored template of the site)
// is checked where the automation is stored, in its transaction (automations.ts).
import type { NotificationBestTime } from '@webpush/contracts/best-time.js';
import { externalIdFault } from '@webpush/contracts/external-id.js';
import { isTagKey, MAX_TAG_STRING_CHARS } from '@webpush/contracts/tag-values.js';
import { hasBadCharacters } from '@webpush/shared/text.js';
import { ValidationError } from '../base/errors.js';
import { isUuid } from '../base/ids.js';
import { fill, MESSAGES } from '../base/texts.js';
import { sendTimeFields } from '../notifications/index.js';
import { MAX_THROTTLE_PER_MINUTE } from '../sites/index.js';
import { variablesField } from '../templates/index.js';

export const MAX_STEPS = 10;
/** A step waits at most a year after the one before it. */
export const MAX_DELAY_SECONDS = 365 * 24 * 3600;
export const MAX_EXIT_EVENTS = 20;
export const MAX_EVENT_PROPERTIES = 50;
const MAX_PROPERTY_CHARS = 1000;
const MAX_NAME_CHARS = 100;
export const EVENT_NAME = /^[A-Za-z0-9_.:-]{1,64}$/;
const PROPERTY_NAME = /^[a-z_][a-z0-9_]{0,63}$/;

export type AutomationStatus = 'active' | 'paused';
/** A tag trigger starts when the person's tag `name` is set to `value` (absent: to any value); a date tag's value is its ISO 8601 text. */
export type Trigger = { type: 'subscribed' } | { type: 'event'; name: string } | { type: 'tag'; name: string; value?: TagTriggerValue };
export type TagTriggerValue = string | number | boolean;
export interface Step {
  delaySeconds: number;
  templateId: string;
  /** Given to the template at each send (the starting event's properties win over them). */
  variables: Record<string, string | number>;
  /**
   * When the step's notification is sent (docs/api-decisions.md, "Notifications", "Send time"):
   * at the person's best hour of a window; absent: at once. Absent in steps stored before it.
   */
  sendTime?: NotificationBestTime;
  /** The step's notification is held by the site's quiet hours; stored only when true. */
  respectQuietHours?: true;
}
/** Events that end a person's run (a cart_abandoned series ended by checkout_completed), and whether a click on one of its notifications does. */
export interface ExitOn {
  events: string[];
  /** Default true: a person who clicked a step's notification was reached; the series stops. */
  click: boolean;
}
export interface AutomationInput {
  name: string;
  status: AutomationStatus;
  trigger: Trigger;
  steps: Step[];
  exitOn: ExitOn;
  /** At most this many of its due steps (people) sent a minute; null: no limit. */
  throttlePerMinute: number | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const onlyKeys = (o: Record<string, unknown>, keys: readonly string[]) => Object.keys(o).every((k) => keys.includes(k));

function nameField(value: unknown, errors: string[]): string {
  if (typeof value !== 'string' || value.trim().length === 0 || [...value].length > MAX_NAME_CHARS) errors.push(MESSAGES.automationName);
  else if (hasBadCharacters(value)) errors.push(MESSAGES.automationNameCharacters);
  else return value;
  return '';
}

function statusField(value: unknown, errors: string[]): AutomationStatus {
  if (value === undefined || value === 'active') return 'active';
  if (value === 'paused') return 'paused';
  errors.push(MESSAGES.automationStatus);
  return 'active';
}

function triggerField(value: unknown, errors: string[]): Trigger {
  if (isObject(value) && value.type === 'subscribed' && onlyKeys(value, ['type'])) return { type: 'subscribed' };
  if (isObject(value) && value.type === 'event' && onlyKeys(value, ['type', 'name']) && typeof value.name === 'string' && EVENT_NAME.test(value.name)) return { type: 'event', name: value.name };
  if (isObject(value) && value.type === 'tag' && onlyKeys(value, ['type', 'name', 'value']) && typeof value.name === 'string' && isTagKey(value.name)) {
    const v = value.value;
    if (v === undefined) return { type: 'tag', name: value.name };
    if (typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && v.length <= MAX_TAG_STRING_CHARS && !hasBadCharacters(v))) return { type: 'tag', name: value.name, value: v };
  }
  errors.push(MESSAGES.automationTrigger);
  return { type: 'subscribed' };
}

function stepsField(value: unknown, errors: string[]): Step[] {
  if (!Array.isArray(value) || value.length < 1 || value.length > MAX_STEPS) {
    errors.push(MESSAGES.automationSteps);
    return [];
  }
  return value.map((raw, i) => {
    const step: Step = { delaySeconds: 0, templateId: '', variables: {} };
    if (!isObject(raw) || !onlyKeys(raw, ['delaySeconds', 'templateId', 'variables', 'sendTime', 'respectQuietHours'])) {
      errors.push(fill(MESSAGES.automationStep, { i: String(i) }));
      return step;
    }
    const delay = raw.delaySeconds;
    if (typeof delay !== 'number' || !Number.isInteger(delay) || delay < 0 || delay > MAX_DELAY_SECONDS) errors.push(fill(MESSAGES.automationStepDelay, { i: String(i) }));
    else step.delaySeconds = delay;
    // A malformed id is not a template of the site either: one message for both.
    if (typeof raw.templateId !== 'string' || !isUuid(raw.templateId)) errors.push(fill(MESSAGES.automationStepTemplate, { i: String(i) }));
    else step.templateId = raw.templateId.toLowerCase();
    const own: string[] = [];
    const variables = variablesField(raw.variables, own);
    if (own.length > 0) errors.push(fill(MESSAGES.automationStepVariables, { i: String(i) }));
    // A plain object again (variablesField's has no prototype), so it is stored as JSON like any other.
    step.variables = { ...variables };
    // A notification's rule and default (respecting quiet hours with a sendTime), one message per field.
    const when = sendTimeFields(raw, errors, { sendTime: fill(MESSAGES.automationStepSendTime, { i: String(i) }), respectQuietHours: fill(MESSAGES.automationStepRespectQuietHours, { i: String(i) }) });
    return { ...step, ...(when.sendTime ? { sendTime: when.sendTime } : {}), ...(when.respectQuietHours ? { respectQuietHours: true as const } : {}) };
  });
}

/** A campaign's bounds (1 to the most a throttle may ask for); null or absent is no limit. */
function throttleField(value: unknown, errors: string[]): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_THROTTLE_PER_MINUTE) return value;
  errors.push(MESSAGES.automationThrottle);
  return null;
}

function exitOnField(value: unknown, errors: string[]): ExitOn {
  if (value === undefined) return { events: [], click: true };
  const events = isObject(value) ? (value.events ?? []) : null;
  const click = isObject(value) ? (value.click ?? true) : null;
  const ok =
    isObject(value) &&
    onlyKeys(value, ['events', 'click']) &&
    typeof click === 'boolean' &&
    Array.isArray(events) &&
    events.length <= MAX_EXIT_EVENTS &&
    events.every((e) => typeof e === 'string' && EVENT_NAME.test(e)) &&
    new Set(events).size === events.length;
  if (!ok) {
    errors.push(MESSAGES.automationExitOn);
    return { events: [], click: true };
  }
  return { events: events as string[], click: click as boolean };
}

export function validateAutomationInput(body: Record<string, unknown>): AutomationInput {
  if (!onlyKeys(body, ['name', 'status', 'trigger', 'steps', 'exitOn', 'throttlePerMinute'])) throw new ValidationError([MESSAGES.automationFields]);
  const errors: string[] = [];
  const input: AutomationInput = {
    name: nameField(body.name, errors),
    status: statusField(body.status, errors),
    trigger: triggerField(body.trigger, errors),
    steps: stepsField(body.steps, errors),
    exitOn: exitOnField(body.exitOn, errors),
    throttlePerMinute: throttleField(body.throttlePerMinute, errors),
  };
  if (errors.length > 0) throw new ValidationError(errors);
  return input;
}

export interface AutomationUpdate {
  name?: string;
  status?: AutomationStatus;
  /** null: the limit removed. */
  throttlePerMinute?: number | null;
}

/** A PATCH: name, status and throttlePerMinute, at least one. */
export function validateAutomationUpdate(body: Record<string, unknown>): AutomationUpdate {
  if (!onlyKeys(body, ['name', 'status', 'throttlePerMinute']) || Object.keys(body).length === 0) throw new ValidationError([MESSAGES.automationUpdateFields]);
  const errors: string[] = [];
  const name = body.name === undefined ? undefined : nameField(body.name, errors);
  const status = body.status === undefined ? undefined : statusField(body.status, errors);
  const throttlePerMinute = body.throttlePerMinute === undefined ? undefined : throttleField(body.throttlePerMinute, errors);
  if (errors.length > 0) throw new ValidationError(errors);
  return { ...(name !== undefined ? { name } : {}), ...(status !== undefined ? { status } : {}), ...(throttlePerMinute !== undefined ? { throttlePerMinute } : {}) };
}

export interface EventInput {
  externalId: string;
  name: string;
  properties: Record<string, string | number>;
}

function propertiesField(value: unknown, errors: string[]): Record<string, string | number> {
  if (value === undefined) return {};
  const ok =
    isObject(value) &&
    Object.keys(value).length <= MAX_EVENT_PROPERTIES &&
    Object.entries(value).every(([k, v]) => PROPERTY_NAME.test(k) && ((typeof v === 'string' && v.length <= MAX_PROPERTY_CHARS && !hasBadCharacters(v)) || (typeof v === 'number' && Number.isFinite(v))));
  if (!ok) {
    errors.push(MESSAGES.eventProperties);
    return {};
  }
  return { ...(value as Record<string, string | number>) };
}

export function validateEventInput(body: Record<string, unknown>): EventInput {
  if (!onlyKeys(body, ['externalId', 'name', 'properties'])) throw new ValidationError([MESSAGES.eventFields]);
  const errors: string[] = [];
  const id = body.externalId;
  // The people's one rule (contracts' external-id.ts); an unpaired surrogate has the shared message.
  const fault = externalIdFault(id);
  if (fault === 'format') errors.push(MESSAGES.eventExternalId);
  else if (fault === 'characters') errors.push(MESSAGES.eventExternalIdCharacters);
  const nameOk = typeof body.name === 'string' && EVENT_NAME.test(body.name);
  if (!nameOk) errors.push(MESSAGES.eventName);
  const properties = propertiesField(body.properties, errors);
  if (errors.length > 0) throw new ValidationError(errors);
  return { externalId: id as string, name: body.name as string, properties };
}
