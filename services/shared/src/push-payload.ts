// The JSON a browser's service worker receives for one campaign. The campaign service builds it
// at create time only to check its size; the delivery service builds it for every push. One
// function keeps the size check honest.
import type { DispatchMessage } from './messages.js';

/** RFC 8291 aes128gcm with one 4096-byte record leaves this much room for plaintext. */
export const MAX_PUSH_PLAINTEXT_BYTES = 3993;
/** Room kept for the per-subscriber tracking token, which is not known at create time. */
export const TRACKING_TOKEN_RESERVED_CHARS = 200;

/** The campaign's part of a push (as the dispatch job carries it) and the subscriber's token. */
export type PushPayloadInput = Pick<
  DispatchMessage,
  'campaignId' | 'title' | 'body' | 'link' | 'utmSource' | 'utmMedium' | 'utmCampaign' | 'icon' | 'image' | 'callToAction'
> & { trackingToken: string };

/** `link` with the UTM parameters appended as query parameters; existing query and fragment kept. */
export function linkWithUtm(link: string, utm: { utmSource: string; utmMedium: string; utmCampaign: string }): string {
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

export function buildPushPayload(c: PushPayloadInput): string {
  const payload: Record<string, unknown> = {
    v: 1,
    id: c.campaignId,
    title: c.title,
    body: c.body,
    url: linkWithUtm(c.link, c),
    icon: c.icon,
    image: c.image,
  };
  if (c.callToAction !== '') payload.action = c.callToAction;
  payload.token = c.trackingToken;
  return JSON.stringify(payload);
}
