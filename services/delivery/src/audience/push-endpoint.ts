// Which URLs a subscription endpoint may be: the SSRF boundary of the push path. A production
// endpoint is `https` on port 443 at a host NAME allowed by PUSH_SERVICE_HOSTS; IP literals,
// other ports and plain http exist only for hosts listed in PUSH_TEST_HOSTS (local test push
// services). The host must be written the way the WHATWG URL parser writes it back: the parser
// accepts `2130706433`, `0x7f.1`, `[::ffff:127.0.0.1]`, `%2E` and friends and turns them into
// another host than the one a reader (or an allow-list rule) sees.
import { isIP } from 'node:net';

export const MAX_ENDPOINT_CHARS = 2048;

// Push endpoints are plain ASCII URLs; this also keeps the unique index entry small.
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;
// Scheme and authority as written: the authority ends where WHATWG ends it for special schemes.
const SCHEME_AUTHORITY = /^(https?):\/\/([^/?#\\]*)/;
const NAME = /^[a-z0-9-]{1,63}(\.[a-z0-9-]{1,63})*$/;
const PORT = /^[1-9][0-9]{0,4}$/;

export interface PushHostRules {
  /** Exact names or `*.suffix` wildcards (names only, lowercase). */
  readonly serviceHosts: readonly string[];
  /** Exact names or canonical IP literals (`127.0.0.1`, `[::1]`) of local test push services. */
  readonly testHosts: readonly string[];
}

/** The hostname the WHATWG parser makes of `host`, or null when it is not a host. */
function parsedHostname(host: string): string | null {
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return null;
  }
}

function isIpLiteral(hostname: string): boolean {
  return hostname.startsWith('[') || isIP(hostname) !== 0;
}

/** Why `rule` cannot be a PUSH_SERVICE_HOSTS entry, or null when it can. */
export function serviceHostRuleProblem(rule: string): string | null {
  const name = rule.startsWith('*.') ? rule.slice(2) : rule;
  const parsed = parsedHostname(name);
  if (parsed !== null && isIpLiteral(parsed)) return 'is an IP address: list test push services in PUSH_TEST_HOSTS';
  if (!NAME.test(name) || parsed !== name) return 'is not a host name (lowercase letters, digits, "-" and dots; "*." prefix for subdomains)';
  return null;
}

/** Why `host` cannot be a PUSH_TEST_HOSTS entry, or null when it can. */
export function testHostProblem(host: string): string | null {
  const parsed = parsedHostname(host);
  if (parsed === null || parsed !== host) return 'is not a host name or an IP address as URLs write it (e.g. localhost, 127.0.0.1, [::1])';
  if (!isIpLiteral(host) && !NAME.test(host)) return 'is not a host name (lowercase letters, digits, "-" and dots)';
  return null;
}

export function hostAllowed(hostname: string, allowed: readonly string[]): boolean {
  const host = hostname.toLowerCase();
  return allowed.some((rule) => (rule.startsWith('*.') ? host.endsWith(rule.slice(1)) && host.length > rule.length - 1 : host === rule));
}

/**
 * True when `raw` may be stored as a subscription endpoint. Steps: visible ASCII; scheme and
 * authority as written (no userinfo, no empty or zero-padded port); the written host equals the
 * parsed one (up to case); then a test host (http or https, any port) or an allowed name over
 * https on 443.
 */
export function endpointAllowed(raw: string, rules: PushHostRules): boolean {
  // A backslash is a path separator to WHATWG and nothing a push service writes.
  if (raw.length > MAX_ENDPOINT_CHARS || !VISIBLE_ASCII.test(raw) || raw.includes('\\')) return false;
  const written = SCHEME_AUTHORITY.exec(raw);
  if (!written) return false;
  const [, scheme, authority] = written;
  if (authority.includes('@')) return false;
  const hostEnd = authority.startsWith('[') ? authority.indexOf(']') + 1 : authority.includes(':') ? authority.indexOf(':') : authority.length;
  if (hostEnd <= 0) return false;
  const writtenHost = authority.slice(0, hostEnd).toLowerCase();
  const rest = authority.slice(hostEnd);
  if (rest !== '' && !(rest.startsWith(':') && PORT.test(rest.slice(1)))) return false;
  const writtenPort = rest === '' ? null : Number(rest.slice(1));

  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.hostname !== writtenHost || url.username !== '' || url.password !== '') return false;

  if (rules.testHosts.includes(url.hostname)) return true;
  if (scheme !== 'https' || (writtenPort !== null && writtenPort !== 443)) return false;
  return !isIpLiteral(url.hostname) && NAME.test(url.hostname) && hostAllowed(url.hostname, rules.serviceHosts);
}
