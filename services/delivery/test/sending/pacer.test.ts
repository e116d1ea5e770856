// The pacer (sending/pacer.ts) against a real Postgres, its chunks recorded as Kafka would carry
// them: a throttled dispatch publishes nothing at once; the first due pass publishes the lead
// (LEAD_MS ahead), each later one the chunk of about a quarter second's worth due then; a late
// pass catches up instead of dropping time; the whole (segmented) audience goes out once, in
// order; a run that fell behind gets its lead, not its backlog; the chunk size and interval
// follow the rate. The pace of the pushes themselves: send-pace.test.ts.
import { expect } from 'chai';
import fc from 'fast-check';
import { LEAD_MS, pace } from '../../src/sending/pacer.js';
import { findRun } from '../../src/sending/run-store.js';
import { dispatchMessage, newSite, startTestDelivery, type TestDelivery } from '../support.js';
import { CHUNKS_PER_PASS, expansionRecorder } from './support/expansion.js';

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

  it('publishes nothing at dispatch, then the lead at once, then one chunk per due pass until the (segmented) audience is out, each subscriber once', async () => {
    const { chunks, dispatch, pacer } = setup();
    const job = { ...dispatchMessage(siteId, ['all']), throttlePerMinute: 240, segment: { languages: ['pt'] } }; // 1 per 250 ms
    await dispatch(job, noop);
    expect(chunks).to.deep.equal([]);
    expect((await findRun(t.pool, job.campaignId))!.state).to.equal('expanding');
    await due(job.campaignId);
    expect(await pacer.advanceDue()).to.equal(1);
    expect(chunks).to.have.length(Math.min(CHUNKS_PER_PASS, LEAD_MS / 250 + 1)); // the lead (its pace is kept where the pushes go out, send-pace.ts)
    for (let pass = 0; pass < 5 && chunks.length < LEAD_MS / 250 + 1; pass++) await pacer.advanceDue(); // the rest of the lead, a pass at a time
    expect(chunks).to.have.length(LEAD_MS / 250 + 1);
    expect(await pacer.advanceDue()).to.equal(0); // the next chunk is 250 ms away
    for (let pass = 0; pass < 30 && (await findRun(t.pool, job.campaignId))!.state === 'expanding'; pass++) {
      const before = chunks.length;
      await due(job.campaignId);
      expect(await pacer.advanceDue()).to.equal(1);
      expect(chunks.length - before).to.be.at.most(1);
    }
    const expected = (await t.pool.query(`SELECT s.id::text AS id FROM delivery.subscribers s WHERE s.site_id = $1 AND s.active AND s.language = 'pt-BR' ORDER BY s.id`, [siteId])).rows.map((r) => r.id);
    expect(chunks.flatMap((c) => c.subscriberIds)).to.deep.equal(expected);
    expect(chunks.map((c) => c.chunkNo)).to.deep.equal(chunks.map((_, i) => i));
    expect(chunks.every((c) => c.subscriberIds.length === 1)).to.equal(true);
    const run = (await findRun(t.pool, job.campaignId))!;
    expect(run.chunksTotal).to.equal(chunks.length);
    expect(run.state).to.be.oneOf(['sending', 'completed']);
    const repeated = setup();
    await repeated.dispatch(job, noop); // a repeated dispatch of a run already taken: nothing
    expect(repeated.chunks).to.deep.equal([]);
  });

  it('a pass that comes late publishes every chunk due by then (time is not dropped), and is next due from the published end', async () => {
    const { chunks, dispatch, pacer } = setup();
    const job = { ...dispatchMessage(siteId, ['all']), throttlePerMinute: 240 }; // 1 per 250 ms
    await dispatch(job, noop);
    await due(job.campaignId);
    await pacer.advanceDue();
    const lead = chunks.length;
    // Three intervals late (a busy machine): the three chunks missed and the one due now.
    await t.pool.query(`UPDATE delivery.campaign_runs SET next_expand_at = now() - interval '750 milliseconds' WHERE campaign_id = $1`, [job.campaignId]);
    expect(await pacer.advanceDue()).to.equal(1);
    expect(chunks.length - lead).to.equal(4);
    const { rows } = await t.pool.query(`SELECT extract(epoch FROM next_expand_at - now()) * 1000 AS ms FROM delivery.campaign_runs WHERE campaign_id = $1`, [job.campaignId]);
    expect(Number(rows[0].ms)).to.be.within(-5000, 251); // 250 ms from that pass, less the time since
  });

  it('a run that fell behind (an outage) gets its lead again (as much as a pass publishes), not its backlog at once', async () => {
    const { chunks, dispatch, pacer } = setup();
    const job = { ...dispatchMessage(siteId, ['all']), throttlePerMinute: 240 }; // 1 per 250 ms
    await dispatch(job, noop);
    await due(job.campaignId);
    await pacer.advanceDue();
    const lead = chunks.length;
    await t.pool.query(`UPDATE delivery.campaign_runs SET next_expand_at = now() - interval '1 hour' WHERE campaign_id = $1`, [job.campaignId]);
    expect(await pacer.advanceDue()).to.equal(1);
    expect(chunks.length - lead).to.equal(Math.min(CHUNKS_PER_PASS, LEAD_MS / 250 + 1));
    const { rows } = await t.pool.query(`SELECT extract(epoch FROM next_expand_at - now()) * 1000 AS ms FROM delivery.campaign_runs WHERE campaign_id = $1`, [job.campaignId]);
    expect(Number(rows[0].ms)).to.be.at.most(251); // next due at most one interval on (or at once, when a pass could not publish the whole lead)
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
