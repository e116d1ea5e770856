// The console's "send a test notification to my browser" (docs/console.md, "Test notification"):
// ONE push to the subscription the site owner's browser just made with the site's VAPID public
// key, so they see that the site's keys, the push path and their browser work together. The
// gateway has checked the user (an editor of the site) and passes the subscription's fields as
// they came.
//
// The subscription is checked exactly as the plugin's subscribe endpoint checks one (the same
// rules and messages: audience/subscription-input.ts), then the push goes through the sender
// every campaign uses (packages/push/src/sender.ts): its destination policy (https to a public address, or a
// PUSH_TEST_HOSTS host), its per-origin limits, its retries — here for at most
// TEST_PUSH.retryBudgetMs, as the caller is waiting. Nothing is stored or counted: no
// subscriber, run, delivery log row, analytics or webhook event (only the push-service request
// metrics every request has). At most TEST_PUSH.perSitePerMinute per site per minute on each
// delivery instance.
import type { Queryable } from '@webpush/shared/db.js';
import type { PushHostRules } from '../audience/index.js';
import { createSubscriptionInputRules } from '../audience/index.js';
import { isUuid, NotFoundError, RateLimitedError, ValidationError } from '../errors.js';
import { createFixedWindowLimiter, type RateLimiter } from '@webpush/shared/rate-limit.js';
import type { PushSender } from '@webpush/push/sender.js';
import { findSiteById } from '../sites/index.js';
import type { VapidSigners } from '../sites/index.js';

export const TEST_PUSH = Object.freeze({
  title: 'Test notification',
  /** The notification's id (its tag in the service worker: a second test replaces the first). */
  id: 'test-notification',
  /** Seconds the push service keeps it for a browser that is offline: a test is about now. */
  ttlSec: 60,
  /** How long a push service's 5xx, timeouts and resets are retried while the console waits. */
  retryBudgetMs: 5000,
  perSitePerMinute: 10,
  /** Characters of the site's name the body shows. */
  siteNameChars: 100,
  /** Characters of the link at most. */
  linkChars: 2048,
});

export const TEST_PUSH_MESSAGES = Object.freeze({
  siteNotFound: 'Site not found',
  tooMany: 'Too many test notifications for this site; try again in a minute',
  /** `<reason>`: the destination policy's, e.g. "push.example resolves to 10.0.0.1 (private)". */
  destination: 'subscription.endpoint is not a destination pushes may go to: <reason>',
  link: `link must be an http(s) URL of at most ${TEST_PUSH.linkChars} characters`,
  /** `<reason>`: the push service's status and our label of it, e.g. "410 subscription gone". */
  refused: 'The push service refused the test notification: <reason>',
  /** `<reason>`: the connection's failure, e.g. "timeout: no response within 10000 ms". */
  unreachable: 'The push service could not be reached: <reason>',
});

export interface TestPushRequest {
  siteId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  siteName: string;
  link: string;
}

export interface TestPushAnswer {
  sent: boolean;
  /** The push service's last status; 0 when it gave none. */
  pushServiceStatus: number;
  /** Why it was not sent ('' when it was). */
  message: string;
}

/** The plugin's payload (plugin/assets/webpush-sw.js reads it): no tracking token, so no report. */
export function testPushPayload(siteName: string, link: string): string {
  const name = Array.from(siteName.toWellFormed().trim()).slice(0, TEST_PUSH.siteNameChars).join('');
  return JSON.stringify({
    v: 1,
    id: TEST_PUSH.id,
    title: TEST_PUSH.title,
    body: `Notifications from ${name === '' ? 'this site' : name} reach this browser.`,
    url: link,
    icon: null,
    image: null,
  });
}

function isHttpUrl(value: string): boolean {
  if (value.length > TEST_PUSH.linkChars) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

const withReason = (template: string, reason: string | undefined) => template.replace('<reason>', () => reason ?? 'no reason given');

export function createTestPush(deps: { pool: Queryable; sender: PushSender; vapid: VapidSigners; hosts: PushHostRules; limiter?: RateLimiter }) {
  const rules = createSubscriptionInputRules(deps.hosts);
  const limiter = deps.limiter ?? createFixedWindowLimiter({ limit: TEST_PUSH.perSitePerMinute });

  /**
   * ValidationError for a refused subscription (the plugin's messages), a link that is not
   * http(s), or an endpoint the destination policy refuses; NotFoundError for a site this
   * service does not know; RateLimitedError past the site's limit. A push service that does not
   * take the push is an answer (sent: false), not an error.
   */
  return async function sendTestPush(req: TestPushRequest): Promise<TestPushAnswer> {
    const subscription = rules.parseSubscribe({ subscription: { endpoint: req.endpoint, keys: { p256dh: req.p256dh, auth: req.auth } } });
    if (req.link !== '' && !isHttpUrl(req.link)) throw new ValidationError([TEST_PUSH_MESSAGES.link]);
    const site = isUuid(req.siteId) ? await findSiteById(deps.pool, req.siteId.toLowerCase()) : null;
    if (!site) throw new NotFoundError(TEST_PUSH_MESSAGES.siteNotFound);
    const allowed = limiter.take(site.siteId);
    if (!allowed.allowed) throw new RateLimitedError(TEST_PUSH_MESSAGES.tooMany, allowed.retryAfterSeconds);

    const [result] = await deps.sender.sendBatch({
      payload: testPushPayload(req.siteName, req.link),
      ttl: TEST_PUSH.ttlSec,
      retryBudgetMs: TEST_PUSH.retryBudgetMs,
      urgency: 'high',
      topic: '',
      vapid: await deps.vapid(site.siteId),
      subscriptions: [{ id: TEST_PUSH.id, endpoint: subscription.endpoint, p256dh: subscription.p256dh, auth: subscription.auth }],
    });
    if (result.outcome === 'sent') return { sent: true, pushServiceStatus: result.status ?? 0, message: '' };
    if (result.refused) throw new ValidationError([withReason(TEST_PUSH_MESSAGES.destination, result.reason?.replace(/^destination refused: /, ''))]);
    return {
      sent: false,
      pushServiceStatus: result.status ?? 0,
      message: withReason(result.status !== undefined ? TEST_PUSH_MESSAGES.refused : TEST_PUSH_MESSAGES.unreachable, result.reason),
    };
  };
}

export type TestPush = ReturnType<typeof createTestPush>;
