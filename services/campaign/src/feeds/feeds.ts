// /v2/feeds (docs/api-decisions.md, "Feeds"): a site's feeds created, listed (newest first, with
// the campaigns' signed cursors), read with what their last poll did, updated and deleted.
// Another site's id, a random id and a malformed id are all "Feed not found"; a refused call
// writes nothing. The feed's campaign fields are judged as a campaign create judges them, with
// a sample item (feed-input.ts), its template rendered.
import type { Resolver } from '@webpush/push/outbound.js';
import { resolvedAddressProblem } from '@webpush/push/outbound.js';
import { withTransaction, type Pool } from '@webpush/shared/db.js';
import { listingPage, type CursorCodec, type ListingPage } from '../campaigns/index.js';
import { formatUtcDate } from '../base/dates.js';
import { NotFoundError, RefusedError, ValidationError } from '../base/errors.js';
import { isUuid } from '../base/ids.js';
import { parseObjectBody } from '../base/request-body.js';
import { MESSAGES } from '../base/texts.js';
import { validateFeedInput, validateFeedUpdate, type FeedFields, type FeedSettings } from './feed-input.js';
import { deleteFeed, feedById, insertFeed, listFeeds, updateFeed, type FeedRow } from './feed-store.js';
import { itemCreateBody } from './item-campaign.js';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;
export const MAX_FEEDS_PER_SITE = 20;

export interface Feed {
  id: string;
  url: string;
  pollIntervalMinutes: number;
  paused: boolean;
  settings: FeedSettings;
  title: string;
  /** `YYYY-MM-DDTHH:MM:SSZ`, '' for never. */
  lastFetchedAt: string;
  lastSuccessAt: string;
  lastError: string;
  consecutiveFailures: number;
  /** '' while paused. */
  nextPollAt: string;
  campaignsCreated: number;
  createdAt: string;
  updatedAt: string;
}

export type FeedPage = ListingPage<Feed>;

/** A create body judged by the create's rules, its template rendered (campaigns/, checkCreateBodyUseCase). */
export type CreateBodyCheck = (siteId: string, body: Record<string, unknown>) => Promise<void>;

export interface FeedUseCaseDeps {
  pool: Pool;
  cursors: CursorCodec;
  checkCreateBody: CreateBodyCheck;
  /** FEED_TEST_HOSTS. */
  testHosts: readonly string[];
  /** Default: dns.lookup. */
  resolve?: Resolver;
  /** After a feed became due at once (created, unpaused, a new URL): wakes the poller. */
  onDue?: () => void;
}

const date = (d: Date | null) => (d ? formatUtcDate(d) : '');

const feedOf = (row: FeedRow): Feed => ({
  id: row.id,
  url: row.url,
  pollIntervalMinutes: row.pollIntervalMinutes,
  paused: row.paused,
  settings: row.settings,
  title: row.title ?? '',
  lastFetchedAt: date(row.lastFetchedAt),
  lastSuccessAt: date(row.lastSuccessAt),
  lastError: row.lastError ?? '',
  consecutiveFailures: row.consecutiveFailures,
  nextPollAt: row.paused ? '' : date(row.nextPollAt),
  campaignsCreated: row.campaignsCreated,
  createdAt: formatUtcDate(row.createdAt),
  updatedAt: formatUtcDate(row.updatedAt),
});

function limitOf(raw: string): number {
  if (raw === '') return DEFAULT_LIMIT;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < 1) throw new ValidationError([MESSAGES.limitPositive]);
  return Math.min(n, MAX_LIMIT);
}

/** What every item will be sent with, as a sample item's campaign: refused here, not at each item. */
const SAMPLE_ITEM = { title: 'A feed item', body: 'What the feed item says', link: 'https://feed.example/item', image: null, feedTitle: 'A feed' };

export function feedUseCases(deps: FeedUseCaseDeps) {
  const { pool, cursors } = deps;
  const found = async (siteId: string, id: string, lock = false, db: Parameters<typeof feedById>[0] = pool) => {
    const row = isUuid(id) && isUuid(siteId) ? await feedById(db, siteId, id, lock) : null;
    if (!row) throw new NotFoundError(MESSAGES.feedNotFound);
    return row;
  };

  /** The rules that need I/O: the URL's name resolved now, the campaign fields as a create judges them. */
  async function check(siteId: string, fields: FeedFields): Promise<void> {
    const problem = await resolvedAddressProblem(fields.url, deps.testHosts, deps.resolve);
    if (problem !== null) throw new ValidationError([problem]);
    await deps.checkCreateBody(siteId, itemCreateBody(fields.settings, SAMPLE_ITEM));
  }

  return {
    async createFeed(siteId: string, bodyJson: string): Promise<Feed> {
      const fields = validateFeedInput(parseObjectBody(bodyJson, false), deps.testHosts);
      if (!isUuid(siteId)) throw new NotFoundError(MESSAGES.feedNotFound);
      await check(siteId, fields);
      const row = await withTransaction(pool, (tx) => insertFeed(tx, siteId, fields, MAX_FEEDS_PER_SITE));
      if (!row) throw new RefusedError(MESSAGES.feedTooMany);
      if (!row.paused) deps.onDue?.();
      return feedOf(row);
    },

    async listFeeds(siteId: string, limitText: string, cursor: string): Promise<FeedPage> {
      const limit = limitOf(limitText);
      return listingPage(cursors, siteId, 'feeds', limit, cursor, (after) => listFeeds(pool, siteId, limit, after), feedOf);
    },

    async getFeed(siteId: string, id: string): Promise<Feed> {
      return feedOf(await found(siteId, id));
    },

    async updateFeed(siteId: string, id: string, bodyJson: string): Promise<Feed> {
      const body = parseObjectBody(bodyJson, false);
      const current = await found(siteId, id);
      const fields = validateFeedUpdate(body, current, deps.testHosts);
      await check(siteId, fields);
      const row = await withTransaction(pool, async (tx) => {
        await found(siteId, id, true, tx);
        return updateFeed(tx, siteId, id, fields);
      });
      if (!row.paused && row.nextPollAt.getTime() <= Date.now()) deps.onDue?.();
      return feedOf(row);
    },

    async deleteFeed(siteId: string, id: string): Promise<{ id: string }> {
      if (!isUuid(id) || !isUuid(siteId) || !(await deleteFeed(pool, siteId, id))) throw new NotFoundError(MESSAGES.feedNotFound);
      return { id };
    },
  };
}
