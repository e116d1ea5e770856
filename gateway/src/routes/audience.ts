// /v2 topics and countries. A plan without audience access gets an empty list (spec), not a 403.
import type { NameCounts__Output } from '../../../protos/generated/delivery/v1/NameCounts.js';
import type { AudienceBackend } from '../grpc/clients.js';
import { MESSAGES } from '../messages.js';
import type { ApiRoute } from './route.js';

function entriesJson(counts: NameCounts__Output) {
  return counts.entries.map((e) => ({ name: e.name, users: Number(e.users) }));
}

export function audienceRoutes(backend: AudienceBackend): ApiRoute[] {
  const common = { method: 'GET', permission: 'audience', denied: { status: 200, body: [] }, genericMessage: MESSAGES.internal, body: 'none' } as const;
  return [
    {
      ...common,
      pattern: /^\/v2\/topics\/?$/,
      operation: 'listTopics',
      handle: async ({ principal, ctx }) => entriesJson(await backend.listTopics(principal.siteId, ctx)),
    },
    {
      ...common,
      pattern: /^\/v2\/countries\/?$/,
      operation: 'listCountries',
      handle: async ({ principal, ctx }) => entriesJson(await backend.listCountries(principal.siteId, ctx)),
    },
  ];
}
