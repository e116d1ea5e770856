// The gRPC server of the campaign service, built from its dependencies.
import * as grpc from '@grpc/grpc-js';
import { loadCampaignProto, loadConsoleProto, loadSiteAdminProto } from '@webpush/shared/grpc.js';
import { createInternalAuth, internalAuthInterceptor } from '@webpush/shared/internal-auth.js';
import type { Logger } from '@webpush/shared/log.js';
import type { ServiceMetrics } from '@webpush/shared/observability/metrics.js';
import { createConsoleHandlers, type ConsoleDeps } from './accounts/index.js';
import type { UseCases } from './grpc/use-cases.js';
import { createHandlers } from './grpc/campaign-handlers.js';
import { createSiteAdminHandlers, type SiteAdminDeps } from './grpc/site-admin-handlers.js';

export const CAMPAIGN_GRPC_SERVICE = 'campaign.v1.CampaignService';
export const CONSOLE_GRPC_SERVICE = 'campaign.v1.Console';
export const SITE_ADMIN_GRPC_SERVICE = 'campaign.v1.SiteAdmin';

export function createGrpcServer(deps: {
  useCases: UseCases;
  console: ConsoleDeps;
  siteAdmin: SiteAdminDeps;
  log: Logger;
  metrics?: ServiceMetrics;
  gatewayToken: string;
  /** Unset: the operators' API refuses every call. */
  operatorToken?: string;
}): grpc.Server {
  const { CampaignService, Console, SiteAdmin } = { ...loadCampaignProto().campaign.v1, ...loadConsoleProto().campaign.v1, ...loadSiteAdminProto().campaign.v1 };
  // The gateway calls the campaign and console services: it has already checked the API key
  // behind siteId (or, for the console, the session, the membership, the role and the plan).
  // Operators (the CLI) call the admin API, and nothing else.
  const auth = createInternalAuth({ gateway: deps.gatewayToken, operator: deps.operatorToken });
  const server = new grpc.Server({
    interceptors: [
      internalAuthInterceptor(auth, { [`/${CAMPAIGN_GRPC_SERVICE}/`]: ['gateway'], [`/${CONSOLE_GRPC_SERVICE}/`]: ['gateway'], [`/${SITE_ADMIN_GRPC_SERVICE}/`]: ['operator'] }),
    ],
  });
  const handlers = createHandlers(deps.useCases, deps.log);
  const consoleHandlers = createConsoleHandlers(deps.console, deps.log);
  // Instrumented handlers also run in the caller's request id (x-request-id metadata).
  server.addService(CampaignService.service, deps.metrics ? deps.metrics.instrumentGrpc(CAMPAIGN_GRPC_SERVICE, handlers, deps.log) : handlers);
  server.addService(Console.service, deps.metrics ? deps.metrics.instrumentGrpc(CONSOLE_GRPC_SERVICE, consoleHandlers, deps.log) : consoleHandlers);
  const adminHandlers = createSiteAdminHandlers(deps.siteAdmin, deps.log);
  server.addService(SiteAdmin.service, deps.metrics ? deps.metrics.instrumentGrpc(SITE_ADMIN_GRPC_SERVICE, adminHandlers, deps.log) : adminHandlers);
  return server;
}
