// The /v2 template answers' JSON, built from the campaign service's typed messages
// (packages/contracts/protos/campaign/v1/campaign.proto, Template) in this one place: the API's
// Template object (gateway/openapi/openapi.yaml, `Template`) with its fields in the documented
// order — id, name, version, the content fields as saved, variables, dates. res.json writes them.
import type { DeleteTemplateResponse__Output } from '@webpush/contracts/generated/campaign/v1/DeleteTemplateResponse.js';
import type { ListTemplatesResponse__Output } from '@webpush/contracts/generated/campaign/v1/ListTemplatesResponse.js';
import type { RenderTemplateResponse__Output } from '@webpush/contracts/generated/campaign/v1/RenderTemplateResponse.js';
import type { Template__Output } from '@webpush/contracts/generated/campaign/v1/Template.js';

export function templateJson(t: Template__Output) {
  return {
    id: t.id,
    name: t.name,
    version: t.version,
    ...(JSON.parse(t.contentJson) as Record<string, unknown>),
    variables: t.variables.map((v) => ({ name: v.name, required: v.required })),
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

export function templateListJson(res: ListTemplatesResponse__Output) {
  // A backend that answers without the page facts (another version of the contract) is a 500, never a broken body.
  if (res.page === null) throw new Error('campaign service answered without page');
  return { items: res.items.map(templateJson), limit: res.page.limit, hasMore: res.page.hasMore, nextCursor: res.page.nextCursor || null };
}

export const deletedTemplateJson = (res: DeleteTemplateResponse__Output) => ({ id: res.id, deleted: true });

/** The preview: the template as rendered and the content a campaign made from it now would have. */
export function renderedTemplateJson(res: RenderTemplateResponse__Output) {
  if (res.template === null) throw new Error('campaign service answered without template');
  return { template: { id: res.template.id, version: res.template.version }, content: JSON.parse(res.contentJson) as unknown };
}
