// The delivery service's gRPC server: the Audience service plus the standard health service,
// driven by the service's readiness.
import * as grpc from '@grpc/grpc-js';
import { loadAudienceProto } from '../../../shared/src/grpc.js';
import { internalAuthInterceptor, type InternalAuth } from '../../../shared/src/internal-auth.js';
import type { Logger } from '../../../shared/src/log.js';
import { addGrpcHealth, type Readiness } from '../../../shared/src/observability/health.js';
import type { ServiceMetrics } from '../../../shared/src/observability/metrics.js';
import type { Pool } from '../../../shared/src/db.js';
import type { Audience } from './audience.js';
import { createAudienceHandlers } from './grpc-handlers.js';
import type { SiteImport } from './import.js';

export const AUDIENCE_GRPC_SERVICE = 'delivery.v1.Audience';

export type GrpcHealth = ReturnType<typeof addGrpcHealth>;

export function createGrpcServer(deps: {
  audience: Audience;
  siteImport: SiteImport;
  /** The subscribers export reads its pages straight from Postgres (audience/export.ts). */
  pool: Pool;
  log: Logger;
  auth: InternalAuth;
  metrics?: ServiceMetrics;
  readiness: Readiness;
}): grpc.Server & { health: GrpcHealth } {
  // The campaign service asks for audience estimates; the gateway lists topics and countries and
  // imports and exports subscribers.
  // The health service stays open to probes.
  const interceptor = internalAuthInterceptor(deps.auth, {
    [`/${AUDIENCE_GRPC_SERVICE}/CountAudience`]: ['campaign'],
    [`/${AUDIENCE_GRPC_SERVICE}/ListTopics`]: ['gateway'],
    [`/${AUDIENCE_GRPC_SERVICE}/ListCountries`]: ['gateway'],
    [`/${AUDIENCE_GRPC_SERVICE}/ImportSubscriptions`]: ['gateway'],
    [`/${AUDIENCE_GRPC_SERVICE}/ExportSubscribers`]: ['gateway'],
    [`/${AUDIENCE_GRPC_SERVICE}/`]: [],
  });
  const server = new grpc.Server({ interceptors: [interceptor] });
  const proto = loadAudienceProto();
  const handlers = createAudienceHandlers(deps.audience, deps.siteImport, deps.pool, deps.log);
  server.addService(proto.delivery.v1.Audience.service, deps.metrics ? deps.metrics.instrumentGrpc(AUDIENCE_GRPC_SERVICE, handlers, deps.log) : handlers);
  return Object.assign(server, { health: addGrpcHealth(server, [AUDIENCE_GRPC_SERVICE], deps.readiness) });
}
