// /v2 template endpoints (an addition; docs/api-decisions.md, "Templates"; their methods and
// paths are in the /v2 router, api.ts): a site's notification templates, managed by keys whose
// plan may create campaigns (templates are what campaigns are made of). The campaign service owns
// them and answers each call's typed message, whose API JSON template-json.ts builds.
import type { TemplateCall, TemplatesBackend } from '../grpc/clients.js';
import { MESSAGES } from '../texts.js';
import { queryValue, type ApiRoute } from './route.js';
import { deletedTemplateJson, renderedTemplateJson, templateJson, templateListJson } from './template-json.js';

export function templateEndpoints(backend: TemplatesBackend) {
  const endpoint = <Answer>(operation: string, body: ApiRoute['body'], call: TemplateCall<Answer>, json: (answer: Answer) => unknown, audit?: ApiRoute['audit']): ApiRoute => ({
    operation,
    ...(audit ? { audit } : {}),
    permission: 'create',
    denied: { status: 403, body: { message: MESSAGES.planTemplates } },
    genericMessage: MESSAGES.internal,
    body,
    handle: async ({ principal, params, bodyJson, query, ctx }) =>
      json(
        await call(
          // A repeated query parameter is sent as a value its rule refuses (route.ts, queryValue).
          { siteId: principal.siteId, templateId: params.templateId ?? '', bodyJson, limit: queryValue(query.limit, 'refused'), cursor: queryValue(query.cursor, '\u0000') },
          ctx,
        ),
      ),
  });
  return {
    list: endpoint('listTemplates', 'none', backend.listTemplates, templateListJson),
    create: endpoint('createTemplate', 'json', backend.createTemplate, templateJson),
    get: endpoint('getTemplate', 'none', backend.getTemplate, templateJson),
    update: endpoint('updateTemplate', 'json', backend.updateTemplate, templateJson),
    delete: endpoint('deleteTemplate', 'none', backend.deleteTemplate, deletedTemplateJson),
    // A preview changes nothing: recorded as a read (not at all), though it is a POST.
    render: endpoint('renderTemplate', 'json-or-empty', backend.renderTemplate, renderedTemplateJson, 'read'),
  };
}
