// Tracking endpoints for service workers: impression and click reports, and a click-through
// redirect. No credential: the token in the push payload names campaign and subscription and
// is HMAC-signed, so a forged or foreign token is refused and never counted.
import { rateLimited } from '../http/rate-limited.js';
import express, { type Router } from 'express';
import type { TrackingTokens } from './tracking-token.js';
import type { createTrackingRecorder } from './recorder.js';
import { linkWithUtm, type CampaignContent } from '@webpush/contracts/campaign-content.js';
import { HttpError } from '../http/http-error.js';
import type { RateLimiter } from '@webpush/shared/rate-limit.js';
import { jsonObject, rawBody } from '../http/json-body.js';
import { CLICK_PATH } from './click-url.js';

export interface EventRouteDeps {
  tokens: TrackingTokens;
  recorder: ReturnType<typeof createTrackingRecorder>;
  limiter: RateLimiter;
  /** The content the subscriber was sent (the campaign's, or its A/B variant's); null when the campaign has no run. */
  contentOf(campaignId: string, subscriberId: string): Promise<CampaignContent | null>;
}

export function eventRoutes(deps: EventRouteDeps): Router {
  const router = express.Router();
  const rateLimit = rateLimited(deps.limiter);
  const body = rawBody(4 * 1024);

  router.post('/public/v1/events', rateLimit, body, async (req, res) => {
    const input = jsonObject(req);
    const errors: string[] = [];
    if (input.type !== 'impression' && input.type !== 'click') errors.push('type must be impression or click');
    const target = deps.tokens.verify(input.token);
    if (!target) errors.push('token is not a valid tracking token');
    if (errors.length > 0) throw new HttpError(400, errors.join(', '));
    await deps.recorder.record({ ...target!, kind: input.type as 'impression' | 'click' });
    res.status(202).json({ accepted: true });
  });

  // A link that records the click and sends the browser on to the link of what the subscriber was
  // sent (with UTM): the campaign's link, or with `?button=<i>` its button i's own link. A
  // Declarative Web Push message (click-url.ts) names it for the body and each button. Only the
  // campaign's own links are reachable: the token is signed, the link is read from the campaign.
  router.get(`${CLICK_PATH}:token`, rateLimit, async (req, res) => {
    const target = deps.tokens.verify(req.params.token);
    if (!target) throw new HttpError(404, 'Not found');
    const button = buttonOf(req.query.button);
    if (button === null) throw new HttpError(404, 'Not found');
    const content = await deps.contentOf(target.campaignId, target.subscriberId);
    const link = content === null ? '' : button === undefined ? content.link : (content.options?.actions[button]?.link ?? '');
    if (link === '') throw new HttpError(404, 'Not found');
    await deps.recorder.record({ ...target, kind: 'click' });
    res.set('Cache-Control', 'no-store');
    res.redirect(302, linkWithUtm(link, content!));
  });

  return router;
}

/** `?button=`: absent (the body), a button index 0–9 written plainly, or null for anything else. */
function buttonOf(raw: unknown): number | undefined | null {
  if (raw === undefined) return undefined;
  return typeof raw === 'string' && /^\d$/.test(raw) ? Number(raw) : null;
}
