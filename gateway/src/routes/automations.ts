// /v2 automation endpoints and POST /v2/events (an addition; docs/api-decisions.md, "Automations";
// their methods and paths are in the /v2 router, api.ts): a site's automations, managed by keys
// whose plan may create campaigns (an automation sends), and the events that start and end its
// runs. The campaign service owns them; each answer's JSON is built here from its typed message.
import { percentJson } from '@webpush/contracts/campaign-json.js';
import type { Automation__Output } from '@webpush/contracts/generated/campaign/v1/Automation.js';
import type { AutomationCall, AutomationsBackend } from '../grpc/clients.js';
import { MESSAGES } from '../texts.js';
import { idempotencyKey } from './campaigns.js';
import { sendTimeJson } from './notifications.js';
import { queryValue, type ApiRoute } from './route.js';

function triggerJson(t: Automation__Output['trigger']) {
  if (t?.type === 'event') return { type: 'event', name: t.name };
  if (t?.type === 'tag') return { type: 'tag', name: t.name, ...(t.valueJson ? { value: JSON.parse(t.valueJson) as string | number | boolean } : {}) };
  return { type: 'subscribed' };
}

/** Exit reasons in name order (a protobuf map has none), so an answer reads the same every time. */
const sortedReasons = (reasons: Record<string, number>) => Object.fromEntries(Object.entries(reasons).sort(([a], [b]) => (a < b ? -1 : 1)));

/** The API's Automation object (gateway/openapi/openapi.yaml, `Automation`), fields in the documented order. */
export function automationJson(a: Automation__Output) {
  return {
    id: a.id,
    name: a.name,
    status: a.status,
    trigger: triggerJson(a.trigger),
    steps: a.steps.map((s) => ({
      delaySeconds: s.delaySeconds,
      templateId: s.templateId,
      variables: JSON.parse(s.variablesJson) as Record<string, unknown>,
      ...sendTimeJson(s),
      ...(s.results
        ? {
            results: {
              sent: s.results.sent,
              exits: s.results.exits,
              impressions: s.results.impressions,
              clicks: s.results.clicks,
              // A campaign's ctr (the spec's analytics): clicks per impression in percent, two decimals.
              ctr: Number(percentJson(s.results.clicks, s.results.impressions)),
            },
          }
        : {}),
    })),
    exitOn: { events: a.exitEvents, click: a.exitOnClick },
    // Absent from a previous release's campaign service, which has no throttle: null, as none.
    throttlePerMinute: a.throttlePerMinute ?? null,
    ...(a.enrolments
      ? { enrolments: { active: a.enrolments.active, completed: a.enrolments.completed, exited: a.enrolments.exited, exitReasons: sortedReasons(a.enrolments.exitReasons) } }
      : {}),
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  };
}

export function automationEndpoints(backend: AutomationsBackend) {
  const endpoint = <Answer>(operation: string, body: ApiRoute['body'], call: AutomationCall<Answer>, json: (answer: Answer) => unknown, extra: Partial<ApiRoute> = {}): ApiRoute => ({
    operation,
    permission: 'create',
    denied: { status: 403, body: { message: MESSAGES.planAutomations } },
    genericMessage: MESSAGES.internal,
    body,
    ...extra,
    handle: async ({ principal, params, bodyJson, query, headers, ctx }) =>
      json(
        await call(
          {
            siteId: principal.siteId,
            automationId: params.automationId ?? '',
            bodyJson,
            // A repeated query parameter is sent as a value its rule refuses (route.ts, queryValue).
            limit: queryValue(query.limit, 'refused'),
            cursor: queryValue(query.cursor, '\u0000'),
            // Events only: the other calls ignore the header, as the template calls do.
            idempotencyKey: operation === 'recordEvent' ? idempotencyKey(headers['idempotency-key']) : '',
          },
          ctx,
        ),
      ),
  });
  return {
    list: endpoint('listAutomations', 'none', backend.listAutomations, (res) => {
      // A backend that answers without the page facts (another version of the contract) is a 500, never a broken body.
      if (res.page === null) throw new Error('campaign service answered without page');
      return { items: res.items.map(automationJson), limit: res.page.limit, hasMore: res.page.hasMore, nextCursor: res.page.nextCursor || null };
    }),
    create: endpoint('createAutomation', 'json', backend.createAutomation, automationJson),
    get: endpoint('getAutomation', 'none', backend.getAutomation, automationJson),
    update: endpoint('updateAutomation', 'json', backend.updateAutomation, automationJson),
    delete: endpoint('deleteAutomation', 'none', backend.deleteAutomation, (res) => ({ id: res.id, deleted: true })),
    // 202: accepted; the steps it starts are sent when due. Not in the audit log (`data`): the runs
    // it starts and ends are the automations' own record.
    event: endpoint('recordEvent', 'json', backend.recordEvent, (res) => ({ id: res.id }), { answerStatus: 202, audit: 'data' }),
  };
}
