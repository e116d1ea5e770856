// The revisions' SQL (campaign.campaign_revisions): the campaign a revision is made of, locked,
// with its last revision; a new revision. Always in the caller's transaction.
import type { Queryable } from '@webpush/shared/db.js';
import type { CampaignContent } from '@webpush/contracts/campaign-content.js';
import type { RevisionAction } from '@webpush/contracts/messages.js';
import { CONTENT_COLUMN_LIST, contentOfRow } from '../base/content-columns.js';

export interface RevisedCampaign {
  /** Handed to the delivery service (a draft, or scheduled and not due yet: false). */
  dispatched: boolean;
  /** Its run completed or failed, as the delivery service's stats said. */
  finished: boolean;
  /** What its notification shows now: the last revision's content when that is an update, else the campaign's. */
  content: CampaignContent;
  last: { revision: number; action: RevisionAction; at: Date } | null;
}

/**
 * The site's campaign `campaignId`, locked until the transaction ends (so that two revisions at
 * once are numbered one after the other), or null.
 */
export async function lockRevisedCampaign(tx: Queryable, siteId: string, campaignId: string): Promise<RevisedCampaign | null> {
  const { rows } = await tx.query(
    `SELECT c.dispatched_at IS NOT NULL AS dispatched, coalesce(s.delivery_finished, false) AS finished,
            ${CONTENT_COLUMN_LIST.map((col) => `c.${col}`).join(', ')},
            r.revision, r.action, r.content AS revised_content, r.created_at AS revised_at
       FROM campaign.campaigns c
       LEFT JOIN campaign.campaign_stats s ON s.campaign_id = c.id
       LEFT JOIN LATERAL (SELECT revision, action, content, created_at FROM campaign.campaign_revisions
                           WHERE campaign_id = c.id ORDER BY revision DESC LIMIT 1) r ON true
      WHERE c.id = $1 AND c.site_id = $2
      FOR UPDATE OF c`,
    [campaignId, siteId],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    dispatched: r.dispatched,
    finished: r.finished,
    // After a recall nothing can be updated, so only an update's content can be the last one.
    content: r.action === 'update' ? r.revised_content : contentOfRow(r),
    last: r.revision === null ? null : { revision: r.revision, action: r.action, at: r.revised_at },
  };
}

export async function insertRevision(
  tx: Queryable,
  campaignId: string,
  revision: number,
  action: RevisionAction,
  content: CampaignContent | null,
): Promise<{ id: string; at: Date }> {
  const { rows } = await tx.query(
    `INSERT INTO campaign.campaign_revisions (campaign_id, revision, action, content) VALUES ($1, $2, $3, $4::jsonb) RETURNING id, created_at`,
    [campaignId, revision, action, content === null ? null : JSON.stringify(content)],
  );
  return { id: rows[0].id, at: rows[0].created_at };
}
