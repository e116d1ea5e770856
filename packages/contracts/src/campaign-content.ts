// A campaign's content — what its notification shows and where a click goes — as one type from
// the create input to the push payload. The campaign service validates and stores it, the
// dispatch message carries it nested (messages.ts), the delivery service builds each push's
// payload from it. Adding a field to a notification is one edit here, its column in the campaign
// service (services/campaign/src/base/content-columns.ts, which the compiler asks for; the insert,
// the reads and the relay are made from it), a migration, its validation and its field in the
// Campaign message (protos/campaign/v1/campaign.proto) and the API's JSON (campaign-json.ts).
// The notification options (`options`) are one field of it, stored in one JSON column.

export interface CampaignContent {
  title: string;
  body: string;
  link: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  icon: string | null;
  image: string | null;
  callToAction: string;
  /**
   * Added 2026-12-05: the notification options a browser honours beyond the spec's fields
   * (docs/api-decisions.md, "Notification options"). Absent or null: none, and the push is
   * exactly what it was before them; campaigns stored and dispatch messages written before have
   * none.
   */
  options?: NotificationOptions | null;
}

export const CAMPAIGN_CONTENT_FIELDS = ['title', 'body', 'link', 'utmSource', 'utmMedium', 'utmCampaign', 'icon', 'image', 'callToAction', 'options'] as const satisfies readonly (keyof CampaignContent)[];
/** The fields every content has had since version 1 of the dispatch message (required there); the later ones may be absent. */
export const REQUIRED_CONTENT_FIELDS = ['title', 'body', 'link', 'utmSource', 'utmMedium', 'utmCampaign', 'icon', 'image', 'callToAction'] as const satisfies readonly (keyof CampaignContent)[];

/** A button of the notification: its text and the link it opens (UTM parameters added like `link`'s). */
export interface NotificationAction {
  title: string;
  link: string;
}

export const NOTIFICATION_DIRECTIONS = ['auto', 'ltr', 'rtl'] as const;
export type NotificationDirection = (typeof NOTIFICATION_DIRECTIONS)[number];

/** Buttons a notification may have in all (Chromium shows two; `callToAction` is the first when given). */
export const MAX_BUTTONS = 2;
export const MAX_VIBRATE_ENTRIES = 10;
export const MAX_VIBRATE_MS = 10_000;

/**
 * The options of the Notifications API a campaign may set, normalised: every field present, each
 * at its default when not asked for. Stored and sent only when one differs from its default.
 */
export interface NotificationOptions {
  /** Buttons after `callToAction`'s, each opening its own link. */
  actions: NotificationAction[];
  /** A small monochrome https image for the status bar (Android); null: none. */
  badge: string | null;
  requireInteraction: boolean;
  /** Alert again when it replaces a notification of the same tag (the campaign id). */
  renotify: boolean;
  silent: boolean;
  /** Vibration pattern in milliseconds (on, off, on…); empty: the device's default. */
  vibrate: number[];
  /** The time the notification shows, `YYYY-MM-DDTHH:MM:SSZ`; null: the moment it is sent. */
  timestamp: string | null;
  dir: NotificationDirection;
  /** A BCP 47 language tag; '': the browser's. */
  lang: string;
}

export const DEFAULT_NOTIFICATION_OPTIONS: Readonly<NotificationOptions> = Object.freeze({
  actions: [],
  badge: null,
  requireInteraction: false,
  renotify: false,
  silent: false,
  vibrate: [],
  timestamp: null,
  dir: 'auto',
  lang: '',
});

/** True when every option is at its default (such options are not stored: the campaign has none). */
export function allDefault(o: NotificationOptions): boolean {
  const d = DEFAULT_NOTIFICATION_OPTIONS;
  return o.actions.length === 0 && o.badge === d.badge && o.requireInteraction === d.requireInteraction && o.renotify === d.renotify &&
    o.silent === d.silent && o.vibrate.length === 0 && o.timestamp === d.timestamp && o.dir === d.dir && o.lang === d.lang;
}

