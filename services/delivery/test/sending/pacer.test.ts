// The pacer (sending/pacer.ts) against a real Postgres, its chunks recorded as Kafka would carry
// them: a throttled dispatch publishes nothing at once; each due pass publishes one chunk of
// about a quarter second's worth; the whole (segmented) audience goes out once, in order; a run
// that fell behind resumes at the pace instead of bursting; the chunk size and interval follow the rate.
import { expect } from 'chai';
import fc from 'fast-check';
import { pace } from '../../src/sending/pacer.js';
import { findRun } from '../../src/sending/run-store.js';
import { dispatchMessage, newSite, startTestDelivery, type TestDelivery } from '../support.js';
import { expansionRecorder } from './support/expansion.js';

const noop = async () => {};

describe('delivery: pacing throttled campaigns', function () {
  this.timeout(60_000);
  let t: TestDelivery;
  let siteId: string;

  before(async () => {
    t = await startTestDelivery('pacer');
    siteId = (await newSite(t)).siteId;
    await t.operators.seedSubscribers({ siteId, count: 47, topics: ['all'], countries: ['br'], topicsPerSubscriber: 1 });
    await t.pool.query(`UPDATE delivery.subscribers SET language = CASE WHEN id % 2 = 0 THEN 'pt-BR' ELSE 'en' END WHERE site_id = $1`, [siteId]);
  });
  after(async () => {
    await t?.stop();
  });

  const setup = () => expansionRecorder(t);
  const due = (campaignId: string) => t.pool.query(`UPDATE delivery.campaign_runs SET next_expand_at = now() WHERE campaign_id = $1`, [campaignId]);

  it('publishes nothing at dispatch, then one chunk per due pass until the (segmented) audience is out, each subscriber once', async () => {
    const { chunks, dispatch, pacer } = setup();
    const job = { ...dispatchMessage(siteId, ['all']), throttlePerMinute: 2400, segment: { languages: ['pt'] } }; // 10 per 250 ms
    await dispatch(job, noop);
    expect(chunks).to.deep.equal([]);
    expect((await findRun(t.pool, job.campaignId))!.state).to.equal('expanding');
    for (let pass = 0; pass < 10 && (await findRun(t.pool, job.campaignId))!.state === 'expanding'; pass++) {
      await due(job.campaignId);
      expect(await pacer.advanceDue()).to.equal(1);
      const notYet = await pacer.advanceDue(); // the next chunk is 250 ms away
      expect(notYet).to.equal(0);
    }
    const expected = (await t.pool.query(`SELECT s.id::text AS id FROM delivery.subscribers s WHERE s.site_id = $1 AND s.active AND s.language = 'pt-BR' ORDER BY s.id`, [siteId])).rows.map((r) => r.id);
    expect(chunks.flatMap((c) => c.subscriberIds)).to.deep.equal(expected);
    expect(chunks.map((c) => c.chunkNo)).to.deep.equal(chunks.map((_, i) => i));
    expect(chunks.every((c) => c.subscriberIds.length <= 10)).to.equal(true);
    const run = (await findRun(t.pool, job.campaignId))!;
    expect(run.chunksTotal).to.equal(chunks.length);
    expect(run.state).to.be.oneOf(['sending', 'completed']);
    const repeated = setup();
    await repeated.dispatch(job, noop); // a repeated dispatch of a run already taken: nothing
    expect(repeated.chunks).to.deep.equal([]);
  });

  it('a run that fell behind (an outage) gets one chunk per pass, not its backlog at once, and is next due one interval later', async () => {
    const { chunks, dispatch, pacer } = setup();
    const job = { ...dispatchMessage(siteId, ['all']), throttlePerMinute: 240 }; // 1 per 250 ms
    await dispatch(job, noop);
    await t.pool.query(`UPDATE delivery.campaign_runs SET next_expand_at = now() - interval '1 hour' WHERE campaign_id = $1`, [job.campaignId]);
    expect(await pacer.advanceDue()).to.equal(1);
    expect(chunks).to.have.length(1);
    const { rows } = await t.pool.query(`SELECT extract(epoch FROM next_expand_at - now()) * 1000 AS ms FROM delivery.campaign_runs WHERE campaign_id = $1`, [job.campaignId]);
    expect(Number(rows[0].ms)).to.be.within(-300, 10);
    expect(await pacer.advanceDue()).to.be.at.most(1);
  });

  it('paces at the rate: about a quarter second per chunk, never above the chunk size, the interval keeping the rate exact', () => {
    expect(pace(1200, 500)).to.deep.equal({ size: 5, intervalMs: 250 });
    expect(pace(30, 500)).to.deep.equal({ size: 1, intervalMs: 2000 });
    expect(pace(1_000_000, 500)).to.deep.equal({ size: 500, intervalMs: 30 });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: 5000 }), (perMinute, maxChunk) => {
        const { size, intervalMs } = pace(perMinute, maxChunk);
        return size >= 1 && size <= maxChunk && Math.abs((size / intervalMs) * 60_000 - perMinute) < 1e-6 * perMinute;
      }),
    );
  });
});
