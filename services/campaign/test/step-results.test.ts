// Impressions and clicks of notifications and of automation steps (docs/api-decisions.md,
// "Notifications" and "Automations", "Results"): a notification keeps the greatest its run's stats
// events reported, and its step grows by exactly what the notification grew by — whatever events
// repeat, arrive out of order, share a batch, or are consumed by several consumers at once. A
// step's notification found by its send rows counts once however many people it names. The
// step's notifications are made by the real runner; the events are the delivery service's
// message type, applied as the stats consumer applies them.
import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Automation__Output } from '@webpush/contracts/generated/campaign/v1/Automation.js';
import type { CreateCampaignResponse__Output } from '@webpush/contracts/generated/campaign/v1/CreateCampaignResponse.js';
import type { CreateNotificationResponse__Output } from '@webpush/contracts/generated/campaign/v1/CreateNotificationResponse.js';
import type { ListNotificationsResponse__Output } from '@webpush/contracts/generated/campaign/v1/ListNotificationsResponse.js';
import type { Notification__Output } from '@webpush/contracts/generated/campaign/v1/Notification.js';
import type { Template__Output } from '@webpush/contracts/generated/campaign/v1/Template.js';
import type { StatsMessage } from '@webpush/contracts/messages.js';
import { createLogger } from '@webpush/shared/log.js';
import { createCursorCodec } from '../src/campaigns/index.js';
import { templateUseCases } from '../src/templates/index.js';
import { createStepRunner } from '../src/automations/index.js';
import { applyStats } from '../src/stats/index.js';
import { getCampaign, startHarness, statsMessage, validCampaign, type Harness, type TestSite } from './support/harness.js';

