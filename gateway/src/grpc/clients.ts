// One client per backend service, promisified; every call carries a deadline and the request id.
import * as grpc from '@grpc/grpc-js';
import { loadAudienceProto, loadAuditLogProto, loadCampaignProto, loadConsoleDataProto, loadConsoleProto, loadWebhooksProto } from '@webpush/shared/grpc.js';
import { withInternalToken } from '@webpush/shared/internal-auth.js';
import type { CampaignServiceClient } from '@webpush/contracts/generated/campaign/v1/CampaignService.js';
import type { ConsoleClient } from '@webpush/contracts/generated/campaign/v1/Console.js';
import type { LoginRequest } from '@webpush/contracts/generated/campaign/v1/LoginRequest.js';
import type { AcceptInviteRequest } from '@webpush/contracts/generated/campaign/v1/AcceptInviteRequest.js';
import type { SessionGrant__Output } from '@webpush/contracts/generated/campaign/v1/SessionGrant.js';
import type { SessionAnswer__Output } from '@webpush/contracts/generated/campaign/v1/SessionAnswer.js';
import type { SiteInfoResponse__Output } from '@webpush/contracts/generated/campaign/v1/SiteInfoResponse.js';
import type { ApiKeyList__Output } from '@webpush/contracts/generated/campaign/v1/ApiKeyList.js';
import type { IssuedApiKey__Output } from '@webpush/contracts/generated/campaign/v1/IssuedApiKey.js';
import type { RevokedApiKey__Output } from '@webpush/contracts/generated/campaign/v1/RevokedApiKey.js';
import type { MemberList__Output } from '@webpush/contracts/generated/campaign/v1/MemberList.js';
import type { Member__Output } from '@webpush/contracts/generated/campaign/v1/Member.js';
import type { CreateInviteRequest } from '@webpush/contracts/generated/campaign/v1/CreateInviteRequest.js';
import type { CreatedInvite__Output } from '@webpush/contracts/generated/campaign/v1/CreatedInvite.js';
import type { InviteList__Output } from '@webpush/contracts/generated/campaign/v1/InviteList.js';
import type { InvitePreview__Output } from '@webpush/contracts/generated/campaign/v1/InvitePreview.js';
import type { EstimateAudienceResponse__Output } from '@webpush/contracts/generated/campaign/v1/EstimateAudienceResponse.js';
import type { SetSiteThrottleRequest } from '@webpush/contracts/generated/campaign/v1/SetSiteThrottleRequest.js';
import type { SiteThrottle__Output } from '@webpush/contracts/generated/campaign/v1/SiteThrottle.js';
import type { UpdateSendingSettingsRequest } from '@webpush/contracts/generated/delivery/v1/UpdateSendingSettingsRequest.js';
import type { ConsoleDataClient } from '@webpush/contracts/generated/delivery/v1/ConsoleData.js';
import type { CampaignSeriesResponse__Output } from '@webpush/contracts/generated/delivery/v1/CampaignSeriesResponse.js';
import type { AudienceDailyResponse__Output } from '@webpush/contracts/generated/delivery/v1/AudienceDailyResponse.js';
import type { AudienceBrowsersResponse__Output } from '@webpush/contracts/generated/delivery/v1/AudienceBrowsersResponse.js';
import type { TopicChange__Output } from '@webpush/contracts/generated/delivery/v1/TopicChange.js';
import type { SiteSettingsResponse__Output } from '@webpush/contracts/generated/delivery/v1/SiteSettingsResponse.js';
import type { SendTestPushRequest } from '@webpush/contracts/generated/delivery/v1/SendTestPushRequest.js';
import type { SendTestPushResponse__Output } from '@webpush/contracts/generated/delivery/v1/SendTestPushResponse.js';
import type { OptInPromptsResponse__Output } from '@webpush/contracts/generated/delivery/v1/OptInPromptsResponse.js';
import type { AudienceClient } from '@webpush/contracts/generated/delivery/v1/Audience.js';
import type { DeletedPerson__Output } from '@webpush/contracts/generated/delivery/v1/DeletedPerson.js';
import type { Person__Output } from '@webpush/contracts/generated/delivery/v1/Person.js';
import type { PersonExport__Output } from '@webpush/contracts/generated/delivery/v1/PersonExport.js';
import type { PersonSends__Output } from '@webpush/contracts/generated/delivery/v1/PersonSends.js';
import type { OptInFunnel__Output } from '@webpush/contracts/generated/delivery/v1/OptInFunnel.js';
import type { WebhooksClient } from '@webpush/contracts/generated/delivery/v1/Webhooks.js';
import type { WebhookRequest } from '@webpush/contracts/generated/delivery/v1/WebhookRequest.js';
import type { ListWebhooksResponse__Output } from '@webpush/contracts/generated/delivery/v1/ListWebhooksResponse.js';
import type { WebhookWithSecret__Output } from '@webpush/contracts/generated/delivery/v1/WebhookWithSecret.js';
import type { WebhookEndpoint__Output } from '@webpush/contracts/generated/delivery/v1/WebhookEndpoint.js';
import type { DeleteWebhookResponse__Output } from '@webpush/contracts/generated/delivery/v1/DeleteWebhookResponse.js';
import type { ListWebhookDeliveriesResponse__Output } from '@webpush/contracts/generated/delivery/v1/ListWebhookDeliveriesResponse.js';
import type { WebhookDelivery__Output } from '@webpush/contracts/generated/delivery/v1/WebhookDelivery.js';
import type { AuditLogClient } from '@webpush/contracts/generated/delivery/v1/AuditLog.js';
import type { AppendAuditEntryRequest } from '@webpush/contracts/generated/delivery/v1/AppendAuditEntryRequest.js';
import type { ListAuditEntriesResponse__Output } from '@webpush/contracts/generated/delivery/v1/ListAuditEntriesResponse.js';
import type { AuditSettings__Output } from '@webpush/contracts/generated/delivery/v1/AuditSettings.js';
import type { AuditExportChunk__Output } from '@webpush/contracts/generated/delivery/v1/AuditExportChunk.js';
import type { AuthenticateResponse__Output } from '@webpush/contracts/generated/campaign/v1/AuthenticateResponse.js';
import type { CreateCampaignResponse__Output } from '@webpush/contracts/generated/campaign/v1/CreateCampaignResponse.js';
import type { ListCampaignsResponse__Output } from '@webpush/contracts/generated/campaign/v1/ListCampaignsResponse.js';
import type { GetCampaignResponse__Output } from '@webpush/contracts/generated/campaign/v1/GetCampaignResponse.js';
import type { DeleteCampaignResponse__Output } from '@webpush/contracts/generated/campaign/v1/DeleteCampaignResponse.js';
import type { PickWinnerResponse__Output } from '@webpush/contracts/generated/campaign/v1/PickWinnerResponse.js';
import type { PlanPreviewResponse__Output } from '@webpush/contracts/generated/campaign/v1/PlanPreviewResponse.js';
import type { ReviseCampaignResponse__Output } from '@webpush/contracts/generated/campaign/v1/ReviseCampaignResponse.js';
import type { CreateNotificationResponse__Output } from '@webpush/contracts/generated/campaign/v1/CreateNotificationResponse.js';
import type { Notification__Output } from '@webpush/contracts/generated/campaign/v1/Notification.js';
import type { ListNotificationsResponse__Output } from '@webpush/contracts/generated/campaign/v1/ListNotificationsResponse.js';
import type { NameCounts__Output } from '@webpush/contracts/generated/delivery/v1/NameCounts.js';
import type { ImportSubscriptionsResponse__Output } from '@webpush/contracts/generated/delivery/v1/ImportSubscriptionsResponse.js';
import type { ExportChunk__Output } from '@webpush/contracts/generated/delivery/v1/ExportChunk.js';
import type { TemplateRequest } from '@webpush/contracts/generated/campaign/v1/TemplateRequest.js';
import type { Template__Output } from '@webpush/contracts/generated/campaign/v1/Template.js';
import type { ListTemplatesResponse__Output } from '@webpush/contracts/generated/campaign/v1/ListTemplatesResponse.js';
import type { DeleteTemplateResponse__Output } from '@webpush/contracts/generated/campaign/v1/DeleteTemplateResponse.js';
import type { RenderTemplateResponse__Output } from '@webpush/contracts/generated/campaign/v1/RenderTemplateResponse.js';
import type { AutomationRequest } from '@webpush/contracts/generated/campaign/v1/AutomationRequest.js';
import type { Automation__Output } from '@webpush/contracts/generated/campaign/v1/Automation.js';
import type { ListAutomationsResponse__Output } from '@webpush/contracts/generated/campaign/v1/ListAutomationsResponse.js';
import type { DeleteAutomationResponse__Output } from '@webpush/contracts/generated/campaign/v1/DeleteAutomationResponse.js';
import type { RecordEventResponse__Output } from '@webpush/contracts/generated/campaign/v1/RecordEventResponse.js';
import type { FeedRequest } from '@webpush/contracts/generated/campaign/v1/FeedRequest.js';
import type { Feed__Output } from '@webpush/contracts/generated/campaign/v1/Feed.js';
import type { ListFeedsResponse__Output } from '@webpush/contracts/generated/campaign/v1/ListFeedsResponse.js';
import type { DeleteFeedResponse__Output } from '@webpush/contracts/generated/campaign/v1/DeleteFeedResponse.js';
import type { ExportCampaignsChunk__Output } from '@webpush/contracts/generated/campaign/v1/ExportCampaignsChunk.js';

