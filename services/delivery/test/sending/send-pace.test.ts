// The pace of a throttled campaign where its pushes go out (sending/send-pace.ts, issue 34): the
// wait for a slot on a fake clock (each push at its slot; one released after a stall has missed
// it, and takes a new one instead of bursting), and the send path in-process (dispatch → pacer → two instances' chunk workers →
// sender → the push-service simulator) with every chunk arriving at once, as a consumer that lags
// on a busy machine gets them: what the push service receives stays within the rate in every
// one-second window. Counted on the simulator's receive times, never on the run's duration.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createLogger } from '@webpush/shared/log.js';
import type { ChunkMessage } from '@webpush/contracts/messages.js';
import { startPushSimulator, type PushSimulator } from '../../../../tools/push-simulator/src/index.js';
import { densestWindow, paceBound, RIG_JITTER_MS } from '../../../../tools/push-simulator/src/arrivals.js';
import { heartbeat } from '../../src/sending/instance-store.js';
import { trackingTokensFor } from '../../src/tracking/tracking-token.js';
import { createEncryptPool, type EncryptPool } from '@webpush/push/encryption/pool.js';
import { createPushSender } from '@webpush/push/sender.js';
import { createChunkWorker } from '../../src/sending/chunk-worker.js';
import { STALL_MS, waitForSlot, type SlotClock } from '../../src/sending/send-pace.js';
import { findRun } from '../../src/sending/run-store.js';
import { vapidSigners } from '../../src/sites/vapid-signers.js';
import { dispatchMessage, newSite, startTestDelivery, type TestDelivery } from '../support.js';
import { expansionRecorder } from './support/expansion.js';

const log = createLogger('send-pace-test', 'error');
const noop = async () => {};

/** A clock whose timers fire only when the test advances it (a stall is an advance past several). */
function fakeClock() {
  let t = 0;
  const timers: { at: number; fn: () => void }[] = [];
  const settle = async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  const clock: SlotClock & { advanceTo(at: number): Promise<void>; jumpTo(at: number): Promise<void> } = {
    now: () => t,
    setTimer: (fn, ms) => void timers.push({ at: t + ms, fn }),
    /** Time passes normally: every timer fires at its moment. */
    async advanceTo(at) {
      await settle();
      for (let n = 0; n < 100_000; n++) {
        timers.sort((a, b) => a.at - b.at);
        if (timers.length === 0 || timers[0].at > at) break;
        const next = timers.shift()!;
        t = Math.max(t, next.at);
        next.fn();
        await settle();
      }
      t = at;
    },
    /** A stall: the clock moves on with no timer run, then the late ones fire. */
    async jumpTo(at) {
      await settle();
      t = at;
      await clock.advanceTo(at);
    },
  };
  return clock;
}

