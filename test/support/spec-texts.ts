// The `message` texts the API contract states, word for word, for the catalogue tests
// (gateway/src/texts.ts, services/campaign/src/base/texts.ts), checked against this list
// and against the contract itself, docs/spec/web-push-campaign-api.md (the repository's copy).
import { readdirSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SPEC_FILE = path.join(REPO_ROOT, 'docs/spec/web-push-campaign-api.md');

/** Placeholders as the spec writes them: `<UTC date-time>`, `<values>`. */
export const SPEC_MESSAGE_TEXTS: readonly string[] = Object.freeze([
  // Authentication
  'Not authorized',
  'This plan does not have permission to create campaigns with API',
  'This plan does not have permission to access campaign reports via API',
  'This plan does not have permission to delete campaigns via API',
  'Campaign not found',
  'Invalid pagination cursor',
  // Errors: general 500 messages
  'Error creating campaign',
  'Internal server error',
  // 400 messages on create
  'Title is required',
  'Title must be between 3 and 100 characters',
  'Body is required',
  'Body must be between 3 and 300 characters',
  'Link is required',
  'At least one topic or country must be specified',
  'Call to action must not exceed 20 characters',
  'Icon must be a valid URL',
  'Image must be a valid URL',
  'Invalid campaign status',
  'Invalid schedule mode',
  'Schedule date is required for schedule mode',
  'Invalid schedule date format. Use ISO format (e.g. <UTC date-time>)',
  'TTL must be between 0 and 28 days in seconds',
  // 400 messages on list, get and delete
  'limit must be a positive number',
  'Invalid startDate format. Use ISO format (e.g. <UTC date-time>)',
  'Invalid endDate format. Use ISO format (e.g. <UTC date-time>)',
  'startDate must be less than or equal to endDate',
  'dateField must be createdAt or scheduleDate',
  'Invalid status values: <values>. Allowed: draft, scheduled, sent, failed',
  'cursor must be a non-empty string',
  'campaignId is required',
  'Invalid JSON body',
  // Other errors
  'Cannot delete a campaign that has already been sent',
]);

/** The contract's text. */
export function specDocument(): string {
  return readFileSync(SPEC_FILE, 'utf8');
}

/**
 * True when the document states `message` word for word: as one `code span`, or as two on one
 * line joined by a space (the plan refusals: "begins `…` and ends with … `…`").
 */
export function statedIn(document: string, message: string): boolean {
  for (const line of document.split('\n')) {
    const spans = [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    if (spans.includes(message)) return true;
    if (spans.some((head) => spans.some((tail) => `${head} ${tail}` === message))) return true;
  }
  return false;
}

/** Every .ts file under `dir` (relative to the repository root), as [relative path, text]. */
export function sourceFiles(dir: string): [string, string][] {
  const out: [string, string][] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(path.join(REPO_ROOT, rel), { withFileTypes: true })) {
      const child = path.join(rel, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.name.endsWith('.ts')) out.push([child, readFileSync(path.join(REPO_ROOT, child), 'utf8')]);
    }
  };
  walk(dir);
  return out;
}

export interface Catalogue {
  /** Repository-relative path of the catalogue file. */
  file: string;
  /** Repository-relative folder whose sources must not spell a contract text outside the catalogue. */
  sources: string;
  spec: Readonly<Record<string, string>>;
  own: Readonly<Record<string, string>>;
  all: Readonly<Record<string, string>>;
}

/**
 * The checks every boundary's catalogue passes: its SPEC texts are the contract's word for word,
 * its OWN texts are not the contract's, and no source file outside it spells a contract text.
 */
export function itChecksTheCatalogue(c: Catalogue): void {
  it('every SPEC text is one the contract states, word for word', () => {
    expect(Object.values(c.spec).filter((m) => !SPEC_MESSAGE_TEXTS.includes(m))).to.deep.equal([]);
  });

  it('every SPEC text appears in the contract (docs/spec/) word for word', () => {
    const document = specDocument();
    expect(Object.values(c.spec).filter((m) => !statedIn(document, m))).to.deep.equal([]);
  });

  it("no OWN text is one of the contract's (it would belong with SPEC)", () => {
    expect(Object.values(c.own).filter((m) => SPEC_MESSAGE_TEXTS.includes(m))).to.deep.equal([]);
  });

  it('the catalogue is SPEC and OWN, with no name in both', () => {
    const spec = Object.keys(c.spec);
    const own = Object.keys(c.own);
    expect(spec.filter((k) => own.includes(k))).to.deep.equal([]);
    expect(Object.keys(c.all).sort()).to.deep.equal([...spec, ...own].sort());
  });

  it('no source file outside the catalogue spells a contract text itself', () => {
    const found = sourceFiles(c.sources)
      .filter(([file]) => file !== c.file)
      .flatMap(([file, text]) => SPEC_MESSAGE_TEXTS.filter((m) => text.includes(`'${m}'`) || text.includes(`\`${m}\``)).map((m) => `${file}: ${m}`));
    expect(found).to.deep.equal([]);
  });
}