export interface CallContext {
  requestId: string;
}

export interface CampaignBackend {
  authenticate(keyHash: string, ctx: CallContext): Promise<AuthenticateResponse__Output>;
  createCampaign(req: { siteId: string; bodyJson: string; idempotencyKey: string }, ctx: CallContext): Promise<CreateCampaignResponse__Output>;
  listCampaigns(req: { siteId: string; bodyJson: string }, ctx: CallContext): Promise<ListCampaignsResponse__Output>;
  getCampaign(req: { siteId: string; campaignId: string }, ctx: CallContext): Promise<GetCampaignResponse__Output>;
  deleteCampaign(req: { siteId: string; campaignId: string }, ctx: CallContext): Promise<DeleteCampaignResponse__Output>;
  pickWinner(req: { siteId: string; campaignId: string; bodyJson: string }, ctx: CallContext): Promise<PickWinnerResponse__Output>;
  planPreview(req: { siteId: string; bodyJson: string }, ctx: CallContext): Promise<PlanPreviewResponse__Output>;
  /** A sent campaign's update or recall (docs/api-decisions.md, "Update and recall"). */
  reviseCampaign(req: { siteId: string; campaignId: string; action: 'update' | 'recall'; bodyJson: string }, ctx: CallContext): Promise<ReviseCampaignResponse__Output>;
  /** Notifications to chosen subscriptions (docs/api-decisions.md, "Notifications"). */
  createNotification(req: { siteId: string; bodyJson: string; idempotencyKey: string }, ctx: CallContext): Promise<CreateNotificationResponse__Output>;
  getNotification(req: { siteId: string; notificationId: string; limit: string; cursor: string }, ctx: CallContext): Promise<Notification__Output>;
  listNotifications(req: { siteId: string; limit: string; cursor: string }, ctx: CallContext): Promise<ListNotificationsResponse__Output>;
  /** The console's edit of a draft (docs/console.md, "Drafts"): a create body; the create's answer. */
  updateDraft(req: { siteId: string; campaignId: string; bodyJson: string }, ctx: CallContext): Promise<CreateCampaignResponse__Output>;
  /** No deadline (a long history takes a while): the caller cancels it when its client goes. */
  exportCampaigns(req: { siteId: string; bodyJson: string; format: string }, ctx: CallContext): grpc.ClientReadableStream<ExportCampaignsChunk__Output>;
}

