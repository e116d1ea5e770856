// A zone by its one name (packages/contracts/src/local-time.ts canonicalZone, audience/zone-names.ts):
// browsers report the same zone by different names (Chrome `Asia/Calcutta`, Firefox
// `Asia/Kolkata`); a subscribe stores IANA's, queries match every name of the zone, and rows
// stored before are renamed in the background, in batches, once per link table.
import { expect } from 'chai';
import { canonicalZone, utcOffsetMinutes, zoneNames } from '@webpush/contracts/local-time.js';
import { TIME_ZONE_LINKS } from '@webpush/contracts/time-zone-links.js';
import { canonicaliseStoredZones, ZONE_NAMES_TASK } from '../src/audience/zone-names.js';
import { stageSql } from '../src/sending/stage-store.js';
import { INTERNAL_AUTH_HEADER } from '@webpush/shared/internal-auth.js';
import { INTERNAL_TOKENS } from '../../../test/support/internal-tokens.js';
import { browserSubscription } from '../../../gateway/test/support/stack.js';
import { newSite, startTestDelivery, type TestDelivery } from './support.js';

describe('time zones by their one name', function () {
  this.timeout(60_000);

  describe('canonicalZone', () => {
    it('names each zone as IANA does, whatever name the browser reported', () => {
      const cases: Record<string, string> = {
        'Asia/Calcutta': 'Asia/Kolkata',
        'Asia/Kolkata': 'Asia/Kolkata',
        'Asia/Katmandu': 'Asia/Kathmandu',
        'Europe/Kiev': 'Europe/Kyiv',
        'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
        'Asia/Saigon': 'Asia/Ho_Chi_Minh',
        'US/Eastern': 'America/New_York',
        'Etc/UTC': 'UTC',
        Zulu: 'UTC',
        UTC: 'UTC',
        'Europe/Lisbon': 'Europe/Lisbon',
        'Not/AZone': 'Not/AZone',
      };
      for (const [reported, name] of Object.entries(cases)) expect(canonicalZone(reported), reported).to.equal(name);
    });

    it('is the same for every name of a zone, names a zone of the same clocks, and is its own name', () => {
      const instants = [2020, 2023, 2026].flatMap((y) => [Date.UTC(y, 0, 15), Date.UTC(y, 6, 15)]).map((ms) => new Date(ms));
      for (const name of [...Intl.supportedValuesOf('timeZone'), ...Object.keys(TIME_ZONE_LINKS)]) {
        const c = canonicalZone(name);
        expect(canonicalZone(c), name).to.equal(c);
        for (const at of instants) expect(utcOffsetMinutes(c, at), `${name} → ${c}`).to.equal(utcOffsetMinutes(name, at));
        expect(zoneNames([c]), name).to.include(name);
      }
    });
  });

  describe('in the delivery service', () => {
    let t: TestDelivery;
    before(async () => {
      t = await startTestDelivery('zone_names');
    });
    after(async () => t?.stop());

    it('stores a subscriber\'s zone by its IANA name', async () => {
      const site = await newSite(t);
      const res = await fetch(`${t.baseUrl}/public/v1/sites/${site.publicId}/subscriptions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', [INTERNAL_AUTH_HEADER]: INTERNAL_TOKENS.GATEWAY_INTERNAL_TOKEN },
        body: JSON.stringify({ subscription: browserSubscription(), topics: ['news'], language: 'en', timeZone: 'Asia/Calcutta' }),
      });
      expect(res.status, await res.text()).to.equal(201);
      const { rows } = await t.pool.query('SELECT time_zone FROM delivery.subscribers WHERE site_id = $1', [site.siteId]);
      expect(rows.map((r) => r.time_zone)).to.deep.equal(['Asia/Kolkata']);
    });

    it('sends a local-time group to every name of its zones, and the site default\'s group to none of them', () => {
      const group = stageSql({ zones: ['Asia/Kolkata'], otherZones: false } as never, '00000000-0000-0000-0000-000000000000', undefined, undefined, 1);
      expect(group.params[0]).to.include.members(['Asia/Kolkata', 'Asia/Calcutta']);
      const rest = stageSql({ zones: ['Europe/Kyiv'], otherZones: true } as never, '00000000-0000-0000-0000-000000000000', undefined, undefined, 1);
      expect(rest.params[0]).to.include.members(['Europe/Kyiv', 'Europe/Kiev']);
    });

    it('renames the zones stored before, in batches, once per link table, and the site default too', async () => {
      await t.pool.query('DELETE FROM delivery.maintenance_done WHERE task = $1', [ZONE_NAMES_TASK]);
      const site = await newSite(t);
      const zones = ['Asia/Calcutta', 'Europe/Kiev', 'Europe/Lisbon', null, 'Not/AZone', 'Etc/UTC'];
      for (const [i, zone] of zones.entries()) {
        await t.pool.query(
          `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country, topics, time_zone) VALUES ($1, $2, 'k', 'a', 'country__br', '{news}', $3)`,
          [site.siteId, `https://fcm.googleapis.com/fcm/send/zone-${i}`, zone],
        );
      }
      await t.pool.query(`UPDATE delivery.sites SET time_zone = 'Asia/Katmandu' WHERE site_id = $1`, [site.siteId]);
      expect(await canonicaliseStoredZones(t.pool)).to.be.at.least(4);
      const { rows } = await t.pool.query('SELECT time_zone FROM delivery.subscribers WHERE site_id = $1 ORDER BY id', [site.siteId]);
      expect(rows.map((r) => r.time_zone)).to.deep.equal(['Asia/Kolkata', 'Europe/Kyiv', 'Europe/Lisbon', null, 'Not/AZone', 'UTC']);
      expect((await t.pool.query('SELECT time_zone FROM delivery.sites WHERE site_id = $1', [site.siteId])).rows[0].time_zone).to.equal('Asia/Kathmandu');
      // Done: a row written now by an older release stays until the next link table.
      await t.pool.query(`UPDATE delivery.subscribers SET time_zone = 'Asia/Calcutta' WHERE site_id = $1 AND time_zone = 'Asia/Kolkata'`, [site.siteId]);
      expect(await canonicaliseStoredZones(t.pool)).to.equal(0);
      // Stopped between batches: nothing marked done, the next pass starts again.
      await t.pool.query('DELETE FROM delivery.maintenance_done WHERE task = $1', [ZONE_NAMES_TASK]);
      expect(await canonicaliseStoredZones(t.pool, () => true)).to.equal(null);
      expect((await t.pool.query('SELECT count(*)::int AS n FROM delivery.maintenance_done WHERE task = $1', [ZONE_NAMES_TASK])).rows[0].n).to.equal(0);
    });
  });
});
