// CampaignService handlers: decode → one domain call → encode. Campaigns leave as typed Campaign
// messages (packages/contracts/protos/campaign/v1/campaign.proto); the gateway writes their JSON.
import type * as grpc from '@grpc/grpc-js';
import { writeChunks } from '@webpush/shared/grpc.js';
import type { CampaignServiceHandlers } from '@webpush/contracts/generated/campaign/v1/CampaignService.js';
import type { ExportCampaignsChunk } from '@webpush/contracts/generated/campaign/v1/ExportCampaignsChunk.js';
import type { ExportCampaignsRequest__Output } from '@webpush/contracts/generated/campaign/v1/ExportCampaignsRequest.js';
import type { Logger } from '@webpush/shared/log.js';
import type { Notification } from '@webpush/contracts/generated/campaign/v1/Notification.js';
import type { NotificationAnswer } from '../notifications/index.js';
import type { UseCases } from './use-cases.js';
import type { Template } from '../templates/index.js';
import type { Automation } from '../automations/index.js';
import type { Feed } from '../feeds/index.js';
import { DEFAULT_NOTIFICATION_OPTIONS, type CampaignContent } from '@webpush/contracts/campaign-content.js';
import { BEST_TIME_MODE, type NotificationBestTime } from '@webpush/contracts/best-time.js';
import { toStatus } from './status.js';

function unary<Req, Res>(method: string, log: Logger, fn: (req: Req) => Promise<Res>): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    fn(call.request)
      .then(
        (res) => callback(null, res),
        (err) => callback(toStatus(err, method, log)),
      )
      // Answering itself failed (grpc-js encodes the status as it sends it): the call is lost,
      // the process must not be — a throw here would be an unhandled rejection.
      .catch((err: unknown) => log.error('answering the call failed', { method, err }));
  };
}

const templateMessage = (t: Template) => ({ ...t, contentJson: JSON.stringify(t.content) });

/** An automation as the typed message; results and enrolments only when read with them. */
const automationMessage = (a: Automation) => ({
  id: a.id,
  name: a.name,
  status: a.status,
  trigger: {
    type: a.trigger.type,
    name: a.trigger.type === 'subscribed' ? '' : a.trigger.name,
    valueJson: a.trigger.type === 'tag' && a.trigger.value !== undefined ? JSON.stringify(a.trigger.value) : '',
  },
  steps: a.steps.map((s) => ({
    delaySeconds: s.delaySeconds,
    templateId: s.templateId,
    variablesJson: JSON.stringify(s.variables),
    ...(s.results ? { results: s.results } : {}),
    ...(s.sendTime ? { sendTime: sendTimeMessage(s.sendTime) } : {}),
    respectQuietHours: s.respectQuietHours === true,
  })),
  exitEvents: a.exitOn.events,
  exitOnClick: a.exitOn.click,
  ...(a.throttlePerMinute !== null ? { throttlePerMinute: a.throttlePerMinute } : {}),
  ...(a.enrolments ? { enrolments: a.enrolments } : {}),
  createdAt: a.createdAt,
  updatedAt: a.updatedAt,
});
const feedMessage = ({ settings, ...f }: Feed) => ({ ...f, settingsJson: JSON.stringify(settings) });

/** Rendered content as a create body's content fields (the notification options flat, as a create sends them). */
function contentFields(c: CampaignContent): Record<string, unknown> {
  const { options, ...fields } = c;
  return { ...fields, ...(options ?? DEFAULT_NOTIFICATION_OPTIONS) };
}

/** A notification as the typed message (the gateway writes its JSON). */
function notificationMessage({ sendTime, ...n }: NotificationAnswer): Notification {
  return { ...n, counts: n.counts ?? undefined, ...(sendTime ? { sendTime: sendTimeMessage(sendTime) } : {}) };
}

/** A notification's or a step's best time as the campaigns' SendTime message: no holdout, no slots. */
const sendTimeMessage = (t: NotificationBestTime) => ({ mode: BEST_TIME_MODE, withinHours: t.withinHours, holdoutPercent: 0, slots: [] });

