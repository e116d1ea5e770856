// /v2 audience endpoints (their methods and paths are in the /v2 router, api.ts): topics and countries (a plan without audience access gets an empty list: spec, not a 403),
// and the import of subscriptions from another provider (an addition; docs/api-changelog.md).
import type { NameCounts__Output } from '@webpush/contracts/generated/delivery/v1/NameCounts.js';
import type { AudienceBackend } from '../grpc/clients.js';
import { MESSAGES } from '../texts.js';
import { exportAnswer, queryValue, type ApiRoute } from './route.js';

/**
 * Body limit of POST /v2/subscribers/import: 1,000 subscriptions (the most one request may carry)
 * of a typical 300–600 bytes fit many times over; the endpoint URL alone may be 2,048 characters.
 */
export const IMPORT_BODY_LIMIT_BYTES = 2 * 1024 * 1024;

function entriesJson(counts: NameCounts__Output) {
  return counts.entries.map((e) => ({ name: e.name, users: Number(e.users) }));
}

export function audienceEndpoints(backend: AudienceBackend) {
  const lists = { permission: 'audience', denied: { status: 200, body: [] }, genericMessage: MESSAGES.internal, body: 'none' } as const;
  return {
    topics: {
      ...lists,
      operation: 'listTopics',
      handle: async ({ principal, ctx }) => entriesJson(await backend.listTopics(principal.siteId, ctx)),
    },
    countries: {
      ...lists,
      operation: 'listCountries',
      handle: async ({ principal, ctx }) => entriesJson(await backend.listCountries(principal.siteId, ctx)),
    },
    exportSubscribers: {
      operation: 'exportSubscribers',
      audit: 'export',
      permission: 'audience',
      denied: { status: 403, body: { message: MESSAGES.planExport } },
      genericMessage: MESSAGES.internal,
      body: 'none',
      handle: async ({ principal, query, ctx }) => {
        const format = queryValue(query.format, 'refused');
        const call = backend.exportSubscribers(
          { siteId: principal.siteId, format, topics: queryValue(query.topics, ','), countries: queryValue(query.countries, ',') },
          ctx,
        );
        return exportAnswer(call, format, 'subscribers');
      },
    },
    importSubscribers: {
      operation: 'importSubscribers',
      permission: 'audience',
      denied: { status: 403, body: { message: MESSAGES.planImport } },
      genericMessage: MESSAGES.internal,
      body: 'json',
      bodyLimitBytes: IMPORT_BODY_LIMIT_BYTES,
      handle: async ({ principal, bodyJson, ctx }) => {
        const r = await backend.importSubscriptions({ siteId: principal.siteId, bodyJson }, ctx);
        return {
          received: r.received,
          imported: r.imported,
          existing: r.existing,
          refused: r.refused,
          refusals: r.refusals.map((x) => ({ index: x.index, reason: x.reason })),
          vapidPublicKey: r.vapidPublicKey,
        };
      },
    },
  } satisfies Record<string, ApiRoute>;
}
