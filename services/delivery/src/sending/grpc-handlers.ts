// gRPC adapter for delivery.v1.Runs: control of a campaign while it is being sent, called by the
// campaign service for a request it has checked (packages/contracts/protos/delivery/v1/runs.proto).
import type { RunsHandlers } from '@webpush/contracts/generated/delivery/v1/Runs.js';
import { withTransaction, type Pool } from '@webpush/shared/db.js';
import type { Logger } from '@webpush/shared/log.js';
import { isUuid, StateConflictError, ValidationError } from '../errors.js';
import { answer } from '../grpc-answers.js';
import { MAX_VARIANTS } from '@webpush/contracts/ab-test.js';
import { PICK_REFUSED, pickWinner } from '../ab-tests/index.js';

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
  };
}