/** The template calls of campaign.v1.CampaignService (/v2/templates), one per endpoint, each answering its typed message. */
export type TemplateCall<Answer> = (req: TemplateRequest, ctx: CallContext) => Promise<Answer>;
export interface TemplatesBackend {
  createTemplate: TemplateCall<Template__Output>;
  listTemplates: TemplateCall<ListTemplatesResponse__Output>;
  getTemplate: TemplateCall<Template__Output>;
  updateTemplate: TemplateCall<Template__Output>;
  deleteTemplate: TemplateCall<DeleteTemplateResponse__Output>;
  renderTemplate: TemplateCall<RenderTemplateResponse__Output>;
}

/** The feed calls of campaign.v1.CampaignService (/v2/feeds), one per endpoint, each answering its typed message. */
export type FeedCall<Answer> = (req: FeedRequest, ctx: CallContext) => Promise<Answer>;
export interface FeedsBackend {
  createFeed: FeedCall<Feed__Output>;
  listFeeds: FeedCall<ListFeedsResponse__Output>;
  getFeed: FeedCall<Feed__Output>;
  updateFeed: FeedCall<Feed__Output>;
  deleteFeed: FeedCall<DeleteFeedResponse__Output>;
}

/** The automation calls of campaign.v1.CampaignService (/v2/automations, POST /v2/events), one per endpoint. */
export type AutomationCall<Answer> = (req: AutomationRequest, ctx: CallContext) => Promise<Answer>;
export interface AutomationsBackend {
  createAutomation: AutomationCall<Automation__Output>;
  listAutomations: AutomationCall<ListAutomationsResponse__Output>;
  getAutomation: AutomationCall<Automation__Output>;
  updateAutomation: AutomationCall<Automation__Output>;
  deleteAutomation: AutomationCall<DeleteAutomationResponse__Output>;
  recordEvent: AutomationCall<RecordEventResponse__Output>;
}

