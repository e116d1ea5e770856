// A body for every console route, by operation, and what another site's object named under the
// user's own site answers: the console tests walk the route table with these (console.test.ts,
// console-roles.test.ts), so a route missing here fails them until it has its sample.
import { expect } from 'chai';
import { validCreateBody } from './stack.js';
import { PASSWORD } from './console.js';

export interface RouteSample {
  /** A body the route accepts for a member with every permission. */
  body?: unknown;
  /** The answer's status when the call gets through (default 200). */
  status?: number;
}

/** An automation the API takes, its one step a day after an event (nothing is sent within a test). */
export function automationBody(templateId: string) {
  return { name: 'Matrix automation', trigger: { type: 'event', name: 'cart_abandoned' }, steps: [{ delaySeconds: 86_400, templateId }], exitOn: { events: ['checkout_completed'] } };
}

export const SAMPLES: Record<string, RouteSample> = {
  login: { body: { email: 'x@example.com', password: PASSWORD } },
  logout: {},
  session: {},
  acceptInvite: { body: { token: 'A'.repeat(43) } },
  lookupInvite: { body: { token: 'A'.repeat(43) } },
  getSite: {},
  // Filled in before the tests: a push simulator's subscription made with site A's VAPID key.
  sendTestNotification: { body: undefined },
  listKeys: {},
  createKey: { body: { label: 'Matrix' } },
  revokeKey: {},
  rotateKey: {},
  listMembers: {},
  changeMemberRole: { body: { role: 'editor' } },
  removeMember: {},
  listInvites: {},
  createInvite: { body: { email: 'matrix@example.com', role: 'viewer' } },
  revokeInvite: {},
  listTopics: {},
  listCountries: {},
  listCampaigns: { body: {} },
  getCampaign: {},
  createCampaign: { body: validCreateBody({ topics: ['news'] }) },
  // A draft edited, kept a draft.
  updateDraft: { body: validCreateBody({ topics: ['news'] }) },
  deleteCampaign: {},
  // The sample campaign has no A/B test: the call gets through to the campaign service, which refuses it.
  pickCampaignWinner: { body: { variant: 0 }, status: 409 },
  // The sample campaign was not sent: the call gets through to the campaign service, which refuses it.
  updateCampaign: { body: { title: 'Corrected title' }, status: 409 },
  recallCampaign: { body: {}, status: 409 },
  estimateAudience: { body: { topics: ['news'] } },
  planCampaignPreview: { body: { topics: ['news'], sendTime: { mode: 'bestTime', within: '3h' } } },
  campaignSeries: {},
  audienceDaily: {},
  audienceBrowsers: {},
  getOptInFunnel: {},
  // Topics the tests seed before a call that gets through.
  renameTopic: { body: { from: 'spare-1', to: 'spare-1b' } },
  mergeTopics: { body: { from: ['spare-2'], to: 'spare-2b' } },
  deleteTopic: { body: { name: 'spare-3' } },
  getSettings: {},
  updateSettings: { body: { timeZone: 'Europe/Lisbon' } },
  getOptInPrompts: {},
  // Not the default (no prompt): a change the route × role test can see.
  updateOptInPrompts: { body: { kind: 'modal' } },
  exportSubscribers: {},
  exportCampaigns: { body: {} },
  listAuditEntries: {},
  exportAuditLog: {},
  getAuditSettings: {},
  // Not the default (365): a change the route × role test can see.
  updateAuditSettings: { body: { retentionDays: 400 } },
  // Webhooks are owners'; nothing answers on port 9.
  listWebhooks: {},
  createWebhook: { body: { url: 'https://127.0.0.1:9/matrix', events: ['campaign.completed'] } },
  getWebhook: {},
  updateWebhook: { body: { description: 'Matrix' } },
  deleteWebhook: {},
  rotateWebhookSecret: { body: { overlapHours: 1 } },
  listWebhookDeliveries: {},
  redeliverWebhookEvent: {},
  pingWebhook: {},
  // Templates: read and previewed by every member, changed by editors and owners.
  listTemplates: {},
  createTemplate: { body: { name: 'Matrix', title: 'Hi {{ name | "there" }}', body: 'A template body', link: 'https://shop.example/' } },
  getTemplate: {},
  updateTemplate: { body: { body: 'A changed template body' } },
  deleteTemplate: {},
  renderTemplate: { body: {} },
  // Automations: read by every member; created, paused and deleted by editors and owners. The
  // create's template is one of the site's, made by the tests before the call (automationBody).
  listAutomations: {},
  createAutomation: { body: automationBody('00000000-0000-4000-8000-000000000000') },
  getAutomation: {},
  updateAutomation: { body: { status: 'paused' } },
  deleteAutomation: {},
  // A person (the People page): read by every member; the privacy delete and the export are owners'.
  getPerson: {},
  listPersonSends: {},
  deleteUser: {},
  exportUser: {},
};

/** What a path parameter naming another site's object answers under the user's own site. */
export const NOT_FOUND_BY_PARAM: Record<string, { message: string }> = {
  campaignId: { message: 'Campaign not found' },
  keyId: { message: 'Key not found' },
  memberId: { message: 'Member not found' },
  inviteId: { message: 'Invite not found' },
  webhookId: { message: 'Webhook not found' },
  eventId: { message: 'Event not found' },
  templateId: { message: 'Template not found' },
  automationId: { message: 'Automation not found' },
  externalId: { message: 'User not found' },
};

export function sample(operation: string): RouteSample {
  const s = SAMPLES[operation];
  if (!s) expect.fail(`the console route ${operation} has no sample in gateway/test/support/console-samples.ts: add one (and its expectations)`);
  return s;
}
