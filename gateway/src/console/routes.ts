// The console API's routes (docs/console.md, "The console API"): its own (accounts, sessions, a
// site's settings, keys, members and invites, the audience estimate) and the /v2 routes it runs
// for a member's site — campaigns, templates, automations, topics, countries, webhooks — with the site's plan checked by
// their own rule, their bodies, validation messages and answers exactly /v2's.
import type { ApiKey__Output } from '@webpush/contracts/generated/campaign/v1/ApiKey.js';
import type { Invite__Output } from '@webpush/contracts/generated/campaign/v1/Invite.js';
import type { Member__Output } from '@webpush/contracts/generated/campaign/v1/Member.js';
import type { SessionGrant__Output } from '@webpush/contracts/generated/campaign/v1/SessionGrant.js';
import type { SessionView__Output } from '@webpush/contracts/generated/campaign/v1/SessionView.js';
import { status as Status } from '@grpc/grpc-js';
import type { AudienceBackend, AuditLogBackend, AutomationsBackend, CampaignBackend, ConsoleBackend, ConsoleDataBackend, TemplatesBackend, WebhooksBackend } from '../grpc/clients.js';
import { isGrpcError, neverReachedBackend } from '../grpc/status-map.js';
import { HttpError, MESSAGES } from '../texts.js';
import type { Method } from '../http/routing.js';
import { audienceEndpoints } from '../routes/audience.js';
import { automationEndpoints } from '../routes/automations.js';
import { optInFunnelEndpoint } from '../routes/optin-funnel.js';
import { campaignEndpoints, createdAnswer } from '../routes/campaigns.js';
import type { ApiRoute } from '../routes/route.js';
import { peopleEndpoints } from '../routes/people.js';
import { templateEndpoints } from '../routes/templates.js';
import { webhookEndpoints } from '../routes/webhooks.js';
import { daysQuery, stringField, stringListField, subscriptionFields } from './input.js';
import { changeSettings, readSettings } from './settings.js';
import type { Access, ConsoleInput, ConsoleRoute } from './route.js';
import { auditRoutes } from './audit-routes.js';
import { peopleRoutes } from './people-routes.js';

export interface ConsoleRouteDeps {
  console: ConsoleBackend;
  consoleData: ConsoleDataBackend;
  campaigns: CampaignBackend;
  audience: AudienceBackend;
  auditLog: AuditLogBackend;
  webhooks: WebhooksBackend;
  templates: TemplatesBackend;
  automations: AutomationsBackend;
}

const API = '/console/api';
/** Days of the audience's daily counts when the query names none. */
const DEFAULT_DAYS = 30;
const SITE = `${API}/sites/{siteId}`;
const PERMISSION_NAMES = ['create', 'reports', 'delete', 'audience'] as const;

const nullable = (value: string) => (value === '' ? null : value);

/** A key as the console answers it: dates `YYYY-MM-DDTHH:MM:SSZ`, null for never / not revoked. */
export function keyJson(k: ApiKey__Output | null) {
  return {
    id: k?.id ?? '',
    label: k?.label ?? '',
    prefix: k?.prefix ?? '',
    createdAt: k?.createdAt ?? '',
    lastUsedAt: nullable(k?.lastUsedAt ?? ''),
    revokedAt: nullable(k?.revokedAt ?? ''),
  };
}

/** A member as the console answers them: `id` is the user's, `since` when they joined the site. */
const memberJson = (m: Member__Output | null) => ({ id: m?.userId ?? '', email: m?.email ?? '', role: m?.role ?? '', since: m?.since ?? '' });

/** A pending invite: `invitedBy` null for the operator CLI's. */
const inviteJson = (i: Invite__Output | null) => ({
  id: i?.id ?? '',
  email: i?.email ?? '',
  role: i?.role ?? '',
  invitedBy: nullable(i?.invitedBy ?? ''),
  createdAt: i?.createdAt ?? '',
  expiresAt: i?.expiresAt ?? '',
});

