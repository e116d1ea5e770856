// A finished run's results by browser family (tracking/counter-store.ts fillResultsByBrowser),
// against a real Postgres: computed once the run is final and unpublished, from its delivery log
// and each subscriber's push service; a run still sending has none.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { changedCounters, fillResultsByBrowser } from '../src/tracking/counter-store.js';
import { runFor } from '../src/sending/run-store.js';
import { dispatchMessage, newSite, startTestDelivery, type TestDelivery } from './support.js';

describe('delivery: results by browser', function () {
  this.timeout(60_000);
  let t: TestDelivery;

  before(async () => {
    t = await startTestDelivery('by_browser');
  });
  after(async () => {
    await t?.stop();
  });

  it('counts a finished run\'s outcomes per browser family, once; a run still sending has none', async () => {
    const { siteId } = await newSite(t);
    const hosts = ['fcm.googleapis.com', 'fcm.googleapis.com', 'fcm.googleapis.com', 'updates.push.services.mozilla.com', 'web.push.apple.com', '127.0.0.1'];
    const states = ['sent', 'failed', 'capped', 'sent', 'expired', 'sent'];
    const job = dispatchMessage(siteId, ['news']);
    const sending = dispatchMessage(siteId, ['news']);
    await runFor(t.pool, job);
    await runFor(t.pool, sending);
    for (const [i, host] of hosts.entries()) {
      const { rows } = await t.pool.query(
        `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country, topics) VALUES ($1, $2, 'k', 'a', 'country__br', '{news}') RETURNING id`,
        [siteId, `https://${host}/push/${randomUUID()}`],
      );
      for (const campaignId of [job.campaignId, sending.campaignId]) {
        await t.pool.query(`INSERT INTO delivery.delivery_log (campaign_id, subscriber_id, state, claimed_by) VALUES ($1, $2, $3, $4)`, [campaignId, rows[0].id, states[i], randomUUID()]);
      }
    }
    await t.pool.query(`UPDATE delivery.campaign_runs SET state = 'completed' WHERE campaign_id = $1`, [job.campaignId]);
    await t.pool.query(`UPDATE delivery.campaign_runs SET state = 'sending' WHERE campaign_id = $1`, [sending.campaignId]);
    expect(await fillResultsByBrowser(t.pool, 100)).to.be.at.least(1);
    const counters = await changedCounters(t.pool, 1000);
    expect(counters.find((c) => c.campaignId === job.campaignId)!.byBrowser).to.deep.equal({
      chrome: { sent: 1, failed: 1, expired: 0, capped: 1 },
      firefox: { sent: 1, failed: 0, expired: 0, capped: 0 },
      safari: { sent: 0, failed: 0, expired: 1, capped: 0 },
      other: { sent: 1, failed: 0, expired: 0, capped: 0 },
    });
    expect(counters.find((c) => c.campaignId === sending.campaignId)!.byBrowser).to.equal(null);
    // Once computed, not again.
    expect(await fillResultsByBrowser(t.pool, 100)).to.equal(0);
  });
});
