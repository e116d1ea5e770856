// /v2 campaign endpoints: decode → one backend call → encode. Their methods and paths are in the
// /v2 router (api.ts); the console runs some of them for a member's site (console/routes.ts).
import { IDEMPOTENCY_KEY } from '@webpush/shared/api-texts.js';
import type { CreateCampaignResponse__Output } from '@webpush/contracts/generated/campaign/v1/CreateCampaignResponse.js';
import type { PlanPreviewResponse__Output } from '@webpush/contracts/generated/campaign/v1/PlanPreviewResponse.js';
import { BEST_TIME_MODE } from '@webpush/contracts/best-time.js';
import type { CampaignBackend } from '../grpc/clients.js';
import { HttpError, MESSAGES } from '../texts.js';
import { campaignAnswer, pageAnswer } from './campaign-json.js';
import { exportAnswer, queryValue, type ApiRoute } from './route.js';

export function idempotencyKey(value: string | string[] | undefined): string {
  if (value === undefined) return '';
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY.test(value)) throw new HttpError(400, MESSAGES.idempotencyKeyFormat);
  return value;
}

/** A create's answer (and the console's edit of a draft): the id, and a local-time campaign's plan (an addition of 2026-11-27), which comes as the API's JSON text. */
export function createdAnswer(res: CreateCampaignResponse__Output): { id: string; localTime?: unknown } {
  return res.localTimeJson ? { id: res.id, localTime: JSON.parse(res.localTimeJson) } : { id: res.id };
}

/** POST /v2/campaign/{campaignId}/update or /recall: one call, the action named. */
function revisionRoute(backend: CampaignBackend, operation: string, action: 'update' | 'recall', body: 'json' | 'json-or-empty'): ApiRoute {
  return {
    operation,
    permission: 'create',
    denied: { status: 403, body: { message: MESSAGES.planCreate } },
    genericMessage: MESSAGES.internal,
    body,
    async handle({ principal, params, bodyJson, ctx }) {
      const res = await backend.reviseCampaign({ siteId: principal.siteId, campaignId: params.campaignId, action, bodyJson }, ctx);
      return { id: res.id, revision: res.revision, action: res.action, revisedAt: res.revisedAt };
    },
  };
}

/** Part of the audience in percent, to 0.01 (0 for none). */
const shareOf = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10000) / 100 : 0);

/** A plan preview's answer (docs/api-decisions.md, "Best time"): the typed message as the API's JSON. */
export function planPreviewAnswer(res: PlanPreviewResponse__Output) {
  const total = Number(res.totalUsers);
  const holdout = Number(res.holdoutUsers);
  return {
    totalUsers: total,
    sendTime: { mode: BEST_TIME_MODE, within: `${res.withinHours}h`, holdout: res.holdoutPercent },
    start: res.start,
    holdout: { users: holdout, share: shareOf(holdout, total) },
    byHour: res.hours.map((h) => ({ sendAt: h.sendAt, hour: h.hour, users: Number(h.users), share: shareOf(Number(h.users), total) })),
    sampled: res.sampled,
    sampleSize: Number(res.sampleSize),
  };
}

const reportsDenied = { status: 403, body: { message: MESSAGES.planReports } };
const deleteDenied = { status: 403, body: { message: MESSAGES.planDelete } };

