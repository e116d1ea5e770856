// The templates' SQL (campaign.templates). Every statement names the site: a template of another
// site is not there.
import type { Queryable } from '@webpush/shared/db.js';
import type { TemplateContent } from './template-input.js';

export interface TemplateRow {
  id: string;
  name: string;
  version: number;
  content: TemplateContent;
  createdAt: Date;
  updatedAt: Date;
  /** The list's position: created_at as microsecond text (templates' cursors). */
  sortKey: string;
}

const COLUMNS = `id, name, version, content, created_at, updated_at,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS sort_key`;

const rowOf = (r: Record<string, unknown>): TemplateRow => ({
  id: r.id as string,
  name: r.name as string,
  version: r.version as number,
  content: r.content as TemplateContent,
  createdAt: r.created_at as Date,
  updatedAt: r.updated_at as Date,
  sortKey: r.sort_key as string,
});

/** The new template, or null when the site has one of that name. */
export async function insertTemplate(db: Queryable, siteId: string, name: string, content: TemplateContent): Promise<TemplateRow | null> {
  const { rows } = await db.query(
    `INSERT INTO campaign.templates (site_id, name, content) VALUES ($1, $2, $3::jsonb)
     ON CONFLICT (site_id, name) DO NOTHING RETURNING ${COLUMNS}`,
    [siteId, name, JSON.stringify(content)],
  );
  return rows[0] ? rowOf(rows[0]) : null;
}

/** `lock`: held until the transaction ends (an update reads, merges and writes one version). */
export async function templateById(db: Queryable, siteId: string, id: string, lock = false): Promise<TemplateRow | null> {
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM campaign.templates WHERE id = $1 AND site_id = $2${lock ? ' FOR UPDATE' : ''}`, [id, siteId]);
  return rows[0] ? rowOf(rows[0]) : null;
}

/** The next version of the template; 'taken' when another template of the site has the name. */
export async function updateTemplate(db: Queryable, siteId: string, id: string, name: string, content: TemplateContent): Promise<TemplateRow | 'taken'> {
  const { rows } = await db.query(
    `UPDATE campaign.templates t SET name = $3, content = $4::jsonb, version = t.version + 1, updated_at = now()
      WHERE t.id = $1 AND t.site_id = $2
        AND NOT EXISTS (SELECT 1 FROM campaign.templates o WHERE o.site_id = $2 AND o.name = $3 AND o.id <> $1)
     RETURNING ${COLUMNS}`,
    [id, siteId, name, JSON.stringify(content)],
  );
  return rows[0] ? rowOf(rows[0]) : 'taken';
}

export async function deleteTemplate(db: Queryable, siteId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query(`DELETE FROM campaign.templates WHERE id = $1 AND site_id = $2`, [id, siteId]);
  return rowCount === 1;
}

/** Up to `limit` + 1 templates, newest first, after `after` (the previous page's last). */
export async function listTemplates(db: Queryable, siteId: string, limit: number, after: { sortKey: string; id: string } | null): Promise<TemplateRow[]> {
  const { rows } = await db.query(
    `SELECT ${COLUMNS} FROM campaign.templates
      WHERE site_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::uuid))
      ORDER BY created_at DESC, id DESC LIMIT $4`,
    [siteId, after?.sortKey ?? null, after?.id ?? null, limit + 1],
  );
  return rows.map(rowOf);
}
