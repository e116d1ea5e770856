// ExportCampaigns: the campaigns the list's filters select — all of them, not a page (limit and
// cursor are ignored) — newest first, as NDJSON (each line the list's Campaign object) or CSV
// (one row per campaign with its counts, from the same Campaign message), read by keyset in pages
// so memory does not grow with the site's history. Validation happens before the first chunk, with the list's messages.
import { csvCell } from '@webpush/shared/csv.js';
import type { Pool } from '@webpush/shared/db.js';
import { campaignJson, percentJson, type Campaign } from '@webpush/contracts/campaign-json.js';
import { listCampaigns } from './campaigns-store.js';
import { UnauthenticatedError, ValidationError } from '../base/errors.js';
import { isUuid } from '../base/ids.js';
import { validateListInput } from './list-input.js';
import { MESSAGES } from '../base/texts.js';
import { parseObjectBody } from '../base/request-body.js';

/** Campaigns read and encoded together. */
export const EXPORT_PAGE_CAMPAIGNS = 500;

export const CAMPAIGN_EXPORT_COLUMNS = [
  'id', 'title', 'status', 'scheduleMode', 'createdAt', 'scheduleDate', 'totalUsers',
  'impressions', 'clicks', 'ctr', 'its', 'sent', 'failed', 'expired', 'pending', 'capped',
] as const;

/** A cell of a number or a text (shared/csv.ts); ctr and its as the JSON shows them. */
function cell(value: string | number): string {
  return typeof value === 'number' ? String(value) : csvCell(value);
}

/** `capped` is 0 where the campaign object leaves it out. */
function csvRow(c: Campaign): string {
  const a = c.analytics!;
  const d = c.delivery!;
  const cells = [
    c.id, c.title, c.status, c.scheduleMode, c.createdAt, c.scheduleDate, c.totalUsers, a.impressions, a.clicks,
  ].map(cell);
  cells.push(percentJson(a.clicks, a.impressions), percentJson(a.impressions, c.totalUsers));
  cells.push(...[d.sent, d.failed, d.expired, d.pending, d.capped].map(cell));
  return cells.join(',') + '\r\n';
}

/** `pageSize`: campaigns per page (tests make it small); default EXPORT_PAGE_CAMPAIGNS. */
export function exportCampaignsUseCase(deps: { pool: Pool; pageSize?: number }) {
  const pageSize = deps.pageSize ?? EXPORT_PAGE_CAMPAIGNS;
  /** Validates at once (throws before the first chunk is asked for), then yields the chunks. */
  return function exportCampaigns(siteId: string, bodyJson: string, format: string): AsyncIterable<Buffer> {
    if (!isUuid(siteId)) throw new UnauthenticatedError();
    const messages: string[] = [];
    const csv = format === 'csv';
    if (!(format === '' || format === 'ndjson' || csv)) messages.push(MESSAGES.exportFormat);
    let input: ReturnType<typeof validateListInput> | undefined;
    try {
      input = validateListInput(parseObjectBody(bodyJson, true));
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      messages.push(...err.messages);
    }
    if (messages.length > 0 || !input) throw new ValidationError(messages);
    const filters = input;
    return (async function* () {
      if (csv) yield Buffer.from(CAMPAIGN_EXPORT_COLUMNS.join(',') + '\r\n');
      let after: { sortKey: string; id: string } | null = null;
      // Bounded: each page moves the keyset past at least one campaign, or ends.
      for (;;) {
        const rows = await listCampaigns(deps.pool, {
          siteId,
          dateField: filters.dateField,
          startDate: filters.startDate,
          endDate: filters.endDate,
          statuses: filters.statuses,
          after,
          fetch: pageSize,
        });
        if (rows.length === 0) return;
        yield Buffer.from(rows.map((r) => (csv ? csvRow(r.campaign) : campaignJson(r.campaign) + '\n')).join(''));
        if (rows.length < pageSize) return;
        const last = rows[rows.length - 1];
        after = { sortKey: last.sortKey, id: last.id };
      }
    })();
  };
}