describe('delivery: the pace of a throttled campaign where its pushes go out', function () {
  this.timeout(60_000);

  describe('waiting for a slot', () => {
    it('releases a push at its slot', async () => {
      const clock = fakeClock();
      const released: number[] = [];
      for (let i = 0; i < 20; i++) void waitForSlot(100 + i * 20, clock).then((onTime) => onTime && released.push(clock.now()));
      await clock.advanceTo(1000);
      expect(released).to.deep.equal(Array.from({ length: 20 }, (_, i) => 100 + i * 20));
    });

    it('a push released after a stall has missed its slot (it takes a new one), one a little late keeps it', async () => {
      const clock = fakeClock();
      const outcomes: [number, boolean][] = [];
      for (const slot of [0, 20, 40, 240, 260]) void waitForSlot(slot, clock).then((onTime) => outcomes.push([slot, onTime]));
      await clock.jumpTo(240 + STALL_MS - 10); // a stall: 0 was released before it, 20 and 40 are too late, 240 a little
      await clock.advanceTo(1000);
      expect(outcomes).to.deep.equal([
        [0, true], // released at once, before the stall
        [20, false],
        [40, false],
        [240, true],
        [260, true],
      ]);
    });
  });

  describe('the send path', () => {
    let t: TestDelivery;
    let sim: PushSimulator;
    let encryptor: EncryptPool;

    before(async () => {
      t = await startTestDelivery('send_pace');
      sim = await startPushSimulator({ seed: 34, keepReplaced: true });
      encryptor = createEncryptPool({ size: 1 });
    });
    after(async () => {
      await encryptor?.close();
      await sim?.close();
      await t?.stop();
    });

    it('when every chunk of a campaign throttled to 3000/min reaches two instances at once, then the push service gets at most the rate (+15 %, and the rig’s jitter) in any one second, each subscriber once', async () => {
      const N = 150;
      const perMinute = 3000;
      const site = await newSite(t);
      const { vapidPublicKey } = (await t.pool.query(`SELECT vapid_public_key AS "vapidPublicKey" FROM delivery.sites WHERE site_id = $1`, [site.siteId])).rows[0];
      const subs = Array.from({ length: N }, () => sim.createSubscription(vapidPublicKey));
      await t.pool.query(
        `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country, topics)
         SELECT $1, e, p, a, 'US', ARRAY['paced'] FROM unnest($2::text[], $3::text[], $4::text[]) AS x(e, p, a)`,
        [site.siteId, subs.map((s) => s.endpoint), subs.map((s) => s.keys.p256dh), subs.map((s) => s.keys.auth)],
      );
      sim.reset();
      sim.setBehaviour({ latencyMs: 5 });

      // Every chunk published before any is sent: the worst a lagging consumer can get.
      const { chunks, dispatch, pacer } = expansionRecorder(t);
      const job = { ...dispatchMessage(site.siteId, ['paced'], { ttl: 600 }), throttlePerMinute: perMinute };
      await dispatch(job, noop);
      for (let pass = 0; pass < 50 && (await findRun(t.pool, job.campaignId))!.state === 'expanding'; pass++) {
        await t.pool.query(`UPDATE delivery.campaign_runs SET next_expand_at = now() WHERE campaign_id = $1`, [job.campaignId]);
        await pacer.advanceDue();
      }
      expect(chunks.flatMap((c) => c.subscriberIds)).to.have.length(N);

      const vapid = vapidSigners(t.pool, t.config.vapidEncryptionKey, 'mailto:ops@example.com');
      const tokens = trackingTokensFor({ current: t.config.vapidEncryptionKey, previous: [] });
      const instances = await Promise.all(
        [0, 1].map(async () => {
          const instanceId = randomUUID();
          await heartbeat(t.pool, instanceId);
          const sender = createPushSender({ ca: sim.caCertPem, testHosts: ['127.0.0.1'], encryptor, concurrencyPerOrigin: 20 });
          const handle = createChunkWorker({ pool: t.pool, log, instanceId, sender, vapid, tokens, publishStats: noop }, { deadAfterSec: 30, waitForOthersMs: 5000, claimBatch: 50 });
          return { sender, handle };
        }),
      );
      try {
        // Warm: each instance's connection and the encryption worker up before the campaign, whose
        // first slots a cold start would otherwise miss on a busy machine (they are taken again later).
        const warm = sim.createSubscription(vapidPublicKey);
        for (const { sender } of instances) {
          await sender.sendBatch({ payload: '{}', ttl: 60, urgency: 'normal', topic: 'warm', vapid: await vapid(site.siteId), subscriptions: [{ id: 'warm', endpoint: warm.endpoint, p256dh: warm.keys.p256dh, auth: warm.keys.auth }] });
        }
        await Promise.all(chunks.map((c: ChunkMessage) => instances[c.chunkNo % 2].handle(c, noop)));
      } finally {
        await Promise.all(instances.map((i) => i.sender.close()));
      }

      const got = sim.received().filter((m) => JSON.parse(m.payload).id === job.campaignId);
      expect(new Set(got.map((m) => m.subscriptionId)).size).to.equal(N);
      const densest = densestWindow(got.map((m) => m.receivedAt), 1000);
      const times = got.map((m) => m.receivedAt);
      const perSecond = ((got.length - 1) * 1000) / (Math.max(...times) - Math.min(...times));
      console.log(`      densest second ${densest.count} (${perMinute / 60} a second asked, bound ${paceBound(perMinute, RIG_JITTER_MS)}), ${got.length} received at ${perSecond.toFixed(1)} a second`);
      expect(densest.count).to.be.at.most(paceBound(perMinute, RIG_JITTER_MS));
    });
  });
});