/** The content fields of anything that has them (a create input, a stored campaign, a v1 dispatch message). */
export function campaignContent(from: CampaignContent): CampaignContent {
  const content = {} as Record<keyof CampaignContent, unknown>;
  for (const field of CAMPAIGN_CONTENT_FIELDS) if (from[field] !== undefined) content[field] = from[field];
  return content as CampaignContent;
}

/** RFC 8291 aes128gcm with one 4096-byte record leaves this much room for plaintext. */
export const MAX_PUSH_PLAINTEXT_BYTES = 3993;
/** Room kept for the per-subscriber tracking token, which is not known at create time. */
export const TRACKING_TOKEN_RESERVED_CHARS = 200;

/** `link` with the UTM parameters appended as query parameters; existing query and fragment kept. */
export function linkWithUtm(link: string, utm: Pick<CampaignContent, 'utmSource' | 'utmMedium' | 'utmCampaign'>): string {
  const params: [string, string][] = [
    ['utm_source', utm.utmSource],
    ['utm_medium', utm.utmMedium],
    ['utm_campaign', utm.utmCampaign],
  ];
  const extra = params
    .filter(([, value]) => value !== '')
    // toWellFormed: encodeURIComponent throws on a lone surrogate; validation refuses them at
    // create, this keeps a redirect or a push from ever failing on one.
    .map(([name, value]) => `${name}=${encodeURIComponent(value.toWellFormed())}`)
    .join('&');
  if (extra === '' || link === '') return link;
  const hashAt = link.indexOf('#');
  const beforeHash = hashAt === -1 ? link : link.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : link.slice(hashAt);
  const separator = !beforeHash.includes('?') ? '?' : beforeHash.endsWith('?') || beforeHash.endsWith('&') ? '' : '&';
  return `${beforeHash}${separator}${extra}${fragment}`;
}

/**
 * The JSON a browser's service worker receives. The campaign service builds it at create time
 * only to check its size; the delivery service builds it for every push. One function keeps the
 * size check honest. `sentAt` (ms since the epoch) is the notification's time when the campaign
 * sets none.
 */
export function buildPushPayload(campaignId: string, c: CampaignContent, trackingToken: string, sentAt: number): string {
  return pushPayloads(campaignId, c, sentAt)(trackingToken);
}

/**
 * True when the notification built from `content` fits one push record (with room for the
 * tracking token), sent now: a send time as long as any before the year 2286. The campaign
 * service's create checks it, the delivery service checks each person's rendering of a template.
 */
export function fitsOnePush(content: CampaignContent): boolean {
  const payload = buildPushPayload('00000000-0000-0000-0000-000000000000', content, 'x'.repeat(TRACKING_TOKEN_RESERVED_CHARS), Date.now());
  return Buffer.byteLength(payload, 'utf8') <= MAX_PUSH_PLAINTEXT_BYTES;
}

/**
 * buildPushPayload for every push of one campaign and content sent at `sentAt`: the JSON up to
 * the token is made once, and only the token (the last member) differs from push to push. The
 * options go in only where they differ from the browser's defaults (webpush-sw.js reads them);
 * `timestamp` always: a device that was offline shows when the campaign was sent, not when it
 * came online.
 */
export function pushPayloads(campaignId: string, c: CampaignContent, sentAt: number): (trackingToken: string) => string {
  const payload: Record<string, unknown> = {
    v: 1,
    id: campaignId,
    title: c.title,
    body: c.body,
    url: linkWithUtm(c.link, c),
    icon: c.icon,
    image: c.image,
  };
  if (c.callToAction !== '') payload.action = c.callToAction;
  const o = c.options ?? DEFAULT_NOTIFICATION_OPTIONS;
  if (o.actions.length > 0) payload.actions = o.actions.map((a) => ({ title: a.title, url: linkWithUtm(a.link, c) }));
  if (o.badge !== null) payload.badge = o.badge;
  if (o.requireInteraction) payload.requireInteraction = true;
  if (o.renotify) payload.renotify = true;
  if (o.silent) payload.silent = true;
  if (o.vibrate.length > 0) payload.vibrate = o.vibrate;
  if (o.dir !== 'auto') payload.dir = o.dir;
  if (o.lang !== '') payload.lang = o.lang;
  payload.timestamp = o.timestamp === null ? sentAt : Date.parse(o.timestamp);
  const opening = `${JSON.stringify(payload).slice(0, -1)},"token":`;
  return (trackingToken) => `${opening}${JSON.stringify(trackingToken)}}`;
}

