// The plugin's browser scripts, read once when the routes are built, with a strong ETag so
// browsers revalidate cheaply (the service worker is always revalidated: Cache-Control no-cache).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ASSETS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets');

export interface PluginAsset {
  body: Buffer;
  etag: string;
}

export function loadAsset(name: 'webpush.js' | 'webpush-prompt.js' | 'webpush-sw.js'): PluginAsset {
  const body = readFileSync(path.join(ASSETS_DIR, name));
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}
