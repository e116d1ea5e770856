// @ts-check
// `npm run build`: what runs in production, compiled to JavaScript in dist/ — the packages
// (packages/*/src), the gateway, the services, the stack launcher and operator CLI
// (scripts/stack.ts, scripts/cli.ts and what they import) and the push simulator (the tools image's
// demo). Then the files the code reads at run time beside itself are copied to the same places
// under dist/, the packages are linked by name (dist/node_modules/@webpush/*, PACKAGES_DIR), the
// console's pages are built by Vite (console/ → dist/gateway/console-pages/, served by the
// gateway at /console/), and outputs whose source is gone (moved or deleted) are removed.
//
//   node scripts/build.mjs [--out-dir DIR] [--clean] [--quiet]
//
// Incremental: TypeScript keeps dist/.tsbuildinfo and re-emits only what changed (about 3 s from
// scratch, under a second with nothing changed, on two cores). Outputs found missing (deleted by hand) trigger one
// full rebuild. Concurrent builds into one folder wait for each other (a lock in the folder).
// Plain JavaScript, so it runs before anything is compiled: in a fresh clone, and in the images'
// build stage. It needs the dev dependencies (TypeScript); the images' runtime stages do not.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TSCONFIG = path.join(ROOT, 'tsconfig.build.json');

/**
 * Files the compiled code reads at run time, found relative to its own location
 * (import.meta.url), so they must sit at the same relative place under dist/. Listed here, in
 * one place, with the reason. test/deploy/build.test.ts checks that every such read in the
 * compiled sources finds its file in a clean build.
 */
export const RUNTIME_FILES = [
  // services/campaign/src/app.ts: MIGRATIONS_DIR = ../migrations (applied at start and by `cli migrate`).
  { from: 'services/campaign/migrations', match: /\.sql$/ },
  // services/delivery/src/app.ts: MIGRATIONS_DIR = ../migrations.
  { from: 'services/delivery/migrations', match: /\.sql$/ },
  // packages/shared/src/grpc.ts: PROTO_DIR = the contracts' packages/contracts/protos/, loaded by @grpc/proto-loader at start.
  { from: 'packages/contracts/protos', match: /\.proto$/ },
  // Each package's package.json beside its compiled src/: its name, "type": "module" and the
  // exports map that turns `@webpush/<name>/x.js` into src/x.js (linkPackages).
  { from: 'packages', match: /^[^/]+\/package\.json$/ },
  // gateway/src/app.ts: CONTRACT_FILE = ../openapi/openapi.yaml, served at /v2/openapi.{json,yaml}
  // (only served: requests are checked by the routes and the services, not against this file).
  { from: 'gateway/openapi/openapi.yaml' },
];

/**
 * The folders tsc compiles (tsconfig.build.json's include). Inside them, everything TypeScript
 * does not compile is copied as it is: any non-code file, and every file under a folder named
 * `assets` — browser scripts served byte for byte (services/delivery/src/plugin/assets/*.js,
 * read by plugin/assets.ts), which tsconfig.build.json excludes from compilation.
 */
export const SOURCE_ROOTS = ['packages/*/src', 'gateway/src', 'services/*/src', 'tools/push-simulator/src'];

/**
 * The console's pages (console/: Vite, Preact, uPlot), built by Vite into CONSOLE_OUT under the
 * output folder: the gateway reads them from there (gateway/src/app.ts, CONSOLE_PAGES_DIR) and
 * the gateway image ships them with dist/gateway. Rebuilt only when console/ (its tests aside) or
 * the lockfile changed since the last build (CONSOLE_STAMP records what was built).
 */
export const CONSOLE_SOURCE = 'console';
export const CONSOLE_OUT = 'gateway/console-pages';
const CONSOLE_STAMP = '.console-pages.json';

const CODE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const DECLARATION = /\.d\.(ts|mts|cts)$/;
/** The JavaScript file tsc emits for a source file (same relative path). @param {string} rel */
export function outputOf(rel) {
  return rel.replace(/\.ts$|\.tsx$/, '.js').replace(/\.mts$/, '.mjs').replace(/\.cts$/, '.cjs').replace(/\.jsx$/, '.js');
}

/** @param {string} rel */
function inAssets(rel) {
  return rel.split('/').includes('assets');
}

/** Files under dir, relative to it, '/'-separated. @param {string} dir @returns {string[]} */
function walk(dir, rel = '') {
  /** @type {string[]} */
  const out = [];
  let entries;
  try {
    entries = readdirSync(path.join(dir, rel), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) {
      if (e.name !== 'node_modules') out.push(...walk(dir, r));
    } else if (e.isFile()) out.push(r);
  }
  return out;
}

