// The feeds' SQL (campaign.feeds, campaign.feed_items). Every statement the API runs names the
// site: a feed of another site is not there. The poller's statements claim and finish a feed
// under its lease.
import type { Queryable } from '@webpush/shared/db.js';
import type { FeedSettings } from './feed-input.js';

export interface FeedRow {
  id: string;
  siteId: string;
  url: string;
  pollIntervalMinutes: number;
  paused: boolean;
  primed: boolean;
  settings: FeedSettings;
  title: string | null;
  etag: string | null;
  lastModified: string | null;
  nextPollAt: Date;
  lastFetchedAt: Date | null;
  lastSuccessAt: Date | null;
  lastError: string | null;
  consecutiveFailures: number;
  campaignsCreated: number;
  createdAt: Date;
  updatedAt: Date;
  /** The list's position: created_at as microsecond text (the cursors). */
  sortKey: string;
}

const COLUMNS = `f.id, f.site_id, f.url, f.poll_interval_minutes, f.paused, f.primed, f.settings, f.title, f.etag, f.last_modified,
  f.next_poll_at, f.last_fetched_at, f.last_success_at, f.last_error, f.consecutive_failures, f.created_at, f.updated_at,
  (SELECT count(*) FROM campaign.feed_items i WHERE i.feed_id = f.id AND i.campaign_id IS NOT NULL)::int AS campaigns_created,
  to_char(f.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS sort_key`;

const rowOf = (r: Record<string, unknown>): FeedRow => ({
  id: r.id as string,
  siteId: r.site_id as string,
  url: r.url as string,
  pollIntervalMinutes: r.poll_interval_minutes as number,
  paused: r.paused as boolean,
  primed: r.primed as boolean,
  settings: r.settings as FeedSettings,
  title: r.title as string | null,
  etag: r.etag as string | null,
  lastModified: r.last_modified as string | null,
  nextPollAt: r.next_poll_at as Date,
  lastFetchedAt: r.last_fetched_at as Date | null,
  lastSuccessAt: r.last_success_at as Date | null,
  lastError: r.last_error as string | null,
  consecutiveFailures: r.consecutive_failures as number,
  campaignsCreated: r.campaigns_created as number,
  createdAt: r.created_at as Date,
  updatedAt: r.updated_at as Date,
  sortKey: r.sort_key as string,
});

export interface NewFeed {
  url: string;
  pollIntervalMinutes: number;
  paused: boolean;
  settings: FeedSettings;
}

/**
 * The new feed, due at once (its first poll marks what is there as seen), or null when the site
 * has `maxPerSite` feeds already. The site's row is locked first, so two creates racing for the
 * last place cannot both have it.
 */
export async function insertFeed(db: Queryable, siteId: string, feed: NewFeed, maxPerSite: number): Promise<FeedRow | null> {
  await db.query('SELECT 1 FROM campaign.sites WHERE id = $1 FOR UPDATE', [siteId]);
  const { rows } = await db.query(
    `WITH inserted AS (
       INSERT INTO campaign.feeds (site_id, url, poll_interval_minutes, paused, settings)
       SELECT $1, $2, $3, $4, $5::jsonb WHERE (SELECT count(*) FROM campaign.feeds WHERE site_id = $1) < $6
       RETURNING *)
     SELECT ${COLUMNS} FROM inserted f`,
    [siteId, feed.url, feed.pollIntervalMinutes, feed.paused, JSON.stringify(feed.settings), maxPerSite],
  );
  return rows[0] ? rowOf(rows[0]) : null;
}

