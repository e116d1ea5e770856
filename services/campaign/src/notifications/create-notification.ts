// CreateNotification (POST /v2/notifications; docs/api-decisions.md, "Notifications"): validate →
// replay a known Idempotency-Key → one transaction with the notification, the key and its
// dispatch job in the outbox, after whose commit the relay is woken. Stored here, as a campaign
// is, and handed over by the same outbox: one way of making a send happen exactly once, whatever
// it is (docs/reliability.md). The delivery service sends it on a lane of its own.
import { randomUUID } from 'node:crypto';
import { IDEMPOTENCY_KEY } from '@webpush/shared/api-texts.js';
import { withTransaction, type Pool, type Queryable } from '@webpush/shared/db.js';
import { claimKey, findFreshKey } from '../campaigns/index.js';
import { insertOutbox, notificationJob } from '../outbox/index.js';
import { canonicalJson, sha256Hex } from '../base/canonical-json.js';
import { IdempotencyConflictError, UnauthenticatedError, ValidationError } from '../base/errors.js';
import { isUuid } from '../base/ids.js';
import { MESSAGES } from '../base/texts.js';
import { parseObjectBody } from '../base/request-body.js';
import type { NotificationInput } from './notification-input.js';
import { notificationInputOf, type NotificationTemplateRenderer } from './notification-template.js';
import { insertNotification } from './notification-store.js';

/**
 * Stores a validated notification and its dispatch job in the caller's transaction: what
 * POST /v2/notifications does once its key is claimed, and what another feature sending a
 * notification of its own (an automation's step to `externalIds: [one person]`) calls inside its
 * own transaction. Answers the new notification's id; wake the relay after the commit.
 */
export async function storeNotification(tx: Queryable, siteId: string, input: NotificationInput, id: string = randomUUID()): Promise<string> {
  const { subscriptionIds, externalIds, content, ttl, urgency, transactional, template, sendTime, respectQuietHours } = input;
  await insertNotification(tx, { id, siteId, content, ttl, urgency, transactional, subscriptionIds, externalIds, template, sendTime, respectQuietHours });
  await insertOutbox(tx, [notificationJob(id)]);
  return id;
}

export function createNotificationUseCase(deps: { pool: Pool; renderTemplate: NotificationTemplateRenderer; onDispatched?: () => void }) {
  return async function createNotification(siteId: string, bodyJson: string, idempotencyKey: string): Promise<{ id: string }> {
    if (!isUuid(siteId)) throw new UnauthenticatedError();
    if (idempotencyKey !== '' && !IDEMPOTENCY_KEY.test(idempotencyKey)) throw new ValidationError([MESSAGES.idempotencyKeyFormat]);
    const body = parseObjectBody(bodyJson, false);
    // The site's keys are shared with campaign creates: a notification's hash can never equal a
    // campaign body's, so a key used for one and then the other is a conflict, never a replay.
    const requestHash = sha256Hex(canonicalJson({ notification: body }));

    const replay = async (): Promise<{ id: string } | null> => {
      const stored = await findFreshKey(deps.pool, siteId, idempotencyKey);
      if (!stored) return null;
      if (stored.requestHash !== requestHash) throw new IdempotencyConflictError();
      return { id: stored.campaignId };
    };
    // A replay comes before the template is rendered, as on a campaign create: the first answer
    // stands even if the template changed or was deleted since.
    if (idempotencyKey !== '') {
      const earlier = await replay();
      if (earlier) return earlier;
    }
    const input = await notificationInputOf(deps.renderTemplate, siteId, body);

    const id = randomUUID();
    const stored = await withTransaction(deps.pool, async (tx) => {
      if (idempotencyKey !== '' && !(await claimKey(tx, siteId, idempotencyKey, requestHash, id))) return false;
      await storeNotification(tx, siteId, input, id);
      return true;
    });
    if (stored) {
      deps.onDispatched?.();
      return { id };
    }
    // Another request with the same key committed first.
    const winner = await replay();
    if (!winner) throw new Error('idempotency key held but not readable');
    return winner;
  };
}