function sourceRoots() {
  return SOURCE_ROOTS.flatMap((pattern) => {
    if (!pattern.includes('*')) return [pattern];
    const [parent, child] = pattern.split('/*/');
    return readdirSync(path.join(ROOT, parent), { withFileTypes: true })
      .filter((e) => e.isDirectory() && existsSync(path.join(ROOT, parent, e.name, child)))
      .map((e) => `${parent}/${e.name}/${child}`);
  });
}

/** Every file the build copies unchanged: repository-relative paths. */
export function runtimeFiles() {
  const files = [];
  for (const { from, match } of RUNTIME_FILES) {
    const abs = path.join(ROOT, from);
    if (!existsSync(abs)) throw new Error(`build: ${from} (scripts/build.mjs RUNTIME_FILES) does not exist`);
    if (statSync(abs).isFile()) files.push(from);
    else files.push(...walk(abs).filter((f) => !match || match.test(f)).map((f) => `${from}/${f}`));
  }
  for (const root of sourceRoots()) {
    for (const f of walk(path.join(ROOT, root))) if (inAssets(f) || !CODE.test(f)) files.push(`${root}/${f}`);
  }
  return files;
}

function tscBinary() {
  const bin = path.join(ROOT, 'node_modules/typescript/bin/tsc');
  if (!existsSync(bin)) throw new Error('build: TypeScript is not installed (node_modules/typescript): run `npm install` (the build needs the dev dependencies)');
  return bin;
}

/**
 * Runs tsc; resolves to its exit code, the program's files and what it printed otherwise.
 * @param {string} outDir
 * @returns {Promise<{ code: number | null, files: string[], emitted: string[], messages: string[] }>}
 */
function tsc(outDir) {
  const args = [tscBinary(), '-p', TSCONFIG, '--outDir', outDir, '--tsBuildInfoFile', path.join(outDir, '.tsbuildinfo'), '--pretty', 'false', '--listFiles', '--listEmittedFiles'];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      /** @type {string[]} */ const files = [];
      /** @type {string[]} */ const emitted = [];
      /** @type {string[]} */ const messages = [];
      for (const line of out.split('\n')) {
        if (line.startsWith('TSFILE: ')) emitted.push(line.slice(8).trim());
        else if (path.isAbsolute(line) && !line.includes('(') && existsSync(line)) files.push(line);
        else if (line.trim()) messages.push(line);
      }
      resolve({ code, files, emitted, messages });
    });
  });
}

/** The program's own sources (not node_modules, not declarations), repository-relative. @param {string[]} files */
function ownSources(files) {
  return files
    .map((f) => path.relative(ROOT, f).split(path.sep).join('/'))
    .filter((r) => !r.startsWith('..') && !r.startsWith('node_modules/') && !DECLARATION.test(r));
}

const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/** @param {number} pid */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return /** @type {NodeJS.ErrnoException} */ (err).code === 'EPERM';
  }
}

/**
 * One build at a time per output folder (tests in parallel processes, `npm start` beside them).
 * @param {string} outDir
 * @param {(line: string) => void} say
 */
