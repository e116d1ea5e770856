// Lengths count user-perceived characters: "👍🏽" and "👨‍👩‍👧" are one character each.
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
// Printable ASCII without combining marks: one code unit is one character, no segmenting needed.
const PLAIN_ASCII = /^[\x20-\x7e]*$/;

export function graphemeLength(text: string): number {
  if (PLAIN_ASCII.test(text)) return text.length;
  let n = 0;
  for (const _ of segmenter.segment(text)) n++;
  return n;
}
