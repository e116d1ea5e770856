// /v2 notification endpoints (an addition of 2026-12-07; docs/api-decisions.md, "Notifications"):
// content to chosen subscriptions or people, read back with per-subscription or per-person results. Decode → one backend
// call → encode; the answers' JSON is built here from the typed messages.
import { BEST_TIME_MODE } from '@webpush/contracts/best-time.js';
import { percentJson } from '@webpush/contracts/campaign-json.js';
import type { Notification__Output } from '@webpush/contracts/generated/campaign/v1/Notification.js';
import type { SendTime__Output } from '@webpush/contracts/generated/campaign/v1/SendTime.js';
import type { CampaignBackend } from '../grpc/clients.js';
import { MESSAGES } from '../texts.js';
import { idempotencyKey } from './campaigns.js';
import { queryValue, type ApiRoute } from './route.js';

/**
 * 10,000 external ids of 128 ASCII characters (131 bytes each in JSON) and the content's largest
 * fields fit (subscription ids are 39 bytes each); the gateway's default (100 kB) would refuse a
 * list of 2,500 subscriptions. Ids written with many \u escapes may not fit: 413, as any body.
 */
const NOTIFICATION_BODY_LIMIT_BYTES = 2 * 1024 * 1024;

/**
 * When a notification (or an automation step's) is sent, as the API shows it (docs/api-decisions.md,
 * "Notifications", "Send time"): `sendTime` when at the best time, `respectQuietHours` when true.
 */
export function sendTimeJson(n: { sendTime: SendTime__Output | null; respectQuietHours: boolean }): Record<string, unknown> {
  return {
    ...(n.sendTime ? { sendTime: { mode: BEST_TIME_MODE, within: `${n.sendTime.withinHours}h` } } : {}),
    ...(n.respectQuietHours ? { respectQuietHours: true } : {}),
  };
}

/** A notification as the API shows it; `results` and `nextCursor` only for one read by id. */
function notificationAnswer(n: Notification__Output, withResults: boolean): Record<string, unknown> {
  const answer: Record<string, unknown> = {
    id: n.id,
    createdAt: n.createdAt,
    transactional: n.transactional,
    targets: n.targets,
    content: JSON.parse(n.contentJson),
    ...sendTimeJson(n),
    impressions: n.impressions,
    clicks: n.clicks,
    // A campaign's ctr (the spec's analytics): clicks per impression in percent, two decimals.
    ctr: Number(percentJson(n.clicks, n.impressions)),
  };
  if (!withResults) return answer;
  const c = n.counts;
  return {
    ...answer,
    status: n.status,
    ...(n.reason ? { reason: n.reason } : {}),
    counts: { sent: c?.sent ?? 0, noSubscription: c?.noSubscription ?? 0, capped: c?.capped ?? 0, failed: c?.failed ?? 0, pending: c?.pending ?? 0 },
    results: n.results.map((r) => ({ ...(r.subscriptionId ? { subscriptionId: r.subscriptionId } : { externalId: r.externalId }), outcome: r.outcome, ...(r.reason ? { reason: r.reason } : {}) })),
    nextCursor: n.nextCursor || null,
  };
}

const createDenied = { status: 403, body: { message: MESSAGES.planCreate } };
const reportsDenied = { status: 403, body: { message: MESSAGES.planReports } };

export function notificationEndpoints(backend: CampaignBackend) {
  return {
    // It sends, as a campaign's create does: the create permission. 202: accepted, sent meanwhile.
    create: {
      operation: 'createNotification',
      permission: 'create',
      denied: createDenied,
      genericMessage: MESSAGES.internal,
      body: 'json',
      bodyLimitBytes: NOTIFICATION_BODY_LIMIT_BYTES,
      answerStatus: 202,
      async handle({ principal, bodyJson, headers, ctx }) {
        const key = idempotencyKey(headers['idempotency-key']);
        const res = await backend.createNotification({ siteId: principal.siteId, bodyJson, idempotencyKey: key }, ctx);
        return { id: res.id };
      },
    },
    get: {
      operation: 'getNotification',
      permission: 'reports',
      denied: reportsDenied,
      genericMessage: MESSAGES.internal,
      body: 'none',
      async handle({ principal, params, query, ctx }) {
        const req = { siteId: principal.siteId, notificationId: params.notificationId, limit: queryValue(query.limit, 'refused'), cursor: queryValue(query.cursor, '\u0000') };
        return notificationAnswer(await backend.getNotification(req, ctx), true);
      },
    },
    list: {
      operation: 'listNotifications',
      permission: 'reports',
      denied: reportsDenied,
      genericMessage: MESSAGES.internal,
      body: 'none',
      async handle({ principal, query, ctx }) {
        const res = await backend.listNotifications({ siteId: principal.siteId, limit: queryValue(query.limit, 'refused'), cursor: queryValue(query.cursor, '\u0000') }, ctx);
        return { items: res.items.map((n) => notificationAnswer(n, false)), nextCursor: res.nextCursor || null };
      },
    },
  } satisfies Record<string, ApiRoute>;
}