/** `{user: {email}, csrfToken, sites: [{id, name, role}]}`: the session answer, and login's. */
function sessionJson(view: SessionView__Output | null) {
  return {
    user: { email: view?.email ?? '' },
    csrfToken: view?.csrfToken ?? '',
    sites: (view?.sites ?? []).map((s) => ({ id: s.siteId, name: s.name, role: s.role })),
  };
}

/** A new session: its cookie set, its view answered. */
function started(input: ConsoleInput, grant: SessionGrant__Output) {
  input.startSession(grant.sessionId);
  return sessionJson(grant.session);
}

/** The two lines a site owner puts on their site (docs/site-plugin.md), with the public origin. */
export function snippetOf(origin: string, publicId: string) {
  return {
    page: `<script src="${origin}/public/v1/webpush.js" data-site="${publicId}" async></script>`,
    serviceWorker: `importScripts('${origin}/public/v1/webpush-sw.js');`,
  };
}

/** A /v2 endpoint run for the path's site: its plan rule, body, limits, answers and errors. */
function fromV2(route: ApiRoute, method: Method, path: string, access: Access): ConsoleRoute {
  return {
    method,
    path,
    operation: route.operation,
    access,
    audit: route.audit,
    plan: { permission: route.permission, denied: route.denied },
    body: route.body,
    bodyLimitBytes: route.bodyLimitBytes,
    errors: 'v2',
    genericMessage: route.genericMessage,
    handle: (input) => route.handle({ principal: input.principal!, params: input.params, bodyJson: input.bodyJson, query: input.query, headers: input.headers, ctx: input.ctx }),
  };
}

