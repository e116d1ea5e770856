// The push payload of a revision (messages.ts Revision) as the service worker reads it
// (services/delivery/src/plugin/assets/webpush-sw.js). An update is the campaign's payload made
// from the corrected content, with `revision` (its number) in front: same id, so same tag, and
// the campaign's tracking token, so its impression and click count for the campaign, once per
// subscriber. A recall names the campaign and nothing else: it closes the notification and shows
// nothing, so it carries no token and reports nothing.
import { MAX_PUSH_PLAINTEXT_BYTES, pushPayloads, TRACKING_TOKEN_RESERVED_CHARS, type CampaignContent } from './campaign-content.js';
import type { Revision } from './messages.js';

export function revisionPayloads(revision: Revision, content: CampaignContent, sentAt: number): (trackingToken: string) => string {
  if (revision.action === 'recall') {
    const recall = JSON.stringify({ v: 1, id: revision.campaignId, revision: revision.number, recall: true });
    return () => recall;
  }
  const update = pushPayloads(revision.campaignId, content, sentAt);
  // pushPayloads's JSON is one object whose last member is the token: `revision` goes first.
  const head = `{"revision":${revision.number},`;
  return (trackingToken) => head + update(trackingToken).slice(1);
}

/** True when an update with `content` fits one push record with room for the tracking token (checked before it is stored). */
export function revisionFitsOnePush(revision: Revision, content: CampaignContent): boolean {
  const payload = revisionPayloads(revision, content, Date.now())('x'.repeat(TRACKING_TOKEN_RESERVED_CHARS));
  return Buffer.byteLength(payload, 'utf8') <= MAX_PUSH_PLAINTEXT_BYTES;
}
