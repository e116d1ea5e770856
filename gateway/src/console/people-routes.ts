// The console's People page (docs/console.md, "People"): a person of the site looked up by their
// external id — their subscriptions with country and topics, their tags — and what was sent to
// them, for any member, under the plan's `audience` permission and /v2's answers for it (a person
// is subscribers' data). The delete and the export are /v2's, run for owners (routes.ts). The
// delivery service owns people and the delivery log (delivery.v1.Audience).
import type { AudienceBackend } from '../grpc/clients.js';
import { personJson, peopleEndpoints } from '../routes/people.js';
import type { ConsoleRoute } from './route.js';

const nullable = (value: string | undefined) => (value === undefined || value === '' ? null : value);

export function peopleRoutes(person: string, backend: AudienceBackend): ConsoleRoute[] {
  const v2 = peopleEndpoints(backend);
  const route = (path: string, operation: string, handle: ConsoleRoute['handle']): ConsoleRoute => ({
    method: 'GET',
    path: `${person}${path}`,
    operation,
    access: 'member',
    plan: { permission: v2.get.permission, denied: v2.get.denied },
    body: 'none',
    // The delivery service's refusals as /v2/users answers them (400 the id's rule, 404 `User not found`).
    errors: 'v2',
    genericMessage: v2.get.genericMessage,
    handle,
  });
  const ids = (input: Parameters<ConsoleRoute['handle']>[0]) => ({ siteId: input.site!.siteId, externalId: input.params.externalId ?? '', bodyJson: '' });
  return [
    route('', 'getPerson', async (input) => {
      const p = await backend.getPerson(ids(input), input.ctx);
      const json = personJson(p);
      return {
        ...json,
        subscriptions: json.subscriptions.map((s, i) => ({ ...s, country: nullable(p.subscriptions[i].country), topics: p.subscriptions[i].topics })),
      };
    }),
    route('/sends', 'listPersonSends', async (input) => {
      const answer = await backend.listPersonSends(ids(input), input.ctx);
      return {
        items: answer.sends.map((s) => ({
          runId: s.runId,
          kind: s.kind,
          campaignId: s.campaignId,
          title: s.title,
          subscriptionId: nullable(s.subscriptionId),
          state: s.state,
          at: s.at,
          finishedAt: nullable(s.finishedAt),
          impressionAt: nullable(s.impressionAt),
          clickAt: nullable(s.clickAt),
        })),
        more: answer.more,
      };
    }),
  ];
}