async function lock(outDir, say) {
  const dir = path.join(outDir, '.build.lock');
  const until = Date.now() + 5 * 60_000;
  let told = false;
  for (;;) {
    try {
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'pid'), String(process.pid));
      return () => rmSync(dir, { recursive: true, force: true });
    } catch (err) {
      if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'EEXIST') throw err;
    }
    const pid = Number(readFileSync(path.join(dir, 'pid'), 'utf8').trim() || 0) || 0;
    const age = Date.now() - (statSync(dir, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    // A holder that died (or a lock without a pid older than a few seconds) is stale.
    if ((pid && !alive(pid)) || (!pid && age > 5000)) {
      rmSync(dir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > until) throw new Error(`build: ${dir} is held by process ${pid} for more than 5 minutes`);
    if (!told) say(`build: waiting for another build into ${path.relative(ROOT, outDir) || outDir} (process ${pid})…`);
    told = true;
    await sleep(200);
  }
}

/**
 * Copies a file when the copy is missing or differs in size or modification time (kept).
 * @param {string} src
 * @param {string} dst
 */
function copyIfChanged(src, dst) {
  const s = statSync(src);
  const d = statSync(dst, { throwIfNoEntry: false });
  // (Times are kept to about a millisecond.)
  if (d && d.size === s.size && Math.abs(d.mtimeMs - s.mtimeMs) < 2) return false;
  mkdirSync(path.dirname(dst), { recursive: true });
  // Copied beside and renamed into place: a process reading the file never sees it half written.
  const tmp = `${dst}.${process.pid}.tmp`;
  copyFileSync(src, tmp);
  utimesSync(tmp, s.atimeMs / 1000, s.mtimeMs / 1000);
  renameSync(tmp, dst);
  return true;
}

/** What the console's pages are built from: console/ without its tests, and the lockfile. */
function consoleFingerprint() {
  const hash = createHash('sha256');
  const dir = path.join(ROOT, CONSOLE_SOURCE);
  for (const rel of walk(dir).filter((f) => !f.startsWith('test/')).sort()) {
    hash.update(`${rel}\0`).update(readFileSync(path.join(dir, rel))).update('\0');
  }
  hash.update(readFileSync(path.join(ROOT, 'package-lock.json')));
  return hash.digest('hex');
}

/**
 * Builds the console's pages with Vite into outDir/CONSOLE_OUT unless they are up to date.
 * Returns the files it holds (relative to outDir) and a line to print when it built.
 * @param {string} outDir
 * @returns {Promise<{ files: string[], said: string | null }>}
 */
async function buildConsole(outDir) {
  const out = path.join(outDir, CONSOLE_OUT);
  const stampFile = path.join(outDir, CONSOLE_STAMP);
  const fingerprint = consoleFingerprint();
  /** @type {{ fingerprint?: string, files?: string[] }} */
  let stamp = {};
  try {
    stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    stamp = {};
  }
  const listed = (stamp.files ?? []).map((f) => `${CONSOLE_OUT}/${f}`);
  if (stamp.fingerprint === fingerprint && listed.length > 0 && listed.every((f) => existsSync(path.join(outDir, f)))) {
    return { files: listed, said: null };
  }
  const vite = path.join(ROOT, 'node_modules/vite/bin/vite.js');
  if (!existsSync(vite)) throw new Error('build: Vite is not installed (node_modules/vite): run `npm install` (the build needs the dev dependencies)');
  const started = Date.now();
  const args = [vite, 'build', path.join(ROOT, CONSOLE_SOURCE), '--outDir', out, '--emptyOutDir', '--logLevel', 'warn'];
  const { code, output } = await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'production' } });
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (text += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (text += d));
    child.on('error', reject);
    child.on('close', (c) => resolve({ code: c, output: text }));
  });
  if (code !== 0) throw new Error(`build: the console's pages (vite build console) failed (exit ${code}):\n${output.trim()}`);
  const files = walk(out).sort();
  if (!files.includes('index.html')) throw new Error(`build: vite build console wrote no index.html into ${out}`);
  writeFileSync(stampFile, JSON.stringify({ fingerprint, files }, null, 2) + '\n');
  let bytes = 0;
  let gzipped = 0;
  for (const f of files) {
    const body = readFileSync(path.join(out, f));
    bytes += body.length;
    gzipped += /\.(js|css|html|svg)$/.test(f) ? gzipSync(body, { level: 9 }).length : body.length;
  }
  const kb = (/** @type {number} */ n) => `${(n / 1024).toFixed(1)} kB`;
  const warnings = output.trim() ? `\n${output.trim()}` : '';
  return {
    files: files.map((f) => `${CONSOLE_OUT}/${f}`),
    said: `build: console pages: ${files.length} files, ${kb(bytes)} (${kb(gzipped)} gzipped) in ${path.relative(outDir, out)}/ (${((Date.now() - started) / 1000).toFixed(1)} s)${warnings}`,
  };
}

/**
 * Native addons: C compiled against the headers Node ships (include/node: Node-API and the
 * OpenSSL Node carries), nothing linked (the symbols resolve against the running node binary).
 * Optional: without a C compiler or the headers the build says so and the code runs its
 * JavaScript fallback (packages/push/src/encryption/engine.js).
 */
export const NATIVE_ADDONS = [{ source: 'packages/push/native/rfc8291.c', output: 'packages/push/native/rfc8291.node', what: 'push payload encryption' }];
const NATIVE_STAMP = '.native.json';
const CC_FLAGS = ['-O2', '-fPIC', '-shared', '-fvisibility=hidden', '-Wall', '-Wextra'];

/** Node's headers: <prefix>/include/node beside <prefix>/bin/node (official builds and images). */
function nodeHeaders() {
  const dir = path.resolve(path.dirname(process.execPath), '..', 'include', 'node');
  return existsSync(path.join(dir, 'node_api.h')) && existsSync(path.join(dir, 'openssl', 'ec.h')) ? dir : null;
}

