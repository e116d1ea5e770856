// gRPC adapter for delivery.v1.Runs: control of a campaign while it is being sent, and a
// notification's results, called by the campaign service for a request it has checked
// (packages/contracts/protos/delivery/v1/runs.proto).
import type { RunsHandlers } from '@webpush/contracts/generated/delivery/v1/Runs.js';
import { withTransaction, type Pool } from '@webpush/shared/db.js';
import type { Logger } from '@webpush/shared/log.js';
import { isUuid, StateConflictError, ValidationError } from '../errors.js';
import { answer } from '../grpc-answers.js';
import { MAX_VARIANTS } from '@webpush/contracts/ab-test.js';
import { PICK_REFUSED, pickWinner } from '../ab-tests/index.js';
import { findRun } from './run-store.js';
import { targetResults } from './notification-store.js';

/** The most results one call reads (the API's largest page). */
const MAX_RESULTS = 1000;

export function createRunsHandlers(pool: Pool, log: Logger, onPicked: () => void): RunsHandlers {
  return {
    PickWinner: ({ request: r }, callback) =>
      answer(log, 'PickWinner', callback, async () => {
        if (!Number.isInteger(r.variant) || r.variant < 0 || r.variant >= MAX_VARIANTS) throw new ValidationError([`variant must be an integer from 0 to ${MAX_VARIANTS - 1}`]);
        // A campaign the delivery service has not taken has no run: its test has not started.
        if (!isUuid(r.siteId) || !isUuid(r.campaignId)) throw new StateConflictError(PICK_REFUSED.notStarted);
        const picked = await withTransaction(pool, (tx) => pickWinner(tx, r.siteId.toLowerCase(), r.campaignId.toLowerCase(), r.variant));
        if ('refused' in picked) throw new StateConflictError(picked.refused);
        log.info('A/B test winner picked by the customer', { campaignId: r.campaignId, variant: picked.variant });
        onPicked();
        return { variant: picked.variant, decidedAt: picked.decidedAt, by: picked.by };
      }),
    NotificationResults: ({ request: r }, callback) =>
      answer(log, 'NotificationResults', callback, async () => {
        if (!Number.isInteger(r.after) || r.after < 0 || !Number.isInteger(r.limit) || r.limit < 1 || r.limit > MAX_RESULTS) {
          throw new ValidationError([`after must be 0 or more and limit from 1 to ${MAX_RESULTS}`]);
        }
        const run = isUuid(r.siteId) && isUuid(r.notificationId) ? await findRun(pool, r.notificationId.toLowerCase()) : null;
        // Not taken yet — or not this site's notification, which answers the same.
        if (!run || !run.job.notification || run.siteId !== r.siteId.toLowerCase()) return { found: false };
        const { counts, results, hasMore } = await targetResults(pool, run.campaignId, r.after, r.limit);
        return { found: true, state: run.state, reason: run.reason ?? '', ...counts, results, hasMore };
      }),
  };
}
