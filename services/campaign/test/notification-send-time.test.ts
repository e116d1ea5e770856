// When a notification (POST /v2/notifications) or an automation step's is sent
// (docs/api-decisions.md, "Notifications", "Send time"): `sendTime` — the campaign's best time
// without a holdout — and `respectQuietHours`, by default true with a sendTime only. Validated with
// their messages (refusals store nothing), stored, relayed on the job as the delivery service
// reads it (`bestTime` with a holdout of 0, `notification.quietHours`), and answered back; a step
// passes its own to the notification the runner makes.
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import fc from 'fast-check';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Automation__Output } from '@webpush/contracts/generated/campaign/v1/Automation.js';
import type { CreateNotificationResponse__Output } from '@webpush/contracts/generated/campaign/v1/CreateNotificationResponse.js';
import type { Notification__Output } from '@webpush/contracts/generated/campaign/v1/Notification.js';
import type { Template__Output } from '@webpush/contracts/generated/campaign/v1/Template.js';
import { createCodecs, TOPICS, type DispatchMessage } from '@webpush/contracts/messages.js';
import { createLogger } from '@webpush/shared/log.js';
import { validateNotificationInput } from '../src/notifications/index.js';
import { validateAutomationInput } from '../src/automations/automation-input.js';
import { createStepRunner } from '../src/automations/index.js';
import { enrolSubscribed } from '../src/automations/automation-store.js';
import { createCursorCodec } from '../src/campaigns/index.js';
import { templateUseCases } from '../src/templates/index.js';
import { createOutboxRelay } from '../src/outbox/outbox-relay.js';
import { ValidationError } from '../src/base/errors.js';
import { MESSAGES } from '../src/base/texts.js';
import { expectStatus, startHarness, type Harness, type TestSite } from './support/harness.js';

const content = { title: 'Your order shipped', body: 'Parcel 1234 is on its way', link: 'https://shop.example/orders/1234' };
const whom = { subscriptionIds: ['3f1e7c52-9a0b-4c1d-8e2f-5a6b7c8d9e01'] };

function outcome(body: Record<string, unknown>): { when: unknown } | { messages: string[] } {
  try {
    const { sendTime, respectQuietHours } = validateNotificationInput(body);
    return { when: { sendTime, respectQuietHours } };
  } catch (err) {
    expect(err).to.be.instanceOf(ValidationError);
    return { messages: [...(err as ValidationError).messages] };
  }
}