/** campaign.v1.Console (packages/contracts/protos/campaign/v1/console.proto): the console's accounts, sessions, keys and settings. */
export interface ConsoleBackend {
  login(req: LoginRequest, ctx: CallContext): Promise<SessionGrant__Output>;
  logout(sessionHash: string, ctx: CallContext): Promise<unknown>;
  session(sessionHash: string, ctx: CallContext): Promise<SessionAnswer__Output>;
  acceptInvite(req: AcceptInviteRequest, ctx: CallContext): Promise<SessionGrant__Output>;
  siteInfo(siteId: string, ctx: CallContext): Promise<SiteInfoResponse__Output>;
  listKeys(siteId: string, ctx: CallContext): Promise<ApiKeyList__Output>;
  createKey(req: { siteId: string; label: string }, ctx: CallContext): Promise<IssuedApiKey__Output>;
  revokeKey(req: { siteId: string; keyId: string }, ctx: CallContext): Promise<RevokedApiKey__Output>;
  rotateKey(req: { siteId: string; keyId: string }, ctx: CallContext): Promise<IssuedApiKey__Output>;
  listMembers(siteId: string, ctx: CallContext): Promise<MemberList__Output>;
  updateMember(req: { siteId: string; userId: string; role: string }, ctx: CallContext): Promise<Member__Output>;
  removeMember(req: { siteId: string; userId: string }, ctx: CallContext): Promise<unknown>;
  createInvite(req: CreateInviteRequest, ctx: CallContext): Promise<CreatedInvite__Output>;
  listInvites(siteId: string, ctx: CallContext): Promise<InviteList__Output>;
  revokeInvite(req: { siteId: string; inviteId: string }, ctx: CallContext): Promise<unknown>;
  lookupInvite(token: string, ctx: CallContext): Promise<InvitePreview__Output>;
  estimateAudience(req: { siteId: string; bodyJson: string }, ctx: CallContext): Promise<EstimateAudienceResponse__Output>;
  /** The site's default throttle (a setting the campaign service owns). */
  siteThrottle(siteId: string, ctx: CallContext): Promise<SiteThrottle__Output>;
  setSiteThrottle(req: SetSiteThrottleRequest, ctx: CallContext): Promise<SiteThrottle__Output>;
}

/** delivery.v1.ConsoleData (packages/contracts/protos/delivery/v1/console_data.proto): the console's series, daily counts, browsers, topic maintenance, the site's settings and the plugin's opt-in prompts kept there. */
export interface ConsoleDataBackend {
  campaignSeries(req: { siteId: string; campaignId: string }, ctx: CallContext): Promise<CampaignSeriesResponse__Output>;
  audienceDaily(req: { siteId: string; days: number }, ctx: CallContext): Promise<AudienceDailyResponse__Output>;
  audienceBrowsers(siteId: string, ctx: CallContext): Promise<AudienceBrowsersResponse__Output>;
  renameTopic(req: { siteId: string; from: string; to: string }, ctx: CallContext): Promise<TopicChange__Output>;
  mergeTopics(req: { siteId: string; from: string[]; to: string }, ctx: CallContext): Promise<TopicChange__Output>;
  deleteTopic(req: { siteId: string; name: string }, ctx: CallContext): Promise<TopicChange__Output>;
  /** The site's VAPID public key, public id, frequency cap and time zone; NOT_FOUND for a site the delivery service does not know. */
  siteSettings(siteId: string, ctx: CallContext): Promise<SiteSettingsResponse__Output>;
  /** The frequency cap and time zone changed (or, validate_only, checked). */
  updateSendingSettings(req: UpdateSendingSettingsRequest, ctx: CallContext): Promise<SiteSettingsResponse__Output>;
  /** One push to a browser's subscription with the site's keys; its deadline is TEST_PUSH_DEADLINE_MS at least. */
  sendTestPush(req: SendTestPushRequest, ctx: CallContext): Promise<SendTestPushResponse__Output>;
  /** The site plugin's opt-in prompts, as JSON (docs/site-plugin.md, "Opt-in prompts"). */
  optInPrompts(siteId: string, ctx: CallContext): Promise<OptInPromptsResponse__Output>;
  /** The prompts changed by the body's fields, checked and kept by the delivery service. */
  updateOptInPrompts(req: { siteId: string; bodyJson: string }, ctx: CallContext): Promise<OptInPromptsResponse__Output>;
}

