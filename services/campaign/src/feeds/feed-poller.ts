// Polls the due feeds and makes each new item a campaign (docs/api-decisions.md, "Feeds").
// A pass claims up to `batchSize` due, unpaused feeds under a lease (FOR UPDATE SKIP LOCKED: each
// feed is polled by one instance at a time, and again only when due or when a dead instance's
// lease has run out), fetches each (feed-fetch.ts) and reads its items (feed-items.ts):
//   - the first successful poll of a feed (or of its new URL) only marks the items there as
//     seen: a feed added with twenty posts in it does not send twenty campaigns;
//   - after that, an item whose key the feed has not seen becomes a campaign, sent now. At most
//     MAX_CAMPAIGNS_PER_POLL per poll, the newest, oldest of them first; more new items than that
//     in one fetch is a feed re-keyed or a backlog published at once, and the rest are only
//     marked seen;
//   - the item's row is written in its campaign's create transaction (unique per feed and key),
//     so an item becomes a campaign at most once across polls, instances and crashes: a crash
//     between the fetch and that commit leaves the item unseen, and the next poll sends it;
//   - an item that makes no valid campaign (the create refuses it) is marked seen with why.
// A failed poll (fetch, format, a create that failed for a reason not the item's) is recorded
// on the feed — lastError, consecutiveFailures — and the feed is due again after a backoff.
// A paused or deleted feed is not claimed, and an item of a feed paused or deleted while it was
// being polled makes no campaign (the item's row needs the feed, unpaused).
import { createHash, randomUUID } from 'node:crypto';
import type { Pool } from '@webpush/shared/db.js';
import type { Logger } from '@webpush/shared/log.js';
import { createPeriodic } from '@webpush/shared/periodic.js';
import type { CreateClaim } from '../campaigns/index.js';
import { ValidationError } from '../base/errors.js';
import type { FeedFetcher } from './feed-fetch.js';
import { FeedFormatError, parseFeedText, type FeedItem } from './feed-items.js';
import { claimDueFeeds, claimItem, failPoll, finishPoll, markSeen, seenKeys, type FeedRow } from './feed-store.js';
import { itemCreateBody } from './item-campaign.js';

export const MAX_CAMPAIGNS_PER_POLL = 5;

/** The campaign create (campaigns/), with a claim written in its transaction. */
export type CreateCampaign = (siteId: string, bodyJson: string, idempotencyKey: string, claim?: CreateClaim) => Promise<{ id: string }>;

export interface FeedPollerDeps {
  pool: Pool;
  log: Logger;
  fetcher: FeedFetcher;
  createCampaign: CreateCampaign;
}

export interface FeedPollerOptions {
  enabled: boolean;
  intervalMs: number;
  batchSize: number;
  /** How long a claimed feed is the claimer's: longer than a fetch and its campaigns take. */
  leaseMs: number;
}

/** The item was seen by the time its campaign would have committed: the create rolled back. */
class ItemSeen extends Error {}

const keyHash = (key: string) => createHash('sha256').update(key, 'utf8').digest();

export interface PollOutcome {
  feedId: string;
  campaigns: number;
  error: string | null;
}

