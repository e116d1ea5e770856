// A notification made from a template (docs/api-decisions.md, "Notifications", "From a
// template"): `template: {id, variables}` in place of the content fields (exactly one of the two),
// by the campaign create's template rules and messages. It is rendered here with the call's
// variables and the defaults — for people, a variable with neither stands as its tag, since their
// tags may supply it — and the rendering is judged by the notification's content rules, so a
// template that cannot make a valid notification is refused at create. The template's texts and
// the call's values are frozen with the notification for the delivery service to render per person.
import { CONTENT_INPUT_FIELDS } from '../campaigns/index.js';
import type { RenderedNotificationTemplate } from '../templates/index.js';
import { ValidationError } from '../base/errors.js';
import { MESSAGES } from '../base/texts.js';
import { validateNotificationInput, type NotificationInput } from './notification-input.js';

/** The templates/ feature's rendering of a notification's `template`, given by its shape. */
export type NotificationTemplateRenderer = (siteId: string, reference: unknown, tagsMaySupply: boolean) => Promise<RenderedNotificationTemplate>;

/**
 * A POST /v2/notifications body validated, its `template` (if any) rendered in place of the
 * content fields. What another feature calls to make a notification's input from such a body.
 */
export async function notificationInputOf(renderTemplate: NotificationTemplateRenderer, siteId: string, body: Record<string, unknown>): Promise<NotificationInput> {
  if (!Object.hasOwn(body, 'template')) return validateNotificationInput(body);
  const { template: reference, ...rest } = body;
  if (CONTENT_INPUT_FIELDS.some((f) => Object.hasOwn(rest, f))) throw new ValidationError([MESSAGES.notificationTemplateWithContent]);
  // Only people have tags; a subscription named may be a person's, but may as well not be. People
  // are named by a non-empty externalIds beside no subscriptionIds or an empty list of them (whomField's rule).
  const isList = (v: unknown, empty: boolean) => Array.isArray(v) && (v.length === 0) === empty;
  const people = isList(rest.externalIds, false) && (!Object.hasOwn(rest, 'subscriptionIds') || isList(rest.subscriptionIds, true));
  const rendered = await renderTemplate(siteId, reference, people);
  return { ...validateNotificationInput({ ...rest, ...rendered.content }), template: rendered.template };
}
