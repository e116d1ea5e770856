// CreateCampaign: validate → replay a known Idempotency-Key → count the audience (by zone for a
// local-time campaign) → one transaction with the campaign (and a local time's plan, made at the
// transaction's moment, the campaign's creation), its stats row, the key and (for "send now")
// the dispatch job, after whose commit the relay is woken (it need not wait for its interval).
import { randomUUID } from 'node:crypto';
import { campaignContent } from '@webpush/contracts/campaign-content.js';
import { IDEMPOTENCY_KEY } from '@webpush/shared/api-texts.js';
import { withTransaction, type Pool } from '@webpush/shared/db.js';
import { claimKey, findFreshKey } from './idempotency-store.js';
import { insertCampaign, localTimeOf, transactionNow, type NewCampaign } from './campaigns-store.js';
import { insertOutbox, dispatchJob } from '../outbox/index.js';
import { canonicalJson, sha256Hex } from '../base/canonical-json.js';
import { validateCreateInput, type CreateInput } from './create-input.js';
import { AudienceUnavailableError, IdempotencyConflictError, UnauthenticatedError, ValidationError } from '../base/errors.js';
import { isUuid } from '../base/ids.js';
import { planLocalTime, type AudienceZones, type LocalTimePlan } from './local-time-plan.js';
import { MESSAGES } from '../base/texts.js';
import { parseObjectBody } from '../base/request-body.js';
import type { Segment } from '@webpush/contracts/segment.js';

/** The audience's size, and with `withZones` its subscribers by effective zone (else no zones). */
export interface AudienceCount extends AudienceZones {
  users: number;
}

export interface AudienceCounter {
  count(siteId: string, topics: readonly string[], countries: readonly string[], segment: Segment | null, withZones?: boolean): Promise<AudienceCount>;
}

/** The create's answer: the id, and a local-time campaign's plan as the API's JSON text ('' for none). */
export interface CreatedCampaign {
  id: string;
  localTimeJson: string;
}

export interface CreateCampaignDeps {
  pool: Pool;
  audience: AudienceCounter;
  /** After a dispatch job has been committed to the outbox (wakes the relay). */
  onDispatched?: () => void;
  /** After a campaign was stored with its audience not counted (wakes the recount, audience-recount.ts). */
  onUncounted?: () => void;
}

/**
 * Counted before any transaction, so no connection is held while the delivery service counts.
 * When it cannot count (down, slow, failing), null: the campaign is stored with its audience not
 * counted yet and counted again in the background, so a create (or a draft's edit) does not fail
 * because the sender's side does. A local-time campaign's plan is made from the count, so it
 * cannot wait: AudienceUnavailableError goes up (busy, 503 with Retry-After; nothing written).
 */
export async function countAudience(audience: AudienceCounter, siteId: string, input: CreateInput): Promise<AudienceCount | null> {
  try {
    return await audience.count(siteId, input.topics, input.countries, input.segment, input.localTime !== null);
  } catch (err) {
    if (!(err instanceof AudienceUnavailableError) || input.localTime !== null) throw err;
    return null;
  }
}

/** The row a validated create body makes (a create's, or the one a draft's edit writes over it). */
export function campaignRow(id: string, siteId: string, input: CreateInput, audience: AudienceCount | null, plan: LocalTimePlan | null): NewCampaign {
  return {
    id,
    siteId,
    ...campaignContent(input),
    topics: input.destinations,
    status: input.status,
    scheduleMode: input.scheduleMode,
    // A local-time campaign is dispatched at its first send.
    scheduleDate: plan ? new Date(plan.firstSendAt) : input.scheduleMode === 'scheduled' ? input.scheduleDate : null,
    totalUsers: audience === null ? null : audience.users,
    ttl: input.ttl,
    segment: input.segment,
    throttlePerMinute: input.throttlePerMinute,
    ignoreFrequencyCap: input.ignoreFrequencyCap,
    localTimeJson: plan ? JSON.stringify(plan) : null,
    lastSendAt: plan ? new Date(plan.lastSendAt) : null,
    abTest: input.abTest,
    urgency: input.urgency,
    bestTime: input.bestTime,
    dispatchNow: dispatchesNow(input),
  };
}

/** Sent at once: the dispatch job is written with the campaign. */
export const dispatchesNow = (input: CreateInput) => input.status === 'published' && input.scheduleMode === 'now';

export function createCampaignUseCase(deps: CreateCampaignDeps) {
  return async function createCampaign(siteId: string, bodyJson: string, idempotencyKey: string): Promise<CreatedCampaign> {
    if (!isUuid(siteId)) throw new UnauthenticatedError();
    if (idempotencyKey !== '' && !IDEMPOTENCY_KEY.test(idempotencyKey)) throw new ValidationError([MESSAGES.idempotencyKeyFormat]);
    const body = parseObjectBody(bodyJson, false);
    const input = validateCreateInput(body);
    const requestHash = sha256Hex(canonicalJson(body));

    const replay = async (): Promise<CreatedCampaign | null> => {
      const stored = await findFreshKey(deps.pool, siteId, idempotencyKey);
      if (!stored) return null;
      if (stored.requestHash !== requestHash) throw new IdempotencyConflictError();
      // The first answer again; its plan as stored (none when the campaign was deleted since).
      return { id: stored.campaignId, localTimeJson: (await localTimeOf(deps.pool, siteId, stored.campaignId)) ?? '' };
    };
    if (idempotencyKey !== '') {
      const earlier = await replay();
      if (earlier) return earlier;
    }

    const audience = await countAudience(deps.audience, siteId, input);
    const id = randomUUID();
    const dispatchNow = dispatchesNow(input);
    const campaign = (plan: LocalTimePlan | null) => campaignRow(id, siteId, input, audience, plan);
    // No key, no dispatch job, no plan: the insert is the one statement, its own transaction.
    if (idempotencyKey === '' && !dispatchNow && input.localTime === null) {
      await insertCampaign(deps.pool, campaign(null));
      if (audience === null) deps.onUncounted?.();
      return { id, localTimeJson: '' };
    }
    let localTimeJson = '';
    const outcome = await withTransaction(deps.pool, async (tx) => {
      if (idempotencyKey !== '' && !(await claimKey(tx, siteId, idempotencyKey, requestHash, id))) return 'lost';
      // Planned at the transaction's now(), which the campaign's created_at is too: the moment
      // the dispatch message names and the delivery service's zone groups are measured from.
      const plan = input.localTime && audience ? planLocalTime(input.localTime, audience, await transactionNow(tx)) : null;
      const row = campaign(plan);
      localTimeJson = row.localTimeJson ?? '';
      await insertCampaign(tx, row);
      if (!dispatchNow) return 'stored';
      await insertOutbox(tx, [dispatchJob(id)]);
      return 'dispatched';
    });
    if (outcome === 'dispatched') deps.onDispatched?.();
    if (outcome !== 'lost' && audience === null) deps.onUncounted?.();
    if (outcome !== 'lost') return { id, localTimeJson };

    // Another request with the same key committed first while this one counted the audience.
    const winner = await replay();
    if (!winner) throw new Error('idempotency key held but not readable');
    return winner;
  };
}
