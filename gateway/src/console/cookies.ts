// The console's session cookie (docs/console.md, "Sessions"): `console_session`, HttpOnly,
// SameSite=Strict, Path=/console, Secure when the gateway is reached over TLS
// (CONSOLE_SECURE_COOKIE), kept by the browser for a session's longest life (7 days; the campaign
// service ends it sooner when idle). Its value is the session id: 32 random bytes, base64url.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const SESSION_COOKIE = 'console_session';
const MAX_AGE_SECONDS = 7 * 24 * 3600;
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/**
 * The session id the request carries, or '' for none. A value that cannot be one of ours is
 * none: it never reaches the campaign service. Of repeated cookies, the first well-formed one.
 */
export function sessionIdOf(req: IncomingMessage): string {
  const header = req.headers.cookie;
  if (typeof header !== 'string' || header.length > 8192) return '';
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = pair.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
    if (SESSION_ID.test(value)) return value;
  }
  return '';
}

/** How a session travels inward: the SHA-256 of its id (lowercase hex), '' for none. */
export function sessionHashOf(sessionId: string): string {
  return sessionId === '' ? '' : createHash('sha256').update(sessionId, 'utf8').digest('hex');
}

const attributes = (secure: boolean) => `Path=/console; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;

export function sessionCookie(sessionId: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${sessionId}; Max-Age=${MAX_AGE_SECONDS}; ${attributes(secure)}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Max-Age=0; ${attributes(secure)}`;
}
