// `npm start`: the whole stack on this machine. Postgres from DATABASE_URL or the project's own
// embedded server, Kafka from KAFKA_BROKERS or the project's own KRaft broker (both persistent
// under .data/), the push-service simulator with the demo site's browsers, and the three
// services as separate processes. Ctrl-C stops everything in order.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrateCampaignSchema } from '../services/campaign/src/app.js';
import { migrateDeliverySchema } from '../services/delivery/src/app.js';
import { DEFAULT_PUSH_SERVICE_HOSTS } from '../services/delivery/src/config.js';
import { createPool } from '@webpush/shared/db.js';
import { ensureDemo, subscribeDemoBrowsers } from './lib/demo.js';
import { startKafka, type RunningKafka } from './lib/kafka-broker.js';
import { clearStackInfo, DATA_DIR, localDatabase, localSecrets, runningStack, writeStackInfo } from './lib/local-env.js';
import { startServices, type ServiceName } from './lib/services.js';
import { startSimulatorProcess, type SimulatorProcess } from './lib/simulator-process.js';

const say = (line: string) => process.stdout.write(line + '\n');

function port(name: string, fallback: number): number {
  const raw = process.env[name];
  return raw ? Number(raw) : fallback;
}

async function main() {
  const already = await runningStack();
  if (already) {
    say(`The stack is already running (pid ${already.pid}) at ${already.gatewayUrl}. Stop it first (Ctrl-C in its terminal).`);
    process.exit(1);
  }
  const gatewayPort = port('GATEWAY_PORT', 8080);
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  // The services' own defaults (as in the images), printed below: Prometheus and curl know where to look.
  const opsPorts = { gateway: port('GATEWAY_OPS_PORT', 9465), campaign: port('CAMPAIGN_METRICS_PORT', 9464), delivery: port('DELIVERY_OPS_PORT', 9466) };
  say('Starting Postgres…');
  const db = await localDatabase((line) => process.env.LOG_LEVEL === 'debug' && say(`[postgres] ${line}`));
  const secrets = await localSecrets();
  const pool = createPool(db.url, { max: 2 });
  let kafka: RunningKafka | undefined;
  let simulator: SimulatorProcess | undefined;
  let services: Awaited<ReturnType<typeof startServices>> | undefined;
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say('\nStopping…');
    // Each step on its own: one that fails must not leave the rest running or the stack file behind.
    const step = async (what: string, run: () => Promise<unknown> | undefined) => {
      try {
        await run();
      } catch (err) {
        say(`Stopping ${what} failed: ${(err as Error).message}`);
        code ||= 1;
      }
    };
    await step('the services', () => services?.stop());
    await step('the simulator', () => simulator?.stop());
    await step('Kafka', () => kafka?.stop());
    await step('the pool', () => pool.end());
    await step('Postgres', () => db.server.stop());
    await step('the stack file', () => clearStackInfo());
    say('Stopped.');
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  // The foreground process that started this one (below) is gone (killed): stop too.
  const parent = process.ppid;
  setInterval(() => process.ppid !== parent && void shutdown(0), 1000).unref();

  try {
    let brokers = process.env.KAFKA_BROKERS ?? '';
    if (!brokers) {
      say('Starting Kafka…');
      kafka = await startKafka({ dataDir: path.join(DATA_DIR, 'kafka'), persistent: true, log: say });
      brokers = kafka.brokers;
    }
    say('Applying migrations…');
    await migrateCampaignSchema(pool);
    await migrateDeliverySchema(pool);
    const demo = await ensureDemo(pool, Buffer.from(secrets.VAPID_ENCRYPTION_KEY, 'base64'));
    say('Starting the push-service simulator…');
    simulator = await startSimulatorProcess({
      PORT: String(port('SIMULATOR_PORT', 8090)),
      TRACKING_BASE_URL: gatewayUrl,
      IMPRESSION_RATE: '0.8',
      CLICK_RATE: '0.25',
      DEVICE_DELAY_MS: '200',
    });
    say('Starting services…');
    const verbose = process.env.LOG_LEVEL === 'debug';
    services = await startServices({
      databaseUrl: db.url,
      // A service that dies is started again (with backoff) and the lines below say so.
      supervise: true,
      cursorSecret: secrets.CURSOR_SECRET,
      vapidEncryptionKey: secrets.VAPID_ENCRYPTION_KEY,
      // Kept in .data/secrets.json, where the operator CLI reads it.
      operatorToken: secrets.OPERATOR_INTERNAL_TOKEN,
      ports: {
        gateway: gatewayPort,
        campaignGrpc: port('CAMPAIGN_GRPC_PORT', 50051),
        deliveryGrpc: port('DELIVERY_GRPC_PORT', 50052),
        deliveryHttp: port('DELIVERY_HTTP_PORT', 8081),
      },
      env: {
        KAFKA_BROKERS: brokers,
        // The real push services, plus the local simulator (on 127.0.0.1, any port) whose CA the
        // delivery service trusts.
        PUSH_SERVICE_HOSTS: process.env.PUSH_SERVICE_HOSTS ?? DEFAULT_PUSH_SERVICE_HOSTS.join(','),
        PUSH_TEST_HOSTS: process.env.PUSH_TEST_HOSTS ?? '127.0.0.1',
        PUSH_EXTRA_CA_FILE: simulator.caCertFile,
        // Believed only from TRUSTED_PROXIES (none unless set): a client cannot pick its country.
        COUNTRY_HEADER: process.env.COUNTRY_HEADER ?? 'cf-ipcountry',
        SUBSCRIBE_RATE_LIMIT_PER_MINUTE: process.env.SUBSCRIBE_RATE_LIMIT_PER_MINUTE ?? '6000',
        // The console is reached over plain http here: a Secure session cookie would not be sent back.
        CONSOLE_SECURE_COOKIE: process.env.CONSOLE_SECURE_COOKIE ?? 'false',
        GATEWAY_OPS_PORT: String(opsPorts.gateway),
        CAMPAIGN_METRICS_PORT: String(opsPorts.campaign),
        DELIVERY_OPS_PORT: String(opsPorts.delivery),
      },
      onLine: (name: ServiceName, line: string) => {
        if (verbose || /"level":"(warn|error)"/.test(line) || !line.startsWith('{')) say(`[${name}] ${line}`);
      },
    });
    const browsers = await subscribeDemoBrowsers(demo, simulator, { deliveryHttpUrl: services.deliveryHttpUrl, gatewayToken: services.env.gateway.GATEWAY_INTERNAL_TOKEN }, 100);
    await writeStackInfo({
      pid: process.pid,
      databaseUrl: db.url,
      gatewayUrl: services.gatewayUrl,
      campaignGrpcTarget: `127.0.0.1:${services.ports.campaignGrpc}`,
      deliveryGrpcTarget: `127.0.0.1:${services.ports.deliveryGrpc}`,
    });
    const base = `${services.gatewayUrl}/v2`;
    say('');
    say(`Gateway:      ${base}`);
    say(`OpenAPI:      ${base}/openapi.json`);
    say(`Demo API key: ${demo.apiKey}`);
    say(`Demo site:    ${demo.siteId} (public id ${demo.publicId}), ${browsers} simulated browsers at ${simulator.origin}`);
    say(`Console:      ${services.gatewayUrl}/console/`);
    say(`Demo login:   ${demo.consoleEmail} / ${demo.consolePassword}`);
    say(`Ops ports:    gateway ${opsPorts.gateway}, campaign ${opsPorts.campaign}, delivery ${opsPorts.delivery} on 127.0.0.1 (/metrics, /healthz, /readyz)`);
    say('');
    say('Try it:');
    say(`  curl -s -H 'Authorization: ${demo.apiKey}' ${base}/topics`);
    say(
      `  curl -s -H 'Authorization: ${demo.apiKey}' -H 'Content-Type: application/json' ${base}/campaign/create -d '{"title":"Hello","body":"First campaign","link":"https://example.com","topics":["news"],"status":"published","scheduleMode":"now"}'`,
    );
    say(`  curl -s -H 'Authorization: ${demo.apiKey}' -X POST ${base}/campaigns      # analytics fill in within seconds`);
    say('');
    say('Operator CLI: npm run cli -- --help        Stop: Ctrl-C');
  } catch (err) {
    say(`Start-up failed: ${(err as Error).message}`);
    await shutdown(1);
  }
}

// Ctrl-C in a terminal signals the whole foreground process group: the services, the Kafka JVM
// and the embedded Postgres would stop all at once, before this launcher stops them in order (the
// services then log errors about the broker and the database gone, and a Postgres already gone
// never answers its stop, so "Stopped." never came and .data/stack.json stayed). So the stack
// runs in a process group of its own, under a small foreground process that passes Ctrl-C on as
// one SIGINT and exits with the stack's code.
if (process.env.WEBPUSH_STACK_GROUP === '1') {
  await main();
} else {
  const stack = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    detached: true,
    stdio: 'inherit',
    env: { ...process.env, WEBPUSH_STACK_GROUP: '1' },
  });
  const pass = () => stack.kill('SIGINT');
  process.on('SIGINT', pass);
  process.on('SIGTERM', pass);
  stack.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
