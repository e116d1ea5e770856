// The API's page (docs/spec/web-push-campaign-api.md, the list's answer): the items, then the
// page facts a service sends as common.v1.Page (packages/contracts/protos/common/v1/page.proto),
// in the spec's order. Every answer that pages is written by pageJson.
import type { Page__Output } from './generated/common/v1/Page.js';

/** A page as the API answers it. */
export interface ApiPage<T> {
  items: T[];
  limit: number;
  hasMore: boolean;
  /** null when hasMore is false. */
  nextCursor: string | null;
}

/**
 * The ApiPage's JSON text, `{"items":[…],"limit":…,"hasMore":…,"nextCursor":…|null}`, from each
 * item's JSON text (items are written without parsing or re-serialising them: a list page is the
 * hot path). An unset or empty cursor is null: the spec's cursors are never empty.
 */
export function pageJson(itemsJson: readonly string[], page: Page__Output): string {
  return `{"items":[${itemsJson.join(',')}],"limit":${JSON.stringify(page.limit)},"hasMore":${JSON.stringify(page.hasMore)},"nextCursor":${JSON.stringify(page.nextCursor || null)}}`;
}
