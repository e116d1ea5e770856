// The kafkajs request-queue fix (packages/shared/src/kafkajs-request-queue.ts): an idle
// connection runs no timer loop, and a request held back by client-side throttling still goes
// out when the throttle ends.
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { Kafka, logLevel } from 'kafkajs';
import { fixRequestQueue, releasedRequestQueue, RequestQueue, type RequestQueueInternals } from '@webpush/shared/kafkajs-request-queue.js';
import { testKafkaBrokers } from '../support/kafka.js';

describe('kafkajs request queue', function () {
  this.timeout(30_000);
  // The services apply it when their messaging starts (KAFKAJS_REQUEST_QUEUE_FIX, default on).
  before(() => expect(fixRequestQueue(), 'the installed kafkajs is the patched version').to.equal(true));

  /** Counts the queue checks of every request queue while `fn` runs. */
  async function countChecks(fn: () => Promise<void>): Promise<number> {
    const proto = RequestQueue.prototype;
    const original = proto.checkPendingRequests;
    let checks = 0;
    proto.checkPendingRequests = function (this: RequestQueueInternals) {
      checks += 1;
      return original.call(this);
    };
    try {
      await fn();
    } finally {
      proto.checkPendingRequests = original;
    }
    return checks;
  }

  /** Queue checks while a connected admin client sits idle for a second. */
  async function idleChecks(): Promise<number> {
    const kafka = new Kafka({ clientId: 'request-queue-test', brokers: [testKafkaBrokers()], logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    try {
      await admin.listTopics();
      return await countChecks(() => sleep(1000));
    } finally {
      await admin.disconnect();
    }
  }

  it('when a connected producer sits idle for a second, then its connections check their queues a handful of times, not once a millisecond', async () => {
    expect(await idleChecks()).to.be.below(20);
  });

  it('when the fix is off (the way back), then kafkajs runs as released: an idle connection checks its queue about once a millisecond', async () => {
    releasedRequestQueue();
    try {
      // ≈ 1,000 a second on an idle machine; far above the fixed queue's handful even on a busy one.
      expect(await idleChecks()).to.be.above(100);
    } finally {
      fixRequestQueue();
    }
  });

  it('when a request waits while the client is throttled, then the queue is checked once the throttle ends; with nothing waiting, no check is scheduled', async () => {
    const queue = Object.create(RequestQueue.prototype) as RequestQueueInternals;
    let checks = 0;
    Object.assign(queue, { pending: [], throttledUntil: -1, throttleCheckTimeoutId: null, checkPendingRequests: () => (checks += 1) });

    queue.scheduleCheckPendingRequests();
    expect(queue.throttleCheckTimeoutId).to.equal(null);

    queue.pending.push({});
    queue.throttledUntil = Date.now() + 150;
    queue.scheduleCheckPendingRequests();
    queue.scheduleCheckPendingRequests(); // one timer, not two
    expect(queue.throttleCheckTimeoutId).to.not.equal(null);
    await sleep(50);
    expect(checks).to.equal(0);
    await sleep(400);
    expect(checks).to.equal(1);
    expect(queue.throttleCheckTimeoutId).to.equal(null);
  });
});
