// The gRPC server of the campaign service, built from its dependencies.
import * as grpc from '@grpc/grpc-js';
import { loadCampaignProto } from '../../shared/src/grpc.js';
import { createInternalAuth, internalAuthInterceptor } from '../../shared/src/internal-auth.js';
import type { Logger } from '../../shared/src/log.js';
import type { ServiceMetrics } from '../../shared/src/observability/metrics.js';
import type { UseCases } from './domain/use-cases.js';
import { createHandlers } from './grpc/handlers.js';

export const CAMPAIGN_GRPC_SERVICE = 'campaign.v1.CampaignService';

export function createServer(deps: { useCases: UseCases; log: Logger; metrics?: ServiceMetrics; gatewayToken: string }): grpc.Server {
  const { CampaignService } = loadCampaignProto().campaign.v1;
  // Only the gateway calls this service; it has already checked the API key behind siteId.
  const auth = createInternalAuth({ gateway: deps.gatewayToken });
  const server = new grpc.Server({ interceptors: [internalAuthInterceptor(auth, { [`/${CAMPAIGN_GRPC_SERVICE}/`]: ['gateway'] })] });
  const handlers = createHandlers(deps.useCases, deps.log);
  // Instrumented handlers also run in the caller's request id (x-request-id metadata).
  server.addService(CampaignService.service, deps.metrics ? deps.metrics.instrumentGrpc(CAMPAIGN_GRPC_SERVICE, handlers, deps.log) : handlers);
  return server;
}
