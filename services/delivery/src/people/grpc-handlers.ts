// gRPC adapter for the people calls of delivery.v1.Audience (GetPerson, UpdatePerson,
// DeletePerson, ExportPerson, ListPersonSends): one use case of people.ts each, answered as the
// typed messages of audience.proto. grpc-server.ts adds them to the Audience service's other handlers.
import type { AudienceHandlers } from '@webpush/contracts/generated/delivery/v1/Audience.js';
import type { Person } from '@webpush/contracts/generated/delivery/v1/Person.js';
import type { Logger } from '@webpush/shared/log.js';
import type { PersonSends } from '@webpush/contracts/generated/delivery/v1/PersonSends.js';
import { countryCode } from '../audience/index.js';
import { answer } from '../grpc-answers.js';
import type { People, PersonView } from './people.js';

function personMessage(v: PersonView): Person {
  return {
    externalId: v.person.externalId,
    createdAt: v.person.createdAt.toISOString(),
    subscriptions: v.subscriptions.map((s) => ({
      id: s.publicId ?? '',
      browser: s.browser,
      createdAt: s.createdAt.toISOString(),
      active: s.active,
      lastEngagedAt: s.lastEngagedAt?.toISOString(),
      country: countryCode(s.country) ?? '',
      topics: s.topics,
    })),
    tagsJson: JSON.stringify(v.tags),
  };
}

function sendsMessage(answer: Awaited<ReturnType<People['sends']>>): PersonSends {
  return {
    sends: answer.sends.map((s) => ({
      runId: s.runId,
      kind: s.kind,
      campaignId: s.campaignId,
      title: s.title,
      subscriptionId: s.subscriptionId ?? '',
      state: s.state,
      at: s.claimedAt.toISOString(),
      finishedAt: s.finishedAt?.toISOString(),
      impressionAt: s.impressionAt?.toISOString(),
      clickAt: s.clickAt?.toISOString(),
    })),
    more: answer.more,
  };
}

export function createPeopleHandlers(people: People, log: Logger): Pick<AudienceHandlers, 'GetPerson' | 'UpdatePerson' | 'DeletePerson' | 'ExportPerson' | 'ListPersonSends'> {
  return {
    GetPerson: ({ request: r }, cb) => answer(log, 'GetPerson', cb, async () => personMessage(await people.get(r.siteId, r.externalId))),
    UpdatePerson: ({ request: r }, cb) => answer(log, 'UpdatePerson', cb, async () => personMessage(await people.update(r.siteId, r.externalId, r.bodyJson))),
    DeletePerson: ({ request: r }, cb) => answer(log, 'DeletePerson', cb, async () => people.remove(r.siteId, r.externalId)),
    ExportPerson: ({ request: r }, cb) => answer(log, 'ExportPerson', cb, async () => ({ json: await people.export(r.siteId, r.externalId) })),
    ListPersonSends: ({ request: r }, cb) => answer(log, 'ListPersonSends', cb, async () => sendsMessage(await people.sends(r.siteId, r.externalId))),
  };
}
