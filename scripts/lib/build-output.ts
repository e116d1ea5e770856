// The services and the push simulator always run compiled, from dist/ (`npm run build`,
// scripts/build.mjs): under `npm start`, in the images, and in the test stacks and the bench, so
// those exercise what production runs. Callers that are themselves TypeScript (the end-to-end,
// fault and browser tests, the bench) bring dist/ up to date first — an incremental build, about a
// second when nothing changed, once per process; a source that does not compile stops
// them with the compiler's messages. Compiled callers (`npm start`, which builds before it runs)
// skip that.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { DIST, ROOT } from './local-env.js';

/** True when this file runs compiled (from dist/), false under tsx. */
const COMPILED = !import.meta.url.endsWith('.ts');

/** Where a repository-relative source file runs from: services/x/src/main.ts → <root>/dist/services/x/src/main.js. */
export function compiledPath(source: string): string {
  return path.join(DIST, source.replace(/\.ts$/, '.js'));
}

let building: Promise<void> | undefined;

/** Brings dist/ up to date with the sources (see above). */
export function ensureBuilt(): Promise<void> {
  if (COMPILED) return Promise.resolve();
  building ??= new Promise<void>((resolve, reject) => {
    execFile(process.execPath, [path.join(ROOT, 'scripts/build.mjs'), '--quiet'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (stdout.trim()) console.log(stdout.trim());
      if (err) reject(new Error(`The services run compiled from dist/, and building it (npm run build) failed:\n${(stderr || err.message).trim()}`));
      else resolve();
    });
  });
  return building;
}
