// Tracking endpoints for service workers: impression and click reports, and a click-through
// redirect. No credential: the token in the push payload names campaign and subscription and
// is HMAC-signed, so a forged or foreign token is refused and never counted.
import { rateLimited } from '../http/rate-limited.js';
import express, { type Router } from 'express';
import type { DispatchMessage } from '@webpush/contracts/messages.js';
import type { TrackingTokens } from './tracking-token.js';
import type { createTrackingRecorder } from './recorder.js';
import { linkWithUtm } from '@webpush/contracts/campaign-content.js';
import { HttpError } from '../http/http-error.js';
import type { RateLimiter } from '@webpush/shared/rate-limit.js';
import { jsonObject, rawBody } from '../http/json-body.js';

export interface EventRouteDeps {
  tokens: TrackingTokens;
  recorder: ReturnType<typeof createTrackingRecorder>;
  limiter: RateLimiter;
  /** The campaign's run, of which the redirect needs only the content (sending's findRun fits). */
  findRun(campaignId: string): Promise<{ job: Pick<DispatchMessage, 'content'> } | null>;
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

  // A link that records the click and sends the browser on to the campaign's link (with UTM).
  router.get('/public/v1/r/:token', rateLimit, async (req, res) => {
    const target = deps.tokens.verify(req.params.token);
    if (!target) throw new HttpError(404, 'Not found');
    const run = await deps.findRun(target.campaignId);
    if (!run || run.job.content.link === '') throw new HttpError(404, 'Not found');
    await deps.recorder.record({ ...target, kind: 'click' });
    res.set('Cache-Control', 'no-store');
    res.redirect(302, linkWithUtm(run.job.content.link, run.job.content));
  });

  return router;
}
