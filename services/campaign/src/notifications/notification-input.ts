// Validation of POST /v2/notifications (docs/api-decisions.md, "Notifications"): the targets
// (subscriptions or people, exactly one) first, then the content by the create's own rules and messages (content-fields.ts and the
// create's utm, TTL and options fields), then `transactional`, then when it is sent (`sendTime`,
// `respectQuietHours`). Every failing field contributes its message.
import type { NotificationBestTime } from '@webpush/contracts/best-time.js';
import { campaignContent, fitsOnePush, type CampaignContent } from '@webpush/contracts/campaign-content.js';
import { externalIdFault } from '@webpush/contracts/external-id.js';
import { MAX_NOTIFICATION_TARGETS } from '@webpush/contracts/messages.js';
import type { Urgency } from '@webpush/contracts/urgency.js';
import { bestTimeField, CONTENT_FIELD_RULES, notificationOptionsField, ttlField, urgencyField, utmField } from '../campaigns/index.js';
import type { NotificationTemplate } from '../templates/index.js';
import { ValidationError } from '../base/errors.js';
import { isUuid } from '../base/ids.js';
import { MESSAGES } from '../base/texts.js';

export interface NotificationInput {
  /** Lowercase, in the request's order, each once; empty when it names people. */
  subscriptionIds: string[];
  /** People by the site's own ids, in the request's order, each once (as given: ids are compared exactly); empty when it names subscriptions. */
  externalIds: string[];
  content: CampaignContent;
  ttl: number;
  urgency: Urgency;
  /** Sent also to subscribers who reached the site's frequency cap (and counted towards it). */
  transactional: boolean;
  /**
   * The template it was made from, frozen (texts and the call's values), which the delivery
   * service renders per person; null: `content` is sent as it is. With a template, `content` is
   * its rendering at create (notification-template.ts).
   */
  template: NotificationTemplate | null;
  /** Each target sent at its best hour of a window of this many hours (the API's `sendTime`), or null: at once. */
  sendTime: NotificationBestTime | null;
  /** Held by the site's quiet hours in each target's zone (the API's `respectQuietHours`; by default with a sendTime). */
  respectQuietHours: boolean;
}

/**
 * When a notification (or an automation step's) is sent (docs/api-decisions.md, "Notifications",
 * "Send time"): `sendTime` the campaign's shape without a holdout, and `respectQuietHours`, true
 * or false, by default true with a sendTime (best time keeps the site's quiet hours, as a
 * campaign's does) and false without (a person's message, answered at once). Each faulty field
 * pushes `messages`' message.
 */
export function sendTimeFields(
  raw: Record<string, unknown>,
  errors: string[],
  messages: { sendTime?: string; respectQuietHours: string },
): Pick<NotificationInput, 'sendTime' | 'respectQuietHours'> {
  const own: string[] = [];
  const bestTime = bestTimeField(raw.sendTime, undefined, own, true);
  errors.push(...(messages.sendTime && own.length > 0 ? [messages.sendTime] : own));
  const respect = raw.respectQuietHours ?? bestTime !== null;
  if (typeof respect !== 'boolean') errors.push(messages.respectQuietHours);
  return { sendTime: bestTime && { withinHours: bestTime.withinHours }, respectQuietHours: respect === true };
}

function targetsField(value: unknown, errors: string[]): string[] {
  if (!Array.isArray(value) || value.length === 0) {
    errors.push(MESSAGES.notificationTargets);
    return [];
  }
  if (value.length > MAX_NOTIFICATION_TARGETS) {
    errors.push(MESSAGES.notificationTooManyTargets);
    return [];
  }
  if (!value.every((v) => typeof v === 'string' && isUuid(v))) {
    errors.push(MESSAGES.notificationTargetFormat);
    return [];
  }
  const ids = (value as string[]).map((v) => v.toLowerCase());
  // Refused rather than merged: a list naming someone twice is a bug on the caller's side, and
  // each subscription gets a notification once whatever the list says.
  if (new Set(ids).size !== ids.length) {
    errors.push(MESSAGES.notificationDuplicateTargets);
    return [];
  }
  return ids;
}