export interface AudienceBackend {
  listTopics(siteId: string, ctx: CallContext): Promise<NameCounts__Output>;
  listCountries(siteId: string, ctx: CallContext): Promise<NameCounts__Output>;
  importSubscriptions(req: { siteId: string; bodyJson: string }, ctx: CallContext): Promise<ImportSubscriptionsResponse__Output>;
  /** No deadline (an export of a large site takes minutes): the caller cancels it when its client goes. */
  exportSubscribers(req: { siteId: string; format: string; topics: string; countries: string }, ctx: CallContext): grpc.ClientReadableStream<ExportChunk__Output>;
  /** /v2/users/{externalId} (docs/people.md): one call per endpoint, the body as the customer's JSON text. */
  getPerson: PersonCall<Person__Output>;
  updatePerson: PersonCall<Person__Output>;
  deletePerson: PersonCall<DeletedPerson__Output>;
  exportPerson: PersonCall<PersonExport__Output>;
  /** The console's People page: what was sent to the person's subscriptions, newest first, bounded. */
  listPersonSends: PersonCall<PersonSends__Output>;
  /** The opt-in funnel's counters; the range and prompt are the delivery service's to check ('' = its default). */
  optInFunnel(req: { siteId: string; from: string; to: string; prompt: string }, ctx: CallContext): Promise<OptInFunnel__Output>;
}

export type PersonCall<Answer> = (req: { siteId: string; externalId: string; bodyJson: string }, ctx: CallContext) => Promise<Answer>;

/** delivery.v1.Webhooks (packages/contracts/protos/delivery/v1/webhooks.proto): one call per /v2 webhook endpoint, each answering its typed message. */
export type WebhookCall<Answer> = (req: WebhookRequest, ctx: CallContext) => Promise<Answer>;
export interface WebhooksBackend {
  listWebhooks: WebhookCall<ListWebhooksResponse__Output>;
  createWebhook: WebhookCall<WebhookWithSecret__Output>;
  getWebhook: WebhookCall<WebhookEndpoint__Output>;
  updateWebhook: WebhookCall<WebhookEndpoint__Output>;
  deleteWebhook: WebhookCall<DeleteWebhookResponse__Output>;
  rotateWebhookSecret: WebhookCall<WebhookWithSecret__Output>;
  listWebhookDeliveries: WebhookCall<ListWebhookDeliveriesResponse__Output>;
  redeliverWebhookEvent: WebhookCall<WebhookDelivery__Output>;
  pingWebhook: WebhookCall<WebhookDelivery__Output>;
}

/** delivery.v1.AuditLog (packages/contracts/protos/delivery/v1/audit_log.proto): sites' audit logs, appended to by both routers, read by the console's owners. */
export interface AuditLogBackend {
  append(req: AppendAuditEntryRequest, ctx: CallContext): Promise<unknown>;
  list(req: { siteId: string; before: number; limit: number }, ctx: CallContext): Promise<ListAuditEntriesResponse__Output>;
  /** No deadline (a long log takes a while): the caller cancels it when its client goes. */
  export(siteId: string, ctx: CallContext): grpc.ClientReadableStream<AuditExportChunk__Output>;
  settings(siteId: string, ctx: CallContext): Promise<AuditSettings__Output>;
  updateSettings(req: { siteId: string; bodyJson: string }, ctx: CallContext): Promise<AuditSettings__Output>;
}

