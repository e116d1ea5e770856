// The packages' layering (docs/architecture.md, "Packages"), read from every import in the tree:
// contracts ← shared ← push ← everything else. A package's sources import only the packages to
// its left, by name, and stay inside their own package otherwise; nothing outside a package
// reaches into its sources by a relative path.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ROOT } from '../../scripts/lib/local-env.js';

/** Each package may import those before it, never one after it. */
const LAYERS = ['contracts', 'shared', 'push'];
const SCANNED = ['packages', 'services', 'gateway', 'scripts', 'tools', 'test', 'bench', 'console'];
const CODE = /\.(ts|tsx|mts|js|mjs)$/;
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+|\brequire\s*\(\s*)(['"])([^'"\n]+)\1/gm;

function walk(dir: string): string[] {
  if (!existsSync(path.join(ROOT, dir))) return [];
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return ['node_modules', 'dist', 'generated', 'clients'].includes(e.name) && rel !== 'packages/contracts/src/generated' ? [] : walk(rel);
    return CODE.test(e.name) ? [rel] : [];
  });
}

/** The package folder a repository path is in (packages/<name>), or null. */
const packageOf = (rel: string) => /^packages\/([^/]+)\//.exec(rel)?.[1] ?? null;

describe('the packages (npm workspaces, docs/architecture.md "Packages")', () => {
  const files = SCANNED.flatMap(walk);
  const imports = files.flatMap((file) => [...readFileSync(path.join(ROOT, file), 'utf8').matchAll(SPECIFIER)].map((m) => ({ file, spec: m[2] })));

  it('are the layers, each a workspace named @webpush/<folder>', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { workspaces?: string[] };
    expect(pkg.workspaces).to.deep.equal(['packages/*']);
    const folders = readdirSync(path.join(ROOT, 'packages')).filter((p) => existsSync(path.join(ROOT, 'packages', p, 'package.json')));
    expect(folders.sort()).to.deep.equal([...LAYERS].sort());
    for (const p of folders) {
      const manifest = JSON.parse(readFileSync(path.join(ROOT, 'packages', p, 'package.json'), 'utf8'));
      expect(manifest, p).to.include({ name: `@webpush/${p}`, private: true, type: 'module' });
      expect(manifest.exports, p).to.deep.equal({ './*': './src/*' });
    }
  });

  it('import only the packages before them, by name, and nothing outside themselves otherwise', () => {
    const wrong: string[] = [];
    for (const { file, spec } of imports) {
      const own = packageOf(file);
      if (!own || !file.startsWith(`packages/${own}/src/`)) continue;
      if (spec.startsWith('@webpush/')) {
        const other = spec.split('/')[1];
        if (!(LAYERS.indexOf(other) >= 0 && LAYERS.indexOf(other) < LAYERS.indexOf(own))) wrong.push(`${file} imports ${spec}`);
      } else if (spec.startsWith('.')) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
        if (!target.startsWith(`packages/${own}/`)) wrong.push(`${file} imports ${spec}, outside its package`);
      }
    }
    expect(wrong).to.deep.equal([]);
  });

  it("are imported by name from everywhere else: no relative path into a package's sources from outside it", () => {
    const wrong: string[] = [];
    let byName = 0;
    for (const { file, spec } of imports) {
      if (spec.startsWith('@webpush/')) {
        byName++;
        expect(LAYERS, `${file} imports ${spec}`).to.include(spec.split('/')[1]);
      }
      if (!spec.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      const into = packageOf(target);
      // (A package's test support, such as the push tests' TLS certificate, is shared as files.)
      if (into && into !== packageOf(file) && target.startsWith(`packages/${into}/src/`)) wrong.push(`${file} imports ${spec}`);
    }
    expect(wrong).to.deep.equal([]);
    // The check has teeth: the services, gateway, scripts and tests do import the packages.
    expect(byName).to.be.greaterThan(100);
  });
});