export function campaignEndpoints(backend: CampaignBackend) {
  return {
    create: {
      operation: 'createCampaign',
      permission: 'create',
      denied: { status: 403, body: { message: MESSAGES.planCreate } },
      genericMessage: MESSAGES.errorCreating,
      body: 'json',
      async handle({ principal, bodyJson, headers, ctx }) {
        const key = idempotencyKey(headers['idempotency-key']);
        return createdAnswer(await backend.createCampaign({ siteId: principal.siteId, bodyJson, idempotencyKey: key }, ctx));
      },
    },
    list: {
      operation: 'listCampaigns',
      audit: 'read',
      permission: 'reports',
      denied: reportsDenied,
      genericMessage: MESSAGES.internal,
      body: 'json-or-empty',
      async handle({ principal, bodyJson, ctx }) {
        return pageAnswer(await backend.listCampaigns({ siteId: principal.siteId, bodyJson }, ctx));
      },
    },
    export: {
      operation: 'exportCampaigns',
      audit: 'export',
      permission: 'reports',
      denied: reportsDenied,
      genericMessage: MESSAGES.internal,
      body: 'json-or-empty',
      async handle({ principal, bodyJson, query, ctx }) {
        const format = queryValue(query.format, 'refused');
        return exportAnswer(backend.exportCampaigns({ siteId: principal.siteId, bodyJson, format }, ctx), format, 'campaigns');
      },
    },
    get: {
      operation: 'getCampaign',
      permission: 'reports',
      denied: reportsDenied,
      genericMessage: MESSAGES.internal,
      body: 'none',
      async handle({ principal, params, ctx }) {
        return campaignAnswer(await backend.getCampaign({ siteId: principal.siteId, campaignId: params.campaignId }, ctx));
      },
    },
    delete: {
      operation: 'deleteCampaign',
      permission: 'delete',
      denied: deleteDenied,
      genericMessage: MESSAGES.internal,
      body: 'none',
      async handle({ principal, params, ctx }) {
        const res = await backend.deleteCampaign({ siteId: principal.siteId, campaignId: params.campaignId }, ctx);
        return { id: res.id, deleted: true };
      },
    },
    // An addition of 2026-11-27 (docs/api-decisions.md, "A/B tests"): the customer picks an A/B
    // test's winner. It changes what the campaign sends, so it takes the create permission.
    pickWinner: {
      operation: 'pickCampaignWinner',
      permission: 'create',
      denied: { status: 403, body: { message: MESSAGES.planCreate } },
      genericMessage: MESSAGES.internal,
      body: 'json',
      async handle({ principal, params, bodyJson, ctx }) {
        const res = await backend.pickWinner({ siteId: principal.siteId, campaignId: params.campaignId, bodyJson }, ctx);
        return { id: res.id, winner: { variant: res.variant, decidedAt: res.decidedAt, by: res.by } };
      },
    },
    // An addition of 2026-12-05 (docs/api-decisions.md, "Best time"): a best-time campaign's
    // planned distribution before it is sent. It reads only, but what it previews is a create,
    // so it takes the create permission, as the console's audience estimate does.
    planPreview: {
      operation: 'planCampaignPreview',
      audit: 'read',
      permission: 'create',
      denied: { status: 403, body: { message: MESSAGES.planCreate } },
      genericMessage: MESSAGES.internal,
      body: 'json',
      async handle({ principal, bodyJson, ctx }) {
        return planPreviewAnswer(await backend.planPreview({ siteId: principal.siteId, bodyJson }, ctx));
      },
    },
    // Additions of 2026-12-05 (docs/api-decisions.md, "Update and recall"): the notification of a
    // sent campaign corrected or withdrawn on the devices it went to. They change what the
    // campaign sends, so they take the create permission, as the winner's pick does.
    update: revisionRoute(backend, 'updateCampaign', 'update', 'json'),
    recall: revisionRoute(backend, 'recallCampaign', 'recall', 'json-or-empty'),
    // The spec's "id missing in the URL": answered after the key and plan checks, like any call.
    getWithoutId: {
      operation: 'getCampaign',
      permission: 'reports',
      denied: reportsDenied,
      genericMessage: MESSAGES.internal,
      body: 'none',
      async handle() {
        throw new HttpError(400, MESSAGES.campaignIdRequired);
      },
    },
    deleteWithoutId: {
      operation: 'deleteCampaign',
      permission: 'delete',
      denied: deleteDenied,
      genericMessage: MESSAGES.internal,
      body: 'none',
      async handle() {
        throw new HttpError(400, MESSAGES.campaignIdRequired);
      },
    },
  } satisfies Record<string, ApiRoute>;
}
