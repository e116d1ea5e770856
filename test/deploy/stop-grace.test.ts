// How long each service gets to stop, the same everywhere: packages/shared/src/shutdown.ts owns
// the numbers (the services drain for DRAIN_MS), and the Kubernetes manifests, the compose file
// and the operations doc must say the same. A grace period shorter than preStop + drain + the
// rest would SIGKILL a service mid-export or mid-chunk; compose once gave delivery 30 s where
// Kubernetes gave 60, and the gateway drained for 5 s.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { parse } from 'yaml';
import { ROOT } from '../../scripts/lib/local-env.js';
import { AFTER_DRAIN_SECONDS, DRAIN_MS, PRE_STOP_SECONDS, STOP_GRACE_SECONDS } from '@webpush/shared/shutdown.js';
import { renderKustomization } from './support/kustomize.js';

const SERVICES = ['gateway', 'campaign', 'delivery'];

describe('stop grace periods and drain times (packages/shared/src/shutdown.ts)', () => {
  it('leave room for the preStop sleep, the drain and the rest', () => {
    expect(STOP_GRACE_SECONDS).to.be.at.least(PRE_STOP_SECONDS + DRAIN_MS / 1000 + AFTER_DRAIN_SECONDS);
    // An export gets far longer than the 5 s it once had.
    expect(DRAIN_MS).to.be.at.least(30_000);
  });

  it('Kubernetes gives each service that grace period and that preStop sleep', () => {
    const rs = renderKustomization(path.join(ROOT, 'deploy/k8s/base'));
    for (const name of SERVICES) {
      const pod = rs.find((r) => r.kind === 'Deployment' && r.metadata.name === name)!.spec.template.spec;
      expect(pod.terminationGracePeriodSeconds, name).to.equal(STOP_GRACE_SECONDS);
      const c = pod.containers.find((x: { name: string }) => x.name === name);
      expect(c.lifecycle.preStop.exec.command, name).to.deep.equal(['sleep', String(PRE_STOP_SECONDS)]);
    }
  });

  it('docker compose gives each service the same grace period', () => {
    const compose = parse(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true });
    for (const name of SERVICES) expect(compose.services[name].stop_grace_period, name).to.equal(`${STOP_GRACE_SECONDS}s`);
  });

  it('the operations doc states the numbers', () => {
    const doc = readFileSync(path.join(ROOT, 'docs/operations.md'), 'utf8');
    const stopping = doc.slice(doc.indexOf('## Stopping'), doc.indexOf('\n## ', doc.indexOf('## Stopping') + 1));
    expect(stopping).to.include(`${STOP_GRACE_SECONDS} s`).and.include(`${DRAIN_MS / 1000} s`).and.include(`${PRE_STOP_SECONDS} s`).and.include('shutdown.ts');
  });
});
