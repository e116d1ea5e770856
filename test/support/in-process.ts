// The one in-process test stack of the component suites (services/*/test, gateway/test): a fresh
// database per suite, then the real services in this process on port 0 with the run's internal
// tokens, each behind the ones it calls (delivery ← campaign ← gateway), Kafka when asked, and
// stop() that ends all of it. Suites keep their own helpers (gRPC and HTTP calls, seeders) on top.
import { randomBytes } from 'node:crypto';
import { createPool, type Pool } from '@webpush/shared/db.js';
import type { Logger } from '@webpush/shared/log.js';
import { startCampaignService, type RunningCampaignService } from '../../services/campaign/src/app.js';
import { loadConfig as loadCampaignConfig } from '../../services/campaign/src/config.js';
import { createOperators, type Permission } from '../../services/campaign/src/sites/operators.js';
import { startDeliveryService, type DeliveryService } from '../../services/delivery/src/app.js';
import { loadConfig as loadDeliveryConfig, type DeliveryConfig } from '../../services/delivery/src/config.js';
import { createDeliveryOperators, type DeliveryOperators } from '../../services/delivery/src/operators.js';
import { startGateway, type RunningGateway } from '../../gateway/src/app.js';
import { loadConfig as loadGatewayConfig } from '../../gateway/src/config.js';
import { INTERNAL_TOKENS } from './internal-tokens.js';
import { testKafkaBrokers } from './kafka.js';
import { freshDatabase } from './postgres.js';

export type Env = Record<string, string>;

/** Variables on top of the stack's own, and a logger (default: the service's own, at LOG_LEVEL=error). */
export interface ServiceOptions {
  env?: Env;
  log?: Logger;
}

export interface InProcessOptions {
  /** Starts the delivery service. */
  delivery?: boolean | ServiceOptions;
  /** Starts the campaign service, and the delivery service its Audience calls reach. */
  campaign?: boolean | ServiceOptions;
  /** Starts the gateway, and the campaign and delivery services behind it. */
  gateway?: boolean | ServiceOptions;
  /** Connects the services to the test run's Kafka, under a topic prefix of the suite's own. */
  kafka?: boolean;
  /** Connections of the test's own pool (default 4). */
  poolSize?: number;
}

export interface TestSite {
  siteId: string;
  publicId: string;
  key: string;
}

/** Subscribers to seed for a new site (the delivery operators' seed input, without the site). */
export type SubscriberSeed = Omit<Parameters<DeliveryOperators['seedSubscribers']>[0], 'siteId'>;

export interface InProcessStack {
  databaseUrl: string;
  /** The test's own pool on the suite's database. */
  pool: Pool;
  /** Topic prefix and brokers, when started with `kafka`. */
  kafka: { brokers: string; prefix: string } | undefined;
  /** Present when started (or implied by campaign or gateway). */
  delivery: (DeliveryService & { config: Readonly<DeliveryConfig> }) | undefined;
  /** The first campaign service instance; undefined once stopCampaign() stopped it. */
  campaign: RunningCampaignService | undefined;
  /** The first gateway. */
  gateway: RunningGateway | undefined;
  /** host:port of the delivery service's Audience gRPC API, when it runs. */
  audienceTarget: string | undefined;
  operators: { campaign: ReturnType<typeof createOperators>; delivery: DeliveryOperators };
  /** Another campaign service instance on the same database (scheduler races, a logger of the test's own). */
  startCampaign(opts?: ServiceOptions): Promise<RunningCampaignService>;
  /** Another gateway in front of the same services. */
  startGateway(opts?: ServiceOptions): Promise<RunningGateway>;
  /** Stops the first campaign service instance early (backend-down tests). */
  stopCampaign(): Promise<void>;
  /** A plan with `permissions`, a site on it with one API key, registered with delivery, seeded. Needs the campaign schema. */
  newSite(opts?: { permissions?: readonly Permission[]; subscribers?: readonly SubscriberSeed[] }): Promise<TestSite>;
  /** Stops everything this stack started, last started first, then drops the database; once. */
  stop(): Promise<void>;
}

const ALL_PERMISSIONS: readonly Permission[] = ['create', 'reports', 'delete', 'audience'];

const optionsOf = (o: boolean | ServiceOptions | undefined): ServiceOptions | undefined => (o === true ? {} : o || undefined);