export interface Backends {
  campaigns: CampaignBackend;
  templates: TemplatesBackend;
  automations: AutomationsBackend;
  feeds: FeedsBackend;
  auditLog: AuditLogBackend;
  console: ConsoleBackend;
  audience: AudienceBackend;
  consoleData: ConsoleDataBackend;
  webhooks: WebhooksBackend;
  /** Resolves when the backend's channel is connected (readiness). */
  connected(backend: 'campaign' | 'delivery', timeoutMs: number): Promise<void>;
  close(): void;
}

type Callback<T> = (err: grpc.ServiceError | null, value?: T) => void;
type Unary<Req, Res> = (req: Req, metadata: grpc.Metadata, options: grpc.CallOptions, cb: Callback<Res>) => grpc.ClientUnaryCall;

/**
 * HTTP/2 flow-control window of the gateway's channels (per stream and per connection). A list
 * page is ≈ 40 kB and many calls share one connection: with HTTP/2's default 64 kB window the
 * backend had to stop for a WINDOW_UPDATE after every page or two and sent each answer in many
 * small writes. It only lets a backend send answers the gateway has asked for.
 */
const FLOW_CONTROL_WINDOW_BYTES = 8 * 1024 * 1024;

/**
 * The deadline of a console test push (or GRPC_DEADLINE_MS when longer): the delivery service
 * answers within its 5 s of retries plus one push request's timeout (PUSH_TIMEOUT_MS, 10 s by
 * default), packages/contracts/protos/delivery/v1/console_data.proto.
 */
export const TEST_PUSH_DEADLINE_MS = 30_000;

