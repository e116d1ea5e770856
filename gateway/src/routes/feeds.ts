// /v2 feed endpoints (an addition; docs/api-decisions.md, "Feeds"; their methods and paths are
// in the /v2 router, api.ts): a site's RSS and Atom feeds whose new items become campaigns,
// managed by keys whose plan may create campaigns. The campaign service owns them and answers
// each call's typed message, whose API JSON feed-json.ts builds.
import type { FeedCall, FeedsBackend } from '../grpc/clients.js';
import { MESSAGES } from '../texts.js';
import { deletedFeedJson, feedJson, feedListJson } from './feed-json.js';
import { queryValue, type ApiRoute } from './route.js';

export function feedEndpoints(backend: FeedsBackend) {
  const endpoint = <Answer>(operation: string, body: ApiRoute['body'], call: FeedCall<Answer>, json: (answer: Answer) => unknown): ApiRoute => ({
    operation,
    permission: 'create',
    denied: { status: 403, body: { message: MESSAGES.planFeeds } },
    genericMessage: MESSAGES.internal,
    body,
    handle: async ({ principal, params, bodyJson, query, ctx }) =>
      json(
        await call(
          // A repeated query parameter is sent as a value its rule refuses (route.ts, queryValue).
          { siteId: principal.siteId, feedId: params.feedId ?? '', bodyJson, limit: queryValue(query.limit, 'refused'), cursor: queryValue(query.cursor, '\u0000') },
          ctx,
        ),
      ),
  });
  return {
    list: endpoint('listFeeds', 'none', backend.listFeeds, feedListJson),
    create: endpoint('createFeed', 'json', backend.createFeed, feedJson),
    get: endpoint('getFeed', 'none', backend.getFeed, feedJson),
    update: endpoint('updateFeed', 'json', backend.updateFeed, feedJson),
    delete: endpoint('deleteFeed', 'none', backend.deleteFeed, deletedFeedJson),
  };
}
