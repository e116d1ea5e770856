// A template's fields (docs/api-decisions.md, "Templates"): the content fields of a create body,
// whose texts may hold tags (contracts' template.ts), and a name. Checked when a template is saved as far as
// they can be without values: each text's tags, URL fields' variables only after the address's
// host, and the create's rules on the template with every tag at the least it can render to (''
// padded to the field's minimum with "x" in text fields, "x" in URL fields). What a value can
// break (a length, the URL, the size of one push) is checked on the rendered content, by the
// create's rules again, whenever it is rendered.
import { MAX_BUTTONS } from '@webpush/contracts/campaign-content.js';
import { hasBadCharacters } from '@webpush/shared/text.js';
import { CONTENT_INPUT_FIELDS, validateContentInput } from '../campaigns/index.js';
import { ValidationError } from '../base/errors.js';
import { graphemeLength } from '../base/text.js';
import { fill, MESSAGES } from '../base/texts.js';
import { literalOf, parse, renderTemplateContent, tagsOf, TEMPLATE_TEXT_FIELDS, TEMPLATE_URL_FIELDS, VARIABLE_NAME, type Parsed, type Values } from '@webpush/contracts/template.js';

/** What a template stores: the create body's content fields, as given (absent or null ones left out). */
export type TemplateContent = Partial<Record<(typeof CONTENT_INPUT_FIELDS)[number], unknown>>;

export interface TemplateFields {
  name: string;
  content: TemplateContent;
}

/** A variable the template uses; required when one of its tags has no default. */
export interface TemplateVariable {
  name: string;
  required: boolean;
}

const MAX_NAME = 100;
const MAX_TEMPLATE_TEXT = 2048;
const MAX_VARIABLES = 100;
const MAX_VALUE_CHARS = 1000;

/** The text fields whose texts may hold tags (contracts' TEMPLATE_TEXT_FIELDS), each one's least rendered length. */
const TEXT_FIELDS: Readonly<Record<(typeof TEMPLATE_TEXT_FIELDS)[number], number>> = { title: 3, body: 3, callToAction: 0, utmSource: 0, utmMedium: 0, utmCampaign: 0 };
const ACTION_TITLE_MIN = 1;
/** A URL's text up to the end of its host: what a variable must not stand in or before. */
const ORIGIN = /^https?:\/\/[^/?#]+[/?#]/i;

const isAbsent = (v: unknown) => v === undefined || v === null;

/** A text of the template parsed, or null with its message. */
function parsedText(value: unknown, field: string, errors: string[]): Parsed | null {
  if (typeof value !== 'string' || value.length > MAX_TEMPLATE_TEXT) {
    errors.push(fill(MESSAGES.templateText, { field }));
    return null;
  }
  if (hasBadCharacters(value)) {
    errors.push(fill(MESSAGES.templateCharacters, { field }));
    return null;
  }
  const parsed = parse(value);
  if (!Array.isArray(parsed)) {
    errors.push(fill(MESSAGES.templateTag, { field, at: String((parsed as { badTagAt: number }).badTagAt) }));
    return null;
  }
  return parsed as Parsed;
}

function parsedUrl(value: unknown, field: string, errors: string[]): Parsed | null {
  const parsed = parsedText(value, field, errors);
  if (parsed === null || tagsOf(parsed).length === 0) return parsed;
  // Literal text up to the first tag must hold the whole origin: a value can never move the link elsewhere.
  if (typeof parsed[0] !== 'string' || !ORIGIN.test(parsed[0])) {
    errors.push(fill(MESSAGES.templateUrlVariables, { field }));
    return null;
  }
  return parsed;
}

/** The least a text renders to: no tag's value, padded to the field's minimum when it has tags. */
function probeText(parsed: Parsed, min: number): string {
  const literal = literalOf(parsed);
  return tagsOf(parsed).length === 0 ? literal : literal + 'x'.repeat(Math.max(0, min - graphemeLength(literal, min)));
}

/**
 * The content of a template body (a create's, or the merge of an update), every text parsed, and
 * the create's rules on its least rendering. Throws ValidationError with every message.
 */
function checkedContent(content: TemplateContent, errors: string[]): void {
  const probe: Record<string, unknown> = { ...content };
  for (const [field, min] of Object.entries(TEXT_FIELDS)) {
    if (isAbsent(content[field as keyof TemplateContent])) continue;
    const parsed = parsedText(content[field as keyof TemplateContent], field, errors);
    probe[field] = parsed === null ? undefined : probeText(parsed, min);
  }
  for (const field of TEMPLATE_URL_FIELDS) {
    if (isAbsent(content[field])) continue;
    const parsed = parsedUrl(content[field], field, errors);
    probe[field] = parsed === null ? undefined : probeUrlOf(parsed);
  }
  if (!isAbsent(content.actions)) {
    const actions = content.actions;
    const isItem = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).every((k) => k === 'title' || k === 'link');
    if (!Array.isArray(actions) || actions.length > MAX_BUTTONS || !actions.every(isItem)) {
      errors.push(MESSAGES.actionsList);
      probe.actions = undefined;
    } else {
      probe.actions = actions.map((a: Record<string, unknown>, i) => {
        const title = parsedText(a.title, `actions[${i}].title`, errors);
        const link = parsedUrl(a.link, `actions[${i}].link`, errors);
        return { title: title === null ? 'x' : probeText(title, ACTION_TITLE_MIN), link: link === null ? 'https://x.example/' : probeUrlOf(link) };
      });
    }
  }
  if (errors.length > 0) throw new ValidationError(errors);
  validateContentInput(probe);
}

