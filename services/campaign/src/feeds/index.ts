// The feeds/ feature's surface: /v2/feeds and the poller that makes their new items campaigns.
export { feedUseCases, MAX_FEEDS_PER_SITE } from './feeds.js';
export type { Feed, FeedPage } from './feeds.js';
export { createFeedFetcher } from './feed-fetch.js';
export { createFeedPoller } from './feed-poller.js';
