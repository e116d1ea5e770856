// The release this code is: the `version` of the project's package.json (CHANGELOG.md says what
// each version changed). Found by walking up from this file, since it runs from the sources
// (tests, tsx), from dist/ (`npm start`) and from an image (/app/dist/…, package.json in /app).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let version: string | undefined;

export function releaseVersion(): string {
  if (version !== undefined) return version;
  for (let dir = path.dirname(fileURLToPath(import.meta.url)), i = 0; i < 8; dir = path.dirname(dir), i++) {
    const file = path.join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === 'webpush-campaigns' && pkg.version) return (version = pkg.version);
  }
  throw new Error('package.json of webpush-campaigns not found above packages/shared/src/version');
}
