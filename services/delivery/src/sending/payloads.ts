// The plaintext of each push of one batch: the service worker's format (pushPayloads), or the
// Declarative Web Push message (declarativePushPayloads) for a subscription whose browser said at
// subscribe time that it shows one itself (docs/site-plugin.md, "Safari and Declarative Web
// Push"). A declarative message needs the click-tracking redirect's public URL (PUBLIC_URL): with
// none configured every push is in the worker's format. A declarative message longer than one
// push can carry (its redirect URLs are longer than the worker format's one link; the campaign
// service checks only that format at create) goes in the worker's format too: a browser that
// shows declarative messages runs our worker as well, which shows that one.
import { declarativePushPayloads, MAX_PUSH_PLAINTEXT_BYTES, pushPayloads, type CampaignContent, type ClickUrl } from '@webpush/contracts/campaign-content.js';
import type { Revision } from '@webpush/contracts/messages.js';
import { revisionPayloads } from '@webpush/contracts/revision-payload.js';

export type PayloadOf = (content: CampaignContent, declarative: boolean, trackingToken: string) => string;

/** Each content's JSON is made once per batch, with the batch's moment as the notification's time. */
export function batchPayloads(campaignId: string, sentAt: number, clickUrl: ClickUrl | undefined): PayloadOf {
  const worker = new Map<CampaignContent, (token: string) => string>();
  const declarative = new Map<CampaignContent, (token: string) => string>();
  const made = (cache: typeof worker, content: CampaignContent, make: () => (token: string) => string) => {
    let payloads = cache.get(content);
    if (!payloads) cache.set(content, (payloads = make()));
    return payloads;
  };
  return (content, wantsDeclarative, token) => {
    const plain = () => made(worker, content, () => pushPayloads(campaignId, content, sentAt))(token);
    if (!wantsDeclarative || clickUrl === undefined) return plain();
    const message = made(declarative, content, () => declarativePushPayloads(campaignId, content, sentAt, clickUrl))(token);
    return Buffer.byteLength(message, 'utf8') <= MAX_PUSH_PLAINTEXT_BYTES ? message : plain();
  };
}

/**
 * A revision's pushes (an update or recall of a sent campaign: revision-payload.ts), in the
 * worker's format for every subscription: a declarative message can neither close a notification
 * nor tell an update from a new one, and a browser that shows declarative messages runs our
 * worker too, which handles both.
 */
export function revisionBatchPayloads(revision: Revision, sentAt: number): PayloadOf {
  const made = new Map<CampaignContent, (token: string) => string>();
  return (content, _declarative, token) => {
    let payloads = made.get(content);
    if (!payloads) made.set(content, (payloads = revisionPayloads(revision, content, sentAt)));
    return payloads(token);
  };
}
