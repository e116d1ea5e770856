// CreateCampaign: validate → replay a known Idempotency-Key → count the audience → one
// transaction with the campaign, its stats row, the key and (for "send now") the dispatch job,
// after whose commit the relay is woken (it need not wait for its interval).
import { randomUUID } from 'node:crypto';
import { IDEMPOTENCY_KEY } from '../../../shared/src/api-messages.js';
import { withTransaction, type Pool } from '../../../shared/src/db.js';
import { claimKey, findFreshKey } from '../db/idempotency-repo.js';
import { insertCampaign } from '../db/campaigns-repo.js';
import { insertOutbox } from '../db/outbox-repo.js';
import { canonicalJson, sha256Hex } from './canonical-json.js';
import { validateCreateInput } from './create-input.js';
import { dispatchJob } from './dispatch-job.js';
import { IdempotencyConflictError, UnauthenticatedError, ValidationError } from './errors.js';
import { isUuid } from './ids.js';
import { MESSAGES } from './messages.js';
import { parseObjectBody } from './request-body.js';
import type { Segment } from '../../../shared/src/segment.js';

export interface AudienceCounter {
  count(siteId: string, topics: readonly string[], countries: readonly string[], segment: Segment | null): Promise<number>;
}

export interface CreateCampaignDeps {
  pool: Pool;
  audience: AudienceCounter;
  /** After a dispatch job has been committed to the outbox (wakes the relay). */
  onDispatched?: () => void;
}

export function createCampaignUseCase(deps: CreateCampaignDeps) {
  return async function createCampaign(siteId: string, bodyJson: string, idempotencyKey: string): Promise<{ id: string }> {
    if (!isUuid(siteId)) throw new UnauthenticatedError();
    if (idempotencyKey !== '' && !IDEMPOTENCY_KEY.test(idempotencyKey)) throw new ValidationError([MESSAGES.idempotencyKeyFormat]);
    const body = parseObjectBody(bodyJson, false);
    const input = validateCreateInput(body);
    const requestHash = sha256Hex(canonicalJson(body));

    const replay = async (): Promise<{ id: string } | null> => {
      const stored = await findFreshKey(deps.pool, siteId, idempotencyKey);
      if (!stored) return null;
      if (stored.requestHash !== requestHash) throw new IdempotencyConflictError();
      return { id: stored.campaignId };
    };
    if (idempotencyKey !== '') {
      const earlier = await replay();
      if (earlier) return earlier;
    }

    const totalUsers = await deps.audience.count(siteId, input.topics, input.countries, input.segment);
    const id = randomUUID();
    const outcome = await withTransaction(deps.pool, async (tx) => {
      if (idempotencyKey !== '' && !(await claimKey(tx, siteId, idempotencyKey, requestHash, id))) return 'lost';
      const dispatchNow = input.status === 'published' && input.scheduleMode === 'now';
      await insertCampaign(tx, {
        id,
        siteId,
        title: input.title,
        body: input.body,
        link: input.link,
        topics: input.destinations,
        status: input.status,
        scheduleMode: input.scheduleMode,
        scheduleDate: input.scheduleMode === 'scheduled' ? input.scheduleDate : null,
        totalUsers,
        image: input.image,
        icon: input.icon,
        callToAction: input.callToAction,
        utmSource: input.utmSource,
        utmMedium: input.utmMedium,
        utmCampaign: input.utmCampaign,
        ttl: input.ttl,
        segment: input.segment,
        throttlePerMinute: input.throttlePerMinute,
        ignoreFrequencyCap: input.ignoreFrequencyCap,
        dispatchNow,
      });
      if (!dispatchNow) return 'stored';
      await insertOutbox(tx, [dispatchJob(id)]);
      return 'dispatched';
    });
    if (outcome === 'dispatched') deps.onDispatched?.();
    if (outcome !== 'lost') return { id };

    // Another request with the same key committed first while this one counted the audience.
    const winner = await replay();
    if (!winner) throw new Error('idempotency key held but not readable');
    return winner;
  };
}
