// CreateCampaign: a `template` rendered into content fields → validate → replay a known Idempotency-Key → count the audience (by zone for a
// local-time campaign) → one transaction with the campaign (and a local time's plan, made at the
// transaction's moment, the campaign's creation), its stats row, the key and (for "send now")
// the dispatch job, after whose commit the relay is woken (it need not wait for its interval).
import { randomUUID } from 'node:crypto';
import { campaignContent } from '@webpush/contracts/campaign-content.js';
import { IDEMPOTENCY_KEY } from '@webpush/shared/api-texts.js';
import { withTransaction, type Pool, type Queryable } from '@webpush/shared/db.js';
import { claimKey, findFreshKey } from './idempotency-store.js';
import { insertCampaign, localTimeOf, transactionNow, type NewCampaign, type TemplateReference } from './campaigns-store.js';
import { insertOutbox, dispatchJob } from '../outbox/index.js';
import { canonicalJson, sha256Hex } from '../base/canonical-json.js';
import { CONTENT_INPUT_FIELDS, validateCreateInput, type CreateInput } from './create-input.js';
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

/**
 * A create's `template: {id, variables}` rendered (templates/, given by its shape): the content
 * fields of a create body, and the template as rendered; ValidationError for a reference, a
 * template or variables that do not render.
 */
export type RenderTemplate = (siteId: string, reference: unknown) => Promise<{ content: Record<string, unknown>; template: TemplateReference }>;

export interface CreateCampaignDeps {
  pool: Pool;
  audience: AudienceCounter;
  /** Absent: a create with `template` is refused as a template of no site's. */
  renderTemplate?: RenderTemplate;
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

/**
 * The create body with its `template` rendered in place of content fields (which it may then not
 * have: one or the other), and the template it was rendered from; a body without one as it is.
 */
async function withTemplate(deps: Pick<CreateCampaignDeps, 'renderTemplate'>, siteId: string, body: Record<string, unknown>): Promise<{ body: Record<string, unknown>; template: TemplateReference | null }> {
  if (!Object.hasOwn(body, 'template')) return { body, template: null };
  const { template: reference, ...rest } = body;
  if (CONTENT_INPUT_FIELDS.some((f) => Object.hasOwn(rest, f))) throw new ValidationError([MESSAGES.templateWithContent]);
  if (!deps.renderTemplate) throw new ValidationError([MESSAGES.templateNotOfSite]);
  const rendered = await deps.renderTemplate(siteId, reference);
  return { body: { ...rest, ...rendered.content }, template: rendered.template };
}

/**
 * A create body judged as a create judges it, its template rendered, storing nothing: what a
 * feed's items will be sent with, checked when the feed is saved (feeds/). ValidationError as the
 * create answers it.
 */
export function checkCreateBodyUseCase(deps: Pick<CreateCampaignDeps, 'renderTemplate'>) {
  return async (siteId: string, body: Record<string, unknown>): Promise<void> => {
    const { body: content } = await withTemplate(deps, siteId, body);
    validateCreateInput(content);
  };
}

/** The row a validated create body makes (a create's, or the one a draft's edit writes over it). */
export function campaignRow(id: string, siteId: string, input: CreateInput, audience: AudienceCount | null, plan: LocalTimePlan | null, template: TemplateReference | null = null): NewCampaign {
  return {
    id,
    siteId,
    template,
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
    ignoreQuietHours: input.ignoreQuietHours,
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

/**
 * Written in the create's transaction before the campaign, by a caller that must make a campaign
 * at most once for something of its own (a feed's item: feeds/); what it throws rolls the create
 * back and goes up as it is.
 */
export type CreateClaim = (tx: Queryable, campaignId: string) => Promise<void>;

export function createCampaignUseCase(deps: CreateCampaignDeps) {
  return async function createCampaign(siteId: string, bodyJson: string, idempotencyKey: string, claim?: CreateClaim): Promise<CreatedCampaign> {
    if (!isUuid(siteId)) throw new UnauthenticatedError();
    if (idempotencyKey !== '' && !IDEMPOTENCY_KEY.test(idempotencyKey)) throw new ValidationError([MESSAGES.idempotencyKeyFormat]);
    const body = parseObjectBody(bodyJson, false);
    const requestHash = sha256Hex(canonicalJson(body));
    // Inline content is judged before a replay, as ever; a template is rendered after it: the
    // first answer is replayed even when the template has changed or gone since.
    const templated = Object.hasOwn(body, 'template');
    const inline = templated ? null : validateCreateInput(body);

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
    const { body: content, template } = await withTemplate(deps, siteId, body);
    const input = inline ?? validateCreateInput(content);

    const audience = await countAudience(deps.audience, siteId, input);
    const id = randomUUID();
    const dispatchNow = dispatchesNow(input);
    const campaign = (plan: LocalTimePlan | null) => campaignRow(id, siteId, input, audience, plan, template);
    // No key, no dispatch job, no plan: the insert is the one statement, its own transaction.
    if (idempotencyKey === '' && !dispatchNow && input.localTime === null && !claim) {
      await insertCampaign(deps.pool, campaign(null));
      if (audience === null) deps.onUncounted?.();
      return { id, localTimeJson: '' };
    }
    let localTimeJson = '';
    const outcome = await withTransaction(deps.pool, async (tx) => {
      if (idempotencyKey !== '' && !(await claimKey(tx, siteId, idempotencyKey, requestHash, id))) return 'lost';
      await claim?.(tx, id);
      // Planned at the transaction's now(), which the campaign's created_at is too: the moment
      // the dispatch message names and the delivery service's zone groups are measured from.
      const plan = input.localTime && audience ? planLocalTime(input.localTime, audience, await transactionNow(tx), input.ignoreQuietHours) : null;
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
