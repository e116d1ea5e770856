// The project stands alone and its pointers lead somewhere: every relative Markdown link in the
// docs resolves to a file inside the repository (the API contract is docs/spec/, not a folder
// beside the checkout), and every "see <file>, "<section>"" in the operator-facing files (.env
// examples, compose, manifests, Dockerfiles) names a section that exists. A section renamed or a
// file moved would otherwise leave an operator reading `README "Key rotation"` for nothing.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ROOT } from '../../scripts/lib/local-env.js';

const walk = (dir: string, keep: (f: string) => boolean): string[] =>
  readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : walk(rel, keep);
    return keep(e.name) ? [rel] : [];
  });

const headings = (file: string) =>
  readFileSync(path.join(ROOT, file), 'utf8')
    .split('\n')
    .map((l) => /^#{1,6}\s+(.*?)\s*$/.exec(l)?.[1])
    .filter((h): h is string => h !== undefined);

const MARKDOWN = ['README.md', 'deploy/README.md', ...walk('docs', (f) => f.endsWith('.md'))];
const OPERATOR_FILES = ['.env.example', 'docker-compose.yml', ...walk('deploy', (f) => /\.(ya?ml|example|Dockerfile|md)$/.test(f))];

describe('references in the docs and deploy files', () => {
  it('every relative Markdown link resolves to a file inside the repository', () => {
    const broken: string[] = [];
    for (const file of MARKDOWN) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue;
        const resolved = path.resolve(ROOT, path.dirname(file), target.split('#')[0]);
        if (!resolved.startsWith(ROOT + path.sep) || !existsSync(resolved)) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).to.deep.equal([]);
  });

  it('links the API contract kept in the repository', () => {
    expect(readFileSync(path.join(ROOT, 'README.md'), 'utf8')).to.include('](docs/spec/web-push-campaign-api.md)');
    expect(readFileSync(path.join(ROOT, 'docs/spec/web-push-campaign-api.md'), 'utf8')).to.match(/^# /);
  });

  it('every `README "Section"` or `docs/<file>.md, "Section"` in the operator-facing files names a section that exists', () => {
    const broken: string[] = [];
    for (const file of [...OPERATOR_FILES, ...MARKDOWN]) {
      const text = readFileSync(path.join(ROOT, file), 'utf8').replace(/\n#?\s*/g, ' ');
      for (const [, doc, section] of text.matchAll(/(README|(?:deploy\/|docs\/)[\w./-]+\.md)(?:'s)?,? "([^"]+)"/g)) {
        const target = doc === 'README' ? 'README.md' : doc;
        if (!existsSync(path.join(ROOT, target))) broken.push(`${file}: ${doc} (no such file)`);
        // A section may be named by its whole heading or by the part before a colon.
        else if (!headings(target).some((h) => h === section || h.startsWith(`${section}:`))) broken.push(`${file}: ${doc} "${section}"`);
      }
    }
    expect(broken).to.deep.equal([]);
  });
});
