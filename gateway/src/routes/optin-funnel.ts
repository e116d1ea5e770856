// GET /v2/optin/funnel (an addition; docs/api-changelog.md; docs/site-plugin.md, "Opt-in funnel"):
// the site's opt-in funnel per day and prompt, per prompt and in all, for keys whose plan may
// read reports. The delivery service checks the range and counts; the rates are computed here,
// from the counts the answer carries.
import type { OptInCounts__Output } from '@webpush/contracts/generated/delivery/v1/OptInCounts.js';
import type { OptInFunnel__Output } from '@webpush/contracts/generated/delivery/v1/OptInFunnel.js';
import type { AudienceBackend } from '../grpc/clients.js';
import { MESSAGES } from '../texts.js';
import { queryValue, type ApiRoute } from './route.js';

/** The prompt id of what a site subscribes from without a prompt (its own button, the API): no 'shown', so no rates. */
export const SITE_PROMPT = 'site';

const counts = (c: OptInCounts__Output | null) => ({
  shown: Number(c?.shown ?? 0),
  accepted: Number(c?.accepted ?? 0),
  dismissed: Number(c?.dismissed ?? 0),
  denied: Number(c?.denied ?? 0),
  subscribed: Number(c?.subscribed ?? 0),
  unsubscribed: Number(c?.unsubscribed ?? 0),
});

/** A share of the prompts shown, to 4 decimals; null when none was shown. */
const rate = (part: number, shown: number) => (shown === 0 ? null : Math.round((part / shown) * 10_000) / 10_000);
const rates = (c: { shown: number; accepted: number; subscribed: number }) => ({ acceptRate: rate(c.accepted, c.shown), subscribeRate: rate(c.subscribed, c.shown) });

/**
 * The API's JSON. Rates are of the prompts: a prompt's own, and in the totals those of every prompt
 * but 'site' (whose subscriptions no prompt was shown for), so a site's own button never makes a
 * rate above 1.
 */
export function optInFunnelJson(f: OptInFunnel__Output) {
  const prompts = f.prompts.map((p) => {
    const c = counts(p.counts);
    return { promptId: p.promptId, ...c, ...rates(c) };
  });
  const totals = counts(f.totals);
  const site = prompts.find((p) => p.promptId === SITE_PROMPT);
  const prompted = { shown: totals.shown - (site?.shown ?? 0), accepted: totals.accepted - (site?.accepted ?? 0), subscribed: totals.subscribed - (site?.subscribed ?? 0) };
  return {
    from: f.from,
    to: f.to,
    prompt: f.prompt === '' ? null : f.prompt,
    days: f.days.map((d) => ({ day: d.day, promptId: d.promptId, ...counts(d.counts) })),
    prompts,
    totals: { ...totals, ...rates(prompted) },
  };
}

export function optInFunnelEndpoint(backend: AudienceBackend): ApiRoute {
  return {
    operation: 'getOptInFunnel',
    permission: 'reports',
    denied: { status: 403, body: { message: MESSAGES.planOptInFunnel } },
    genericMessage: MESSAGES.internal,
    body: 'none',
    handle: async ({ principal, query, ctx }) =>
      optInFunnelJson(
        await backend.optInFunnel(
          // A repeated name is sent as a value the delivery service refuses with that parameter's message.
          { siteId: principal.siteId, from: queryValue(query.from, '?'), to: queryValue(query.to, '?'), prompt: queryValue(query.prompt, '?') },
          ctx,
        ),
      ),
  };
}