/** The `web_push` member that marks a Declarative Web Push message (Push API, "declarative push message"). */
export const DECLARATIVE_WEB_PUSH = 8030;

/**
 * Where a click on a declarative notification goes: the click-tracking redirect of the token,
 * for the body (`button` undefined) or for the campaign's own button `button` (an index into
 * `options.actions`). services/delivery/src/tracking/routes.ts serves it.
 */
export type ClickUrl = (trackingToken: string, button?: number) => string;

/**
 * The Declarative Web Push message (WebKit's "Meet Declarative Web Push"; the Push API's
 * declarative push message) of every push of one campaign: a browser that understands it shows
 * the notification itself — no service worker needed — and opens `navigate` on a click, which is
 * our click-tracking redirect, so the click counts without any script. `mutable: true` still
 * wakes our service worker where one is installed (it counts the impression and lets the browser
 * show this notification); a browser that does not understand the format hands the whole JSON to
 * the worker as an ordinary push, and webpush-sw.js shows it from `notification`. The campaign
 * link's and buttons' own URLs are not in it (their redirects are): the redirect adds the UTM
 * parameters, as pushPayloads does. Same options as pushPayloads, under the Notifications API's
 * names; `vibrate` is left out with `silent` (a notification with both is refused, and a message
 * the browser refuses is no longer declarative). The token is the only part that differs from
 * push to push, so the JSON around it is made once.
 */
export function declarativePushPayloads(campaignId: string, c: CampaignContent, sentAt: number, clickUrl: ClickUrl): (trackingToken: string) => string {
  const o = c.options ?? DEFAULT_NOTIFICATION_OPTIONS;
  const shown: Record<string, unknown> = { title: c.title, tag: campaignId };
  if (c.body !== '') shown.body = c.body;
  if (c.icon !== null) shown.icon = c.icon;
  if (c.image !== null) shown.image = c.image;
  if (o.badge !== null) shown.badge = o.badge;
  if (o.dir !== 'auto') shown.dir = o.dir;
  if (o.lang !== '') shown.lang = o.lang;
  if (o.requireInteraction) shown.requireInteraction = true;
  if (o.renotify) shown.renotify = true;
  if (o.silent) shown.silent = true;
  else if (o.vibrate.length > 0) shown.vibrate = o.vibrate;
  shown.timestamp = o.timestamp === null ? sentAt : Date.parse(o.timestamp);
  // The buttons as the service worker names them: 'open' (callToAction: the campaign link), then
  // 'link-<i>' (the campaign's button i and its own link).
  const buttons: { name: string; title: string; button?: number }[] = [];
  if (c.callToAction !== '') buttons.push({ name: 'open', title: c.callToAction });
  o.actions.forEach((a, i) => buttons.push({ name: `link-${i}`, title: a.title, button: i }));
  const opening = `{"web_push":${DECLARATIVE_WEB_PUSH},"notification":${JSON.stringify(shown).slice(0, -1)},"navigate":`;
  const id = JSON.stringify(campaignId);
  return (token) => {
    const actions = buttons
      .slice(0, MAX_BUTTONS)
      .map((b) => `{"action":${JSON.stringify(b.name)},"title":${JSON.stringify(b.title)},"navigate":${JSON.stringify(clickUrl(token, b.button))}}`);
    const tokenJson = JSON.stringify(token);
    return `${opening}${JSON.stringify(clickUrl(token))}${actions.length > 0 ? `,"actions":[${actions.join(',')}]` : ''},"data":{"id":${id},"token":${tokenJson}}},"mutable":true}`;
  };
}