/**
 * Compiles NATIVE_ADDONS into outDir unless up to date (same source, compiler, flags and Node).
 * A compiler that rejects the source fails the build: that is a bug here, not a missing tool.
 * Returns the addons built or up to date, what was compiled, and what stays in JavaScript and why.
 * @param {string} outDir
 * @returns {Promise<{ files: string[], built: string[], skipped: string[] }>}
 */
async function buildNative(outDir) {
  const cc = process.env.CC?.trim() || 'cc';
  const headers = nodeHeaders();
  const stampFile = path.join(outDir, NATIVE_STAMP);
  /** @type {Record<string, string>} */
  let stamp = {};
  try {
    stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    stamp = {};
  }
  const files = [];
  const built = [];
  const skipped = [];
  for (const addon of NATIVE_ADDONS) {
    const out = path.join(outDir, addon.output);
    if (!headers) {
      rmSync(out, { force: true });
      skipped.push(`build: ${addon.what} stays in JavaScript (≈ 3× the encryption's CPU): no Node headers at ${path.resolve(path.dirname(process.execPath), '..', 'include', 'node')}`);
      continue;
    }
    const fingerprint = createHash('sha256').update(readFileSync(path.join(ROOT, addon.source))).update(`\0${cc}\0${CC_FLAGS.join(' ')}\0${process.version}\0${headers}`).digest('hex');
    if (stamp[addon.output] === fingerprint && existsSync(out)) {
      files.push(addon.output);
      continue;
    }
    mkdirSync(path.dirname(out), { recursive: true });
    const tmp = `${out}.${process.pid}.tmp`;
    const started = Date.now();
    const { code, output, missing } = await new Promise((resolve) => {
      const child = spawn(cc, [...CC_FLAGS, '-I', headers, '-o', tmp, path.join(ROOT, addon.source)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let text = '';
      child.stdout.setEncoding('utf8').on('data', (d) => (text += d));
      child.stderr.setEncoding('utf8').on('data', (d) => (text += d));
      child.on('error', (err) => resolve({ code: null, output: err.message, missing: /** @type {NodeJS.ErrnoException} */ (err).code === 'ENOENT' }));
      child.on('close', (c) => resolve({ code: c, output: text, missing: false }));
    });
    if (missing) {
      rmSync(out, { force: true });
      delete stamp[addon.output];
      skipped.push(`build: ${addon.what} stays in JavaScript (≈ 3× the encryption's CPU): no C compiler (${cc}; install gcc, or set CC)`);
      continue;
    }
    if (code !== 0) {
      rmSync(tmp, { force: true });
      throw new Error(`build: ${cc} ${addon.source} failed (exit ${code}):\n${output.trim()}`);
    }
    renameSync(tmp, out);
    stamp[addon.output] = fingerprint;
    files.push(addon.output);
    built.push(`build: ${addon.what}: ${addon.output} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
  writeFileSync(stampFile, JSON.stringify(stamp, null, 2) + '\n');
  return { files, built, skipped };
}

/**
 * The workspace packages (packages/<dir>, package.json "workspaces"). In the repository npm links
 * node_modules/@webpush/<name> to packages/<dir>, whose exports map sends `@webpush/<name>/x.js`
 * to src/x.js: TypeScript and tsx take src/x.ts for it. The compiled code under dist/ must get
 * the compiled package instead, so the build links dist/node_modules/@webpush/<name> to
 * dist/packages/<dir> (relative links, so the folder can be copied whole, as the images do): Node
 * looks in the nearest node_modules first, and the package.json copied there (RUNTIME_FILES) maps
 * the same names to the compiled src/x.js.
 */
export const PACKAGES_DIR = 'packages';

/** The packages' names and folders, repository-relative. @returns {{ name: string, dir: string }[]} */
export function workspacePackages() {
  const root = path.join(ROOT, PACKAGES_DIR);
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(path.join(root, e.name, 'package.json')))
    .map((e) => ({ name: JSON.parse(readFileSync(path.join(root, e.name, 'package.json'), 'utf8')).name, dir: `${PACKAGES_DIR}/${e.name}` }))
    .sort((a, b) => a.dir.localeCompare(b.dir));
}

/**
 * Links outDir/node_modules/<name> to outDir/<dir> for every package; returns the links
 * (outDir-relative). A link already right is left alone; anything else there is replaced.
 * @param {string} outDir
 */
function linkPackages(outDir) {
  const links = [];
  for (const { name, dir } of workspacePackages()) {
    const link = path.join(outDir, 'node_modules', name);
    const target = path.relative(path.dirname(link), path.join(outDir, dir));
    let current = null;
    try {
      current = readlinkSync(link);
    } catch {
      current = null;
    }
    if (current !== target) {
      rmSync(link, { recursive: true, force: true });
      mkdirSync(path.dirname(link), { recursive: true });
      symlinkSync(target, link, 'dir');
    }
    links.push(`node_modules/${name}`);
  }
  return links;
}

/** @param {string} dir */
function removeEmptyDirs(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) removeEmptyDirs(path.join(dir, e.name));
  if (readdirSync(dir).length === 0) rmdirSync(dir);
}

/**
 * Builds into outDir (default dist/). Returns what it did; throws with the compiler's messages
 * when the sources do not compile.
 * @param {{ outDir?: string, clean?: boolean, say?: (line: string) => void, quiet?: boolean }} [opts]
 */
export async function build(opts = {}) {
  const started = Date.now();
  const outDir = path.resolve(opts.outDir ?? path.join(ROOT, 'dist'));
  const say = opts.say ?? ((line) => process.stdout.write(line + '\n'));
  const inside = path.relative(ROOT, outDir);
  if (inside === '' || (!inside.startsWith('..') && !path.isAbsolute(inside) && inside !== 'dist')) {
    throw new Error(`build: refusing to build into ${outDir}: use dist/ or a folder outside the repository`);
  }
  if (opts.clean) rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const unlock = await lock(outDir, say);
  try {
    let run = await tsc(outDir);
    let sources = ownSources(run.files);
    const missing = () => sources.filter((r) => !existsSync(path.join(outDir, outputOf(r))));
    if (run.code === 0 && missing().length > 0) {
      // Outputs deleted by hand: the incremental state believes them written. Start over once.
      rmSync(path.join(outDir, '.tsbuildinfo'), { force: true });
      run = await tsc(outDir);
      sources = ownSources(run.files);
    }
    if (run.code !== 0) {
      throw new Error(`build: tsc -p tsconfig.build.json failed (exit ${run.code}):\n${run.messages.join('\n')}`);
    }
    const stillMissing = missing();
    if (stillMissing.length > 0) throw new Error(`build: tsc wrote no output for ${stillMissing.join(', ')}`);

    const copies = runtimeFiles();
    let copied = 0;
    for (const rel of copies) if (copyIfChanged(path.join(ROOT, rel), path.join(outDir, rel))) copied++;

    const links = linkPackages(outDir);
    const pages = await buildConsole(outDir);
    if (pages.said) say(pages.said);
    const native = await buildNative(outDir);
    for (const line of [...native.built, ...(opts.quiet ? [] : native.skipped)]) say(line);

    // Whatever else is in the folder came from sources since moved or deleted: remove it (the
    // package links are not files: walk() passes them by).
    const keep = new Set(['.tsbuildinfo', CONSOLE_STAMP, NATIVE_STAMP, ...copies, ...pages.files, ...native.files]);
    for (const r of sources) {
      const out = outputOf(r);
      keep.add(out);
      keep.add(`${out}.map`);
    }
    let removed = 0;
    for (const f of walk(outDir)) {
      if (keep.has(f) || f.startsWith('.build.lock/')) continue;
      rmSync(path.join(outDir, f), { force: true });
      removed++;
    }
    if (removed > 0) removeEmptyDirs(outDir);

    const compiled = run.emitted.filter((f) => f.endsWith('.js') || f.endsWith('.mjs') || f.endsWith('.cjs')).length;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const where = inside === 'dist' ? 'dist/' : outDir;
    const changed = compiled > 0 || copied > 0 || removed > 0;
    if (changed || !opts.quiet) {
      say(
        changed
          ? `build: ${where}: compiled ${compiled} of ${sources.length} files, copied ${copied} runtime files, removed ${removed} stale files (${seconds} s)`
          : `build: ${where} is up to date (${seconds} s)`,
      );
    }
    return { outDir, sources, runtimeFiles: copies, packageLinks: links, consolePages: pages.files, nativeAddons: native.files, compiled, copied, removed };
  } finally {
    unlock();
  }
}

if (process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--out-dir');
  const unknown = args.filter((a, i) => !['--clean', '--quiet', '--out-dir'].includes(a) && !(at >= 0 && i === at + 1));
  if (unknown.length > 0 || (at >= 0 && !args[at + 1])) {
    process.stderr.write('usage: node scripts/build.mjs [--out-dir DIR] [--clean] [--quiet]\n');
    process.exit(2);
  }
  try {
    await build({ outDir: at >= 0 ? args[at + 1] : undefined, clean: args.includes('--clean'), quiet: args.includes('--quiet') });
  } catch (err) {
    process.stderr.write(`${/** @type {Error} */ (err).message}\n`);
    process.exit(1);
  }
}
