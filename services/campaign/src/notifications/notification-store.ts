// The notifications' SQL (campaign.notifications): a new one, one of a site's, a page of a
// site's, newest first (keyset on created_at, id). Their impressions and clicks are written by
// stats/ (the delivery service's counters) and only read here.
import type { NotificationBestTime } from '@webpush/contracts/best-time.js';
import type { Queryable } from '@webpush/shared/db.js';
import type { CampaignContent } from '@webpush/contracts/campaign-content.js';
import type { Urgency } from '@webpush/contracts/urgency.js';
import type { NotificationTemplate } from '../templates/index.js';

export interface NotificationRow {
  id: string;
  siteId: string;
  content: CampaignContent;
  ttl: number;
  urgency: Urgency;
  transactional: boolean;
  /** The subscriptions named, or [] when it names people. */
  subscriptionIds: string[];
  /** The people named (external ids), or [] when it names subscriptions. */
  externalIds: string[];
  /** The template it was made from, frozen at create; null: inline content. */
  template: NotificationTemplate | null;
  /** At each target's best hour of a window of this many hours; null: at once. */
  sendTime: NotificationBestTime | null;
  /** Held by the site's quiet hours in each target's zone. */
  respectQuietHours: boolean;
  /** Reported by the browsers, as the delivery service counted them (stats/). */
  impressions: number;
  clicks: number;
  createdAt: Date;
  /** Microsecond text of created_at: the list's keyset. */
  sortKey: string;
}

const COLUMNS = `id, site_id, content, ttl, urgency, transactional, subscription_ids::text[] AS subscription_ids, external_ids, template, send_time, respect_quiet_hours,
  impressions::text, clicks::text, created_at, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS sort_key`;

function toRow(r: Record<string, any>): NotificationRow {
  return {
    id: r.id,
    siteId: r.site_id,
    content: r.content,
    ttl: r.ttl,
    urgency: r.urgency,
    transactional: r.transactional,
    subscriptionIds: r.subscription_ids,
    externalIds: r.external_ids,
    template: r.template,
    sendTime: r.send_time,
    respectQuietHours: r.respect_quiet_hours,
    impressions: Number(r.impressions),
    clicks: Number(r.clicks),
    createdAt: r.created_at,
    sortKey: r.sort_key,
  };
}

export async function insertNotification(db: Queryable, n: Omit<NotificationRow, 'impressions' | 'clicks' | 'createdAt' | 'sortKey'>): Promise<void> {
  await db.query(
    `INSERT INTO campaign.notifications (id, site_id, content, ttl, urgency, transactional, subscription_ids, external_ids, template, send_time, respect_quiet_hours)
     VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7::uuid[], $8::text[], $9::jsonb, $10::jsonb, $11)`,
    [
      n.id,
      n.siteId,
      JSON.stringify(n.content),
      n.ttl,
      n.urgency,
      n.transactional,
      n.subscriptionIds,
      n.externalIds,
      n.template === null ? null : JSON.stringify(n.template),
      n.sendTime === null ? null : JSON.stringify(n.sendTime),
      n.respectQuietHours,
    ],
  );
}

export async function findNotification(db: Queryable, siteId: string, id: string): Promise<NotificationRow | null> {
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM campaign.notifications WHERE id = $1 AND site_id = $2`, [id, siteId]);
  return rows[0] ? toRow(rows[0]) : null;
}

/** Up to `limit` of the site's notifications after `after` (newest first). */
export async function listNotifications(db: Queryable, siteId: string, limit: number, after: { sortKey: string; id: string } | null): Promise<NotificationRow[]> {
  const { rows } = await db.query(
    `SELECT ${COLUMNS} FROM campaign.notifications
      WHERE site_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::uuid))
      ORDER BY created_at DESC, id DESC LIMIT $4`,
    [siteId, after?.sortKey ?? null, after?.id ?? null, limit],
  );
  return rows.map(toRow);
}
