// VAPID (RFC 8292) Authorization headers, signed once per push-service origin and reused:
// an ES256 signature per message would cost as much CPU as the encryption itself.
import webpush from 'web-push';

export interface VapidHeaderCacheOptions {
  subject: string;
  publicKey: string;
  privateKey: string;
  /** JWT lifetime; default 12 h, clamped below 24 h (RFC 8292 §2 maximum). */
  lifetimeSec?: number;
  /** Sign a fresh token this long before the cached one expires; default 1 h. */
  refreshBeforeSec?: number;
  /** Milliseconds since the epoch, like Date.now. */
  now?: () => number;
}

export interface VapidHeaderCache {
  /** `vapid t=<jwt>, k=<publicKey>` for the endpoint's origin. */
  headerFor(endpoint: string): string;
  readonly publicKey: string;
  /** How many JWTs have been signed so far (observability and tests). */
  readonly signatures: number;
}

const DEFAULT_LIFETIME_SEC = 12 * 3600;
const DEFAULT_REFRESH_BEFORE_SEC = 3600;
// web-push refuses exp >= now + 24 h by its own clock; stay a few minutes inside so clock skew
// between us and the push service never makes a token look too long-lived.
const MAX_LIFETIME_SEC = 24 * 3600 - 300;

export function createVapidHeaderCache(opts: VapidHeaderCacheOptions): VapidHeaderCache {
  const lifetimeSec = Math.min(opts.lifetimeSec ?? DEFAULT_LIFETIME_SEC, MAX_LIFETIME_SEC);
  const refreshBeforeSec = opts.refreshBeforeSec ?? DEFAULT_REFRESH_BEFORE_SEC;
  if (!Number.isInteger(lifetimeSec) || lifetimeSec <= 0) throw new RangeError('lifetimeSec must be a positive integer');
  if (!(refreshBeforeSec >= 0 && refreshBeforeSec < lifetimeSec)) {
    throw new RangeError('refreshBeforeSec must be at least 0 and below lifetimeSec');
  }
  const now = opts.now ?? Date.now;
  const byOrigin = new Map<string, { header: string; exp: number }>();
  let signatures = 0;

  const sign = (audience: string, exp: number): string =>
    webpush.getVapidHeaders(audience, opts.subject, opts.publicKey, opts.privateKey, 'aes128gcm', exp).Authorization;

  // Fail at construction, not on the first send, when the keys or subject are unusable.
  sign('https://vapid.invalid', Math.floor(now() / 1000) + 60);

  return {
    publicKey: opts.publicKey,
    get signatures() {
      return signatures;
    },
    headerFor(endpoint) {
      const origin = new URL(endpoint).origin;
      const nowSec = Math.floor(now() / 1000);
      const cached = byOrigin.get(origin);
      if (cached && nowSec < cached.exp - refreshBeforeSec) return cached.header;
      const exp = nowSec + lifetimeSec;
      const header = sign(origin, exp);
      signatures += 1;
      byOrigin.set(origin, { header, exp });
      return header;
    },
  };
}

/**
 * Why Apple's push service (web.push.apple.com, Safari's) would refuse every JWT with this `sub`
 * — 403 `{"reason":"BadJwtToken"}` — or null. Apple asks for a mailto: address or an https: URL
 * (developer.apple.com, "Sending web push notifications in web apps and browsers"; web-push
 * refuses any other scheme itself), and in practice refuses a contact that cannot be one: an
 * address at `localhost` (web-push issue #947), `mailto: <a@b.c>` with a space or angle brackets,
 * a host without a dot. Other push services accept these, so nothing else notices.
 */
export function appleSubjectProblem(subject: string): string | null {
  let url: URL;
  try {
    url = new URL(subject);
  } catch {
    return 'it is not a URL';
  }
  if (url.protocol !== 'mailto:' && url.protocol !== 'https:') return 'it is neither a mailto: address nor an https: URL';
  const host = url.protocol === 'https:' ? url.hostname : (/^[^\s<>@]+@([^\s<>@]+)$/.exec(url.pathname)?.[1] ?? '');
  if (host === '') return 'it is not one plain address (no space, no angle brackets)';
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(host) || /(^|\.)localhost$/i.test(host)) return `${host} is not a public domain name`;
  return null;
}
