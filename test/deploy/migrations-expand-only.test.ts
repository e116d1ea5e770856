// The upgrade promise's static half (docs/operations.md, "Upgrading"): a migration added since
// the previous release (deploy/previous-release) only expands the schema, so that release keeps
// running on a database this one migrated. Destructive statements need a contract release and a
// `-- contract: <why the previous release no longer reads it>` line in the file. The dynamic half
// is test/upgrade/rolling-upgrade.test.ts.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../../scripts/lib/local-env.js';

const run = promisify(execFile);

/** What the previous release could not survive, each with why. */
const DESTRUCTIVE: [RegExp, string][] = [
  [/\bDROP\s+(TABLE|COLUMN|SCHEMA|TYPE|VIEW|FUNCTION)\b/i, 'drops something'],
  [/\bRENAME\b/i, 'renames something'],
  [/\bALTER\s+COLUMN\s+\S+\s+(SET\s+DATA\s+)?TYPE\b/i, "changes a column's type"],
  [/\bALTER\s+COLUMN\s+\S+\s+SET\s+NOT\s+NULL\b/i, 'makes a column required'],
  [/\bADD\s+COLUMN\b(?:(?!,\s*ADD\b)[^;])*\bNOT\s+NULL\b(?!(?:(?!,\s*ADD\b)[^;])*\bDEFAULT\b)/i, 'adds a required column without a default'],
];

function destructiveReasons(sql: string): string[] {
  if (/^\s*--\s*contract:/im.test(sql)) return [];
  const code = sql.replace(/--[^\n]*/g, '');
  return DESTRUCTIVE.filter(([pattern]) => pattern.test(code)).map(([, why]) => why);
}

async function previousRelease(): Promise<string> {
  const text = await readFile(path.join(ROOT, 'deploy/previous-release'), 'utf8');
  return text.split('\n').find((l) => l.trim() !== '' && !l.startsWith('#'))!.trim();
}

describe('deploy: migrations since the previous release only expand the schema', () => {
  it('the rule tells expanding statements from destructive ones', () => {
    expect(destructiveReasons('ALTER TABLE t ADD COLUMN c text;')).to.deep.equal([]);
    expect(destructiveReasons("ALTER TABLE t ADD COLUMN c text NOT NULL DEFAULT '';")).to.deep.equal([]);
    expect(destructiveReasons('CREATE INDEX i ON t (c); ALTER TABLE t SET (fillfactor = 50);')).to.deep.equal([]);
    expect(destructiveReasons('ALTER TABLE t DROP COLUMN c;')).to.deep.equal(['drops something']);
    expect(destructiveReasons('ALTER TABLE t RENAME COLUMN a TO b;')).to.deep.equal(['renames something']);
    expect(destructiveReasons('ALTER TABLE t ALTER COLUMN c TYPE bigint;')).to.deep.equal(["changes a column's type"]);
    expect(destructiveReasons('ALTER TABLE t ALTER COLUMN c SET NOT NULL;')).to.deep.equal(['makes a column required']);
    expect(destructiveReasons('ALTER TABLE t ADD COLUMN c text NOT NULL;')).to.deep.equal(['adds a required column without a default']);
    expect(destructiveReasons('-- contract: nothing reads c since 2026-12\nALTER TABLE t DROP COLUMN c;')).to.deep.equal([]);
    expect(destructiveReasons('-- DROP TABLE t would be wrong here\nSELECT 1;')).to.deep.equal([]);
  });

  it('every migration file added since deploy/previous-release passes it', async () => {
    const rev = await previousRelease();
    let before: Set<string>;
    try {
      const { stdout } = await run('git', ['-C', ROOT, 'ls-tree', '-r', '--name-only', rev, '--', 'services']);
      before = new Set(stdout.split('\n').filter(Boolean));
    } catch {
      throw new Error(`commit ${rev} (deploy/previous-release) is not in this clone's history: clone with full history`);
    }
    const added: string[] = [];
    for (const service of await readdir(path.join(ROOT, 'services'))) {
      const dir = path.join('services', service, 'migrations');
      const files = await readdir(path.join(ROOT, dir)).catch(() => [] as string[]);
      for (const f of files) if (f.endsWith('.sql') && !before.has(`${dir}/${f}`)) added.push(`${dir}/${f}`);
    }
    const problems: string[] = [];
    for (const file of added) {
      for (const why of destructiveReasons(await readFile(path.join(ROOT, file), 'utf8'))) problems.push(`${file} ${why}`);
    }
    expect(problems, 'split it into an expand release and a contract release (docs/operations.md)').to.deep.equal([]);
  });
});
