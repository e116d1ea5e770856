// Frequency caps at the claim (sending/delivery-log-store.ts claimCapped), against a real
// Postgres: campaigns claiming the same subscribers at the same moment never let one past its
// cap; the capped get a final row and count in their run; an opted-out campaign is sent to
// everyone and still counts; history older than the window does not count; a resumed row is not
// judged again.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import { claimCapped, frequencyCapOf, type Claimant } from '../../src/sending/delivery-log-store.js';
import { heartbeat } from '../../src/sending/instance-store.js';
import { findRun, runFor } from '../../src/sending/run-store.js';
import { dispatchMessage, newSite, startTestDelivery, type TestDelivery } from '../support.js';

describe('delivery: frequency caps', function () {
  this.timeout(120_000);
  let t: TestDelivery;
  const who = (): Claimant => ({ instanceId, lease: randomUUID(), liveLeases: [] });
  const instanceId = randomUUID();

  before(async () => {
    t = await startTestDelivery('caps');
    await heartbeat(t.pool, instanceId);
  });
  after(async () => {
    await t?.stop();
  });

  async function cappedSite(count: number, cap: { campaigns: number; hours: number } | null) {
    const site = await newSite(t);
    await t.operators.seedSubscribers({ siteId: site.siteId, count, topics: ['all'], countries: ['br'], topicsPerSubscriber: 1 });
    await t.operators.setFrequencyCap(site.siteId, cap);
    const ids = (await t.pool.query(`SELECT s.id::text AS id FROM delivery.subscribers s WHERE s.site_id = $1 ORDER BY s.id`, [site.siteId])).rows.map((r) => r.id as string);
    return { siteId: site.siteId, ids };
  }
  async function campaign(siteId: string): Promise<string> {
    const job = dispatchMessage(siteId, ['all']);
    await runFor(t.pool, job);
    return job.campaignId;
  }
  const claimedBy = async (campaignId: string) =>
    (await t.pool.query(`SELECT subscriber_id::text AS id, state FROM delivery.delivery_log WHERE campaign_id = $1`, [campaignId])).rows as { id: string; state: string }[];

  it('reads and lifts a site\'s cap', async () => {
    const { siteId } = await cappedSite(1, { campaigns: 3, hours: 24 });
    expect(await frequencyCapOf(t.pool, siteId)).to.deep.equal({ campaigns: 3, hours: 24 });
    await t.operators.setFrequencyCap(siteId, null);
    expect(await frequencyCapOf(t.pool, siteId)).to.equal(null);
    for (const bad of [{ campaigns: 0, hours: 1 }, { campaigns: 1, hours: 721 }, { campaigns: 1.5, hours: 2 }]) {
      const err = await t.operators.setFrequencyCap(siteId, bad).catch((e: Error) => e);
      expect(err, JSON.stringify(bad)).to.be.instanceOf(Error);
    }
  });

  it('with N campaigns claiming the same subscribers at once, each subscriber is claimed by exactly `cap` of them; the rest are capped and counted', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 2, max: 4 }), fc.integer({ min: 1, max: 1_000_000 }), async (capCampaigns, campaigns, seed) => {
        fc.pre(campaigns > capCampaigns);
        const { siteId, ids } = await cappedSite(60, { campaigns: capCampaigns, hours: 24 });
        const cs = await Promise.all(Array.from({ length: campaigns }, () => campaign(siteId)));
        // Every campaign claims every slice, in an order of its own, all at once.
        const slices = [ids.slice(0, 20), ids.slice(20, 40), ids.slice(40)];
        await Promise.all(
          cs.flatMap((c, k) => {
            const order = [...slices].sort((a, b) => ((seed * (k + 1) + a.length * 7 + Number(a[0])) % 5) - ((seed * (k + 1) + b.length * 7 + Number(b[0])) % 5));
            return order.map((slice) => claimCapped(t.pool, c, slice, who(), 30, { campaigns: capCampaigns, hours: 24 }, true));
          }),
        );
        const perSubscriber = new Map<string, number>();
        let capped = 0;
        for (const c of cs) {
          const rows = await claimedBy(c);
          expect(rows).to.have.length(ids.length);
          for (const r of rows) {
            if (r.state === 'claimed') perSubscriber.set(r.id, (perSubscriber.get(r.id) ?? 0) + 1);
            else capped++;
          }
          expect((await findRun(t.pool, c))!.sent).to.equal(0);
        }
        expect([...perSubscriber.values()].every((n) => n === capCampaigns) && perSubscriber.size === ids.length).to.equal(true);
        const counted = (await t.pool.query(`SELECT sum(capped)::int AS n FROM delivery.campaign_runs WHERE campaign_id = ANY($1::uuid[])`, [cs])).rows[0].n;
        expect(counted).to.equal(capped);
        expect(capped).to.equal(ids.length * (campaigns - capCampaigns));
      }),
      { numRuns: 6, seed: 11 },
    );
  });

  it('an opted-out campaign reaches everyone and counts towards the cap; history older than the window does not count; a resumed row is not judged again', async () => {
    const { siteId, ids } = await cappedSite(10, { campaigns: 1, hours: 24 });
    const cap = { campaigns: 1, hours: 24 };
    const urgent = await campaign(siteId);
    expect((await claimCapped(t.pool, urgent, ids, who(), 30, cap, false)).ids.sort()).to.deep.equal([...ids].sort());
    const next = await campaign(siteId);
    const r = await claimCapped(t.pool, next, ids, who(), 30, cap, true);
    expect([r.ids.length, r.capped]).to.deep.equal([0, ids.length]);
    // A day later the urgent one is out of the window.
    await t.pool.query(`UPDATE delivery.subscriber_pushes SET at = now() - interval '25 hours' WHERE campaign_id = $1`, [urgent]);
    const later = await campaign(siteId);
    const first = await claimCapped(t.pool, later, ids.slice(0, 5), who(), 30, cap, true);
    expect(first.ids).to.have.length(5);
    // The same rows claimed again (their lease is not live: a retried chunk) are resumed, not capped.
    const again = await claimCapped(t.pool, later, ids.slice(0, 5), who(), 30, cap, true);
    expect([again.ids.length, again.capped]).to.deep.equal([5, 0]);
  });
});