export function createHandlers(uc: UseCases, log: Logger): CampaignServiceHandlers {
  return {
    Authenticate: unary('Authenticate', log, async (req) => {
      const owner = await uc.authenticate(req.keyHash);
      return { siteId: owner.siteId, permissions: owner.permissions, keyId: owner.key.id, keyPrefix: owner.key.prefix, keyLabel: owner.key.label };
    }),
    CreateCampaign: unary('CreateCampaign', log, (req) => uc.createCampaign(req.siteId, req.bodyJson, req.idempotencyKey)),
    ListCampaigns: unary('ListCampaigns', log, async (req) => {
      const page = await uc.listCampaigns(req.siteId, req.bodyJson);
      return { items: page.items, page: { limit: page.limit, hasMore: page.hasMore, nextCursor: page.nextCursor ?? undefined } };
    }),
    GetCampaign: unary('GetCampaign', log, async (req) => ({ campaign: await uc.getCampaign(req.siteId, req.campaignId) })),
    DeleteCampaign: unary('DeleteCampaign', log, (req) => uc.deleteCampaign(req.siteId, req.campaignId)),
    PickWinner: unary('PickWinner', log, (req) => uc.pickWinner(req.siteId, req.campaignId, req.bodyJson)),
    PlanPreview: unary('PlanPreview', log, (req) => uc.planPreview(req.siteId, req.bodyJson)),
    UpdateDraft: unary('UpdateDraft', log, (req) => uc.updateDraft(req.siteId, req.campaignId, req.bodyJson)),
    ReviseCampaign: unary('ReviseCampaign', log, (req) => uc.reviseCampaign(req.siteId, req.campaignId, req.action, req.bodyJson)),
    CreateNotification: unary('CreateNotification', log, (req) => uc.createNotification(req.siteId, req.bodyJson, req.idempotencyKey)),
    GetNotification: unary('GetNotification', log, async (req) => notificationMessage(await uc.getNotification(req.siteId, req.notificationId, req.limit, req.cursor))),
    ListNotifications: unary('ListNotifications', log, async (req) => {
      const page = await uc.listNotifications(req.siteId, req.limit, req.cursor);
      return { items: page.items.map(notificationMessage), nextCursor: page.nextCursor };
    }),
    CreateTemplate: unary('CreateTemplate', log, async (req) => templateMessage(await uc.createTemplate(req.siteId, req.bodyJson))),
    ListTemplates: unary('ListTemplates', log, async (req) => {
      const page = await uc.listTemplates(req.siteId, req.limit, req.cursor);
      return { items: page.items.map(templateMessage), page: { limit: page.limit, hasMore: page.hasMore, nextCursor: page.nextCursor ?? undefined } };
    }),
    GetTemplate: unary('GetTemplate', log, async (req) => templateMessage(await uc.getTemplate(req.siteId, req.templateId))),
    UpdateTemplate: unary('UpdateTemplate', log, async (req) => templateMessage(await uc.updateTemplate(req.siteId, req.templateId, req.bodyJson))),
    DeleteTemplate: unary('DeleteTemplate', log, (req) => uc.deleteTemplate(req.siteId, req.templateId)),
    CreateAutomation: unary('CreateAutomation', log, async (req) => automationMessage(await uc.createAutomation(req.siteId, req.bodyJson))),
    ListAutomations: unary('ListAutomations', log, async (req) => {
      const page = await uc.listAutomations(req.siteId, req.limit, req.cursor);
      return { items: page.items.map(automationMessage), page: { limit: page.limit, hasMore: page.hasMore, nextCursor: page.nextCursor ?? undefined } };
    }),
    GetAutomation: unary('GetAutomation', log, async (req) => automationMessage(await uc.getAutomation(req.siteId, req.automationId))),
    UpdateAutomation: unary('UpdateAutomation', log, async (req) => automationMessage(await uc.updateAutomation(req.siteId, req.automationId, req.bodyJson))),
    DeleteAutomation: unary('DeleteAutomation', log, (req) => uc.deleteAutomation(req.siteId, req.automationId)),
    RecordEvent: unary('RecordEvent', log, (req) => uc.recordEvent(req.siteId, req.bodyJson, req.idempotencyKey)),
    RenderTemplate: unary('RenderTemplate', log, async (req) => {
      const { template, content } = await uc.renderTemplate(req.siteId, req.templateId, req.bodyJson);
      return { template: templateMessage(template), contentJson: JSON.stringify(contentFields(content)) };
    }),
    CreateFeed: unary('CreateFeed', log, async (req) => feedMessage(await uc.createFeed(req.siteId, req.bodyJson))),
    ListFeeds: unary('ListFeeds', log, async (req) => {
      const page = await uc.listFeeds(req.siteId, req.limit, req.cursor);
      return { items: page.items.map(feedMessage), page: { limit: page.limit, hasMore: page.hasMore, nextCursor: page.nextCursor ?? undefined } };
    }),
    GetFeed: unary('GetFeed', log, async (req) => feedMessage(await uc.getFeed(req.siteId, req.feedId))),
    UpdateFeed: unary('UpdateFeed', log, async (req) => feedMessage(await uc.updateFeed(req.siteId, req.feedId, req.bodyJson))),
    DeleteFeed: unary('DeleteFeed', log, (req) => uc.deleteFeed(req.siteId, req.feedId)),
    // Server-streaming: `done` is the metrics wrapper's (shared/observability/metrics.ts).
    ExportCampaigns: ((call: grpc.ServerWritableStream<ExportCampaignsRequest__Output, ExportCampaignsChunk>, done?: (err: unknown) => void) => {
      const { siteId, bodyJson, format } = call.request;
      Promise.resolve()
        .then(() => writeChunks(call as grpc.ServerWritableStream<unknown, { data: Buffer }>, uc.exportCampaigns(siteId, bodyJson, format)))
        .then(
          () => done?.(null),
          (err: unknown) => {
            const status = toStatus(err, 'ExportCampaigns', log);
            call.emit('error', { ...status, metadata: status.metadata ?? undefined });
            done?.(status);
          },
        );
    }) as CampaignServiceHandlers['ExportCampaigns'],
  };
}
