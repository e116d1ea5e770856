// RFC 8292 (VAPID) as a push service checks it: the JWT's ES256 signature against `k`, then the
// claims. Failures carry the status a push service answers with.
import { createPublicKey, verify, type KeyObject } from 'node:crypto';

export interface VapidCredentials {
  jwt: string;
  /** base64url uncompressed P-256 public key of the application server */
  key: string;
}

export interface VapidClaims {
  aud: string;
  exp: number;
  sub: string;
}

export class VapidError extends Error {
  constructor(readonly status: 401 | 403, readonly reason: string, message: string) {
    super(message);
  }
}

/**
 * Reads `Authorization: vapid t=…, k=…` (RFC 8292 §3) or the draft form still sent by old
 * libraries: `Authorization: WebPush <jwt>` with `Crypto-Key: p256ecdsa=<key>`.
 */
export function parseVapidAuthorization(authorization: string | undefined, cryptoKey: string | undefined): VapidCredentials {
  if (!authorization) throw new VapidError(401, 'missing-authorization', 'Authorization header is required');
  const vapid = /^vapid\s+(.+)$/i.exec(authorization.trim());
  if (vapid) {
    const params = new Map<string, string>();
    for (const part of vapid[1].split(',')) {
      const eq = part.indexOf('=');
      if (eq > 0) params.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
    }
    const jwt = params.get('t');
    const key = params.get('k');
    if (!jwt || !key) throw new VapidError(401, 'bad-authorization', 'vapid Authorization needs t= and k=');
    return { jwt, key };
  }
  const legacy = /^webpush\s+(\S+)$/i.exec(authorization.trim());
  if (legacy) {
    const key = /(?:^|[;,\s])p256ecdsa=([A-Za-z0-9_-]+)/.exec(cryptoKey ?? '')?.[1];
    if (!key) throw new VapidError(401, 'bad-authorization', 'WebPush Authorization needs Crypto-Key p256ecdsa=');
    return { jwt: legacy[1], key };
  }
  throw new VapidError(401, 'bad-authorization', 'Authorization scheme must be vapid');
}

/** Checks the token's form and signature; returns its claims, not yet judged. */
export function verifyVapidSignature(credentials: VapidCredentials): VapidClaims {
  const parts = credentials.jwt.split('.');
  if (parts.length !== 3) throw new VapidError(401, 'bad-jwt', 'JWT must have three parts');
  const [encodedHeader, encodedClaims, encodedSignature] = parts;
  const header = parseJsonPart(encodedHeader);
  if (header.alg !== 'ES256') throw new VapidError(401, 'bad-jwt', 'JWT alg must be ES256');
  if (header.typ !== undefined && header.typ !== 'JWT') throw new VapidError(401, 'bad-jwt', 'JWT typ must be JWT');

  const signature = Buffer.from(encodedSignature, 'base64url');
  if (signature.length !== 64) throw new VapidError(401, 'bad-signature', 'ES256 signature must be 64 bytes (r||s)');
  const publicKey = importP256PublicKey(credentials.key);
  const signed = Buffer.from(`${encodedHeader}.${encodedClaims}`, 'latin1');
  if (!verify('sha256', signed, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature)) {
    throw new VapidError(401, 'bad-signature', 'JWT signature does not verify with k');
  }

  const claims = parseJsonPart(encodedClaims);
  return {
    aud: typeof claims.aud === 'string' ? claims.aud : '',
    exp: typeof claims.exp === 'number' ? claims.exp : Number.NaN,
    sub: typeof claims.sub === 'string' ? claims.sub : '',
  };
}

export interface ClaimExpectations {
  /** The push resource's origin, e.g. https://127.0.0.1:4430 */
  origin: string;
  /** base64url application server key the subscription was made with; undefined = not known */
  applicationServerKey: string | undefined;
  nowSec: number;
  maxTtlSec: number;
}

export function checkVapidClaims(key: string, claims: VapidClaims, expect: ClaimExpectations): void {
  if (expect.applicationServerKey !== undefined && !sameKey(key, expect.applicationServerKey)) {
    throw new VapidError(403, 'key-mismatch', 'k is not the subscription\'s applicationServerKey');
  }
  if (claims.aud !== expect.origin) throw new VapidError(403, 'bad-aud', `aud must be ${expect.origin}`);
  if (!Number.isInteger(claims.exp)) throw new VapidError(403, 'bad-exp', 'exp must be an integer');
  if (claims.exp <= expect.nowSec) throw new VapidError(403, 'expired-jwt', 'JWT has expired');
  if (claims.exp > expect.nowSec + expect.maxTtlSec) {
    throw new VapidError(403, 'bad-exp', `exp is more than ${expect.maxTtlSec} s ahead`);
  }
  if (!claims.sub.startsWith('mailto:') && !claims.sub.startsWith('https:')) {
    throw new VapidError(403, 'bad-sub', 'sub must be a mailto: or https: URI');
  }
}

/**
 * Apple's push service refuses a `sub` that is a mailto: or https: URI but no contact it accepts:
 * an address or host at `localhost` or without a dot (web-push-libs/web-push#947:
 * `mailto:…@localhost` → 403 BadJwtToken, a real domain → 201), or `mailto: <…>` with a space or
 * angle brackets (Apple developer forums, thread 725473).
 */
export function appleRefusesSubject(sub: string): boolean {
  const address = /^mailto:([^\s<>@]+)@([^\s<>@]+)$/.exec(sub);
  const host = address ? address[2] : sub.startsWith('https://') ? (URL.parse(sub)?.hostname ?? '') : '';
  return host === '' || !host.includes('.') || host === 'localhost' || host.endsWith('.localhost');
}

function sameKey(a: string, b: string): boolean {
  // Equal text is the same key (the usual case, checked on every push); else compare the bytes,
  // as base64url may be written with or without padding.
  return a === b || Buffer.from(a, 'base64url').equals(Buffer.from(b, 'base64url'));
}

function parseJsonPart(part: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through to the error below
  }
  throw new VapidError(401, 'bad-jwt', 'JWT part is not a JSON object');
}

export function importP256PublicKey(base64url: string): KeyObject {
  const raw = Buffer.from(base64url, 'base64url');
  if (raw.length !== 65 || raw[0] !== 0x04) throw new VapidError(401, 'bad-key', 'k must be an uncompressed P-256 point');
  try {
    return createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') },
      format: 'jwk',
    });
  } catch {
    throw new VapidError(401, 'bad-key', 'k is not a point on P-256');
  }
}
