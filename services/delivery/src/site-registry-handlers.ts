// delivery.v1.SiteRegistry handlers (packages/contracts/protos/delivery/v1/site_registry.proto): the campaign
// service registers the sites it creates; operators set what sending needs of a site (frequency
// cap, default zone, the tags pages may set). Who may call which is decided in grpc-server.ts.
import * as grpc from '@grpc/grpc-js';
import { refusalStatus } from '@webpush/shared/grpc.js';
import type { Logger } from '@webpush/shared/log.js';
import type { SiteRegistryHandlers } from '@webpush/contracts/generated/delivery/v1/SiteRegistry.js';
import { DeliveryOperatorError, PublicIdTakenError, UnknownSiteError } from './errors.js';
import type { DeliveryOperators } from './operators.js';
import { serviceError } from './grpc-answers.js';

function unary<Req, Res>(method: string, log: Logger, fn: (req: Req) => Promise<Res>): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    fn(call.request).then(
      (res) => callback(null, res),
      (err: unknown) => {
        // The operator functions' refusals are this API's; the rest is answered as every handler's.
        const code =
          err instanceof UnknownSiteError ? grpc.status.NOT_FOUND : err instanceof PublicIdTakenError ? grpc.status.ALREADY_EXISTS : err instanceof DeliveryOperatorError ? grpc.status.INVALID_ARGUMENT : undefined;
        callback(code === undefined ? serviceError(err, method, log) : { ...refusalStatus(code, (err as Error).message), metadata: new grpc.Metadata() });
      },
    );
  };
}

export function createSiteRegistryHandlers(operators: DeliveryOperators, log: Logger): SiteRegistryHandlers {
  return {
    RegisterSite: unary('RegisterSite', log, async (req) => {
      const { vapidPublicKey } = await operators.registerSite({ siteId: req.siteId, publicId: req.publicId });
      return { siteId: req.siteId.toLowerCase(), publicId: req.publicId, vapidPublicKey };
    }),
    SetFrequencyCap: unary('SetFrequencyCap', log, async (req) => {
      const site = await operators.findSite(req.site);
      const set = await operators.setFrequencyCap(site.siteId, req.cap && { campaigns: req.cap.campaigns, hours: req.cap.hours });
      return { siteId: set.siteId, frequencyCap: set.frequencyCap };
    }),
    SetTimeZone: unary('SetTimeZone', log, async (req) => {
      const site = await operators.findSite(req.site);
      return operators.setTimeZone(site.siteId, req.timeZone ?? null);
    }),
    SetVisitorTags: unary('SetVisitorTags', log, async (req) => {
      const site = await operators.findSite(req.site);
      return operators.setVisitorTags(site.siteId, req.keys);
    }),
    SetQuietHours: unary('SetQuietHours', log, async (req) => {
      const site = await operators.findSite(req.site);
      return operators.setQuietHours(site.siteId, req.quietHours && { from: req.quietHours.from, to: req.quietHours.to });
    }),
  };
}
