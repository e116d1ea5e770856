// The local defaults behind `npm start` and the operator CLI: a data folder (.data/, or
// WEBPUSH_DATA_DIR), generated secrets kept there, and a Postgres — DATABASE_URL when set,
// otherwise the project's own persistent embedded server under .data/postgres.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { externalPostgres, startEmbeddedPostgres, type RunningPostgres } from '@webpush/shared/postgres.js';
import { postgresUrl } from '@webpush/shared/config.js';

/**
 * The repository root (in an image, the app folder): two levels above scripts/lib, or three when
 * this file runs compiled from dist/scripts/lib — the folder holding package.json.
 */
export const ROOT = projectRoot(path.dirname(fileURLToPath(import.meta.url)));

function projectRoot(here: string): string {
  const up = path.resolve(here, '../..');
  return existsSync(path.join(up, 'package.json')) ? up : path.resolve(up, '..');
}
/** Where `npm run build` (scripts/build.mjs) writes the compiled code. */
export const DIST = path.join(ROOT, 'dist');
export const DATA_DIR = path.resolve(process.env.WEBPUSH_DATA_DIR || path.join(ROOT, '.data'));
const SECRETS_FILE = path.join(DATA_DIR, 'secrets.json');
const DATABASE_NAME = 'webpush';

export interface LocalSecrets {
  CURSOR_SECRET: string;
  VAPID_ENCRYPTION_KEY: string;
  /** The operator CLI's token for the services' admin APIs (packages/shared/src/internal-auth.ts). */
  OPERATOR_INTERNAL_TOKEN: string;
}

const SECRET_NAMES = ['CURSOR_SECRET', 'VAPID_ENCRYPTION_KEY', 'OPERATOR_INTERNAL_TOKEN'] as const satisfies readonly (keyof LocalSecrets)[];

async function readJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** Secrets from the environment when given, else generated once and kept in .data/secrets.json (mode 600). */
export async function localSecrets(): Promise<LocalSecrets> {
  const fromEnv = (name: keyof LocalSecrets) => process.env[name] || undefined;
  if (SECRET_NAMES.every(fromEnv)) return Object.fromEntries(SECRET_NAMES.map((n) => [n, fromEnv(n)!])) as unknown as LocalSecrets;
  await mkdir(DATA_DIR, { recursive: true });
  const stored = (await readJson<Partial<LocalSecrets>>(SECRETS_FILE)) ?? {};
  const secrets = Object.fromEntries(SECRET_NAMES.map((n) => [n, fromEnv(n) || stored[n] || randomBytes(32).toString('base64')])) as unknown as LocalSecrets;
  if (SECRET_NAMES.some((n) => stored[n] !== secrets[n])) {
    await writeFile(SECRETS_FILE, JSON.stringify(secrets, null, 2) + '\n', { mode: 0o600 });
  }
  return secrets;
}

const STACK_FILE = path.join(DATA_DIR, 'stack.json');

export interface StackInfo {
  pid: number;
  databaseUrl: string;
  gatewayUrl: string;
  /** host:port of the services' gRPC, where the operator CLI finds their admin APIs. */
  campaignGrpcTarget: string;
  deliveryGrpcTarget: string;
}

export async function writeStackInfo(info: StackInfo): Promise<void> {
  await writeFile(STACK_FILE, JSON.stringify(info, null, 2) + '\n', { mode: 0o600 });
}

export async function clearStackInfo(): Promise<void> {
  await writeFile(STACK_FILE, '{}\n', { mode: 0o600 }).catch(() => {});
}

/** Whether a process with this pid exists (signal 0 tests without sending anything). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The running stack started by `npm start`, if any. */
export async function runningStack(): Promise<StackInfo | undefined> {
  const info = await readJson<Partial<StackInfo>>(STACK_FILE);
  return info?.pid && info.databaseUrl && alive(info.pid) ? (info as StackInfo) : undefined;
}

/**
 * The database the stack uses. DATABASE_URL wins; else the running stack's embedded server;
 * else this process starts the embedded server on .data/postgres (and must stop() it).
 */
export async function localDatabase(log: (line: string) => void = () => {}): Promise<{ url: string; server: RunningPostgres }> {
  if (process.env.DATABASE_URL) {
    const url = postgresUrl(process.env, 'DATABASE_URL');
    return { url, server: externalPostgres(url) };
  }
  const stack = await runningStack();
  if (stack) return { url: stack.databaseUrl, server: externalPostgres(stack.databaseUrl) };
  const server = await startEmbeddedPostgres({ dataDir: path.join(DATA_DIR, 'postgres'), persistent: true, log });
  return { url: await server.database(DATABASE_NAME), server };
}
