// The delivery service's gRPC server: the Audience, Webhooks, Runs and ConsoleData services plus
// the standard health service, driven by the service's readiness.
import * as grpc from '@grpc/grpc-js';
import { loadAudienceProto, loadAuditLogProto, loadConsoleDataProto, loadRunsProto, loadSiteRegistryProto, loadWebhooksProto } from '@webpush/shared/grpc.js';
import { internalAuthInterceptor, type InternalAuth } from '@webpush/shared/internal-auth.js';
import type { Logger } from '@webpush/shared/log.js';
import { addGrpcHealth, type Readiness } from '@webpush/shared/observability/health.js';
import type { ServiceMetrics } from '@webpush/shared/observability/metrics.js';
import type { Pool } from '@webpush/shared/db.js';
import type { Audience } from './audience/index.js';
import { createAudienceHandlers } from './audience/index.js';
import type { SubscriberExport } from './audience/index.js';
import type { SiteImport } from './audience/index.js';
import type { WebhookEndpoints } from './webhooks/index.js';
import type { AuditLog } from './audit/index.js';
import { createAuditLogHandlers } from './audit/index.js';
import { createWebhookHandlers } from './webhooks/index.js';
import { createBestTimePlanHandlers, createBestTimePlanner, createRunsHandlers } from './sending/index.js';
import { createTopicMaintenance } from './audience/index.js';
import { createOptInFunnelHandlers, type OptInFunnel } from './optin/index.js';
import { createConsoleData } from './console/index.js';
import { createConsoleDataHandlers } from './console/index.js';
import type { TestPush } from './console/index.js';
import type { DeliveryOperators } from './operators.js';
import { createSiteRegistryHandlers } from './site-registry-handlers.js';
import { createPeopleHandlers, type People } from './people/index.js';

export const AUDIENCE_GRPC_SERVICE = 'delivery.v1.Audience';
export const WEBHOOKS_GRPC_SERVICE = 'delivery.v1.Webhooks';
export const RUNS_GRPC_SERVICE = 'delivery.v1.Runs';
export const CONSOLE_DATA_GRPC_SERVICE = 'delivery.v1.ConsoleData';
export const SITE_REGISTRY_GRPC_SERVICE = 'delivery.v1.SiteRegistry';
export const AUDIT_LOG_GRPC_SERVICE = 'delivery.v1.AuditLog';

export type GrpcHealth = ReturnType<typeof addGrpcHealth>;

