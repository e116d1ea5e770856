// A fetched feed read into items, and an item into the content fields of its campaign
// (docs/api-decisions.md, "Feeds").
//
// The parser is @rowanmanning/feed-parser: RSS (0.9x, 1.0, 2.0) and Atom read into one shape —
// an item's id (RSS guid, Atom id), link (resolved against the feed's), title, description or
// content, and image (RSS image, itunes:image, enclosure and media:content / media:thumbnail) —
// so this file has one path, not one per format; it is maintained, typed, tested against a corpus
// of real feeds, has no install scripts, and its only dependencies are fast-xml-parser (pure
// JavaScript, no DTD loading, no network) and html-entities. feedsmith reads more formats but
// answers each in its own shape; fast-xml-parser alone would leave RSS and Atom's differences here.
//
// Hostile input: the text is at most FEED_MAX_BYTES (the fetch's limit). A document that declares
// entities is refused before parsing: RSS and Atom need none, and the parser expands internal
// entities without a bound (it is built with maxTotalExpansions: Infinity), a "billion laughs"
// within a megabyte. Items read are bounded (MAX_ITEMS_READ) and so are the texts kept of them.
import { parseFeed } from '@rowanmanning/feed-parser';

/** Items of one fetch considered, first in the document first (feeds put the newest first). */
const MAX_ITEMS_READ = 200;
/** An item key longer than this is not a key anyone meant (it is hashed either way). */
const MAX_KEY_LENGTH = 2048;
const MAX_URL_LENGTH = 2048;
/** Texts are cut here before any work on them: the campaign keeps at most 100 and 300 characters. */
const MAX_TEXT_READ = 20_000;
const TITLE_MAX = 100;
const BODY_MAX = 300;
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

export interface FeedItem {
  /** guid / Atom id, else the link: what makes an item the same item in the next fetch. */
  key: string;
  /** The campaign's content fields made from the item (the create's rules judge them after). */
  title: string;
  body: string;
  link: string;
  image: string | null;
  /** For the order in which a poll's new items are sent; null when the item has none. */
  published: Date | null;
}

export interface ParsedFeed {
  title: string | null;
  /** In the document's order. */
  items: FeedItem[];
}

/** The document is not a feed we read; the message goes to the feed's lastError. */
export class FeedFormatError extends Error {}

export function parseFeedText(text: string): ParsedFeed {
  if (/<!ENTITY/i.test(text)) throw new FeedFormatError('not read: the document declares XML entities');
  let feed: ReturnType<typeof parseFeed>;
  try {
    feed = parseFeed(text);
  } catch (err) {
    throw new FeedFormatError(`not an RSS or Atom feed (${err instanceof Error ? err.message : String(err)})`);
  }
  const feedTitle = plainText(feed.title ?? '') || null;
  const items: FeedItem[] = [];
  for (const item of feed.items.slice(0, MAX_ITEMS_READ)) {
    const link = httpUrl(item.url);
    const key = (item.id ?? '').trim() || link;
    if (!key || key.length > MAX_KEY_LENGTH) continue;
    const title = cut(plainText(item.title ?? ''), TITLE_MAX) || cut(feedTitle ?? '', TITLE_MAX);
    const body = cut(plainText(item.description ?? '') || plainText(item.content ?? ''), BODY_MAX) || cut(feedTitle ?? '', BODY_MAX) || title;
    const image = httpsUrl(item.image?.url) ?? httpsUrl(item.mediaImages[0]?.url) ?? httpsUrl(item.media.find((m) => m.image)?.image);
    items.push({ key, title, body, link: link ?? '', image, published: item.published ?? item.updated ?? null });
  }
  return { title: feedTitle, items };
}

function httpUrl(raw: string | null | undefined): string | null {
  if (!raw || raw.length > MAX_URL_LENGTH) return null;
  const url = URL.parse(raw.trim());
  return url && (url.protocol === 'https:' || url.protocol === 'http:') ? url.href : null;
}

/** A notification's image is fetched by the browser from a page served over https: only https. */
function httpsUrl(raw: string | null | undefined): string | null {
  const url = httpUrl(raw);
  return url?.startsWith('https:') ? url : null;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/**
 * An item's HTML (RSS descriptions and Atom summaries often are) as one line of text: scripts,
 * styles and tags dropped, the common entities and numeric references decoded (the XML layer has
 * decoded the document's own), whitespace collapsed.
 */
export function plainText(html: string): string {
  return html
    .slice(0, MAX_TEXT_READ)
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,5});/gi, (whole, name: string) => {
      if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      // Not a character, a surrogate or a control character: dropped.
      return code > 0x1f && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) && code !== 0x7f ? String.fromCodePoint(code) : ' ';
    })
    .replace(/[\u0000-\u001f\u007f\s]+/g, ' ')
    .toWellFormed()
    .trim();
}

/** At most `max` characters (graphemes, as the create counts them), cut at a word and ended with "…" when cut. */
export function cut(text: string, max: number): string {
  const graphemes = Array.from(segmenter.segment(text), (s) => s.segment);
  if (graphemes.length <= max) return text;
  const head = graphemes.slice(0, max - 1).join('');
  const atWord = head.replace(/\s+\S*$/, '');
  return `${(atWord.length >= head.length / 2 ? atWord : head).trimEnd()}…`;
}
