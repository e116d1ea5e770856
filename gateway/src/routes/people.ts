// /v2/users/{externalId} (an addition; docs/people.md; their methods and paths are in the /v2
// router, api.ts): a person of the site — read, tags changed, exported, deleted — for keys whose
// plan has the `audience` permission (subscribers' data). The delivery service owns people and
// answers typed messages (audience.proto); the export is its JSON document as it built it.
import type { Person__Output } from '@webpush/contracts/generated/delivery/v1/Person.js';
import type { AudienceBackend, PersonCall } from '../grpc/clients.js';
import { MESSAGES } from '../texts.js';
import type { ApiRoute } from './route.js';

/** A person as /v2/users answers them (the console's People page adds each subscription's country and topics). */
export function personJson(p: Person__Output) {
  return {
    externalId: p.externalId,
    createdAt: p.createdAt,
    subscriptions: p.subscriptions.map((s) => ({ id: s.id === '' ? null : s.id, browser: s.browser, createdAt: s.createdAt, active: s.active, lastEngagedAt: s.lastEngagedAt ?? null })),
    tags: JSON.parse(p.tagsJson) as Record<string, unknown>,
  };
}

export function peopleEndpoints(backend: AudienceBackend) {
  const endpoint = <Answer>(operation: string, body: ApiRoute['body'], call: PersonCall<Answer>, json: (answer: Answer) => unknown, audit?: ApiRoute['audit']): ApiRoute => ({
    operation,
    audit,
    permission: 'audience',
    denied: { status: 403, body: { message: MESSAGES.planUsers } },
    genericMessage: MESSAGES.internal,
    body,
    handle: async ({ principal, params, bodyJson, ctx }) => json(await call({ siteId: principal.siteId, externalId: params.externalId ?? '', bodyJson }, ctx)),
  });
  return {
    get: endpoint('getUser', 'none', backend.getPerson, personJson),
    update: endpoint('updateUser', 'json', backend.updatePerson, personJson),
    delete: endpoint('deleteUser', 'none', backend.deletePerson, (d) => ({ externalId: d.externalId, deleted: true, subscriptions: d.subscriptions })),
    export: endpoint('exportUser', 'none', backend.exportPerson, (e) => JSON.parse(e.json) as unknown, 'export'),
  } satisfies Record<string, ApiRoute>;
}
