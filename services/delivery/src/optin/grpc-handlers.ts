// gRPC adapter for delivery.v1.Audience's GetOptInFunnel (packages/contracts/protos/delivery/v1/audience.proto;
// added beside the service's other calls by grpc-server.ts): decode → funnel.ts → encode (refusals: grpc-answers.ts).
import type { AudienceHandlers } from '@webpush/contracts/generated/delivery/v1/Audience.js';
import type { Logger } from '@webpush/shared/log.js';
import { answer } from '../grpc-answers.js';
import type { OptInFunnel as OptInFunnelMessage } from '@webpush/contracts/generated/delivery/v1/OptInFunnel.js';
import type { GetOptInFunnelRequest__Output } from '@webpush/contracts/generated/delivery/v1/GetOptInFunnelRequest.js';
import type { FunnelCounts, OptInFunnel } from './funnel.js';

async function optInFunnelMessage(funnel: OptInFunnel, r: GetOptInFunnelRequest__Output): Promise<OptInFunnelMessage> {
  const report = await funnel.read(r.siteId, { from: r.from, to: r.to, prompt: r.prompt });
  const counts = ({ shown, accepted, dismissed, denied, subscribed, unsubscribed }: FunnelCounts) => ({ shown, accepted, dismissed, denied, subscribed, unsubscribed });
  return {
    from: report.from,
    to: report.to,
    prompt: report.prompt,
    days: report.days.map((d) => ({ day: d.day, promptId: d.promptId, counts: counts(d) })),
    prompts: report.prompts.map((p) => ({ promptId: p.promptId, counts: counts(p) })),
    totals: counts(report.totals),
  };
}

export function createOptInFunnelHandlers(funnel: OptInFunnel, log: Logger): Pick<AudienceHandlers, 'GetOptInFunnel'> {
  return {
    GetOptInFunnel: ({ request: r }, cb) => answer(log, 'GetOptInFunnel', cb, () => optInFunnelMessage(funnel, r)),
  };
}
