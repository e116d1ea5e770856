// docs/architecture.md stays true: every module folder of the three services and every package
// is described there, and every file or folder it names exists.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ROOT } from '../../scripts/lib/local-env.js';

const DOC = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
const PACKAGES = readdirSync(path.join(ROOT, 'packages')).filter((p) => existsSync(path.join(ROOT, 'packages', p, 'package.json')));
const SOURCE_ROOTS = ['gateway/src', 'services/campaign/src', 'services/delivery/src', ...PACKAGES.map((p) => `packages/${p}/src`).filter((d) => existsSync(path.join(ROOT, d)))];

/** Every file and folder under a source root, relative to it (folders with a trailing slash). */
function entries(root: string, dir = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(ROOT, root, dir))) {
    const rel = dir ? `${dir}/${name}` : name;
    if (statSync(path.join(ROOT, root, rel)).isDirectory()) out.push(`${rel}/`, ...entries(root, rel));
    else out.push(rel);
  }
  return out;
}

describe('docs/architecture.md', () => {
  it('describes every module folder of each service', () => {
    for (const root of SOURCE_ROOTS.slice(0, 3)) {
      const folders = readdirSync(path.join(ROOT, root)).filter((n) => statSync(path.join(ROOT, root, n)).isDirectory());
      for (const folder of folders) expect(DOC, `${root}/${folder}/ is not described`).to.include(`\`${folder}/\``);
    }
  });

  it('describes every package', () => {
    expect(PACKAGES.length).to.be.at.least(3);
    for (const p of PACKAGES) expect(DOC, `packages/${p}/ is not described`).to.include(`\`packages/${p}/\``);
  });

  it('names only files and folders that exist', () => {
    const known = new Set(SOURCE_ROOTS.flatMap((root) => [...entries(root), ...entries(root).map((e) => `${root}/${e}`), `${root}/`]));
    const named = [...DOC.matchAll(/`([\w./-]+(?:\.ts|\.js|\/))`/g)].map((m) => m[1]);
    expect(named.length).to.be.greaterThan(20);
    for (const name of named) {
      const exists = known.has(name) || [...known].some((k) => k.endsWith(`/${name}`)) || existsSync(path.join(ROOT, name));
      expect(exists, `docs/architecture.md names ${name}, which is not in the tree`).to.equal(true);
    }
  });
});
