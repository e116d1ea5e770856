// The SQL of a site's opt-in prompts (optin-prompts.ts has their rules): one JSON column of
// delivery.sites (migrations/20261207020000_optin_prompts.sql), NULL until first set.
import type { Queryable } from '@webpush/shared/db.js';
import { DEFAULT_PROMPTS, type OptInPrompts } from './optin-prompts.js';

/** The site's prompts as set (the defaults when never set, or the site is unknown). */
export async function readOptInPrompts(db: Queryable, siteId: string): Promise<OptInPrompts> {
  const { rows } = await db.query('SELECT optin_prompts FROM delivery.sites WHERE site_id = $1', [siteId]);
  return (rows[0]?.optin_prompts as OptInPrompts | null | undefined) ?? DEFAULT_PROMPTS;
}

export async function writeOptInPrompts(db: Queryable, siteId: string, prompts: OptInPrompts): Promise<void> {
  await db.query('UPDATE delivery.sites SET optin_prompts = $2 WHERE site_id = $1', [siteId, JSON.stringify(prompts)]);
}
