// The template language (docs/api-decisions.md, "Templates"), here because two services render it:
// the campaign service when a campaign or notification is created, the delivery service per person
// when a notification's template is rendered with each person's tags. The language: text with tags `{{ name }}` and
// `{{ name | "default" }}`, nothing else: no sections, no logic, no partials, no HTML escaping.
// Hand-written rather than a mustache engine: those bring sections and partials this must not
// have, HTML-escape by default (a notification is plain text: `&amp;` would show as such), render
// an unknown name as '' where this must refuse it by name, and have no `| "default"`.
//
// A name is [a-z_][a-z0-9_]* of at most 64 characters; a default is a double-quoted string in
// which `\"` and `\\` are the only escapes. Any other `{{` is a malformed tag. Values are inserted
// as they are in text fields, percent-encoded (encodeURIComponent) in URL fields.

export const VARIABLE_NAME = /^[a-z_][a-z0-9_]{0,63}$/;
/** A default's characters at most (a rendered field is bounded by its own limit anyway). */
export const MAX_DEFAULT_CHARS = 1000;

const TAG = /\{\{[ \t]*([a-z_][a-z0-9_]{0,63})[ \t]*(?:\|[ \t]*"((?:[^"\\\u0000-\u001f]|\\["\\])*)"[ \t]*)?\}\}/y;

export interface Tag {
  name: string;
  /** null: none, and a value must be given. */
  fallback: string | null;
}

/** A field's template: its literal texts and its tags, in order. */
export type Parsed = readonly (string | Tag)[];

/** The parts of `text`, or the character (0-based) at which its first malformed tag starts. */
export function parse(text: string): Parsed | { badTagAt: number } {
  const parts: (string | Tag)[] = [];
  let from = 0;
  for (let open = text.indexOf('{{'); open !== -1; open = text.indexOf('{{', from)) {
    TAG.lastIndex = open;
    const m = TAG.exec(text);
    if (!m || (m[2] !== undefined && m[2].length > MAX_DEFAULT_CHARS)) return { badTagAt: open };
    if (open > from) parts.push(text.slice(from, open));
    parts.push({ name: m[1], fallback: m[2] === undefined ? null : m[2].replace(/\\(["\\])/g, '$1') });
    from = TAG.lastIndex;
  }
  if (from < text.length) parts.push(text.slice(from));
  return parts;
}

export const tagsOf = (parsed: Parsed): Tag[] => parsed.filter((p): p is Tag => typeof p !== 'string');

/** The literal text of a field, its tags left out. */
export const literalOf = (parsed: Parsed): string => parsed.filter((p): p is string => typeof p === 'string').join('');

export type Values = Readonly<Record<string, string | number>>;

/**
 * The field rendered with `values` (a tag whose name has no value takes its default), each value
 * passed through `escape`; the names with neither are pushed to `missing`, and '' stands in.
 */
export function render(parsed: Parsed, values: Values, escape: (value: string) => string, missing: Set<string>): string {
  let out = '';
  for (const part of parsed) {
    if (typeof part === 'string') {
      out += part;
      continue;
    }
    const value = Object.hasOwn(values, part.name) ? String(values[part.name]) : part.fallback;
    if (value === null) missing.add(part.name);
    else out += escape(value);
  }
  return out;
}

/** The escape of URL fields: a value is one percent-encoded piece of a path, query or fragment. */
export const urlEscape = (value: string): string => encodeURIComponent(value.toWellFormed());
export const plainText = (value: string): string => value;

/** The fields of a create body whose texts may hold tags: text fields (values as they are)… */
export const TEMPLATE_TEXT_FIELDS = ['title', 'body', 'callToAction', 'utmSource', 'utmMedium', 'utmCampaign'] as const;
/** …and URL fields (values percent-encoded); a button's title is a text, its link a URL. */
export const TEMPLATE_URL_FIELDS = ['link', 'icon', 'image', 'badge'] as const;

/**
 * A template's content fields (the create body's, texts with their tags, as saved: each text
 * parsed when it was saved) rendered with `values`: the content fields of a create body. Every
 * variable with neither a value nor a default is in `missing`, and renders as ''.
 */
export function renderTemplateContent(content: Readonly<Record<string, unknown>>, values: Values): { content: Record<string, unknown>; missing: string[] } {
  const missing = new Set<string>();
  const text = (v: unknown, escape: (s: string) => string) => render(parse(v as string) as Parsed, values, escape, missing);
  const out: Record<string, unknown> = { ...content };
  for (const field of TEMPLATE_TEXT_FIELDS) if (typeof content[field] === 'string') out[field] = text(content[field], plainText);
  for (const field of TEMPLATE_URL_FIELDS) if (typeof content[field] === 'string') out[field] = text(content[field], urlEscape);
  if (Array.isArray(content.actions)) {
    out.actions = (content.actions as Record<string, unknown>[]).map((a) => ({ title: text(a.title, plainText), link: text(a.link, urlEscape) }));
  }
  return { content: out, missing: [...missing] };
}