export function createFeedPoller(deps: FeedPollerDeps, opts: FeedPollerOptions) {
  const { pool, log } = deps;

  /** One claimed feed, polled; never throws for the feed's own failures (they are recorded). */
  async function pollFeed(feed: FeedRow, leaseId: string): Promise<PollOutcome> {
    const fetched = await deps.fetcher.fetch(feed.url, { etag: feed.etag, lastModified: feed.lastModified });
    if (fetched.kind === 'failed') return failed(feed, leaseId, fetched.error);
    if (fetched.kind === 'not-modified') {
      await finishPoll(pool, feed.id, leaseId, { title: null, etag: feed.etag, lastModified: feed.lastModified, primed: false });
      return { feedId: feed.id, campaigns: 0, error: null };
    }
    let parsed;
    try {
      parsed = parseFeedText(fetched.text);
    } catch (err) {
      if (err instanceof FeedFormatError) return failed(feed, leaseId, err.message);
      throw err;
    }
    const hashes = parsed.items.map((i) => keyHash(i.key));
    const seen = await seenKeys(pool, feed.id, hashes);
    // One item per key (a feed may repeat one), the unseen ones.
    const fresh = new Map<string, { item: FeedItem; hash: Buffer }>();
    parsed.items.forEach((item, i) => {
      const hex = hashes[i].toString('hex');
      if (!seen.has(hex) && !fresh.has(hex)) fresh.set(hex, { item, hash: hashes[i] });
    });
    let campaigns = 0;
    if (!feed.primed) {
      await markSeen(pool, feed.id, [...fresh.values()].map((f) => ({ keyHash: f.hash, skipped: null })));
    } else {
      // Oldest first by date; undated items in the document's reverse order (feeds list the newest first).
      const ordered = [...fresh.values()].reverse().map((f, i) => ({ ...f, i })).sort((a, b) => (a.item.published?.getTime() ?? 0) - (b.item.published?.getTime() ?? 0) || a.i - b.i);
      const excess = ordered.slice(0, Math.max(0, ordered.length - MAX_CAMPAIGNS_PER_POLL));
      await markSeen(pool, feed.id, excess.map((f) => ({ keyHash: f.hash, skipped: `one of more than ${MAX_CAMPAIGNS_PER_POLL} new items in one poll` })));
      for (const { item, hash } of ordered.slice(excess.length)) {
        try {
          if (await sendItem(feed, item, hash, parsed.title)) campaigns++;
        } catch (err) {
          // Not the item's fault (the database, the delivery service): the poll failed; the items
          // not sent are unseen still, and the next poll sends them.
          return failed(feed, leaseId, `campaign create failed: ${err instanceof Error ? err.message : String(err)}`, campaigns);
        }
      }
    }
    await finishPoll(pool, feed.id, leaseId, { title: parsed.title, etag: fetched.validators.etag, lastModified: fetched.validators.lastModified, primed: true });
    return { feedId: feed.id, campaigns, error: null };
  }

  /** True when the item's campaign was created; false when it was seen already or refused (then marked seen). */
  async function sendItem(feed: FeedRow, item: FeedItem, hash: Buffer, feedTitle: string | null): Promise<boolean> {
    const body = itemCreateBody(feed.settings, { ...item, feedTitle });
    const claim: CreateClaim = async (tx, campaignId) => {
      if (!(await claimItem(tx, feed.id, hash, campaignId))) throw new ItemSeen();
    };
    try {
      await deps.createCampaign(feed.siteId, JSON.stringify(body), '', claim);
      return true;
    } catch (err) {
      if (err instanceof ItemSeen) return false;
      if (!(err instanceof ValidationError)) throw err;
      await markSeen(pool, feed.id, [{ keyHash: hash, skipped: `not sent: ${err.message}`.slice(0, 300) }]);
      return false;
    }
  }

  async function failed(feed: FeedRow, leaseId: string, error: string, campaigns = 0): Promise<PollOutcome> {
    await failPoll(pool, feed.id, leaseId, error.slice(0, 300));
    log.info('feed poll failed', { feedId: feed.id, siteId: feed.siteId, error });
    return { feedId: feed.id, campaigns, error };
  }

  /** One pass: the due feeds claimed and polled, one after another. */
  async function pass(): Promise<PollOutcome[]> {
    const leaseId = randomUUID();
    const feeds = await claimDueFeeds(pool, leaseId, opts.leaseMs, opts.batchSize);
    const outcomes: PollOutcome[] = [];
    for (const feed of feeds) {
      // A feed left claimed by a pass that stops is polled again when its lease runs out.
      if (loop.stopping()) break;
      outcomes.push(await pollFeed(feed, leaseId));
    }
    if (feeds.length === opts.batchSize) loop.wake();
    return outcomes;
  }

  const loop = createPeriodic(pass, {
    intervalMs: opts.intervalMs,
    firstPassDelayMs: 0,
    onError: (err) => log.error('feed poll pass failed', { err: err instanceof Error ? err : new Error(String(err)) }),
  });

  return {
    pass,
    start: () => (opts.enabled ? loop.start() : undefined),
    wake: loop.wake,
    stop: () => loop.stop(),
  };
}
