// One version everywhere: package.json's is the newest entry of CHANGELOG.md, every image's OCI
// version label, every image tag in the manifests and the build commands of deploy/README.md
// (the ops ports' /healthz answers it: test/infra/stack-start-stop.test.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ROOT } from '../../scripts/lib/local-env.js';
import { renderKustomization } from './support/kustomize.js';

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const VERSION = (JSON.parse(read('package.json')) as { version: string }).version;
const IMAGES = ['gateway', 'campaign', 'delivery', 'tools'];

describe('release version', () => {
  it('is the newest CHANGELOG.md entry, whose versions and dates go down', () => {
    const entries = [...read('CHANGELOG.md').matchAll(/^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$/gm)].map((m) => ({ version: m[1], date: m[2] }));
    expect(entries.length).to.be.greaterThan(1);
    expect(entries[0].version).to.equal(VERSION);
    const key = (v: string) => v.split('.').map((n) => n.padStart(6, '0')).join('.');
    for (let i = 1; i < entries.length; i++) {
      expect(key(entries[i].version) < key(entries[i - 1].version), entries[i].version).to.equal(true);
      expect(entries[i].date <= entries[i - 1].date, entries[i].date).to.equal(true);
    }
  });

  it('labels every image of deploy/docker with OCI labels: its title, the version and the commit built', () => {
    for (const name of IMAGES) {
      const dockerfile = read(`deploy/docker/${name}.Dockerfile`);
      const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
      expect(runtime, name).to.match(/ AS runtime\n/);
      const labels = Object.fromEntries([...runtime.matchAll(/(org\.opencontainers\.image\.[a-z]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
      expect(labels, name).to.deep.include({ 'org.opencontainers.image.title': `webpush-${name}`, 'org.opencontainers.image.version': VERSION, 'org.opencontainers.image.revision': '$REVISION' });
      expect(labels['org.opencontainers.image.description'], name).to.be.a('string').and.not.equal('');
      expect(runtime, name).to.match(/^ARG REVISION=/m);
    }
  });

  it('tags every image of the manifests and deploy/README.md\'s build commands with it', () => {
    for (const dir of ['deploy/k8s/base', 'deploy/k8s/overlays/production']) {
      const rs = renderKustomization(path.join(ROOT, dir), { envFile: (file) => `${file}.example` });
      const images = rs.flatMap((r) => (r.spec?.template?.spec?.containers ?? []).map((c: { image: string }) => c.image));
      expect(images.length, dir).to.be.greaterThan(3);
      for (const image of images) expect(image.split(':').pop(), `${dir}: ${image}`).to.equal(VERSION);
    }
    const builds = [...read('deploy/README.md').matchAll(/docker build .* -t (webpush\/[a-z]+):(\S+)/g)];
    expect(builds.map((m) => m[1]).sort()).to.deep.equal(IMAGES.map((n) => `webpush/${n}`).sort());
    for (const m of builds) expect(m[2], m[1]).to.equal(VERSION);
  });
});
