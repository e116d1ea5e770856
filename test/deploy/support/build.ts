// A clean build of the production code (scripts/build.mjs, what `npm run build` and the images'
// build stage run) into a temporary folder, made once per test process and removed at exit, and
// the import graph of the compiled JavaScript.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../../../scripts/lib/local-env.js';

const run = promisify(execFile);
export const BUILD_SCRIPT = path.join(ROOT, 'scripts/build.mjs');

/** Runs the build script into outDir with extra arguments and variables; resolves to what it printed. */
export async function buildInto(outDir: string, { args = [], env = {} }: { args?: string[]; env?: Record<string, string> } = {}): Promise<string> {
  try {
    const { stdout } = await run(process.execPath, [BUILD_SCRIPT, '--out-dir', outDir, ...args], { cwd: ROOT, timeout: 180_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, ...env } });
    return stdout;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`the build failed: ${e.stderr || e.message}`);
  }
}

let clean: Promise<string> | undefined;

/** The folder of a clean build (made on first use, removed when the test process exits). */
export function cleanBuild(): Promise<string> {
  clean ??= (async () => {
    const dir = path.join(os.tmpdir(), `webpush-build-${randomBytes(4).toString('hex')}`);
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    await buildInto(dir);
    return dir;
  })();
  return clean;
}

/** The package a bare import specifier names ('@scope/name/sub' → '@scope/name'). */
function packageOf(spec: string): string {
  return spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
}

/**
 * A workspace package's module as the compiled code gets it: the build's link
 * (node_modules/@webpush/<name> → packages/<dir>) and the package's exports map ("./*" →
 * "./src/*"). Relative to the build folder: the link and the module; null for any other package.
 */
function workspaceModule(outDir: string, spec: string): { link: string; module: string } | null {
  const name = packageOf(spec);
  const link = `node_modules/${name}`;
  if (!name.startsWith('@webpush/') || !existsSync(path.join(outDir, link, 'package.json'))) return null;
  const dir = path.relative(outDir, realpathSync(path.join(outDir, link))).split(path.sep).join('/');
  const { exports } = JSON.parse(readFileSync(path.join(outDir, link, 'package.json'), 'utf8')) as { exports: Record<string, string> };
  const subpath = spec.slice(name.length + 1);
  return { link, module: path.posix.join(dir, exports['./*'].replace('*', subpath)) };
}

/**
 * Every compiled file an entry point loads (static and dynamic imports, worker scripts given as
 * `new URL('./x.js', import.meta.url)`, the workspace packages' modules and the links that name
 * them), relative to the build folder, and the other packages each imports.
 */
export function compiledClosure(outDir: string, entry: string): { files: Set<string>; packages: Map<string, Set<string>> } {
  const files = new Set<string>();
  const packages = new Map<string, Set<string>>();
  const queue = [entry];
  while (queue.length > 0) {
    const rel = queue.pop()!;
    if (files.has(rel)) continue;
    files.add(rel);
    const source = readFileSync(path.join(outDir, rel), 'utf8');
    const specs = source.matchAll(
      /(?:^|\n)\s*(?:import|export)\s+(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)|\brequire\(\s*['"]([^'"]+)['"]\s*\)|new URL\(\s*['"](\.[^'"]+)['"],\s*import\.meta\.url/g,
    );
    for (const m of specs) {
      const spec = m[1] ?? m[2] ?? m[3] ?? m[4];
      if (spec.startsWith('.')) {
        const target = path.relative(outDir, path.resolve(path.dirname(path.join(outDir, rel)), spec)).split(path.sep).join('/');
        if (existsSync(path.join(outDir, target)) && /\.(js|mjs|cjs)$/.test(target)) queue.push(target);
        // A native addon (built from C, loaded through createRequire): shipped, not read as code.
        else if (existsSync(path.join(outDir, target)) && target.endsWith('.node')) files.add(target);
        else throw new Error(`${rel} imports ${spec}, which the build did not produce`);
      } else if (workspaceModule(outDir, spec)) {
        const { link, module } = workspaceModule(outDir, spec)!;
        if (!existsSync(path.join(outDir, module))) throw new Error(`${rel} imports ${spec}, which the build did not produce (${module})`);
        files.add(link);
        queue.push(module);
      } else if (!spec.startsWith('node:') && !builtinModules.includes(spec)) {
        const name = packageOf(spec);
        if (!packages.has(name)) packages.set(name, new Set());
        packages.get(name)!.add(rel);
      }
    }
  }
  return { files, packages };
}