export function createGrpcServer(deps: {
  audience: Audience;
  siteImport: SiteImport;
  /** GET /v2/subscribers/export, limited per site (audience/export.ts). */
  subscriberExport: SubscriberExport;
  /** GET /v2/optin/funnel (optin/funnel.ts). */
  optInFunnel: OptInFunnel;
  webhooks: WebhookEndpoints;
  /** /v2/users/{externalId}: the sites' people (people/people.ts), calls of the Audience service. */
  people: People;
  /** Sites' audit logs, appended to and read by the gateway (audit/audit-log.ts). */
  auditLog: AuditLog;
  /** The interactive pool: runs and the console's data (shared/db.ts). */
  pool: Pool;
  log: Logger;
  auth: InternalAuth;
  metrics?: ServiceMetrics;
  readiness: Readiness;
  /** A winner was picked: its rest stages are due (the pacer's wake). */
  onWinnerPicked?: () => void;
  /** The console's test push (console/test-push.ts), through the instance's push sender. */
  testPush: TestPush;
  /** The sites' registration and settings (site-registry-handlers.ts). */
  operators: DeliveryOperators;
}): grpc.Server & { health: GrpcHealth } {
  // The campaign service asks for audience estimates and best-time plans; the gateway lists topics and countries,
  // imports and exports subscribers, reads, tags, exports and deletes people, reads the opt-in funnel, and manages webhooks; the campaign service passes on a
  // customer's pick of an A/B winner and reads a notification's results; the gateway reads and changes the console's data (series,
  // daily counts, browsers, topic maintenance, the site's settings, a test push). The campaign
  // service registers the sites it creates; operators set a site's cap and zone. The gateway
  // appends to and reads the sites' audit logs. The health
  // service stays open to probes.
  const interceptor = internalAuthInterceptor(deps.auth, {
    [`/${AUDIENCE_GRPC_SERVICE}/CountAudience`]: ['campaign'],
    [`/${AUDIENCE_GRPC_SERVICE}/PlanBestTime`]: ['campaign'],
    [`/${AUDIENCE_GRPC_SERVICE}/ListTopics`]: ['gateway'],
    [`/${AUDIENCE_GRPC_SERVICE}/ListCountries`]: ['gateway'],
    [`/${AUDIENCE_GRPC_SERVICE}/ImportSubscriptions`]: ['gateway'],
    [`/${AUDIENCE_GRPC_SERVICE}/ExportSubscribers`]: ['gateway'],
    [`/${AUDIENCE_GRPC_SERVICE}/GetPerson`]: ['gateway'],
    [`/${AUDIENCE_GRPC_SERVICE}/UpdatePerson`]: ['gateway'],
    [`/${AUDIENCE_GRPC_SERVICE}/DeletePerson`]: ['gateway'],
    [`/${AUDIENCE_GRPC_SERVICE}/ExportPerson`]: ['gateway'],
    [`/${AUDIENCE_GRPC_SERVICE}/ListPersonSends`]: ['gateway'],
    [`/${AUDIENCE_GRPC_SERVICE}/GetOptInFunnel`]: ['gateway'],
    [`/${AUDIENCE_GRPC_SERVICE}/`]: [],
    [`/${WEBHOOKS_GRPC_SERVICE}/`]: ['gateway'],
    [`/${RUNS_GRPC_SERVICE}/PickWinner`]: ['campaign'],
    [`/${RUNS_GRPC_SERVICE}/NotificationResults`]: ['campaign'],
    [`/${RUNS_GRPC_SERVICE}/`]: [],
    [`/${CONSOLE_DATA_GRPC_SERVICE}/`]: ['gateway'],
    [`/${AUDIT_LOG_GRPC_SERVICE}/`]: ['gateway'],
    [`/${SITE_REGISTRY_GRPC_SERVICE}/RegisterSite`]: ['campaign'],
    [`/${SITE_REGISTRY_GRPC_SERVICE}/`]: ['operator'],
  });
  const server = new grpc.Server({ interceptors: [interceptor] });
  const instrument = <T extends grpc.UntypedServiceImplementation>(name: string, handlers: T): T =>
    deps.metrics ? deps.metrics.instrumentGrpc(name, handlers, deps.log) : handlers;
  server.addService(
    loadAudienceProto().delivery.v1.Audience.service,
    instrument(AUDIENCE_GRPC_SERVICE, { ...createAudienceHandlers(deps.audience, deps.siteImport, deps.subscriberExport, deps.log), ...createPeopleHandlers(deps.people, deps.log), ...createOptInFunnelHandlers(deps.optInFunnel, deps.log),
      ...createBestTimePlanHandlers(createBestTimePlanner(deps.pool, deps.audience), deps.log) }),
  );
  server.addService(loadWebhooksProto().delivery.v1.Webhooks.service, instrument(WEBHOOKS_GRPC_SERVICE, createWebhookHandlers(deps.webhooks, deps.log)));
  server.addService(
    loadRunsProto().delivery.v1.Runs.service,
    instrument(RUNS_GRPC_SERVICE, createRunsHandlers(deps.pool, deps.log, () => deps.onWinnerPicked?.())),
  );
  server.addService(
    loadConsoleDataProto().delivery.v1.ConsoleData.service,
    instrument(CONSOLE_DATA_GRPC_SERVICE, createConsoleDataHandlers(createConsoleData(deps.pool, createTopicMaintenance(deps.pool)), deps.testPush, deps.log)),
  );
  server.addService(loadAuditLogProto().delivery.v1.AuditLog.service, instrument(AUDIT_LOG_GRPC_SERVICE, createAuditLogHandlers(deps.auditLog, deps.log)));
  server.addService(loadSiteRegistryProto().delivery.v1.SiteRegistry.service, instrument(SITE_REGISTRY_GRPC_SERVICE, createSiteRegistryHandlers(deps.operators, deps.log)));
  return Object.assign(server, {
    health: addGrpcHealth(server, [AUDIENCE_GRPC_SERVICE, WEBHOOKS_GRPC_SERVICE, RUNS_GRPC_SERVICE, CONSOLE_DATA_GRPC_SERVICE, SITE_REGISTRY_GRPC_SERVICE, AUDIT_LOG_GRPC_SERVICE], deps.readiness),
  });
}
