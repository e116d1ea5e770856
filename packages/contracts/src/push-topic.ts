// The RFC 8030 `Topic` of a campaign's pushes (§5.4: at most 32 characters of the URL-safe base64
// alphabet): its id without dashes, 32 hexadecimal digits. A push service keeps one undelivered
// message per subscription and Topic, so a later push with it — a repeat after an ambiguous
// attempt, or a revision of the campaign (revision-payload.ts) — replaces a copy still queued.

export function campaignTopic(campaignId: string): string {
  return campaignId.replace(/-/g, '');
}
