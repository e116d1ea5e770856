// Helpers for each service's config.ts, the only readers of process.env. A missing or malformed
// variable stops start-up with an error that names the variable.

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

export function requireString(env: Env, name: string): string {
  const value = env[name];
  if (value === undefined || value.trim() === '') throw new ConfigError(`${name} is required but not set`);
  return value;
}

/**
 * A Postgres connection URL, checked as pg will read it (relative to postgres://base, a leading
 * `/` being a socket directory). A password made by `openssl rand -base64` holds `/` half the
 * time: pg then fails with a bare "Invalid URL", or worse reads the rest of the password as a
 * port and the host as a path. Either stops start-up here with the variable's name and the fix;
 * the value itself is never repeated (it holds the password).
 */
export function postgresUrl(env: Env, name: string): string {
  const raw = requireString(env, name);
  if (raw.startsWith('/')) return raw;
  let url: URL | undefined;
  try {
    url = new URL(raw.replace('@/', '@___DUMMY___/'), 'postgres://base');
  } catch {
    // said below
  }
  if (!url || `${url.pathname}${url.search}${url.hash}`.includes('@')) {
    throw new ConfigError(
      `${name} is not a valid connection URL (postgres://user:password@host:5432/database): ` +
        'percent-encode the characters / ? # @ : % in the user and password (encodeURIComponent), ' +
        'or use a password of letters and digits only (openssl rand -hex 32)',
    );
  }
  return raw;
}

export function optionalString(env: Env, name: string, fallback: string): string {
  const value = env[name];
  return value === undefined || value.trim() === '' ? fallback : value;
}

export function integer(env: Env, name: string, fallback: number, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

/** One of `values` (exactly as written); absent or blank is `fallback`. */
export function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!(values as readonly string[]).includes(raw)) throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${env[name]}"`);
  return raw as T;
}

/** true, 1, yes / false, 0, no (any case); absent or blank is `fallback`. */
export function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1' || raw === 'yes') return true;
  if (raw === 'false' || raw === '0' || raw === 'no') return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

/**
 * An http(s) origin such as https://push.example.net (no path, query, fragment or credentials),
 * answered without a trailing slash; '' when unset.
 */
export function httpOrigin(env: Env, name: string): string {
  const raw = optionalString(env, name, '').trim();
  if (raw === '') return '';
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    // said below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new ConfigError(`${name} must be an http(s) origin such as https://push.example.net, got "${raw}"`);
  }
  return url.origin;
}

export function list(env: Env, name: string, fallback: readonly string[]): string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return [...fallback];
  return raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

/** A secret given as base64 (or base64url) that must decode to at least `minBytes` bytes. */
export function secret(env: Env, name: string, minBytes: number): Buffer {
  const raw = requireString(env, name);
  const bytes = Buffer.from(raw, raw.includes('-') || raw.includes('_') ? 'base64url' : 'base64');
  if (bytes.length < minBytes) throw new ConfigError(`${name} must be base64 of at least ${minBytes} bytes`);
  return bytes;
}

/** `host:port` for a listener; services bind to 127.0.0.1 unless told otherwise. */
export function listenAddress(env: Env, hostName: string, portName: string, defaultPort: number) {
  return Object.freeze({
    host: optionalString(env, hostName, '127.0.0.1'),
    port: integer(env, portName, defaultPort, { min: 0, max: 65535 }),
  });
}