/** People named by external ids (the people's rule: contracts' external-id.ts), each once. */
function peopleField(value: unknown, errors: string[]): string[] {
  if (!Array.isArray(value) || value.length === 0) {
    errors.push(MESSAGES.notificationPeople);
    return [];
  }
  if (value.length > MAX_NOTIFICATION_TARGETS) {
    errors.push(MESSAGES.notificationTooManyPeople);
    return [];
  }
  const faults = new Set(value.map(externalIdFault));
  if (faults.has('format') || faults.has('characters')) {
    errors.push(faults.has('format') ? MESSAGES.notificationPersonFormat : MESSAGES.notificationPersonCharacters);
    return [];
  }
  // As subscriptionIds: a person named twice is the caller's bug, and gets one notification.
  if (new Set(value).size !== value.length) {
    errors.push(MESSAGES.notificationDuplicatePeople);
    return [];
  }
  return value as string[];
}

const isEmptyList = (v: unknown): boolean => Array.isArray(v) && v.length === 0;

/**
 * Exactly one of subscriptionIds and externalIds, checked. When both are given and one is an
 * empty list, that one names nobody and the other is taken: Java's generated client sends every
 * list field, `[]` for the one the caller did not set.
 */
function whomField(raw: Record<string, unknown>, errors: string[]): { subscriptionIds: string[]; externalIds: string[] } {
  let bySubscription = Object.hasOwn(raw, 'subscriptionIds');
  let byPerson = Object.hasOwn(raw, 'externalIds');
  if (bySubscription && byPerson && isEmptyList(raw.subscriptionIds) !== isEmptyList(raw.externalIds)) {
    bySubscription = !isEmptyList(raw.subscriptionIds);
    byPerson = !bySubscription;
  }
  if (bySubscription === byPerson) {
    errors.push(MESSAGES.notificationWhom);
    return { subscriptionIds: [], externalIds: [] };
  }
  return bySubscription ? { subscriptionIds: targetsField(raw.subscriptionIds, errors), externalIds: [] } : { subscriptionIds: [], externalIds: peopleField(raw.externalIds, errors) };
}

export function validateNotificationInput(raw: Record<string, unknown>): NotificationInput {
  const errors: string[] = [];
  const { subscriptionIds, externalIds } = whomField(raw, errors);
  const title = CONTENT_FIELD_RULES.title(raw.title, errors);
  const body = CONTENT_FIELD_RULES.body(raw.body, errors);
  const link = CONTENT_FIELD_RULES.link(raw.link, errors);
  const callToAction = CONTENT_FIELD_RULES.callToAction(raw.callToAction, errors);
  const icon = CONTENT_FIELD_RULES.icon(raw.icon, errors);
  const image = CONTENT_FIELD_RULES.image(raw.image, errors);
  const utmSource = utmField(raw.utmSource, { length: MESSAGES.utmSourceLength, characters: MESSAGES.utmSourceCharacters }, errors);
  const utmMedium = utmField(raw.utmMedium, { length: MESSAGES.utmMediumLength, characters: MESSAGES.utmMediumCharacters }, errors);
  const utmCampaign = utmField(raw.utmCampaign, { length: MESSAGES.utmCampaignLength, characters: MESSAGES.utmCampaignCharacters }, errors);
  const ttl = ttlField(raw.ttl, errors);
  const options = notificationOptionsField(raw, callToAction, errors);
  const urgency = urgencyField(raw.urgency, errors);
  const transactional = raw.transactional ?? false;
  if (typeof transactional !== 'boolean') errors.push(MESSAGES.notificationTransactional);
  const when = sendTimeFields(raw, errors, { respectQuietHours: MESSAGES.notificationRespectQuietHours });
  if (errors.length > 0) throw new ValidationError(errors);
  const content = campaignContent({ title, body, link, utmSource, utmMedium, utmCampaign, icon, image, callToAction, options });
  if (!fitsOnePush(content)) throw new ValidationError([MESSAGES.notificationTooLarge]);
  return { subscriptionIds, externalIds, content, ttl, urgency, transactional: transactional === true, template: null, ...when };
}
