// A campaign's content — what its notification shows and where a click goes — as one type from
// the create input to the push payload. The campaign service validates and stores it, the
// dispatch message carries it nested (messages.ts), the delivery service builds each push's
// payload from it. Adding a field to a notification is one edit here, its column in the campaign
// service (services/campaign/src/base/content-columns.ts, which the compiler asks for; the insert,
// the reads and the relay are made from it), a migration, its validation and its field in the
// Campaign message (protos/campaign/v1/campaign.proto) and the API's JSON (campaign-json.ts).

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
}

export const CAMPAIGN_CONTENT_FIELDS = ['title', 'body', 'link', 'utmSource', 'utmMedium', 'utmCampaign', 'icon', 'image', 'callToAction'] as const satisfies readonly (keyof CampaignContent)[];

/** The content fields of anything that has them (a create input, a stored campaign, a v1 dispatch message). */
export function campaignContent(from: CampaignContent): CampaignContent {
  const content = {} as Record<keyof CampaignContent, unknown>;
  for (const field of CAMPAIGN_CONTENT_FIELDS) content[field] = from[field];
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
 * size check honest.
 */
export function buildPushPayload(campaignId: string, c: CampaignContent, trackingToken: string): string {
  return pushPayloads(campaignId, c)(trackingToken);
}

/**
 * buildPushPayload for every push of one campaign and content: the JSON up to the token is made
 * once, and only the token (the last member) differs from push to push.
 */
export function pushPayloads(campaignId: string, c: CampaignContent): (trackingToken: string) => string {
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
  const opening = `${JSON.stringify(payload).slice(0, -1)},"token":`;
  return (trackingToken) => `${opening}${JSON.stringify(trackingToken)}}`;
}