export function createBackends(targets: { campaign: string; audience: string }, deadlineMs: number, token: string): Backends {
  const credentials = grpc.credentials.createInsecure();
  const options = withInternalToken(token, { 'grpc-node.flow_control_window': FLOW_CONTROL_WINDOW_BYTES });
  const campaign: CampaignServiceClient = new (loadCampaignProto().campaign.v1.CampaignService)(targets.campaign, credentials, options);
  // The same campaign service, on the same channel.
  const consoleClient: ConsoleClient = new (loadConsoleProto().campaign.v1.Console)(targets.campaign, credentials, options);
  const audience: AudienceClient = new (loadAudienceProto().delivery.v1.Audience)(targets.audience, credentials, options);
  // The same delivery service, on the audience client's channel (grpc-js shares a channel between
  // clients made with the same target and options).
  const webhooks: WebhooksClient = new (loadWebhooksProto().delivery.v1.Webhooks)(targets.audience, credentials, options);
  const consoleData: ConsoleDataClient = new (loadConsoleDataProto().delivery.v1.ConsoleData)(targets.audience, credentials, options);
  const auditLog: AuditLogClient = new (loadAuditLogProto().delivery.v1.AuditLog)(targets.audience, credentials, options);

  function requestMetadata(ctx: CallContext): grpc.Metadata {
    const metadata = new grpc.Metadata();
    metadata.set('x-request-id', ctx.requestId);
    return metadata;
  }

  function call<Req, Res>(client: grpc.Client, method: Unary<Req, Res>, req: Req, ctx: CallContext, callDeadlineMs = deadlineMs): Promise<Res> {
    const metadata = requestMetadata(ctx);
    return new Promise((resolve, reject) => {
      method.call(client, req, metadata, { deadline: Date.now() + callDeadlineMs }, (err, value) => (err ? reject(err) : resolve(value as Res)));
    });
  }

  return {
    campaigns: {
      authenticate: (keyHash, ctx) => call(campaign, campaign.Authenticate, { keyHash }, ctx),
      createCampaign: (req, ctx) => call(campaign, campaign.CreateCampaign, req, ctx),
      listCampaigns: (req, ctx) => call(campaign, campaign.ListCampaigns, req, ctx),
      getCampaign: (req, ctx) => call(campaign, campaign.GetCampaign, req, ctx),
      deleteCampaign: (req, ctx) => call(campaign, campaign.DeleteCampaign, req, ctx),
      pickWinner: (req, ctx) => call(campaign, campaign.PickWinner, req, ctx),
      planPreview: (req, ctx) => call(campaign, campaign.PlanPreview, req, ctx),
      reviseCampaign: (req, ctx) => call(campaign, campaign.ReviseCampaign, req, ctx),
      createNotification: (req, ctx) => call(campaign, campaign.CreateNotification, req, ctx),
      getNotification: (req, ctx) => call(campaign, campaign.GetNotification, req, ctx),
      listNotifications: (req, ctx) => call(campaign, campaign.ListNotifications, req, ctx),
      updateDraft: (req, ctx) => call(campaign, campaign.UpdateDraft, req, ctx),
      exportCampaigns: (req, ctx) => campaign.ExportCampaigns(req, requestMetadata(ctx)),
    },
    templates: {
      createTemplate: (req, ctx) => call(campaign, campaign.CreateTemplate, req, ctx),
      listTemplates: (req, ctx) => call(campaign, campaign.ListTemplates, req, ctx),
      getTemplate: (req, ctx) => call(campaign, campaign.GetTemplate, req, ctx),
      updateTemplate: (req, ctx) => call(campaign, campaign.UpdateTemplate, req, ctx),
      deleteTemplate: (req, ctx) => call(campaign, campaign.DeleteTemplate, req, ctx),
      renderTemplate: (req, ctx) => call(campaign, campaign.RenderTemplate, req, ctx),
    },
    feeds: {
      createFeed: (req, ctx) => call(campaign, campaign.CreateFeed, req, ctx),
      listFeeds: (req, ctx) => call(campaign, campaign.ListFeeds, req, ctx),
      getFeed: (req, ctx) => call(campaign, campaign.GetFeed, req, ctx),
      updateFeed: (req, ctx) => call(campaign, campaign.UpdateFeed, req, ctx),
      deleteFeed: (req, ctx) => call(campaign, campaign.DeleteFeed, req, ctx),
    },
    automations: {
      createAutomation: (req, ctx) => call(campaign, campaign.CreateAutomation, req, ctx),
      listAutomations: (req, ctx) => call(campaign, campaign.ListAutomations, req, ctx),
      getAutomation: (req, ctx) => call(campaign, campaign.GetAutomation, req, ctx),
      updateAutomation: (req, ctx) => call(campaign, campaign.UpdateAutomation, req, ctx),
      deleteAutomation: (req, ctx) => call(campaign, campaign.DeleteAutomation, req, ctx),
      recordEvent: (req, ctx) => call(campaign, campaign.RecordEvent, req, ctx),
    },
    console: {
      login: (req, ctx) => call(consoleClient, consoleClient.Login, req, ctx),
      logout: (sessionHash, ctx) => call(consoleClient, consoleClient.Logout, { sessionHash }, ctx),
      session: (sessionHash, ctx) => call(consoleClient, consoleClient.Session, { sessionHash }, ctx),
      acceptInvite: (req, ctx) => call(consoleClient, consoleClient.AcceptInvite, req, ctx),
      siteInfo: (siteId, ctx) => call(consoleClient, consoleClient.SiteInfo, { siteId }, ctx),
      listKeys: (siteId, ctx) => call(consoleClient, consoleClient.ListKeys, { siteId }, ctx),
      createKey: (req, ctx) => call(consoleClient, consoleClient.CreateKey, req, ctx),
      revokeKey: (req, ctx) => call(consoleClient, consoleClient.RevokeKey, req, ctx),
      rotateKey: (req, ctx) => call(consoleClient, consoleClient.RotateKey, req, ctx),
      listMembers: (siteId, ctx) => call(consoleClient, consoleClient.ListMembers, { siteId }, ctx),
      updateMember: (req, ctx) => call(consoleClient, consoleClient.UpdateMember, req, ctx),
      removeMember: (req, ctx) => call(consoleClient, consoleClient.RemoveMember, req, ctx),
      createInvite: (req, ctx) => call(consoleClient, consoleClient.CreateInvite, req, ctx),
      listInvites: (siteId, ctx) => call(consoleClient, consoleClient.ListInvites, { siteId }, ctx),
      revokeInvite: (req, ctx) => call(consoleClient, consoleClient.RevokeInvite, req, ctx),
      lookupInvite: (token, ctx) => call(consoleClient, consoleClient.LookupInvite, { token }, ctx),
      estimateAudience: (req, ctx) => call(consoleClient, consoleClient.EstimateAudience, req, ctx),
      siteThrottle: (siteId, ctx) => call(consoleClient, consoleClient.GetSiteThrottle, { siteId }, ctx),
      setSiteThrottle: (req, ctx) => call(consoleClient, consoleClient.SetSiteThrottle, req, ctx),
    },
    audience: {
      listTopics: (siteId, ctx) => call(audience, audience.ListTopics, { siteId }, ctx),
      listCountries: (siteId, ctx) => call(audience, audience.ListCountries, { siteId }, ctx),
      importSubscriptions: (req, ctx) => call(audience, audience.ImportSubscriptions, req, ctx),
      exportSubscribers: (req, ctx) => audience.ExportSubscribers(req, requestMetadata(ctx)),
      getPerson: (req, ctx) => call(audience, audience.GetPerson, req, ctx),
      updatePerson: (req, ctx) => call(audience, audience.UpdatePerson, req, ctx),
      deletePerson: (req, ctx) => call(audience, audience.DeletePerson, req, ctx),
      exportPerson: (req, ctx) => call(audience, audience.ExportPerson, req, ctx),
      listPersonSends: (req, ctx) => call(audience, audience.ListPersonSends, req, ctx),
      optInFunnel: (req, ctx) => call(audience, audience.GetOptInFunnel, req, ctx),
    },
    consoleData: {
      campaignSeries: (req, ctx) => call(consoleData, consoleData.CampaignSeries, req, ctx),
      audienceDaily: (req, ctx) => call(consoleData, consoleData.AudienceDaily, req, ctx),
      audienceBrowsers: (siteId, ctx) => call(consoleData, consoleData.AudienceBrowsers, { siteId }, ctx),
      renameTopic: (req, ctx) => call(consoleData, consoleData.RenameTopic, req, ctx),
      mergeTopics: (req, ctx) => call(consoleData, consoleData.MergeTopics, req, ctx),
      deleteTopic: (req, ctx) => call(consoleData, consoleData.DeleteTopic, req, ctx),
      siteSettings: (siteId, ctx) => call(consoleData, consoleData.SiteSettings, { siteId }, ctx),
      updateSendingSettings: (req, ctx) => call(consoleData, consoleData.UpdateSendingSettings, req, ctx),
      sendTestPush: (req, ctx) => call(consoleData, consoleData.SendTestPush, req, ctx, Math.max(deadlineMs, TEST_PUSH_DEADLINE_MS)),
      optInPrompts: (siteId, ctx) => call(consoleData, consoleData.OptInPrompts, { siteId }, ctx),
      updateOptInPrompts: (req, ctx) => call(consoleData, consoleData.UpdateOptInPrompts, req, ctx),
    },
    auditLog: {
      append: (req, ctx) => call(auditLog, auditLog.Append, req, ctx),
      list: (req, ctx) => call(auditLog, auditLog.ListAuditEntries, req, ctx),
      export: (siteId, ctx) => auditLog.ExportAuditEntries({ siteId }, requestMetadata(ctx)),
      settings: (siteId, ctx) => call(auditLog, auditLog.GetAuditSettings, { siteId }, ctx),
      updateSettings: (req, ctx) => call(auditLog, auditLog.UpdateAuditSettings, req, ctx),
    },
    webhooks: {
      listWebhooks: (req, ctx) => call(webhooks, webhooks.ListWebhooks, req, ctx),
      createWebhook: (req, ctx) => call(webhooks, webhooks.CreateWebhook, req, ctx),
      getWebhook: (req, ctx) => call(webhooks, webhooks.GetWebhook, req, ctx),
      updateWebhook: (req, ctx) => call(webhooks, webhooks.UpdateWebhook, req, ctx),
      deleteWebhook: (req, ctx) => call(webhooks, webhooks.DeleteWebhook, req, ctx),
      rotateWebhookSecret: (req, ctx) => call(webhooks, webhooks.RotateWebhookSecret, req, ctx),
      listWebhookDeliveries: (req, ctx) => call(webhooks, webhooks.ListWebhookDeliveries, req, ctx),
      redeliverWebhookEvent: (req, ctx) => call(webhooks, webhooks.RedeliverWebhookEvent, req, ctx),
      pingWebhook: (req, ctx) => call(webhooks, webhooks.PingWebhook, req, ctx),
    },
    connected(backend, timeoutMs) {
      const client: grpc.Client = backend === 'campaign' ? campaign : audience;
      return new Promise<void>((resolve, reject) => {
        client.waitForReady(Date.now() + timeoutMs, (err) => (err ? reject(new Error(`${backend} service unreachable`)) : resolve()));
      });
    },
    close() {
      campaign.close();
      consoleClient.close();
      audience.close();
      webhooks.close();
      consoleData.close();
      auditLog.close();
    },
  };
}
