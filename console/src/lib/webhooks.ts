// What the Webhooks pages say about endpoints and their deliveries (docs/webhooks.md): the event
// types an endpoint may want, in the API's order, with what each means; an endpoint's state; an
// attempt's outcome. The API's words (state names, status codes, error texts) are shown as given.
import type { Webhook, WebhookDelivery } from './types';

/** The event types of /v2/webhooks (the delivery service's WEBHOOK_EVENTS; console/test checks they agree). */
export const WEBHOOK_EVENTS: readonly { type: string; text: string }[] = [
  { type: 'campaign.dispatched', text: 'a campaign began sending' },
  { type: 'campaign.completed', text: 'every push of a campaign has its outcome' },
  { type: 'campaign.failed', text: 'a campaign could not be sent' },
  { type: 'subscriber.created', text: 'a browser subscribed' },
  { type: 'subscriber.expired', text: 'a subscription ended' },
  { type: 'notification.impressions', text: 'notifications shown, batched every few seconds' },
  { type: 'notification.clicks', text: 'notifications clicked, batched every few seconds' },
  { type: 'audit.entry', text: "an entry was added to the site's audit log" },
  { type: 'notification.sent', text: 'a notification to chosen subscriptions has every result' },
  { type: 'person.deleted', text: 'a user and everything stored about them were deleted' },
  { type: 'person.exported', text: 'everything stored about a user was exported' },
];

/** How long a rotated-out secret still signs when the owner does not say (the API's default). */
export const DEFAULT_OVERLAP_HOURS = 24;

export type WebhookStateName = 'enabled' | 'failing' | 'disabled';

/** An endpoint's state: disabled (by hand or after 24 hours of failures), failing, or enabled. */
export function webhookState(w: Pick<Webhook, 'enabled' | 'failingSince'>): WebhookStateName {
  if (!w.enabled) return 'disabled';
  return w.failingSince ? 'failing' : 'enabled';
}

export const WEBHOOK_STATE_TEXT: Record<WebhookStateName, string> = {
  enabled: 'Enabled',
  failing: 'Failing',
  disabled: 'Disabled',
};

/** The badge class of a state, as the campaigns' badges colour theirs. */
export const WEBHOOK_STATE_BADGE: Record<WebhookStateName, string> = {
  enabled: 'badge badge-sent',
  failing: 'badge badge-scheduled',
  disabled: 'badge badge-failed',
};

export const DELIVERY_STATE_TEXT: Record<WebhookDelivery['state'], string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
};

export const DELIVERY_STATE_BADGE: Record<WebhookDelivery['state'], string> = {
  pending: 'badge badge-sending',
  delivered: 'badge badge-sent',
  failed: 'badge badge-failed',
};

/** The last attempt's answer: its HTTP status, "No answer" when none came, "—" before any attempt. */
export function lastAnswer(d: Pick<WebhookDelivery, 'attempts' | 'lastStatus'>): string {
  if (d.lastStatus !== null) return `HTTP ${d.lastStatus}`;
  return d.attempts > 0 ? 'No answer' : '—';
}

/** The last attempt's time to the answer (or to its failure): `84 ms`, `10.0 s`; "—" before any attempt. */
export function latency(ms: number | null): string {
  if (ms === null) return '—';
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * An edit's PATCH body: only the fields that changed (the API changes what it is given), or null
 * when nothing did. Events compare as sets: the API keeps them sorted and without repeats.
 */
export function changedFields(before: Pick<Webhook, 'url' | 'events' | 'description'>, after: { url: string; events: string[]; description: string }) {
  const changes: { url?: string; events?: string[]; description?: string } = {};
  if (after.url !== before.url) changes.url = after.url;
  const sameEvents = after.events.length === before.events.length && after.events.every((e) => before.events.includes(e));
  if (!sameEvents) changes.events = after.events;
  if (after.description !== before.description) changes.description = after.description;
  return Object.keys(changes).length > 0 ? changes : null;
}

/**
 * The rotation's overlap as typed: a whole number is sent as one; anything else as the text it is,
 * for the API to refuse with its own message (the console makes up no validation text).
 */
export function overlapValue(typed: string): number | string {
  const t = typed.trim();
  return /^\d{1,6}$/.test(t) ? Number(t) : t;
}