export function consoleRoutes(deps: ConsoleRouteDeps): ConsoleRoute[] {
  const { console: backend, consoleData } = deps;
  const own = (method: Method, path: string, operation: string, access: Access, body: ConsoleRoute['body'], handle: ConsoleRoute['handle']): ConsoleRoute => ({
    method,
    path,
    operation,
    access,
    body,
    errors: 'console',
    genericMessage: MESSAGES.internal,
    handle,
  });
  const campaigns = campaignEndpoints(deps.campaigns);
  const audience = audienceEndpoints(deps.audience);
  const webhooks = webhookEndpoints(deps.webhooks);
  const WEBHOOK = `${SITE}/webhooks/{webhookId}`;
  const templates = templateEndpoints(deps.templates);
  const TEMPLATE = `${SITE}/templates/{templateId}`;
  const automations = automationEndpoints(deps.automations);
  const AUTOMATION = `${SITE}/automations/{automationId}`;
  const people = peopleEndpoints(deps.audience);
  const PERSON = `${SITE}/people/{externalId}`;
  const reportsPlan = { permission: campaigns.get.permission, denied: campaigns.get.denied };
  const audienceLists = { permission: audience.topics.permission, denied: audience.topics.denied };
  const topicsPlan = { permission: 'audience' as const, denied: { status: 403, body: { message: MESSAGES.planTopics } } };

  return [
    {
      ...own('POST', `${API}/login`, 'login', 'public', 'json', async (input) => {
        const email = stringField(input.body, 'email');
        const password = stringField(input.body, 'password');
        const grant = await backend.login({ email, password, clientAddress: input.clientAddress, previousSessionHash: input.presentedSessionHash }, input.ctx);
        return started(input, grant);
      }),
      audit: 'session',
    },
    {
      ...own('POST', `${API}/logout`, 'logout', 'session', 'none', async (input) => {
        await backend.logout(input.session!.hash, input.ctx);
        input.endSession();
        return { loggedOut: true };
      }),
      audit: 'session',
    },
    own('GET', `${API}/session`, 'session', 'session', 'none', async (input) =>
      sessionJson({ email: input.session!.email, csrfToken: input.session!.csrfToken, sites: input.session!.sites }),
    ),
    // What the invite page names before the link is used (docs/console.md, "Members and roles"):
    // the token travels in a body, as for accepting, never in a URL a log would keep.
    own('POST', `${API}/invites/lookup`, 'lookupInvite', 'public', 'json', async (input) => {
      const preview = await backend.lookupInvite(stringField(input.body, 'token'), input.ctx);
      return preview.kind === 'reset' ? { kind: 'reset' } : { kind: 'invite', site: { name: preview.siteName }, invitedBy: nullable(preview.invitedBy) };
    }),
    {
      ...own('POST', `${API}/invites/accept`, 'acceptInvite', 'public', 'json', async (input) => {
        const token = stringField(input.body, 'token');
        const password = stringField(input.body, 'password', { optional: true });
        const grant = await backend.acceptInvite({ token, password, sessionHash: input.presentedSessionHash, clientAddress: input.clientAddress }, input.ctx);
        return started(input, grant);
      }),
      audit: 'session',
    },

    // The name and plan are the campaign service's; the VAPID key and the public id the plugin's
    // URLs carry are the delivery service's, which answers the plugin.
    own('GET', SITE, 'getSite', 'member', 'none', async (input) => {
      const [info, settings] = await Promise.all([backend.siteInfo(input.site!.siteId, input.ctx), consoleData.siteSettings(input.site!.siteId, input.ctx)]);
      return {
        id: info.id,
        name: info.name,
        role: input.site!.role,
        plan: { name: info.planName, permissions: PERMISSION_NAMES.filter((p) => info.permissions?.[p]) },
        vapidPublicKey: settings.vapidPublicKey,
        publicId: settings.publicId,
        snippet: snippetOf(input.publicOrigin, settings.publicId),
      };
    }),
    // A test notification to the user's own browser (the settings page): one push with the site's
    // VAPID keys to the subscription the page just made, its link the site's settings page. The
    // delivery service checks the subscription as the plugin's subscribe does and sends it;
    // a push service that does not take it is 502 with its status in the message.
    own('POST', `${SITE}/test-notification`, 'sendTestNotification', 'editor', 'json', async (input) => {
      const siteId = input.site!.siteId;
      const link = input.publicOrigin === '' ? '' : `${input.publicOrigin}/console/#/sites/${encodeURIComponent(siteId)}/settings`;
      let answer;
      try {
        answer = await consoleData.sendTestPush({ siteId, ...subscriptionFields(input.body), siteName: input.site!.name, link }, input.ctx);
      } catch (err) {
        if (isGrpcError(err) && err.code === Status.DEADLINE_EXCEEDED && !neverReachedBackend(err)) throw new HttpError(504, MESSAGES.testPushTimeout);
        throw err;
      }
      if (!answer.sent) throw new HttpError(502, answer.message || MESSAGES.testPushNotSent);
      return { sent: true };
    }),
    own('GET', `${SITE}/keys`, 'listKeys', 'owner', 'none', async (input) => (await backend.listKeys(input.site!.siteId, input.ctx)).keys.map(keyJson)),
    own('POST', `${SITE}/keys`, 'createKey', 'owner', 'json', async (input) => {
      const issued = await backend.createKey({ siteId: input.site!.siteId, label: stringField(input.body, 'label') }, input.ctx);
      return { key: keyJson(issued.key), apiKey: issued.apiKey };
    }),
    own('POST', `${SITE}/keys/{keyId}/revoke`, 'revokeKey', 'owner', 'none', async (input) => ({
      key: keyJson((await backend.revokeKey({ siteId: input.site!.siteId, keyId: input.params.keyId }, input.ctx)).key),
    })),
    own('POST', `${SITE}/keys/{keyId}/rotate`, 'rotateKey', 'owner', 'none', async (input) => {
      const issued = await backend.rotateKey({ siteId: input.site!.siteId, keyId: input.params.keyId }, input.ctx);
      return { key: keyJson(issued.key), apiKey: issued.apiKey, revoked: keyJson(issued.revoked) };
    }),
    own('GET', `${SITE}/members`, 'listMembers', 'owner', 'none', async (input) => (await backend.listMembers(input.site!.siteId, input.ctx)).members.map(memberJson)),
    own('PATCH', `${SITE}/members/{memberId}`, 'changeMemberRole', 'owner', 'json', async (input) =>
      memberJson(await backend.updateMember({ siteId: input.site!.siteId, userId: input.params.memberId, role: stringField(input.body, 'role') }, input.ctx)),
    ),
    own('DELETE', `${SITE}/members/{memberId}`, 'removeMember', 'owner', 'none', async (input) => {
      await backend.removeMember({ siteId: input.site!.siteId, userId: input.params.memberId }, input.ctx);
      return { removed: true };
    }),
    own('GET', `${SITE}/invites`, 'listInvites', 'owner', 'none', async (input) => (await backend.listInvites(input.site!.siteId, input.ctx)).invites.map(inviteJson)),
    // The link is answered once, for the owner to hand over (no e-mail server): under PUBLIC_URL,
    // else the origin the request was sent to, as the snippet's.
    own('POST', `${SITE}/invites`, 'createInvite', 'owner', 'json', async (input) => {
      const created = await backend.createInvite(
        { siteId: input.site!.siteId, email: stringField(input.body, 'email'), role: stringField(input.body, 'role'), invitedByEmail: input.session!.email, baseUrl: input.publicOrigin },
        input.ctx,
      );
      return { invite: inviteJson(created.invite), link: created.link };
    }),
    own('DELETE', `${SITE}/invites/{inviteId}`, 'revokeInvite', 'owner', 'none', async (input) => {
      await backend.revokeInvite({ siteId: input.site!.siteId, inviteId: input.params.inviteId }, input.ctx);
      return { revoked: true };
    }),

    fromV2(audience.topics, 'GET', `${SITE}/topics`, 'member'),
    // The opt-in funnel (the Audience page), as /v2 answers it, under the plan's `reports` permission.
    fromV2(optInFunnelEndpoint(deps.audience), 'GET', `${SITE}/optin/funnel`, 'member'),
    fromV2(audience.countries, 'GET', `${SITE}/countries`, 'member'),
    // Topic maintenance, and the audience over time and by browser: the delivery service's data,
    // under the plan's `audience` permission (lists answer [] without it, as /v2's topics do).
    {
      ...own('POST', `${SITE}/topics/rename`, 'renameTopic', 'editor', 'json', async (input) => {
        const change = await consoleData.renameTopic({ siteId: input.site!.siteId, from: stringField(input.body, 'from'), to: stringField(input.body, 'to') }, input.ctx);
        return { subscribers: Number(change.subscribers) };
      }),
      plan: topicsPlan,
    },
    {
      ...own('POST', `${SITE}/topics/merge`, 'mergeTopics', 'editor', 'json', async (input) => {
        const change = await consoleData.mergeTopics({ siteId: input.site!.siteId, from: stringListField(input.body, 'from'), to: stringField(input.body, 'to') }, input.ctx);
        return { subscribers: Number(change.subscribers) };
      }),
      plan: topicsPlan,
    },
    {
      ...own('POST', `${SITE}/topics/delete`, 'deleteTopic', 'editor', 'json', async (input) => {
        const change = await consoleData.deleteTopic({ siteId: input.site!.siteId, name: stringField(input.body, 'name') }, input.ctx);
        return { subscribers: Number(change.subscribers) };
      }),
      plan: topicsPlan,
    },
    {
      ...own('GET', `${SITE}/audience/daily`, 'audienceDaily', 'member', 'none', async (input) => {
        const days = daysQuery(input.query.days, DEFAULT_DAYS);
        const answer = await consoleData.audienceDaily({ siteId: input.site!.siteId, days }, input.ctx);
        return answer.days.map((d) => ({ day: d.day, new: Number(d.created), expired: Number(d.expired), active: Number(d.active) }));
      }),
      plan: audienceLists,
    },
    {
      ...own('GET', `${SITE}/audience/browsers`, 'audienceBrowsers', 'member', 'none', async (input) =>
        (await consoleData.audienceBrowsers(input.site!.siteId, input.ctx)).browsers.map((b) => ({ browser: b.browser, users: Number(b.users) })),
      ),
      plan: audienceLists,
    },

    fromV2(campaigns.list, 'POST', `${SITE}/campaigns/list`, 'member'),
    fromV2(campaigns.get, 'GET', `${SITE}/campaigns/{campaignId}`, 'member'),
    // The campaign is the site's (the campaign service says so, 404 otherwise) before the delivery
    // service, which cannot tell another site's undispatched campaign from none, is asked.
    {
      ...own('GET', `${SITE}/campaigns/{campaignId}/series`, 'campaignSeries', 'member', 'none', async (input) => {
        const ids = { siteId: input.site!.siteId, campaignId: input.params.campaignId };
        await deps.campaigns.getCampaign(ids, input.ctx);
        const series = await consoleData.campaignSeries(ids, input.ctx);
        return {
          resolution: series.resolution,
          points: series.points.map((p) => ({ at: p.at, impressions: Number(p.impressions), clicks: Number(p.clicks) })),
          startedAt: nullable(series.startedAt),
        };
      }),
      plan: reportsPlan,
    },
    fromV2(campaigns.create, 'POST', `${SITE}/campaigns`, 'editor'),
    // A draft edited, then kept, published now or scheduled (docs/console.md, "Drafts"): a whole
    // create body with the create's permission, rules, messages and answer; the campaign service
    // refuses anything but a draft of the site (409, 404). The console's own: /v2 has no edit.
    {
      ...own('PATCH', `${SITE}/campaigns/{campaignId}`, 'updateDraft', 'editor', 'json', async (input) => {
        const res = await deps.campaigns.updateDraft({ siteId: input.site!.siteId, campaignId: input.params.campaignId, bodyJson: input.bodyJson }, input.ctx);
        return createdAnswer(res);
      }),
      plan: { permission: campaigns.create.permission, denied: campaigns.create.denied },
      errors: 'v2',
    },
    // An A/B test's winner picked before its window ends: it changes what the campaign sends.
    fromV2(campaigns.pickWinner, 'POST', `${SITE}/campaigns/{campaignId}/winner`, 'editor'),
    // A sent campaign's notification corrected or withdrawn (docs/api-decisions.md, "Update and recall").
    fromV2(campaigns.update, 'POST', `${SITE}/campaigns/{campaignId}/update`, 'editor'),
    fromV2(campaigns.recall, 'POST', `${SITE}/campaigns/{campaignId}/recall`, 'editor'),
    fromV2(campaigns.delete, 'DELETE', `${SITE}/campaigns/{campaignId}`, 'editor'),
    // The site's templates (docs/api-decisions.md, "Templates"): /v2's calls, plan rule and
    // answers; every member reads and previews them, editors and owners change them.
    fromV2(templates.list, 'GET', `${SITE}/templates`, 'member'),
    fromV2(templates.create, 'POST', `${SITE}/templates`, 'editor'),
    fromV2(templates.get, 'GET', TEMPLATE, 'member'),
    fromV2(templates.update, 'PATCH', TEMPLATE, 'editor'),
    fromV2(templates.delete, 'DELETE', TEMPLATE, 'editor'),
    fromV2(templates.render, 'POST', `${TEMPLATE}/render`, 'member'),
    // The site's automations (docs/api-decisions.md, "Automations"): /v2's calls, plan rule and
    // answers, each step's results included; every member reads them, editors and owners create,
    // pause, resume and delete them. POST /v2/events stays the site's servers' own.
    fromV2(automations.list, 'GET', `${SITE}/automations`, 'member'),
    fromV2(automations.create, 'POST', `${SITE}/automations`, 'editor'),
    fromV2(automations.get, 'GET', AUTOMATION, 'member'),
    fromV2(automations.update, 'PATCH', AUTOMATION, 'editor'),
    fromV2(automations.delete, 'DELETE', AUTOMATION, 'editor'),
    // The composer's live estimate: a count of what a create would reach, so it takes the
    // create's permission (and its refusal); the body is checked by the create's rules.
    {
      ...own('POST', `${SITE}/campaigns/estimate`, 'estimateAudience', 'member', 'json', async (input) => ({
        totalUsers: Number((await backend.estimateAudience({ siteId: input.site!.siteId, bodyJson: input.bodyJson }, input.ctx)).totalUsers),
      })),
      audit: 'read',
      plan: { permission: 'create', denied: { status: 403, body: { message: MESSAGES.planCreate } } },
    },
    // The composer's planned distribution of a best-time campaign: /v2's preview for a member.
    fromV2(campaigns.planPreview, 'POST', `${SITE}/campaigns/plan-preview`, 'member'),
    // The sending settings (docs/console.md, "Site settings"): read by any member, changed by
    // owners, each checked and kept by the service that owns it (console/settings.ts).
    own('GET', `${SITE}/settings`, 'getSettings', 'member', 'none', async (input) => readSettings(deps, input.site!.siteId, input.ctx)),
    own('PATCH', `${SITE}/settings`, 'updateSettings', 'owner', 'json', async (input) => changeSettings(deps, input.site!.siteId, input.body, input.ctx)),
    // The site plugin's opt-in prompts (docs/console.md, "Opt-in prompts"): texts shown on the
    // site, so read by any member and changed by those who write its campaigns; the delivery
    // service, which serves them to the plugin, checks and keeps them.
    own('GET', `${SITE}/prompts`, 'getOptInPrompts', 'member', 'none', async (input) => JSON.parse((await consoleData.optInPrompts(input.site!.siteId, input.ctx)).promptsJson)),
    own('PATCH', `${SITE}/prompts`, 'updateOptInPrompts', 'editor', 'json', async (input) =>
      JSON.parse((await consoleData.updateOptInPrompts({ siteId: input.site!.siteId, bodyJson: input.bodyJson }, input.ctx)).promptsJson),
    ),
    // Exports (docs/console.md, "Exports"): /v2's, streamed as they are. The subscribers (without
    // push keys) are the owners'; the campaign results any member reads anyway.
    fromV2(audience.exportSubscribers, 'GET', `${SITE}/subscribers/export`, 'owner'),
    fromV2(campaigns.export, 'POST', `${SITE}/campaigns/export`, 'member'),

    // A person of the site (docs/console.md, "People"): read by any member; the privacy delete and
    // the export, everything stored about them, are /v2's, for owners as the subscribers' export.
    ...peopleRoutes(PERSON, deps.audience),
    fromV2(people.delete, 'DELETE', PERSON, 'owner'),
    fromV2(people.export, 'GET', `${PERSON}/export`, 'owner'),

    ...auditRoutes(SITE, deps.auditLog),
    // The site's webhooks (docs/console.md, "Webhooks"): /v2's calls, plan rule and answers, for
    // owners only — an endpoint's URL may carry the receiver's own credentials, create and rotate
    // answer its signing secret, and ping and redeliver send requests to it.
    fromV2(webhooks.list, 'GET', `${SITE}/webhooks`, 'owner'),
    fromV2(webhooks.create, 'POST', `${SITE}/webhooks`, 'owner'),
    fromV2(webhooks.get, 'GET', WEBHOOK, 'owner'),
    fromV2(webhooks.update, 'PATCH', WEBHOOK, 'owner'),
    fromV2(webhooks.delete, 'DELETE', WEBHOOK, 'owner'),
    fromV2(webhooks.rotateSecret, 'POST', `${WEBHOOK}/rotate-secret`, 'owner'),
    fromV2(webhooks.deliveries, 'GET', `${WEBHOOK}/deliveries`, 'owner'),
    fromV2(webhooks.redeliver, 'POST', `${WEBHOOK}/deliveries/{eventId}/redeliver`, 'owner'),
    fromV2(webhooks.ping, 'POST', `${WEBHOOK}/ping`, 'owner'),
  ];
}
