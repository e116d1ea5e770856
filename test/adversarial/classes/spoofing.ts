// Class 8: spoofed forwarding, country and internal headers sent by a client through the
// gateway. With no trusted proxy configured (the default), the gateway believes none of them:
// a subscribe carrying `cf-ipcountry: FR` (the configured country header) lands in
// `country__desconhecido`, and a client's x-internal-auth neither breaks nor changes anything.
import type { HeaderList } from '../support/http.js';
import { probe } from '../support/probe.js';
import { assertNoViolations, trackViolations, COUNTRY_HEADER, endOfClassChecks, getCtx, jsonRequest, validSubscription, violation } from '../support/suite.js';

export const CLASS_SPOOF = '8 spoofed client headers';
const cls = CLASS_SPOOF;

export function registerSpoofing(): void {
  describe(CLASS_SPOOF, function () {
    this.timeout(60_000);
    trackViolations(cls);

    it('forwarding, country and internal headers from an untrusted client are ignored: the subscriber lands in country__desconhecido', async () => {
      const { sites, db } = getCtx();
      const spoofs: [string, HeaderList][] = [
        [`${COUNTRY_HEADER}: FR`, [[COUNTRY_HEADER, 'FR']]],
        ['CF-IPCountry: FR (case)', [['CF-IPCountry', 'FR']]],
        [`${COUNTRY_HEADER} twice`, [[COUNTRY_HEADER, 'FR'], [COUNTRY_HEADER, 'DE']]],
        ['x-client-country: FR', [['x-client-country', 'FR']]],
        ['x-client-country + x-client-address', [['x-client-country', 'FR'], ['x-client-address', '203.0.113.5']]],
        ['X-Forwarded-For + cf-ipcountry', [['X-Forwarded-For', '203.0.113.6, 198.51.100.1'], [COUNTRY_HEADER, 'FR']]],
        ['Forwarded + X-Real-IP + cf-ipcountry', [['Forwarded', 'for=203.0.113.7;proto=https'], ['X-Real-IP', '203.0.113.7'], [COUNTRY_HEADER, 'FR']]],
        ['x-internal-auth (random) + x-client-country', [['x-internal-auth', 'c3Bvb2ZlZC1ieS1hLWNsaWVudC0wMTIzNDU2Nzg5MDEyMzQ1Njc4OQ=='], ['x-client-country', 'FR']]],
        ['x-internal-auth (empty) + cf-ipcountry', [['x-internal-auth', ''], [COUNTRY_HEADER, 'FR']]],
        ['x-test-country + x-country + geoip', [['x-test-country', 'FR'], ['x-country', 'FR'], ['x-geoip-country', 'FR'], ['x-appengine-country', 'FR'], ['cloudfront-viewer-country', 'FR']]],
        ['Connection: x-client-country (hop-by-hop trick)', [['Connection', 'close, x-client-country'], ['x-client-country', 'FR'], [COUNTRY_HEADER, 'FR']]],
      ];
      for (const [label, headers] of spoofs) {
        const sub = validSubscription('spoof');
        const r = await probe(cls, jsonRequest('POST', `/public/v1/sites/${sites.fuzz.publicId}/subscriptions`, { subscription: sub, topics: ['spoof'] }, undefined, headers), {
          siteId: sites.fuzz.id,
          allowed: [201],
          what: label,
        });
        if (r.status !== 201) {
          violation(cls, `${label}: the subscribe itself was not served (${r.status})`);
          continue;
        }
        const { rows } = await db.query('SELECT country FROM delivery.subscribers WHERE site_id = $1 AND endpoint = $2', [sites.fuzz.id, sub.endpoint]);
        if (rows[0]?.country !== 'country__desconhecido') violation(cls, `${label}: the subscriber landed in ${rows[0]?.country ?? '(not stored)'}`);
      }
      // The same headers on the /v2 API change nothing either.
      for (const [label, headers] of spoofs) {
        await probe(cls, { method: 'GET', path: '/v2/countries', headers: [['Authorization', sites.fuzz.apiKey], ...headers] }, { siteId: sites.fuzz.id, allowed: [200], what: label });
      }
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });
  });
}
