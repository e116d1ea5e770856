// Lengths count user-perceived characters: "👍🏽" and "👨‍👩‍👧" are one character each.
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
// Printable ASCII without combining marks: one code unit is one character, no segmenting needed.
const PLAIN_ASCII = /^[\x20-\x7e]*$/;

/**
 * The number of characters, counted up to `limit + 1` at most: segmenting stops there, so a
 * huge value costs no more than a value just over the limit.
 */
export function graphemeLength(text: string, limit = Infinity): number {
  if (PLAIN_ASCII.test(text)) return Math.min(text.length, limit + 1);
  let n = 0;
  for (const _ of segmenter.segment(text)) if (++n > limit) break;
  return n;
}
