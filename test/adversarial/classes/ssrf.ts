// Class 5: SSRF through subscription endpoints. Only https on port 443 at an allowed push-service
// host NAME is accepted (the stack lists no loopback test host): other ports, IP literals in every
// spelling, private ranges, cloud metadata, userinfo, other schemes → 400 and nothing stored.
import { randomBytes } from 'node:crypto';
import { probe } from '../support/probe.js';
import { assertNoViolations, trackViolations, endOfClassChecks, getCtx, jsonRequest, validSubscription, violation } from '../support/suite.js';

export const CLASS_SSRF = '5 SSRF endpoints';
const cls = CLASS_SSRF;

export function ssrfEndpoints(tag: string): string[] {
  const p = `/fcm/send/${tag}`;
  return [
    // Allowed host, other port (or a port written oddly).
    `https://fcm.googleapis.com:6379${p}`,
    `https://fcm.googleapis.com:8443${p}`,
    `https://fcm.googleapis.com:80${p}`,
    `https://fcm.googleapis.com:0443${p}`,
    `https://fcm.googleapis.com:${p}`,
    `https://fcm.googleapis.com:65979${p}`,
    // Other schemes.
    `http://fcm.googleapis.com${p}`,
    `ftp://fcm.googleapis.com${p}`,
    `wss://fcm.googleapis.com${p}`,
    `file:///etc/passwd`,
    `gopher://127.0.0.1:6379/_INFO`,
    `javascript:alert(1)//fcm.googleapis.com`,
    `data:text/plain,fcm.googleapis.com`,
    `//fcm.googleapis.com${p}`,
    `https:fcm.googleapis.com${p}`,
    `https:/fcm.googleapis.com${p}`,
    `https:\\\\fcm.googleapis.com${p}`,
    ` https://fcm.googleapis.com${p}`,
    `https://fcm.googleapis.com${p} `,
    // Userinfo and host confusion.
    `https://user:pass@fcm.googleapis.com${p}`,
    `https://fcm.googleapis.com@127.0.0.1${p}`,
    `https://fcm.googleapis.com:443@169.254.169.254${p}`,
    `https://127.0.0.1#@fcm.googleapis.com${p}`,
    `https://127.0.0.1\\@fcm.googleapis.com${p}`,
    `https://127.0.0.1%2f@fcm.googleapis.com${p}`,
    `https://fcm.googleapis.com.evil.example${p}`,
    `https://evil.example/fcm.googleapis.com${p}`,
    `https://fcm.googleapis.com.${p}`,
    `https://fcm.googleapis.com%2e${p}`,
    `https://fcm%2egoogleapis.com${p}`,
    `https://xn--fcm-googleapis-com${p}`,
    `https://fcm.googleapis.com\t.evil.example${p}`,
    // Loopback in every spelling.
    `https://127.0.0.1${p}`,
    `https://localhost${p}`,
    `https://localhost.${p}`,
    `https://LOCALHOST${p}`,
    `https://2130706433${p}`,
    `https://2130706433:8090/`,
    `https://0x7f000001${p}`,
    `https://0x7f.0x0.0x0.0x1${p}`,
    `https://0x7f.1${p}`,
    `https://0177.0.0.1${p}`,
    `https://017700000001${p}`,
    `https://0177.1${p}`,
    `https://127.1${p}`,
    `https://127.0.1${p}`,
    `https://127.000.000.001${p}`,
    `https://%31%32%37.0.0.1${p}`,
    `https://127\u30020\u30020\u30021${p}`,
    `https://\u2460\u2461\u2466.0.0.1${p}`,
    `https://[::1]${p}`,
    `https://[0:0:0:0:0:0:0:1]${p}`,
    `https://[::ffff:127.0.0.1]${p}`,
    `https://[::ffff:7f00:1]${p}`,
    `https://[0:0:0:0:0:ffff:127.0.0.1]${p}`,
    `https://[::127.0.0.1]${p}`,
    `https://[::1%25lo]${p}`,
    `https://0.0.0.0${p}`,
    `https://0${p}`,
    `https://[::]${p}`,
    // Private, link-local, shared and metadata ranges, and names for them.
    `https://10.0.0.1${p}`,
    `https://172.16.0.1${p}`,
    `https://192.168.1.1${p}`,
    `https://100.64.0.1${p}`,
    `https://169.254.169.254/latest/meta-data/`,
    `https://169.254.169.254:443/latest/meta-data/`,
    `https://2852039166/latest/meta-data/`,
    `https://0xa9fea9fe/latest/meta-data/`,
    `https://[::ffff:169.254.169.254]/latest/meta-data/`,
    `https://[fd00:ec2::254]/latest/meta-data/`,
    `https://metadata.google.internal/computeMetadata/v1/`,
    `https://[fd00::1]${p}`,
    `https://[fe80::1]${p}`,
    `https://192.0.2.1${p}`,
    `https://8.8.8.8${p}`,
    `https://[2001:4860:4860::8888]${p}`,
  ];
}

export function registerSsrf(): void {
  describe(CLASS_SSRF, function () {
    this.timeout(60_000);
    trackViolations(cls);

    it('subscription endpoints at other ports, IP literals, private ranges, userinfo or other schemes → 400, nothing stored', async () => {
      const { sites, db } = getCtx();
      const tag = `ssrf-${randomBytes(4).toString('hex')}`;
      const endpoints = ssrfEndpoints(tag);
      for (const endpoint of endpoints) {
        const sub = { ...validSubscription('x'), endpoint };
        await probe(cls, jsonRequest('POST', `/public/v1/sites/${sites.fuzz.publicId}/subscriptions`, { subscription: sub, topics: ['news'] }), {
          siteId: sites.fuzz.id,
          allowed: [400],
          what: `endpoint ${endpoint}`,
        });
      }
      const { rows } = await db.query('SELECT endpoint FROM delivery.subscribers WHERE endpoint = ANY($1::text[]) OR endpoint LIKE $2', [endpoints, `%${tag}%`]);
      for (const r of rows) violation(cls, `stored: ${r.endpoint}`);
      // Control: the same request with an endpoint of an allowed host is accepted.
      const ok = validSubscription(`ssrf-control`);
      const control = await probe(cls, jsonRequest('POST', `/public/v1/sites/${sites.fuzz.publicId}/subscriptions`, { subscription: ok, topics: ['news'] }), { siteId: sites.fuzz.id, allowed: [201], what: 'control' });
      if (control.status !== 201) violation(cls, `control subscribe not accepted: ${control.status}`);
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });
  });
}
