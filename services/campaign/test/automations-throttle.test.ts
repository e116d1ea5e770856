// Throttling for automations (src/automations/automation-store.ts, claimPaced; docs/api-decisions.md,
// "Automations", "Throttling"): `throttlePerMinute` refused when not a whole number from 1 to
// 1000000 or null (nothing stored), changed by PATCH; the runner takes a throttled automation's due
// steps at its pace — each step a slot of 60 s ÷ the rate on the automation's clock, a second's
// worth a pass — in due order, never more when runners race, never a burst after a pause; the
// unthrottled claim is unchanged. Time passing is the clock moved back in the database (or the
// clock set against the transaction's own now()), never a wait: the counts are exact.
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Automation__Output } from '@webpush/contracts/generated/campaign/v1/Automation.js';
import type { ListAutomationsResponse__Output } from '@webpush/contracts/generated/campaign/v1/ListAutomationsResponse.js';
import type { Template__Output } from '@webpush/contracts/generated/campaign/v1/Template.js';
import { withTransaction } from '@webpush/shared/db.js';
import { createLogger } from '@webpush/shared/log.js';
import { createCursorCodec } from '../src/campaigns/index.js';
import { templateUseCases } from '../src/templates/index.js';
import { createStepRunner, sendDueSteps } from '../src/automations/index.js';
import { nextDue } from '../src/automations/automation-store.js';
import { expectStatus, startHarness, type Harness, type TestSite } from './support/harness.js';

const THROTTLE_MESSAGE = 'throttlePerMinute must be a whole number from 1 to 1000000 or null';