describe('Impressions and clicks of notifications and automation steps', function () {
  this.timeout(60_000);
  let h: Harness;
  let site: TestSite;
  let templateId: string;
  let runner: ReturnType<typeof createStepRunner>;

  before(async () => {
    h = await startHarness('campaign_step_results');
    site = await h.newSite({ subscribers: [{ count: 3, topics: ['news'], countries: [] }] });
    templateId = (await h.call<Template__Output>('CreateTemplate', { siteId: site.siteId, bodyJson: JSON.stringify({ name: 'step', title: 'Hello {{ name | "there" }}', body: 'A step', link: 'https://shop.example/' }) })).id;
    const render = templateUseCases({ pool: h.pool, cursors: createCursorCodec(randomBytes(32)) }).renderForNotification;
    runner = createStepRunner({ pool: h.pool, log: createLogger('test', 'error'), render }, { intervalMs: 60_000, batchSize: 100 });
  });
  after(async () => h?.stop());

  const req = (automationId: string, body?: object) => ({ siteId: site.siteId, automationId, bodyJson: body ? JSON.stringify(body) : '', limit: '', cursor: '', idempotencyKey: '' });
  /** An active welcome series of `steps` steps (the first due at once, each next a day later), with `people` enrolled and every due step sent. */
  async function series(name: string, steps: number, people: string[]): Promise<string> {
    const a = await h.call<Automation__Output>('CreateAutomation', req('', { name, trigger: { type: 'subscribed' }, steps: Array.from({ length: steps }, (_, i) => ({ delaySeconds: i === 0 ? 0 : 86_400, templateId })) }));
    // Enrolled in this series alone (a welcome's enrolment would also enrol them in the earlier tests' series).
    await h.pool.query(`INSERT INTO campaign.automation_enrolments (automation_id, external_id, due_at, state) SELECT $1, p, now(), 'active' FROM unnest($2::text[]) AS p`, [a.id, people]);
    await drain();
    return a.id;
  }
  const drain = async () => {
    for (let i = 0; i < 20; i++) if ((await runner.tick()) === 0) return;
    expect.fail('the runner did not drain');
  };
  /** A day passes: the next step is due, and sent. */
  const nextDay = async (automationId: string) => {
    await h.pool.query(`UPDATE campaign.automation_enrolments SET due_at = now() - interval '1 second' WHERE automation_id = $1 AND state = 'active'`, [automationId]);
    await drain();
  };
  /** The notification(s) the step was sent as (one or more, however the runner groups people). */
  const notificationsOf = async (automationId: string, step: number): Promise<string[]> =>
    (await h.pool.query(`SELECT DISTINCT notification_id FROM campaign.automation_sends WHERE automation_id = $1 AND step = $2 ORDER BY 1`, [automationId, step])).rows.map((r) => r.notification_id);
  const tracked = (id: string, impressions: number, clicks: number): StatsMessage => statsMessage(id, { sent: 1, audience: 1, impressions, clicks });
  const stepResults = async (automationId: string) =>
    (await h.call<Automation__Output>('GetAutomation', req(automationId))).steps.map((s) => ({ sent: s.results?.sent, impressions: s.results?.impressions, clicks: s.results?.clicks }));
  const notification = (id: string) => h.call<Notification__Output>('GetNotification', { siteId: site.siteId, notificationId: id, limit: '', cursor: '' });
  const countsOf = async (id: string) => {
    const n = await notification(id);
    return { impressions: n.impressions, clicks: n.clicks };
  };

  it('when a step\'s notification reports impressions and clicks, then it keeps the greatest and its step adds what it grew by; a replay, an older event or a batch in any order adds nothing more', async () => {
    const a = await series('grow', 2, ['grow-1']);
    const [first] = await notificationsOf(a, 0);
    expect(await stepResults(a)).to.deep.equal([{ sent: 1, impressions: 0, clicks: 0 }, { sent: 0, impressions: 0, clicks: 0 }]);

    await applyStats(h.pool, [tracked(first, 3, 1)]);
    expect(await countsOf(first)).to.deep.equal({ impressions: 3, clicks: 1 });
    expect((await stepResults(a))[0]).to.deep.equal({ sent: 1, impressions: 3, clicks: 1 });
    // The same event again (a redelivery): nothing more.
    await applyStats(h.pool, [tracked(first, 3, 1)]);
    expect((await stepResults(a))[0]).to.deep.equal({ sent: 1, impressions: 3, clicks: 1 });
    // An older event arriving late with one counter ahead: only that one grows, by what it grew.
    await applyStats(h.pool, [tracked(first, 2, 2)]);
    expect(await countsOf(first)).to.deep.equal({ impressions: 3, clicks: 2 });
    expect((await stepResults(a))[0]).to.deep.equal({ sent: 1, impressions: 3, clicks: 2 });

    // A day later the second step; one batch holds both steps' events, out of order.
    await nextDay(a);
    const [second] = await notificationsOf(a, 1);
    await applyStats(h.pool, [tracked(first, 5, 2), tracked(second, 1, 0), tracked(first, 4, 3), tracked(second, 2, 1), tracked(first, 3, 1)]);
    expect(await countsOf(first)).to.deep.equal({ impressions: 5, clicks: 3 });
    expect(await countsOf(second)).to.deep.equal({ impressions: 2, clicks: 1 });
    expect(await stepResults(a)).to.deep.equal([{ sent: 1, impressions: 5, clicks: 3 }, { sent: 1, impressions: 2, clicks: 1 }]);
    // The list shows them too.
    const page = await h.call<ListNotificationsResponse__Output>('ListNotifications', { siteId: site.siteId, limit: '1000', cursor: '' });
    expect(page.items.filter((n) => n.id === first || n.id === second).map((n) => [n.id, n.impressions, n.clicks])).to.have.deep.members([[first, 5, 3], [second, 2, 1]]);
  });

  it('when the same events are consumed by several consumers at once, then each notification and each step counts them once', async () => {
    const a = await series('race', 1, ['race-1', 'race-2']);
    const b = await series('race-b', 1, ['race-3']);
    const notifications = [...(await notificationsOf(a, 0)), ...(await notificationsOf(b, 0))];
    // Every consumer gets every event, in an order of its own (a rebalance replays a batch to
    // another instance), while the counters go on growing: rounds of 8 consumers at once.
    for (let round = 1; round <= 10; round++) {
      const events = notifications.flatMap((id) => [0, 1, 2].map((n) => tracked(id, round * 8 - n * 2, round * 4 - n)));
      await Promise.all(Array.from({ length: 8 }, (_, i) => applyStats(h.pool, i % 2 === 0 ? events : [...events].reverse())));
    }
    const perNotification = { impressions: 80, clicks: 40 };
    for (const id of notifications) expect(await countsOf(id)).to.deep.equal(perNotification);
    const aNotifications = (await notificationsOf(a, 0)).length;
    expect(await stepResults(a)).to.deep.equal([{ sent: 2, impressions: perNotification.impressions * aNotifications, clicks: perNotification.clicks * aNotifications }]);
    expect(await stepResults(b)).to.deep.equal([{ sent: 1, ...perNotification }]);
  });

  it('when a step\'s notification names many people (a send row each), then what it grew by is counted on the step once', async () => {
    const a = await series('many', 1, ['many-1']);
    const [id] = await notificationsOf(a, 0);
    // The same notification named two more people of the step (the runner may group a batch's people into one).
    await h.pool.query(`INSERT INTO campaign.automation_sends (automation_id, external_id, round, step, notification_id) VALUES ($1, 'many-2', 0, 0, $2), ($1, 'many-3', 0, 0, $2)`, [a, id]);
    await applyStats(h.pool, [tracked(id, 3, 2)]);
    expect(await stepResults(a)).to.deep.equal([{ sent: 3, impressions: 3, clicks: 2 }]);
    await applyStats(h.pool, [tracked(id, 4, 2)]);
    expect(await stepResults(a)).to.deep.equal([{ sent: 3, impressions: 4, clicks: 2 }]);
  });

  it('when a batch mixes a campaign\'s events and a notification not of any automation, then each keeps its own counters and no step changes', async () => {
    const campaignId = (await h.call<CreateCampaignResponse__Output>('CreateCampaign', { siteId: site.siteId, bodyJson: JSON.stringify(validCampaign({ topics: ['news'], status: 'published' })) })).id;
    const notificationId = (await h.call<CreateNotificationResponse__Output>('CreateNotification', {
      siteId: site.siteId,
      bodyJson: JSON.stringify({ subscriptionIds: [randomUUID()], title: 'Order shipped', body: 'On its way', link: 'https://shop.example/o/1' }),
      idempotencyKey: '',
    })).id;
    const steps = async () => (await h.pool.query(`SELECT coalesce(sum(impressions), 0)::int AS i, coalesce(sum(clicks), 0)::int AS c FROM campaign.automation_step_stats`)).rows[0];
    const before = await steps();
    expect(await countsOf(notificationId)).to.deep.equal({ impressions: 0, clicks: 0 });
    await applyStats(h.pool, [tracked(campaignId, 3, 2), tracked(notificationId, 1, 1), tracked(randomUUID(), 9, 9)]);
    expect(await countsOf(notificationId)).to.deep.equal({ impressions: 1, clicks: 1 });
    expect((await getCampaign(h, site.siteId, campaignId)).analytics).to.deep.include({ impressions: 3, clicks: 2 });
    expect(await steps()).to.deep.equal(before);
  });

  it('when an automation is deleted, then its steps\' counters go with it and later events of its notifications count on the notifications alone', async () => {
    const a = await series('gone', 1, ['gone-1']);
    const [id] = await notificationsOf(a, 0);
    await applyStats(h.pool, [tracked(id, 1, 0)]);
    await h.call('DeleteAutomation', req(a));
    expect((await h.pool.query(`SELECT count(*)::int AS n FROM campaign.automation_step_stats WHERE automation_id = $1`, [a])).rows[0].n).to.equal(0);
    await applyStats(h.pool, [tracked(id, 2, 1)]);
    expect(await countsOf(id)).to.deep.equal({ impressions: 2, clicks: 1 });
  });

  it('when an automation is deleted while its steps\' events are being applied, then both succeed (neither waits on the other in a circle)', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const a = await series(`deleted-${attempt}`, 2, [`deleted-${attempt}`]);
      await nextDay(a);
      const [first] = await notificationsOf(a, 0);
      const [second] = await notificationsOf(a, 1);
      // The first step has its counters row; the second gets its own in the same batch.
      await applyStats(h.pool, [tracked(first, 1, 0)]);
      const batch = [tracked(first, 2, 1), tracked(second, 1, 0)];
      await Promise.all([...Array.from({ length: 4 }, () => applyStats(h.pool, batch)), h.call('DeleteAutomation', req(a)), applyStats(h.pool, batch)]);
      expect(await countsOf(first)).to.deep.equal({ impressions: 2, clicks: 1 });
    }
  });
});
