// /v2/templates (docs/api-decisions.md, "Templates"): a site's templates created, listed (newest
// first, with the campaigns' signed cursors), read, updated (a new version), deleted and rendered
// (a preview), and the rendering a create with `template` makes (given to campaigns/ by its shape,
// TemplateRenderer). Another site's id, a random id and a malformed id are all "Template not
// found"; a refused call writes nothing.
import { withTransaction, type Pool } from '@webpush/shared/db.js';
import type { CampaignContent } from '@webpush/contracts/campaign-content.js';
import type { Values } from '@webpush/contracts/template.js';
import { listingPage, validateContentInput, type CursorCodec, type ListingPage } from '../campaigns/index.js';
import { formatUtcDate } from '../base/dates.js';
import { NotFoundError, RefusedError, ValidationError } from '../base/errors.js';
import { isUuid } from '../base/ids.js';
import { parseObjectBody } from '../base/request-body.js';
import { MESSAGES } from '../base/texts.js';
import { inFieldOrder, renderContent, validateTemplateInput, validateTemplateUpdate, variablesField, variablesOf, type TemplateContent, type TemplateVariable } from './template-input.js';
import { deleteTemplate, insertTemplate, listTemplates, templateById, updateTemplate, type TemplateRow } from './template-store.js';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

export interface Template {
  id: string;
  name: string;
  version: number;
  /** The create body's content fields as saved, texts with their tags. */
  content: TemplateContent;
  variables: TemplateVariable[];
  /** `YYYY-MM-DDTHH:MM:SSZ`. */
  createdAt: string;
  updatedAt: string;
}

export type TemplatePage = ListingPage<Template>;

/** What a create with `template` is made of: the rendered content fields, and the template as rendered. */
export interface RenderedTemplate {
  content: Record<string, unknown>;
  template: { id: string; version: number };
}

export type TemplateRenderer = (siteId: string, reference: unknown) => Promise<RenderedTemplate>;

/**
 * A notification's template (docs/api-decisions.md, "Notifications", "From a template"): its
 * id and version, its texts and the call's values, frozen at create; the delivery service renders
 * it per person.
 */
export interface NotificationTemplate {
  id: string;
  version: number;
  content: TemplateContent;
  variables: Values;
}

/** What a notification with `template` is made of: its content fields as rendered at create, and the template. */
export interface RenderedNotificationTemplate {
  content: Record<string, unknown>;
  template: NotificationTemplate;
}

const templateOf = (row: TemplateRow): Template => ({
  id: row.id,
  name: row.name,
  version: row.version,
  content: inFieldOrder(row.content),
  variables: variablesOf(row.content),
  createdAt: formatUtcDate(row.createdAt),
  updatedAt: formatUtcDate(row.updatedAt),
});

/** A unique-name violation (two writes racing for one name). */
const isNameTaken = (err: unknown) => (err as { code?: string; constraint?: string }).code === '23505';

function limitOf(raw: string): number {
  if (raw === '') return DEFAULT_LIMIT;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < 1) throw new ValidationError([MESSAGES.limitPositive]);
  return Math.min(n, MAX_LIMIT);
}