describe('Automations: throttling', function () {
  this.timeout(60_000);
  let h: Harness;
  let site: TestSite;
  let templateId: string;
  let render: ReturnType<typeof templateUseCases>['renderForNotification'];

  before(async () => {
    h = await startHarness('campaign_automation_throttle');
    site = await h.newSite();
    templateId = (await h.call<Template__Output>('CreateTemplate', { siteId: site.siteId, bodyJson: JSON.stringify({ name: 'tip', title: 'A tip', body: 'For you', link: 'https://shop.example/' }) })).id;
    render = templateUseCases({ pool: h.pool, cursors: createCursorCodec(randomBytes(32)) }).renderForNotification;
  });
  after(async () => h?.stop());

  const req = (f: { automationId?: string; body?: unknown } = {}) => ({
    siteId: site.siteId,
    automationId: f.automationId ?? '',
    bodyJson: f.body === undefined ? '' : JSON.stringify(f.body),
    limit: '',
    cursor: '',
    idempotencyKey: '',
  });
  /** An event automation of two steps a day apart; each test's own event name, so no other test's runs start. */
  const series = (eventName: string, overrides: object = {}) => ({ name: eventName, trigger: { type: 'event', name: eventName }, steps: [{ delaySeconds: 0, templateId }, { delaySeconds: 86_400, templateId }], ...overrides });
  const create = (body: unknown) => h.call<Automation__Output>('CreateAutomation', req({ body }));
  const patch = (automationId: string, body: unknown) => h.call<Automation__Output>('UpdateAutomation', req({ automationId, body }));
  const remove = (automationId: string) => h.call('DeleteAutomation', req({ automationId }));
  const count = async (sql: string, params: unknown[] = []) => Number((await h.pool.query(`SELECT count(*) FROM ${sql}`, params)).rows[0].count);
  const sendsOf = (automationId: string) => count('campaign.automation_sends WHERE automation_id = $1', [automationId]);
  /** `n` people start the automation's run, their first step due now, one second apart in due order (person 0 first). */
  async function enrol(automationId: string, n: number) {
    await h.pool.query(
      `INSERT INTO campaign.automation_enrolments (automation_id, external_id, due_at, state)
       SELECT $1, 'p-' || lpad(i::text, 3, '0'), now() - make_interval(secs => $2 - i), 'active' FROM generate_series(0, $2 - 1) AS i`,
      [automationId, n],
    );
  }
  const clockOf = async (automationId: string): Promise<Date | null> => (await h.pool.query(`SELECT paced_until FROM campaign.automations WHERE id = $1`, [automationId])).rows[0].paced_until;
  /** A second passes for the automation's pace: its clock moved back. */
  const secondPasses = (automationId: string) => h.pool.query(`UPDATE campaign.automations SET paced_until = paced_until - interval '1 second' WHERE id = $1`, [automationId]);
  const pass = (limit = 100) => withTransaction(h.pool, (tx) => sendDueSteps(tx, render, limit));
  /** Runs `fn` in one transaction on its own connection: now() is the same for every statement in it. */
  async function inOneTransaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await h.pool.connect();
    try {
      await client.query('BEGIN');
      const out = await fn(client);
      await client.query('COMMIT');
      return out;
    } catch (err) {
      await client.query('ROLLBACK');
      throw err;
    } finally {
      client.release();
    }
  }

  it('when throttlePerMinute is not a whole number from 1 to 1000000 or null, then create and PATCH are refused with its message and nothing is stored', async () => {
    const before = (await h.pool.query(`SELECT id, name, status, throttle_per_minute, updated_at FROM campaign.automations ORDER BY id`)).rows;
    for (const bad of [0, -1, 1.5, '10', 1_000_001, 2 ** 53, 1e308, true, {}, [], { perMinute: 10 }]) {
      await expectStatus(create(series('refused', { throttlePerMinute: bad })), grpc.status.INVALID_ARGUMENT, THROTTLE_MESSAGE);
    }
    // Joined with the other fields' messages, in the fields' order.
    await expectStatus(create(series('refused', { name: '', throttlePerMinute: 0 })), grpc.status.INVALID_ARGUMENT, `name must be a string of 1 to 100 characters, ${THROTTLE_MESSAGE}`);
    expect((await h.pool.query(`SELECT id, name, status, throttle_per_minute, updated_at FROM campaign.automations ORDER BY id`)).rows).to.deep.equal(before);
    const a = await create(series('patched'));
    const stored = async () => (await h.pool.query(`SELECT name, status, throttle_per_minute, updated_at FROM campaign.automations WHERE id = $1`, [a.id])).rows[0];
    const was = await stored();
    for (const bad of [0, -1, 1.5, '10', 1_000_001, {}, []]) await expectStatus(patch(a.id, { throttlePerMinute: bad }), grpc.status.INVALID_ARGUMENT, THROTTLE_MESSAGE);
    await expectStatus(patch(a.id, { status: 'paused', throttlePerMinute: 0 }), grpc.status.INVALID_ARGUMENT, THROTTLE_MESSAGE);
    await expectStatus(patch(a.id, { throttlePerMinute: 10, steps: [] }), grpc.status.INVALID_ARGUMENT, 'An update takes only name, status and throttlePerMinute, at least one of them');
    await expectStatus(patch(a.id, {}), grpc.status.INVALID_ARGUMENT, 'An update takes only name, status and throttlePerMinute, at least one of them');
    await expectStatus(create({ ...series('refused'), throttle: 10 }), grpc.status.INVALID_ARGUMENT, 'An automation takes only name, status, trigger, steps, exitOn and throttlePerMinute');
    expect(await stored()).to.deep.equal(was);
    await remove(a.id);
  });

  it('when an automation is created or changed with throttlePerMinute, then every answer shows it (absent when none), and PATCH sets, keeps and removes it', async () => {
    const a = await create(series('shown', { throttlePerMinute: 120 }));
    expect(a.throttlePerMinute).to.equal(120);
    expect((await h.call<Automation__Output>('GetAutomation', req({ automationId: a.id }))).throttlePerMinute).to.equal(120);
    const listed = await h.call<ListAutomationsResponse__Output>('ListAutomations', req());
    expect(listed.items.find((i) => i.id === a.id)?.throttlePerMinute).to.equal(120);
    // Other fields change; the throttle stays.
    expect(await patch(a.id, { name: 'renamed' })).to.deep.include({ name: 'renamed', throttlePerMinute: 120 });
    expect((await patch(a.id, { throttlePerMinute: 1_000_000, status: 'paused' })).throttlePerMinute).to.equal(1_000_000);
    const removed = await patch(a.id, { throttlePerMinute: null });
    expect(removed.throttlePerMinute).to.equal(undefined);
    expect(removed.status).to.equal('paused');
    expect((await h.pool.query(`SELECT throttle_per_minute FROM campaign.automations WHERE id = $1`, [a.id])).rows[0].throttle_per_minute).to.equal(null);
    expect((await patch(a.id, { throttlePerMinute: 1 })).throttlePerMinute).to.equal(1);
    // null on create is none, as absent is.
    const none = await create(series('none', { throttlePerMinute: null }));
    expect(none.throttlePerMinute).to.equal(undefined);
    for (const id of [a.id, none.id]) await remove(id);
  });

  it('when 20 people are due at 120 a minute, then each second (the clock moved back by one) takes exactly 2, oldest due first, and the clock holds a slot of 0.5 s for each', async () => {
    const a = await create(series('pace', { throttlePerMinute: 120 }));
    await enrol(a.id, 20);
    const first = await pass();
    expect(first).to.deep.include({ claimed: 2, sent: 2, notifications: 1 });
    // The clock: the pass's now() plus two slots of half a second (sent_at is that transaction's now()).
    const { rows } = await h.pool.query(`SELECT extract(epoch FROM a.paced_until - s.sent_at)::float AS lead FROM campaign.automations a JOIN campaign.automation_sends s ON s.automation_id = a.id WHERE a.id = $1 LIMIT 1`, [a.id]);
    expect(rows[0].lead).to.equal(1);
    for (let second = 1; second < 10; second++) {
      await secondPasses(a.id);
      expect((await pass()).claimed, `second ${second}`).to.equal(2);
    }
    expect(await sendsOf(a.id)).to.equal(20);
    // In due order: each second's two were the two longest due.
    const order = (await h.pool.query(`SELECT s.external_id FROM campaign.automation_sends s JOIN campaign.notifications n ON n.id = s.notification_id WHERE s.automation_id = $1 ORDER BY n.created_at, s.external_id`, [a.id])).rows.map((r) => r.external_id);
    expect(order).to.deep.equal(Array.from({ length: 20 }, (_, i) => `p-${String(i).padStart(3, '0')}`));
    // Nobody due now (the second step is a day on, counted from each first step's due time): the clock stays.
    const clock = await clockOf(a.id);
    await secondPasses(a.id);
    expect((await pass()).claimed).to.equal(0);
    expect((await clockOf(a.id))!.getTime()).to.equal(clock!.getTime() - 1000);
    // Each person's next step a day after their first step was due, however long the pace held it.
    expect(await count(`campaign.automation_enrolments WHERE automation_id = $1 AND next_step = 1 AND due_at = enrolled_at - make_interval(secs => 20 - substr(external_id, 3)::int) + interval '1 day'`, [a.id])).to.equal(20);
    await remove(a.id);
  });

  it('when the clock is part of a second ahead, then a pass takes the slots that end within the next second: floor((now − clock) × rate ÷ 60 s + max(rate ÷ 60, 1))', async () => {
    /** The steps a pass claims with the automation's clock `lead` ahead of now, and the clock's lead after it. */
    const claimedWithClock = (automationId: string, lead: string) =>
      inOneTransaction(async (client) => {
        // The clock against this transaction's own now(): the lead is exact.
        await client.query(`UPDATE campaign.automations SET paced_until = now() + $2::interval WHERE id = $1`, [automationId, lead]);
        const { claimed } = await sendDueSteps(client, render, 100);
        const after = (await client.query(`SELECT extract(epoch FROM paced_until - now())::float AS s FROM campaign.automations WHERE id = $1`, [automationId])).rows[0].s as number;
        return { claimed, lead: Math.round(after * 1e6) / 1e6 };
      });
    // 120 a minute: a slot is 0.5 s, a pass looks one second ahead.
    const a = await create(series('fraction', { throttlePerMinute: 120 }));
    await enrol(a.id, 20);
    expect(await claimedWithClock(a.id, '0.5 seconds')).to.deep.equal({ claimed: 1, lead: 1 });
    expect(await claimedWithClock(a.id, '0.75 seconds')).to.deep.equal({ claimed: 0, lead: 0.75 });
    expect(await claimedWithClock(a.id, '1 second')).to.deep.equal({ claimed: 0, lead: 1 });
    expect(await claimedWithClock(a.id, '0.25 seconds')).to.deep.equal({ claimed: 1, lead: 0.75 });
    expect(await claimedWithClock(a.id, '0 seconds')).to.deep.equal({ claimed: 2, lead: 1 });
    // A clock in the past counts from now: no time made up.
    expect(await claimedWithClock(a.id, '-1 hour')).to.deep.equal({ claimed: 2, lead: 1 });
    await remove(a.id);
    // 7 a minute: a slot is 60/7 s, longer than a second: one step a slot, when the clock has come.
    const b = await create(series('slow', { throttlePerMinute: 7 }));
    await enrol(b.id, 5);
    expect(await claimedWithClock(b.id, '-1 hour')).to.deep.equal({ claimed: 1, lead: Math.round((60 / 7) * 1e6) / 1e6 });
    expect(await claimedWithClock(b.id, '0.001 seconds')).to.deep.equal({ claimed: 0, lead: 0.001 });
    expect(await claimedWithClock(b.id, '0 seconds')).to.deep.equal({ claimed: 1, lead: Math.round((60 / 7) * 1e6) / 1e6 });
    await remove(b.id);
    // A pass's allowance is bounded by its batch; the clock advances by what it took (30 slots of 60 µs).
    const c = await create(series('big', { throttlePerMinute: 1_000_000 }));
    await enrol(c.id, 50);
    expect(await claimedWithClock(c.id, '0 seconds')).to.deep.equal({ claimed: 50, lead: 0.003 });
    await remove(c.id);
    const d = await create(series('batched', { throttlePerMinute: 1_000_000 }));
    await enrol(d.id, 50);
    expect(await inOneTransaction((client) => sendDueSteps(client, render, 30))).to.deep.include({ claimed: 30 });
    expect(await inOneTransaction((client) => sendDueSteps(client, render, 30))).to.deep.include({ claimed: 20 });
    expect(await sendsOf(d.id)).to.equal(50);
    await remove(d.id);
  });

  it('when runners race over a throttled automation, then together they take no more than its allowance; a runner skips the automation another is pacing and still sends the unthrottled', async () => {
    // 6 a minute: one step each 10 s.
    const a = await create(series('race', { throttlePerMinute: 6 }));
    const free = await create(series('race-free'));
    const later = await create(series('race-later'));
    await enrol(a.id, 5);
    await enrol(free.id, 3);
    const client = await h.pool.connect();
    try {
      await client.query('BEGIN');
      // The first runner takes the unthrottled steps and the throttled one's step, and holds them.
      expect(await sendDueSteps(client, render, 100)).to.deep.include({ claimed: 4 });
      // Another runner meanwhile: none of those (the throttled automation is locked, the others' steps are held), but steps due since of an unthrottled automation.
      await enrol(later.id, 2);
      expect(await pass()).to.deep.include({ claimed: 2 });
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    // After its commit the clock is 10 s ahead: nothing more for anyone.
    expect(await pass()).to.deep.include({ claimed: 0 });
    expect([await sendsOf(a.id), await sendsOf(free.id), await sendsOf(later.id)]).to.deep.equal([1, 3, 2]);
    // Three runners' ticks at once, a second later each time: one step in all.
    const runners = [1, 2, 3].map(() => createStepRunner({ pool: h.pool, log: createLogger('test', 'error'), render }, { intervalMs: 60_000, batchSize: 2 }));
    await h.pool.query(`UPDATE campaign.automations SET paced_until = now() - interval '1 second' WHERE id = $1`, [a.id]);
    expect((await Promise.all(runners.map((r) => r.tick()))).reduce((x, y) => x + y, 0)).to.equal(1);
    expect(await sendsOf(a.id)).to.equal(2);
    for (const id of [a.id, free.id, later.id]) await remove(id);
  });

  it('when a throttled automation was paused with its people due, then resuming it sends a second\'s worth, not what the pause would have allowed', async () => {
    const a = await create(series('paused', { throttlePerMinute: 120, status: 'paused' }));
    await enrol(a.id, 20);
    // Its last step an hour ago; paused since.
    await h.pool.query(`UPDATE campaign.automations SET paced_until = now() - interval '1 hour' WHERE id = $1`, [a.id]);
    expect(await pass()).to.deep.include({ claimed: 0 });
    expect(await nextDue(h.pool)).to.equal(null);
    await patch(a.id, { status: 'active' });
    expect(await pass()).to.deep.include({ claimed: 2 });
    // Unthrottled again: the rest in one pass, as any automation's.
    await patch(a.id, { throttlePerMinute: null });
    expect(await pass()).to.deep.include({ claimed: 18, notifications: 1 });
    await remove(a.id);
  });

  it('when an automation is unthrottled, then a pass takes all its due steps up to the batch and its clock is never set', async () => {
    const a = await create(series('free'));
    await enrol(a.id, 20);
    expect(await pass(15)).to.deep.include({ claimed: 15, sent: 15, notifications: 1 });
    expect(await pass(15)).to.deep.include({ claimed: 5 });
    expect(await clockOf(a.id)).to.equal(null);
    await remove(a.id);
  });

  it('when held-back steps wait on the clock, then the runner wakes at the clock (not an interval), and its clock always covers what it sent', async () => {
    const a = await create(series('wake', { throttlePerMinute: 120 }));
    const idle = await create(series('idle', { throttlePerMinute: 60 }));
    await enrol(a.id, 20);
    // An idle throttled automation's clock (no one due) wakes nobody.
    await h.pool.query(`UPDATE campaign.automations SET paced_until = now() - interval '1 minute' WHERE id = $1`, [idle.id]);
    expect(await pass()).to.deep.include({ claimed: 2 });
    expect((await nextDue(h.pool))!.getTime()).to.equal((await clockOf(a.id))!.getTime());
    // The runner with a minute's interval: the wake at the clock sends the next ones within seconds.
    const runner = createStepRunner({ pool: h.pool, log: createLogger('test', 'error'), render }, { intervalMs: 60_000, batchSize: 100 });
    runner.start();
    try {
      const deadline = Date.now() + 20_000;
      while ((await sendsOf(a.id)) < 6 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    } finally {
      await runner.stop();
    }
    const sent = await sendsOf(a.id);
    expect(sent).to.be.at.least(6);
    // The pace held: every step sent has its half-second slot between the first send and the clock.
    const { rows } = await h.pool.query(
      `SELECT extract(epoch FROM a.paced_until - min(s.sent_at))::float AS span FROM campaign.automations a JOIN campaign.automation_sends s ON s.automation_id = a.id WHERE a.id = $1 GROUP BY a.paced_until`,
      [a.id],
    );
    expect(sent * 0.5).to.be.at.most(rows[0].span + 1e-6);
    for (const id of [a.id, idle.id]) await remove(id);
  });
});
