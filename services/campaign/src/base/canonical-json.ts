// A stable text for a parsed JSON value: object keys sorted, no whitespace. Two bodies that
// differ only in key order or spacing hash the same.
import { createHash } from 'node:crypto';

/** Text written as it is (punctuation, a key and its colon), as opposed to a value still to write. */
class Literal {
  constructor(readonly text: string) {}
}

/**
 * Written with a stack of its own rather than by recursion: a body may nest as deep as its 100 kB
 * allow (10,000 objects in an ignored field), which a recursive walk answered with a stack
 * overflow, a 500 on create.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const work: unknown[] = [value];
  while (work.length > 0) {
    const item = work.pop();
    if (item instanceof Literal) {
      out.push(item.text);
    } else if (Array.isArray(item)) {
      out.push('[');
      work.push(new Literal(']'));
      for (let i = item.length - 1; i >= 0; i--) {
        work.push(item[i]);
        if (i > 0) work.push(new Literal(','));
      }
    } else if (item !== null && typeof item === 'object') {
      const keys = Object.keys(item).sort();
      out.push('{');
      work.push(new Literal('}'));
      for (let i = keys.length - 1; i >= 0; i--) {
        work.push((item as Record<string, unknown>)[keys[i]]);
        work.push(new Literal(`${JSON.stringify(keys[i])}:`));
        if (i > 0) work.push(new Literal(','));
      }
    } else {
      out.push(JSON.stringify(item) ?? 'null');
    }
  }
  return out.join('');
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