/** `lock`: held until the transaction ends (an update reads, merges and writes). */
export async function feedById(db: Queryable, siteId: string, id: string, lock = false): Promise<FeedRow | null> {
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM campaign.feeds f WHERE f.id = $1 AND f.site_id = $2${lock ? ' FOR UPDATE OF f' : ''}`, [id, siteId]);
  return rows[0] ? rowOf(rows[0]) : null;
}

/**
 * A feed's new fields. A new URL is a new feed: primed again (its next poll only marks what is
 * there as seen), its validators and failures forgotten, due at once; so is a feed unpaused.
 */
export async function updateFeed(db: Queryable, siteId: string, id: string, feed: NewFeed): Promise<FeedRow> {
  const { rows } = await db.query(
    `WITH updated AS (
       UPDATE campaign.feeds f SET
         poll_interval_minutes = $4, paused = $5, settings = $6::jsonb, updated_at = now(),
         primed = f.primed AND f.url = $3 AND NOT (f.paused AND NOT $5),
         etag = CASE WHEN f.url = $3 THEN f.etag END,
         last_modified = CASE WHEN f.url = $3 THEN f.last_modified END,
         consecutive_failures = CASE WHEN f.url = $3 THEN f.consecutive_failures ELSE 0 END,
         last_error = CASE WHEN f.url = $3 THEN f.last_error END,
         next_poll_at = CASE WHEN f.url <> $3 OR (f.paused AND NOT $5) THEN now() ELSE f.next_poll_at END,
         url = $3
       WHERE f.id = $1 AND f.site_id = $2
       RETURNING f.*)
     SELECT ${COLUMNS} FROM updated f`,
    [id, siteId, feed.url, feed.pollIntervalMinutes, feed.paused, JSON.stringify(feed.settings)],
  );
  return rowOf(rows[0]);
}

export async function deleteFeed(db: Queryable, siteId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM campaign.feeds WHERE id = $1 AND site_id = $2', [id, siteId]);
  return rowCount === 1;
}

/** Up to `limit` + 1 feeds, newest first, after `after` (the previous page's last). */
export async function listFeeds(db: Queryable, siteId: string, limit: number, after: { sortKey: string; id: string } | null): Promise<FeedRow[]> {
  const { rows } = await db.query(
    `SELECT ${COLUMNS} FROM campaign.feeds f
      WHERE f.site_id = $1 AND ($2::timestamptz IS NULL OR (f.created_at, f.id) < ($2::timestamptz, $3::uuid))
      ORDER BY f.created_at DESC, f.id DESC LIMIT $4`,
    [siteId, after?.sortKey ?? null, after?.id ?? null, limit + 1],
  );
  return rows.map(rowOf);
}

// ---- the poller

/**
 * Up to `limit` due, unpaused feeds not leased by another poll, leased to `leaseId` for
 * `leaseMs`: each claimed by one instance (SKIP LOCKED), again only once its lease has run out.
 */
export async function claimDueFeeds(db: Queryable, leaseId: string, leaseMs: number, limit: number): Promise<FeedRow[]> {
  const { rows } = await db.query(
    `WITH due AS (
       SELECT id FROM campaign.feeds
        WHERE NOT paused AND next_poll_at <= now() AND (lease_until IS NULL OR lease_until <= now())
        ORDER BY next_poll_at LIMIT $3 FOR UPDATE SKIP LOCKED),
     claimed AS (
       UPDATE campaign.feeds f SET lease_id = $1, lease_until = now() + $2 * interval '1 millisecond'
         FROM due WHERE f.id = due.id RETURNING f.*)
     SELECT ${COLUMNS} FROM claimed f`,
    [leaseId, leaseMs, limit],
  );
  return rows.map(rowOf);
}

/** Which of `keyHashes` the feed has seen. */
export async function seenKeys(db: Queryable, feedId: string, keyHashes: Buffer[]): Promise<Set<string>> {
  const { rows } = await db.query('SELECT key_hash FROM campaign.feed_items WHERE feed_id = $1 AND key_hash = ANY($2::bytea[])', [feedId, keyHashes]);
  return new Set(rows.map((r) => (r.key_hash as Buffer).toString('hex')));
}

/** Items marked seen without a campaign (`skipped`: why; null for the first poll's). */
export async function markSeen(db: Queryable, feedId: string, items: { keyHash: Buffer; skipped: string | null }[]): Promise<void> {
  if (items.length === 0) return;
  await db.query(
    `INSERT INTO campaign.feed_items (feed_id, key_hash, skipped)
     SELECT $1, k, s FROM unnest($2::bytea[], $3::text[]) AS t(k, s)
     ON CONFLICT DO NOTHING`,
    [feedId, items.map((i) => i.keyHash), items.map((i) => i.skipped)],
  );
}

/**
 * The item's row, in its campaign's transaction: false when the item was seen already (another
 * poll made its campaign first) or the feed is gone or paused since the poll began.
 */
export async function claimItem(db: Queryable, feedId: string, keyHash: Buffer, campaignId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO campaign.feed_items (feed_id, key_hash, campaign_id)
     SELECT id, $2, $3 FROM campaign.feeds WHERE id = $1 AND NOT paused
     ON CONFLICT DO NOTHING`,
    [feedId, keyHash, campaignId],
  );
  return rowCount === 1;
}

/** A poll that ended (fetched, maybe not modified): what it read, and when the feed is due next. Only while the lease is ours. */
export async function finishPoll(db: Queryable, feedId: string, leaseId: string, result: { title: string | null; etag: string | null; lastModified: string | null; primed: boolean }): Promise<void> {
  await db.query(
    `UPDATE campaign.feeds SET
       title = coalesce($3, title), etag = $4, last_modified = $5, primed = primed OR $6,
       last_fetched_at = now(), last_success_at = now(), last_error = NULL, consecutive_failures = 0,
       next_poll_at = now() + poll_interval_minutes * interval '1 minute', lease_id = NULL, lease_until = NULL
     WHERE id = $1 AND lease_id = $2`,
    [feedId, leaseId, result.title, result.etag, result.lastModified, result.primed],
  );
}

/**
 * A poll that failed: the error kept, and the feed due again after its interval doubled per
 * failure in a row (1, 2, 4… intervals), at most a day. Only while the lease is ours.
 */
export async function failPoll(db: Queryable, feedId: string, leaseId: string, error: string): Promise<void> {
  await db.query(
    `UPDATE campaign.feeds SET
       last_fetched_at = now(), last_error = $3, consecutive_failures = consecutive_failures + 1,
       next_poll_at = now() + least(poll_interval_minutes * power(2, least(consecutive_failures, 10)), 1440) * interval '1 minute',
       lease_id = NULL, lease_until = NULL
     WHERE id = $1 AND lease_id = $2`,
    [feedId, leaseId, error],
  );
}