export function templateUseCases(deps: { pool: Pool; cursors: CursorCodec }) {
  const { pool, cursors } = deps;
  const found = async (siteId: string, id: string, lock = false, db: Parameters<typeof templateById>[0] = pool) => {
    const row = isUuid(id) && isUuid(siteId) ? await templateById(db, siteId, id, lock) : null;
    if (!row) throw new NotFoundError(MESSAGES.templateNotFound);
    return row;
  };

  /** The body's `variables` checked, and the template (as found by `found`). */
  async function valuesAndRow(siteId: string, id: string, variables: unknown): Promise<{ row: TemplateRow; values: Values }> {
    const errors: string[] = [];
    const values = variablesField(variables, errors);
    if (errors.length > 0) throw new ValidationError(errors);
    return { row: await found(siteId, id), values };
  }

  /** The template rendered with the body's `variables`: the content as the create's rules make it. */
  async function rendered(siteId: string, id: string, variables: unknown): Promise<{ row: TemplateRow; content: Record<string, unknown> }> {
    const { row, values } = await valuesAndRow(siteId, id, variables);
    return { row, content: renderContent(row.content, values) };
  }

  /** A create's `template` checked as an object of id and optional variables. */
  const referenceOf = (reference: unknown): { id: string; variables: unknown } => {
    const ref = reference as Record<string, unknown> | null;
    const isRef = typeof ref === 'object' && ref !== null && !Array.isArray(ref) && typeof ref.id === 'string' && Object.keys(ref).every((k) => k === 'id' || k === 'variables');
    if (!isRef) throw new ValidationError([MESSAGES.templateReference]);
    return { id: ref.id as string, variables: ref.variables };
  };

  return {
    async createTemplate(siteId: string, bodyJson: string): Promise<Template> {
      const fields = validateTemplateInput(parseObjectBody(bodyJson, false));
      if (!isUuid(siteId)) throw new NotFoundError(MESSAGES.templateNotFound);
      let row: TemplateRow | null;
      try {
        row = await insertTemplate(pool, siteId, fields.name, fields.content);
      } catch (err) {
        if (isNameTaken(err)) row = null;
        else throw err;
      }
      if (!row) throw new RefusedError(MESSAGES.templateNameTaken);
      return templateOf(row);
    },

    async listTemplates(siteId: string, limitText: string, cursor: string): Promise<TemplatePage> {
      const limit = limitOf(limitText);
      return listingPage(cursors, siteId, 'templates', limit, cursor, (after) => listTemplates(pool, siteId, limit, after), templateOf);
    },

    async getTemplate(siteId: string, id: string): Promise<Template> {
      return templateOf(await found(siteId, id));
    },

    async updateTemplate(siteId: string, id: string, bodyJson: string): Promise<Template> {
      const body = parseObjectBody(bodyJson, false);
      try {
        return await withTransaction(pool, async (tx) => {
          const current = await found(siteId, id, true, tx);
          const fields = validateTemplateUpdate(body, { name: current.name, content: current.content });
          const row = await updateTemplate(tx, siteId, id, fields.name, fields.content);
          if (row === 'taken') throw new RefusedError(MESSAGES.templateNameTaken);
          return templateOf(row);
        });
      } catch (err) {
        throw isNameTaken(err) ? new RefusedError(MESSAGES.templateNameTaken) : err;
      }
    },

    async deleteTemplate(siteId: string, id: string): Promise<{ id: string }> {
      if (!isUuid(id) || !isUuid(siteId) || !(await deleteTemplate(pool, siteId, id))) throw new NotFoundError(MESSAGES.templateNotFound);
      return { id };
    },

    /** POST /v2/templates/{id}/render: the content a campaign made now would have, or the create's refusals. */
    async renderTemplate(siteId: string, id: string, bodyJson: string): Promise<{ template: Template; content: CampaignContent }> {
      const body = parseObjectBody(bodyJson, true);
      const { row, content } = await rendered(siteId, id, body.variables);
      return { template: templateOf(row), content: validateContentInput(content) };
    },

    /** A create's `template: {id, variables}` rendered; its content judged by the create after. */
    renderForCampaign: (async (siteId, reference) => {
      const ref = referenceOf(reference);
      try {
        const { row, content } = await rendered(siteId, ref.id, ref.variables);
        return { content, template: { id: row.id, version: row.version } };
      } catch (err) {
        throw err instanceof NotFoundError ? new ValidationError([MESSAGES.templateNotOfSite]) : err;
      }
    }) satisfies TemplateRenderer as TemplateRenderer,

    /**
     * A notification's `template: {id, variables}` (the campaign create's rules and messages),
     * rendered for the create's rules to judge, and frozen. `tagsMaySupply`: it is sent to people,
     * whose tags may give a variable the call does not, so one with neither a value nor a default
     * is allowed, and stands in the content rendered here (with the call's values and the
     * defaults) as its tag `{{ name }}`, percent-encoded in a URL field (the delivery
     * service renders each person's; docs/api-decisions.md, "From a template"). Otherwise such a
     * variable is refused by name, as on a campaign create.
     */
    async renderForNotification(siteId: string, reference: unknown, tagsMaySupply: boolean): Promise<RenderedNotificationTemplate> {
      const ref = referenceOf(reference);
      let found: { row: TemplateRow; values: Values };
      try {
        found = await valuesAndRow(siteId, ref.id, ref.variables);
      } catch (err) {
        throw err instanceof NotFoundError ? new ValidationError([MESSAGES.templateNotOfSite]) : err;
      }
      const { row, values } = found;
      const template: NotificationTemplate = { id: row.id, version: row.version, content: row.content, variables: values };
      if (!tagsMaySupply) return { content: renderContent(row.content, values), template };
      // No prototype: a variable named __proto__ is a name like any other.
      const withTags: Record<string, string | number> = Object.assign(Object.create(null), values);
      for (const { name, required } of variablesOf(row.content)) if (required && !Object.hasOwn(withTags, name)) withTags[name] = `{{ ${name} }}`;
      return { content: renderContent(row.content, withTags), template };
    },
  };
}
