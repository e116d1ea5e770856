import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { createLogger } from '@webpush/shared/log.js';
import { createScheduler } from '../src/scheduler/scheduler.js';
import { rejection, startHarness, validCampaign, type Harness, type TestSite } from './support/harness.js';

describe('scheduler', function () {
  this.timeout(60_000);
  let h: Harness;
  let site: TestSite;
  const log = createLogger('test', 'error');

  before(async () => {
    h = await startHarness('campaign_scheduler');
    site = await h.newSite();
  });
  after(async () => h?.stop());

  const createScheduled = async (scheduleDate: string) =>
    (
      await h.call<{ id: string }>('CreateCampaign', {
        siteId: site.siteId,
        bodyJson: JSON.stringify(validCampaign({ status: 'published', scheduleMode: 'scheduled', scheduleDate })),
        idempotencyKey: '',
      })
    ).id;
  const outboxRows = async (id: string) => (await h.pool.query('SELECT kind, payload FROM campaign.outbox WHERE campaign_id = $1', [id])).rows;
  const dispatchedAt = async (id: string) => (await h.pool.query('SELECT dispatched_at FROM campaign.campaigns WHERE id = $1', [id])).rows[0]?.dispatched_at ?? null;

  it('when a campaign is due, then one tick dispatches it with one outbox row; a future one waits', async () => {
    const due = await createScheduled('2020-01-01T00:00:00Z');
    const future = await createScheduled('2099-01-01T00:00:00Z');
    const scheduler = createScheduler({ pool: h.pool, log }, { intervalMs: 1000, batchSize: 100 });
    expect(await scheduler.tick()).to.be.greaterThanOrEqual(1);
    const rows = await outboxRows(due);
    expect(rows).to.have.length(1);
    expect(rows[0].kind).to.equal('campaign.dispatch');
    expect(Object.keys(rows[0].payload)).to.deep.equal(['requestId']);
    expect(await dispatchedAt(due)).to.not.equal(null);
    expect(await outboxRows(future)).to.have.length(0);
    await scheduler.tick();
    expect(await outboxRows(due)).to.have.length(1);
  });

  it('when many schedulers race over many due campaigns, then each is dispatched exactly once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await createScheduled('2021-01-01T00:00:00Z'));
    const schedulers = Array.from({ length: 6 }, () => createScheduler({ pool: h.pool, log }, { intervalMs: 1000, batchSize: 4 }));
    await Promise.all(schedulers.map((s) => s.tick()));
    const { rows } = await h.pool.query('SELECT campaign_id, count(*)::int AS n FROM campaign.outbox WHERE campaign_id = ANY($1) GROUP BY campaign_id', [ids]);
    expect(rows).to.have.length(ids.length);
    expect(rows.every((r) => r.n === 1)).to.equal(true);
  });

  it('when 3 service instances run their schedulers, then a due campaign is dispatched once', async () => {
    const id = await createScheduled('2022-01-01T00:00:00Z');
    const instances = await Promise.all([1, 2, 3].map(() => h.startInstance({ SCHEDULER_ENABLED: 'true', SCHEDULER_INTERVAL_MS: '20' })));
    for (let i = 0; i < 200 && (await dispatchedAt(id)) === null; i++) await new Promise((r) => setTimeout(r, 50));
    // Give the other instances several more ticks to (wrongly) fire again.
    await new Promise((r) => setTimeout(r, 300));
    await Promise.all(instances.map((i) => i.stop()));
    expect(await dispatchedAt(id)).to.not.equal(null);
    expect(await outboxRows(id)).to.have.length(1);
  });

  /** Inserts `count` published campaigns due at `at`, straight into the table (a crowd, quickly). */
  async function crowdDueAt(count: number, at: Date): Promise<string[]> {
    const { rows } = await h.pool.query(
      `INSERT INTO campaign.campaigns (site_id, title, body, link, topics, status, schedule_mode, schedule_date, ttl)
       SELECT $1, 'Crowd ' || g, 'body', 'https://x.example', '{news}', 'published', 'scheduled', $2, 60 FROM generate_series(1, $3) g
       RETURNING id`,
      [site.siteId, at, count],
    );
    return rows.map((r) => r.id);
  }
  const dispatchedOf = async (ids: string[]) => (await h.pool.query('SELECT count(*)::int AS n FROM campaign.campaigns WHERE id = ANY($1) AND dispatched_at IS NOT NULL', [ids])).rows[0].n;

  it('when a campaign falls due before the next interval, then the scheduler wakes at its date, not on the interval', async () => {
    // Ten minutes between ticks: only a wake at the schedule date dispatches it within the test.
    const scheduler = createScheduler({ pool: h.pool, log }, { intervalMs: 600_000, batchSize: 100 });
    const at = new Date(Math.ceil((Date.now() + 1500) / 1000) * 1000);
    const id = await createScheduled(at.toISOString());
    scheduler.start();
    for (let i = 0; i < 200 && (await dispatchedAt(id)) === null; i++) await new Promise((r) => setTimeout(r, 50));
    await scheduler.stop();
    const dispatched = await dispatchedAt(id);
    expect(dispatched, 'dispatched before the interval').to.not.equal(null);
    expect((dispatched as Date).getTime()).to.be.at.least(at.getTime());
    expect(await outboxRows(id)).to.have.length(1);
  });

  it('when 2,000 campaigns fall due in the same second with two schedulers running, then each is dispatched exactly once', async () => {
    // Small batches and a ten-minute interval: the crowd is many ticks' worth, so it is dispatched
    // only if a tick that ends with campaigns still due goes on at once.
    const schedulers = [1, 2].map(() => createScheduler({ pool: h.pool, log }, { intervalMs: 600_000, batchSize: 10 }));
    const at = new Date(Math.ceil((Date.now() + 2000) / 1000) * 1000);
    const ids = await crowdDueAt(2000, at);
    for (const s of schedulers) s.start();
    for (let i = 0; i < 600 && (await dispatchedOf(ids)) < ids.length; i++) await new Promise((r) => setTimeout(r, 50));
    await Promise.all(schedulers.map((s) => s.stop()));
    expect(await dispatchedOf(ids)).to.equal(ids.length);
    const { rows } = await h.pool.query('SELECT campaign_id, count(*)::int AS n FROM campaign.outbox WHERE campaign_id = ANY($1) GROUP BY campaign_id', [ids]);
    expect(rows).to.have.length(ids.length);
    expect(rows.filter((r) => r.n !== 1)).to.deep.equal([]);
    const early = await h.pool.query('SELECT count(*)::int AS n FROM campaign.campaigns WHERE id = ANY($1) AND dispatched_at < schedule_date', [ids]);
    expect(early.rows[0].n, 'dispatched before its date').to.equal(0);
  });

  it('when delete races the dispatch, then exactly one wins in every trial', async () => {
    const scheduler = createScheduler({ pool: h.pool, log }, { intervalMs: 1000, batchSize: 100 });
    const outcomes = { deleted: 0, alreadySent: 0 };
    for (let trial = 0; trial < 30; trial++) {
      const id = await createScheduled('2023-01-01T00:00:00Z');
      const [deletion] = await Promise.allSettled([
        h.call('DeleteCampaign', { siteId: site.siteId, campaignId: id }),
        scheduler.tick(),
      ]);
      const rows = await outboxRows(id);
      if (deletion.status === 'fulfilled') {
        outcomes.deleted++;
        expect(rows, `trial ${trial}: deleted but dispatched`).to.have.length(0);
        expect(await dispatchedAt(id)).to.equal(null);
      } else {
        const err = await rejection(Promise.reject(deletion.reason));
        expect({ code: err.code, details: err.details }).to.deep.equal({ code: grpc.status.FAILED_PRECONDITION, details: 'Cannot delete a campaign that has already been sent' });
        outcomes.alreadySent++;
        expect(rows, `trial ${trial}: refused but not dispatched once`).to.have.length(1);
      }
    }
    expect(outcomes.deleted + outcomes.alreadySent).to.equal(30);
    console.log(`      (30 trials: delete won ${outcomes.deleted}, dispatch won ${outcomes.alreadySent})`);
  });

  it('when a tick fails, then it is logged and the scheduler keeps running', async () => {
    const errors: string[] = [];
    const spyLog = { ...log, error: (msg: string) => errors.push(msg), child: () => spyLog };
    const down = async () => Promise.reject(new Error('database down'));
    const brokenPool = { connect: down, query: down } as never;
    const scheduler = createScheduler({ pool: brokenPool, log: spyLog }, { intervalMs: 10, batchSize: 10 });
    scheduler.start();
    for (let i = 0; i < 100 && errors.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    await scheduler.stop();
    expect(errors.length).to.be.greaterThanOrEqual(2);
  });
});