/** A URL's least rendering: every tag "x" (a default too: its length is the value's business). */
function probeUrlOf(parsed: Parsed): string {
  return parsed.map((p) => (typeof p === 'string' ? p : 'x')).join('');
}

function nameField(value: unknown, errors: string[]): string {
  if (typeof value !== 'string' || value.trim() === '' || graphemeLength(value, MAX_NAME) > MAX_NAME) {
    errors.push(MESSAGES.templateName);
    return '';
  }
  if (hasBadCharacters(value)) {
    errors.push(MESSAGES.templateNameCharacters);
    return '';
  }
  return value.trim();
}

/** The body's content fields, absent and null ones left out; a field of no template's is refused. */
function contentOf(body: Record<string, unknown>, errors: string[]): TemplateContent {
  if (Object.keys(body).some((k) => k !== 'name' && !(CONTENT_INPUT_FIELDS as readonly string[]).includes(k))) errors.push(MESSAGES.templateFields);
  const content: TemplateContent = {};
  for (const field of CONTENT_INPUT_FIELDS) if (!isAbsent(body[field])) content[field] = body[field];
  return content;
}

/** A create's body: a name and the content fields. */
export function validateTemplateInput(body: Record<string, unknown>): TemplateFields {
  const errors: string[] = [];
  const name = nameField(body.name, errors);
  const content = contentOf(body, errors);
  checkedContent(content, errors);
  return { name, content };
}

/**
 * An update's body merged into the template as it is: each field given replaces the stored one,
 * null removes it (`name` cannot be removed); the result is checked as a create's.
 */
export function validateTemplateUpdate(body: Record<string, unknown>, current: TemplateFields): TemplateFields {
  const errors: string[] = [];
  if (Object.keys(body).length === 0) throw new ValidationError([MESSAGES.templateNothing]);
  const name = Object.hasOwn(body, 'name') ? nameField(body.name, errors) : current.name;
  const given = contentOf(body, errors);
  const content: TemplateContent = { ...current.content };
  for (const field of CONTENT_INPUT_FIELDS) {
    if (!Object.hasOwn(body, field)) continue;
    if (isAbsent(body[field])) delete content[field];
    else content[field] = given[field];
  }
  checkedContent(content, errors);
  return { name, content };
}

/** The content with its fields in the create body's order (jsonb keeps its own order of keys). */
export function inFieldOrder(content: TemplateContent): TemplateContent {
  const ordered: TemplateContent = {};
  for (const field of CONTENT_INPUT_FIELDS) if (Object.hasOwn(content, field)) ordered[field] = content[field];
  return ordered;
}

/** Each variable the template's texts use, in the order they first appear (textsOf's). */
export function variablesOf(content: TemplateContent): TemplateVariable[] {
  const found = new Map<string, boolean>();
  for (const text of textsOf(content)) {
    const parsed = parse(text);
    if (!Array.isArray(parsed)) continue;
    for (const tag of tagsOf(parsed as Parsed)) found.set(tag.name, (found.get(tag.name) ?? false) || tag.fallback === null);
  }
  return [...found].map(([name, required]) => ({ name, required }));
}

/** The template's texts in the create body's order of fields (a button's title, then its link). */
function textsOf(content: TemplateContent): string[] {
  return CONTENT_INPUT_FIELDS.flatMap((f) => (f === 'actions' && Array.isArray(content.actions) ? (content.actions as Record<string, unknown>[]).flatMap((a) => [a.title, a.link]) : [content[f]])).filter(
    (t): t is string => typeof t === 'string',
  );
}

/** A render's `variables`: absent is none; names and values checked, each wrong one by name. */
export function variablesField(value: unknown, errors: string[]): Values {
  if (isAbsent(value)) return {};
  if (typeof value !== 'object' || Array.isArray(value) || Object.keys(value as object).length > MAX_VARIABLES || !Object.keys(value as object).every((k) => VARIABLE_NAME.test(k))) {
    errors.push(MESSAGES.templateVariables);
    return {};
  }
  // No prototype: a variable named __proto__ is a value like any other.
  const values: Record<string, string | number> = Object.create(null);
  for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
    if (!(typeof v === 'string' && v.length <= MAX_VALUE_CHARS) && !(typeof v === 'number' && Number.isFinite(v))) errors.push(fill(MESSAGES.templateVariableValue, { name }));
    else if (typeof v === 'string' && hasBadCharacters(v)) errors.push(fill(MESSAGES.templateVariableCharacters, { name }));
    else values[name] = v;
  }
  return values;
}

/**
 * The template's content rendered with `values`: the content fields of a create body, for the
 * create's rules to judge. Every variable with neither a value nor a default is refused by name.
 */
export function renderContent(content: TemplateContent, values: Values): Record<string, unknown> {
  const rendered = renderTemplateContent(content, values);
  if (rendered.missing.length > 0) throw new ValidationError(rendered.missing.map((name) => fill(MESSAGES.templateVariableMissing, { name })));
  return rendered.content;
}
