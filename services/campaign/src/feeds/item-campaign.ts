// The create body of an item's campaign (docs/api-decisions.md, "Feeds"): the feed's campaign
// fields, the item's title, body, link and image, sent now. With a template, the item's fields
// are its variables instead (title, body, link, image, feed_title; the feed's own fixed
// variables under them), and the template decides the content.
import type { FeedSettings } from './feed-input.js';

export interface ItemFields {
  title: string;
  body: string;
  link: string;
  image: string | null;
  feedTitle: string | null;
}

export function itemCreateBody(settings: FeedSettings, item: ItemFields): Record<string, unknown> {
  const { template, ...rest } = settings;
  const sending = { status: 'published', scheduleMode: 'now' };
  if (template === undefined) return { ...rest, title: item.title, body: item.body, link: item.link, image: item.image, ...sending };
  const ref = template as { id: unknown; variables?: unknown };
  const own = { title: item.title, body: item.body, link: item.link, image: item.image ?? '', feed_title: item.feedTitle ?? '' };
  const fixed = ref.variables ?? {};
  // Fixed variables that are not an object go to the template as they are, which refuses them.
  const variables = typeof fixed === 'object' && fixed !== null && !Array.isArray(fixed) ? { ...fixed, ...own } : fixed;
  return { ...rest, template: { id: ref.id, variables }, ...sending };
}