describe('notification send time: best time and quiet hours', function () {
  this.timeout(60_000);

  describe('validation', () => {
    const of = (extra: Record<string, unknown>) => outcome({ ...whom, ...content, ...extra });

    it('takes a window of 1h to 72h (24h when absent) and no holdout, respecting quiet hours unless told not to', () => {
      expect(of({})).to.deep.equal({ when: { sendTime: null, respectQuietHours: false } });
      expect(of({ sendTime: null, respectQuietHours: null })).to.deep.equal({ when: { sendTime: null, respectQuietHours: false } });
      expect(of({ sendTime: { mode: 'bestTime' } })).to.deep.equal({ when: { sendTime: { withinHours: 24 }, respectQuietHours: true } });
      expect(of({ sendTime: { mode: 'bestTime', within: '1h', holdout: 0 } })).to.deep.equal({ when: { sendTime: { withinHours: 1 }, respectQuietHours: true } });
      expect(of({ sendTime: { mode: 'bestTime', within: '72h', holdout: null }, respectQuietHours: false })).to.deep.equal({ when: { sendTime: { withinHours: 72 }, respectQuietHours: false } });
      expect(of({ respectQuietHours: true })).to.deep.equal({ when: { sendTime: null, respectQuietHours: true } });
    });

    it('refuses each wrong part with its message, after the content', () => {
      const refused = (extra: Record<string, unknown>) => (of(extra) as { messages: string[] }).messages;
      for (const s of ['bestTime', 1, [], true]) expect(refused({ sendTime: s })).to.deep.equal([MESSAGES.notificationSendTimeObject]);
      expect(refused({ sendTime: { mode: 'bestTime', at: 'x' } })).to.deep.equal(['sendTime has an unknown field: at']);
      expect(refused({ sendTime: { mode: 'now' } })).to.deep.equal([MESSAGES.sendTimeMode]);
      for (const within of ['0h', '73h', 24, null]) expect(refused({ sendTime: { mode: 'bestTime', within } }), String(within)).to.deep.equal([MESSAGES.sendTimeWithin]);
      for (const holdout of [10, 1, -1, '0', false]) expect(refused({ sendTime: { mode: 'bestTime', holdout } }), String(holdout)).to.deep.equal([MESSAGES.notificationSendTimeHoldout]);
      for (const r of ['yes', 1, {}]) expect(refused({ respectQuietHours: r })).to.deep.equal([MESSAGES.notificationRespectQuietHours]);
      expect(refused({ title: 'x', sendTime: { mode: 'x' }, respectQuietHours: 'x' })).to.deep.equal([
        'Title must be between 3 and 100 characters',
        MESSAGES.sendTimeMode,
        MESSAGES.notificationRespectQuietHours,
      ]);
    });

    it('answers a send time or refusals for anything in the fields (property)', () => {
      fc.assert(
        fc.property(fc.anything(), fc.anything(), (sendTime, respectQuietHours) => {
          const o = of({ sendTime, respectQuietHours });
          if ('messages' in o) expect(o.messages.length).to.be.greaterThan(0);
          else {
            const when = o.when as { sendTime: { withinHours: number } | null; respectQuietHours: boolean };
            expect(typeof when.respectQuietHours).to.equal('boolean');
            if (when.sendTime) expect(when.sendTime.withinHours).to.be.within(1, 72);
          }
        }),
      );
    });

    it("takes a step's sendTime and respectQuietHours, one message per step and field", () => {
      const templateId = randomUUID();
      const automation = (step: Record<string, unknown>) => ({ name: 'Cart', trigger: { type: 'subscribed' }, steps: [{ delaySeconds: 0, templateId, ...step }] });
      expect(validateAutomationInput(automation({ sendTime: { mode: 'bestTime', within: '12h' } })).steps[0]).to.deep.equal({ delaySeconds: 0, templateId, variables: {}, sendTime: { withinHours: 12 }, respectQuietHours: true });
      expect(validateAutomationInput(automation({ sendTime: { mode: 'bestTime' }, respectQuietHours: false })).steps[0]).to.deep.equal({ delaySeconds: 0, templateId, variables: {}, sendTime: { withinHours: 24 } });
      expect(validateAutomationInput(automation({ respectQuietHours: true })).steps[0]).to.deep.equal({ delaySeconds: 0, templateId, variables: {}, respectQuietHours: true });
      expect(validateAutomationInput(automation({ sendTime: null })).steps[0]).to.deep.equal({ delaySeconds: 0, templateId, variables: {} });
      expect(() => validateAutomationInput(automation({ sendTime: { mode: 'bestTime', within: '100h', holdout: 5 }, respectQuietHours: 'no' })))
        .to.throw(ValidationError)
        .with.property('messages')
        .that.deep.equals([MESSAGES.automationStepSendTime.replace('<i>', '0'), MESSAGES.automationStepRespectQuietHours.replace('<i>', '0')]);
    });
  });

  describe('stored, relayed and answered', () => {
    let h: Harness;
    let site: TestSite;
    const log = createLogger('test', 'error');

    before(async () => {
      h = await startHarness('campaign_notify_send_time');
      site = await h.newSite();
    });
    after(async () => h?.stop());

    const create = (body: unknown) => h.call<CreateNotificationResponse__Output>('CreateNotification', { siteId: site.siteId, bodyJson: JSON.stringify(body), idempotencyKey: '' });
    const get = (id: string) => h.call<Notification__Output>('GetNotification', { siteId: site.siteId, notificationId: id, limit: '', cursor: '' });
    /** What the relay publishes now on the notifications' topic, decoded as the delivery service decodes it. */
    const relayed = async (): Promise<DispatchMessage[]> => {
      const values: Buffer[] = [];
      const relay = createOutboxRelay({ pool: h.pool, log, publish: async (topic, messages) => void (topic === TOPICS.notifications && values.push(...messages.map((m) => m.value))) }, { intervalMs: 1000, batchSize: 1000 });
      await relay.publishBatch();
      return values.map((v) => createCodecs().dispatch.decode(v));
    };

    it('when a notification has a sendTime, then its job carries best time without a holdout and quiet hours, and GET shows them', async () => {
      await relayed();
      const best = await create({ ...whom, ...content, sendTime: { mode: 'bestTime', within: '6h' } });
      const quiet = await create({ externalIds: ['ana'], ...content, respectQuietHours: true, transactional: true });
      const plain = await create({ ...whom, ...content });
      const unheld = await create({ ...whom, ...content, sendTime: { mode: 'bestTime', within: '2h' }, respectQuietHours: false });
      const jobs = new Map((await relayed()).map((m) => [m.campaignId, m]));
      expect(jobs.get(best.id)).to.deep.include({ bestTime: { withinHours: 6, holdoutPercent: 0 }, notification: { ...whom, quietHours: true } });
      expect(jobs.get(quiet.id)).to.deep.include({ notification: { externalIds: ['ana'], quietHours: true }, ignoreFrequencyCap: true });
      expect(jobs.get(quiet.id)).to.not.have.property('bestTime');
      expect(jobs.get(plain.id)!.notification).to.deep.equal(whom);
      // Best time always says whether quiet hours hold it: a release that does not know it refuses the job.
      expect(jobs.get(unheld.id)).to.deep.include({ bestTime: { withinHours: 2, holdoutPercent: 0 }, notification: { ...whom, quietHours: false } });
      expect(jobs.get(plain.id)).to.not.have.property('bestTime');
      const read = await get(best.id);
      expect(read.sendTime).to.deep.include({ mode: 'bestTime', withinHours: 6, holdoutPercent: 0 });
      expect(read.respectQuietHours).to.equal(true);
      expect((await get(quiet.id)).sendTime).to.equal(null);
      expect((await get(plain.id)).respectQuietHours).to.equal(false);
    });

    it('when a sendTime is wrong, then 400 names it and nothing is stored', async () => {
      const count = async () => Number((await h.pool.query(`SELECT count(*) FROM campaign.notifications WHERE site_id = $1`, [site.siteId])).rows[0].count);
      const before = await count();
      await expectStatus(create({ ...whom, ...content, sendTime: { mode: 'bestTime', holdout: 10 } }), grpc.status.INVALID_ARGUMENT, MESSAGES.notificationSendTimeHoldout);
      await expectStatus(create({ ...whom, ...content, sendTime: { mode: 'bestTime', within: '0h' }, respectQuietHours: 1 }), grpc.status.INVALID_ARGUMENT, `${MESSAGES.sendTimeWithin}, ${MESSAGES.notificationRespectQuietHours}`);
      expect(await count()).to.equal(before);
    });

    it("when an automation step with a sendTime is due, then its notification carries the step's send time", async () => {
      const templateId = (await h.call<Template__Output>('CreateTemplate', { siteId: site.siteId, bodyJson: JSON.stringify({ name: 'hi', title: 'Welcome aboard', body: 'Glad you are here', link: 'https://shop.example/' }) })).id;
      const req = (body: unknown) => ({ siteId: site.siteId, automationId: '', bodyJson: JSON.stringify(body), limit: '', cursor: '', idempotencyKey: '' });
      const a = await h.call<Automation__Output>(
        'CreateAutomation',
        req({ name: 'Welcome', trigger: { type: 'subscribed' }, steps: [{ delaySeconds: 0, templateId, sendTime: { mode: 'bestTime', within: '12h' } }, { delaySeconds: 0, templateId, respectQuietHours: true }] }),
      );
      expect(a.steps.map((s) => [s.sendTime?.withinHours ?? null, s.respectQuietHours])).to.deep.equal([
        [12, true],
        [null, true],
      ]);
      const render = templateUseCases({ pool: h.pool, cursors: createCursorCodec(randomBytes(32)) }).renderForNotification;
      const runner = createStepRunner({ pool: h.pool, log, render }, { intervalMs: 60_000, batchSize: 10 });
      await enrolSubscribed(h.pool, site.siteId, 'ben', new Date());
      for (let i = 0; i < 5; i++) await runner.tick();
      const { rows } = await h.pool.query(
        `SELECT s.step, n.send_time, n.respect_quiet_hours FROM campaign.automation_sends s JOIN campaign.notifications n ON n.id = s.notification_id WHERE s.automation_id = $1 ORDER BY s.step`,
        [a.id],
      );
      expect(rows).to.deep.equal([
        { step: 0, send_time: { withinHours: 12 }, respect_quiet_hours: true },
        { step: 1, send_time: null, respect_quiet_hours: true },
      ]);
    });
  });
});
