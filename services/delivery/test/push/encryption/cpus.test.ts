import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { ConfigError } from '@webpush/shared/config.js';
import { loadConfig } from '../../../src/config.js';
import { cgroupCpuLimit, parseCfsQuota, parseCpuMax, usableCpus, type ReadFile } from '@webpush/push/encryption/cpus.js';
import { INTERNAL_TOKENS } from '../../../../../test/support/internal-tokens.js';

const files = (contents: Record<string, string>): ReadFile => (path) => contents[path];

describe('encryption workers: CPUs this process may use', () => {
  it('reads cgroup v2 cpu.max: "<quota> <period>", "max" for none', () => {
    expect(parseCpuMax('max 100000\n')).to.equal(null);
    expect(parseCpuMax('200000 100000\n')).to.equal(2);
    expect(parseCpuMax('150000 100000')).to.equal(1.5);
    expect(parseCpuMax('50000 100000')).to.equal(0.5);
    expect(parseCpuMax('')).to.equal(null);
    expect(parseCpuMax('garbage')).to.equal(null);
  });

  it('reads cgroup v1 cpu.cfs_quota_us and cpu.cfs_period_us: -1 for none', () => {
    expect(parseCfsQuota('-1\n', '100000\n')).to.equal(null);
    expect(parseCfsQuota('250000\n', '100000\n')).to.equal(2.5);
    expect(parseCfsQuota('100000', '0')).to.equal(null);
  });

  it('v2 in a container (its own cgroup namespace): the root cpu.max', () => {
    const read = files({ '/proc/self/cgroup': '0::/\n', '/sys/fs/cgroup/cpu.max': '300000 100000\n' });
    expect(cgroupCpuLimit(read)).to.equal(3);
  });

  it('v2 with a path: the tightest quota on the cgroup and its ancestors', () => {
    const read = files({
      '/proc/self/cgroup': '0::/kubepods.slice/pod1/ctr\n',
      '/sys/fs/cgroup/kubepods.slice/pod1/ctr/cpu.max': 'max 100000\n',
      '/sys/fs/cgroup/kubepods.slice/pod1/cpu.max': '150000 100000\n',
      '/sys/fs/cgroup/kubepods.slice/cpu.max': '800000 100000\n',
    });
    expect(cgroupCpuLimit(read)).to.equal(1.5);
  });

  it('v1: the cpu controller\'s hierarchy; a host path absent in the container falls back to the mount\'s root', () => {
    const read = files({
      '/proc/self/cgroup': '12:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n0::/\n',
      '/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us': '200000\n',
      '/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us': '100000\n',
    });
    expect(cgroupCpuLimit(read)).to.equal(2);
  });

  it('no quota or no cgroup file: none', () => {
    expect(cgroupCpuLimit(files({}))).to.equal(null);
    expect(cgroupCpuLimit(files({ '/proc/self/cgroup': '0::/\n', '/sys/fs/cgroup/cpu.max': 'max 100000\n' }))).to.equal(null);
    expect(cgroupCpuLimit(files({ '/proc/self/cgroup': '4:cpu,cpuacct:/\n', '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '-1', '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000' }))).to.equal(null);
  });

  it('min(availableParallelism, ceil(quota)), at least 1', () => {
    const quota = (cpuMax: string) => files({ '/proc/self/cgroup': '0::/\n', '/sys/fs/cgroup/cpu.max': cpuMax });
    expect(usableCpus(quota('150000 100000'), 8)).to.equal(2);
    expect(usableCpus(quota('800000 100000'), 4)).to.equal(4);
    expect(usableCpus(quota('10000 100000'), 4)).to.equal(1);
    expect(usableCpus(quota('max 100000'), 6)).to.equal(6);
    expect(usableCpus(files({}), 3)).to.equal(3);
    expect(usableCpus()).to.be.a('number').and.at.least(1);
  });

  describe('ENCRYPTION_WORKERS', () => {
    const env = { DATABASE_URL: 'postgres://x', VAPID_ENCRYPTION_KEY: randomBytes(32).toString('base64'), ...INTERNAL_TOKENS };

    it('defaults to the CPUs this process may use', () => {
      expect(loadConfig(env).sending.encryptionWorkers).to.equal(usableCpus());
      expect(loadConfig({ ...env, ENCRYPTION_WORKERS: '3' }).sending.encryptionWorkers).to.equal(3);
    });

    it('a value that is not an integer from 1 to 256 stops start-up with an error naming it', () => {
      for (const value of ['0', '-1', '1.5', 'two', '257']) {
        expect(() => loadConfig({ ...env, ENCRYPTION_WORKERS: value }), value).to.throw(ConfigError, /ENCRYPTION_WORKERS must be an integer between 1 and 256/);
      }
    });
  });
});
