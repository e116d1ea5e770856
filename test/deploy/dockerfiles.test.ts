// The Dockerfiles, checked without a container engine: multi-stage, pinned base image,
// production dependencies only, non-root, a healthcheck, and every path they copy or run exists.
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { expect } from 'chai';
import { ROOT } from '../../scripts/lib/local-env.js';
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
  gateway: { entry: 'gateway/src/main.ts', ports: ['GATEWAY_PORT'] },
  campaign: { entry: 'services/campaign/src/main.ts', ports: ['CAMPAIGN_GRPC_PORT', 'CAMPAIGN_METRICS_PORT'] },
  delivery: { entry: 'services/delivery/src/main.ts', ports: ['DELIVERY_GRPC_PORT', 'DELIVERY_HTTP_PORT'] },
};

const FILES = ['gateway', 'campaign', 'delivery', 'tools'];

/** Every file an entry point loads through relative imports, and the packages it imports. */
function importClosure(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [path.join(ROOT, entry)];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(/(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|new URL\(\s*['"](\.[^'"]+)['"],\s*import\.meta\.url/g)) {
      if (m[2]) continue; // type-only: erased by tsx
      const spec = m[3] ?? m[4] ?? m[5];
      if (spec.startsWith('.')) {
        const resolved = path.resolve(path.dirname(file), spec);
        const candidates = [resolved, resolved.replace(/\.js$/, '.ts')];
        const found = candidates.find((c) => existsSync(c) && !c.endsWith('/'));
        if (found && /\.(ts|mjs|js)$/.test(found)) queue.push(found);
      } else if (!spec.startsWith('node:') && !builtinModules.includes(spec)) {
        packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
      }
    }
  }
  return { files, packages };
}


describe('Dockerfiles (deploy/docker)', () => {
  for (const name of FILES) {
    describe(`${name}.Dockerfile`, () => {
      const file = path.join(ROOT, 'deploy/docker', `${name}.Dockerfile`);
      const steps = parseDockerfile(readFileSync(file, 'utf8'));
      const stages = steps.map((s, i) => ({ ...s, i })).filter((s) => s.op === 'FROM');
      const final = steps.slice(stages[stages.length - 1].i);

      it('is multi-stage on a pinned Node 20 slim image', () => {
        expect(stages.length).to.be.at.least(2);
        for (const s of stages) expect(s.args, s.args).to.match(/^node:20\.\d+(\.\d+)?-bookworm-slim AS [a-z-]+$/);
      });

      it('installs production dependencies only, from the lockfile', () => {
        const install = steps.find((s) => s.op === 'RUN' && s.args.includes('npm ci'));
        expect(install?.args).to.include('--omit=dev');
        expect(steps.some((s) => s.op === 'COPY' && s.args.includes('package-lock.json'))).to.equal(true);
        expect(final.some((s) => s.op === 'RUN' && /npm (ci|install)/.test(s.args)), 'no install in the final stage').to.equal(false);
      });

      it('runs as a non-root user', () => {
        const users = final.filter((s) => s.op === 'USER');
        expect(users.length).to.be.greaterThan(0);
        expect(users[users.length - 1].args).to.not.match(/^(root|0)(:|$)/);
      });

      it('copies only paths that exist (built from the repository root)', () => {
        for (const s of steps.filter((x) => x.op === 'COPY' && !x.args.startsWith('--from'))) {
          const parts = s.args.split(/\s+/).filter((p) => !p.startsWith('--'));
          for (const src of parts.slice(0, -1)) expect(existsSync(path.join(ROOT, src)), `${name}: COPY ${src}`).to.equal(true);
        }
      });

      if (name in SERVICE_FILES) {
        const svc = name as ServiceName;
        it('has a healthcheck, and starts the service entry point it copies', () => {
          const health = final.find((s) => s.op === 'HEALTHCHECK');
          expect(health?.args).to.include('deploy/docker/healthcheck.mjs');
          const cmd = JSON.parse(final.find((s) => s.op === 'CMD')!.args) as string[];
          expect(cmd).to.deep.equal(['node', '--import', 'tsx', SERVICE_FILES[svc].entry]);
          expect(existsSync(path.join(ROOT, SERVICE_FILES[svc].entry))).to.equal(true);
        });

        it('contains every file the service loads, and needs only production dependencies', () => {
          const copied = final
            .filter((x) => x.op === 'COPY' && !x.args.startsWith('--from'))
            .map((x) => x.args.split(/\s+/).filter((p) => !p.startsWith('--')))
            .flatMap((parts) => parts.slice(0, -1));
          const { files, packages } = importClosure(SERVICE_FILES[svc].entry);
          for (const f of files) {
            const rel = path.relative(ROOT, f);
            expect(copied.some((c) => rel === c || rel.startsWith(c.replace(/\/?$/, '/'))), `${name} image lacks ${rel}`).to.equal(true);
          }
          const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
          for (const p of packages) expect(Object.keys(pkg.dependencies), `${name} imports ${p}, not a production dependency`).to.include(p);
          expect(packages.size).to.be.greaterThan(2);
        });

        it('listens on every interface and exposes the ports it sets', () => {
          const env = Object.fromEntries(
            final.filter((s) => s.op === 'ENV').flatMap((s) => [...s.args.matchAll(/([A-Z_]+)=(\S+)/g)].map((m) => [m[1], m[2]])),
          );
          const reads = serviceEnv(svc).reads;
          // NODE_ENV and NODE_OPTIONS are read by Node itself.
          for (const k of Object.keys(env)) if (k !== 'NODE_ENV' && k !== 'NODE_OPTIONS') expect(reads, `${name} sets ${k}, which it never reads`).to.include(k);
          for (const [k, v] of Object.entries(env)) if (k.endsWith('_HOST')) expect(v, k).to.equal('0.0.0.0');
          const exposed = final.filter((s) => s.op === 'EXPOSE').flatMap((s) => s.args.split(/\s+/));
          expect(exposed).to.have.members(SERVICE_FILES[svc].ports.map((p) => env[p]));
        });
      }
    });
  }
});