export async function startInProcess(label: string, opts: InProcessOptions = {}): Promise<InProcessStack> {
  const gatewayOpts = optionsOf(opts.gateway);
  const campaignOpts = optionsOf(opts.campaign) ?? (gatewayOpts ? {} : undefined);
  const deliveryOpts = optionsOf(opts.delivery) ?? (campaignOpts ? {} : undefined);

  const db = await freshDatabase(label);
  const vapidKey = randomBytes(32).toString('base64');
  const cursorSecret = randomBytes(32).toString('base64');
  const kafka = opts.kafka ? { brokers: testKafkaBrokers(), prefix: `${label.replace(/[^a-z0-9]/gi, '-')}-${randomBytes(3).toString('hex')}.` } : undefined;
  const kafkaEnv: Env = kafka ? { KAFKA_BROKERS: kafka.brokers, KAFKA_TOPIC_PREFIX: kafka.prefix } : {};
  const pool = createPool(db.url, { max: opts.poolSize ?? 4 });
  const stops: (() => Promise<void>)[] = [];

  let delivery: InProcessStack['delivery'];
  let audienceTarget: string | undefined;
  let campaign: RunningCampaignService | undefined;
  let campaignTarget: string | undefined;
  let gateway: RunningGateway | undefined;

  const startCampaign = async (o: ServiceOptions = {}) => {
    const config = loadCampaignConfig({
      DATABASE_URL: db.url,
      CAMPAIGN_GRPC_PORT: '0',
      CAMPAIGN_METRICS_PORT: '0',
      ...(audienceTarget ? { AUDIENCE_GRPC_TARGET: audienceTarget } : {}),
      CURSOR_SECRET: cursorSecret,
      ...INTERNAL_TOKENS,
      ...kafkaEnv,
      SCHEDULER_ENABLED: 'false',
      LOG_LEVEL: 'error',
      ...o.env,
    });
    const instance = await startCampaignService(config, { log: o.log });
    stops.push(() => instance.stop());
    return instance;
  };

  const startGatewayWith = async (o: ServiceOptions = {}) => {
    if (!campaignTarget || !delivery) throw new Error('startGateway: the stack runs no campaign service');
    const config = loadGatewayConfig({
      GATEWAY_PORT: '0',
      GATEWAY_OPS_PORT: '0',
      ...INTERNAL_TOKENS,
      CAMPAIGN_GRPC_TARGET: campaignTarget,
      AUDIENCE_GRPC_TARGET: audienceTarget!,
      DELIVERY_HTTP_URL: `http://127.0.0.1:${delivery.httpPort}`,
      // A hung backend must fail a test by its own timeout, not by mocha's.
      GRPC_DEADLINE_MS: '5000',
      LOG_LEVEL: 'error',
      ...o.env,
    });
    const g = await startGateway(config, { logger: o.log });
    stops.push(() => g.stop());
    return g;
  };

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      let failure: unknown;
      for (const s of stops.splice(0).reverse()) await s().catch((err) => (failure ??= err));
      await pool.end().catch((err) => (failure ??= err));
      await db.drop();
      if (failure) throw failure;
    })());

  try {
    if (deliveryOpts) {
      const config = loadDeliveryConfig({
        DATABASE_URL: db.url,
        VAPID_ENCRYPTION_KEY: vapidKey,
        ...INTERNAL_TOKENS,
        ...kafkaEnv,
        DELIVERY_GRPC_PORT: '0',
        DELIVERY_HTTP_PORT: '0',
        DELIVERY_OPS_PORT: '0',
        LOG_LEVEL: 'error',
        ...deliveryOpts.env,
      });
      const service = await startDeliveryService(config, { log: deliveryOpts.log });
      stops.push(() => service.stop());
      delivery = Object.assign(service, { config });
      audienceTarget = `127.0.0.1:${service.grpcPort}`;
    }
    if (campaignOpts) {
      campaign = await startCampaign(campaignOpts);
      campaignTarget = `127.0.0.1:${campaign.grpcPort}`;
    }
    if (gatewayOpts) gateway = await startGatewayWith(gatewayOpts);
  } catch (err) {
    await stop().catch(() => {});
    throw err;
  }

  const operators = {
    campaign: createOperators(pool),
    delivery: createDeliveryOperators(
      pool,
      delivery?.config.vapidEncryptionKey ?? Buffer.from(vapidKey, 'base64'),
      delivery && { serviceHosts: delivery.config.pushServiceHosts, testHosts: delivery.config.pushTestHosts },
    ),
  };
  let sites = 0;

  return {
    databaseUrl: db.url,
    pool,
    kafka,
    delivery,
    get campaign() {
      return campaign;
    },
    gateway,
    audienceTarget,
    operators,
    startCampaign,
    startGateway: startGatewayWith,
    async stopCampaign() {
      const c = campaign;
      campaign = undefined;
      await c?.stop();
    },
    async newSite(o = {}) {
      const n = ++sites;
      const plan = await operators.campaign.createPlan(`plan_${n}`, o.permissions ?? ALL_PERMISSIONS);
      const { site, issued } = await operators.campaign.createSite({ name: `site ${n}`, plan: plan.name }, operators.delivery.registerSite);
      const key = issued.key;
      for (const seed of o.subscribers ?? []) await operators.delivery.seedSubscribers({ siteId: site.id, ...seed });
      return { siteId: site.id, publicId: site.publicId, key };
    },
    stop,
  };
}
