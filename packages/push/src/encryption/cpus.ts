// How many CPUs this process may use: os.availableParallelism() (the CPUs it may run on), capped
// by a cgroup CPU quota, which Node 20's os.availableParallelism() ignored (where a newer libuv
// counts it, the cap changes nothing) — a container limited to 2 CPUs on a 64-core host
// would otherwise start 64 encryption workers that the quota then throttles.
import { readFileSync } from 'node:fs';
import os from 'node:os';

/** A file's text, or undefined when it is absent or unreadable. */
export type ReadFile = (path: string) => string | undefined;

/** cgroup v2 `cpu.max`: "<quota> <period>" in µs, or "max <period>" (no quota). CPUs, or null without a quota. */
export function parseCpuMax(text: string): number | null {
  const [quota, period] = text.trim().split(/\s+/);
  return quotaCpus(quota, period ?? '100000');
}

/** cgroup v1 `cpu.cfs_quota_us` ("-1": no quota) and `cpu.cfs_period_us`. CPUs, or null without a quota. */
export function parseCfsQuota(quota: string, period: string): number | null {
  return quotaCpus(quota.trim(), period.trim());
}

function quotaCpus(quota: string, period: string): number | null {
  if (!/^\d+$/.test(quota) || !/^\d+$/.test(period)) return null; // "max", "-1", or unreadable
  const q = Number(quota);
  const p = Number(period);
  return q > 0 && p > 0 ? q / p : null;
}

/**
 * The tightest CPU quota on this process's cgroup and its ancestors (a Kubernetes pod and its
 * container may each have one), in CPUs; null when there is none. Inside a container the path
 * /proc/self/cgroup gives may not exist under the mount, which is then the container's own cgroup:
 * its root, tried last, holds the quota.
 */
export function cgroupCpuLimit(read: ReadFile = readIfPresent): number | null {
  const membership = read('/proc/self/cgroup');
  if (membership === undefined) return null;
  let limit: number | null = null;
  const consider = (cpus: number | null) => {
    if (cpus !== null && (limit === null || cpus < limit)) limit = cpus;
  };
  for (const line of membership.split('\n')) {
    // "0::/path" (v2) or "4:cpu,cpuacct:/path" (v1)
    const match = /^\d+:([^:]*):(\/.*)$/.exec(line.trim());
    if (!match) continue;
    const [, controllers, path] = match;
    if (controllers === '') {
      for (const dir of dirsUp('/sys/fs/cgroup', path)) {
        const cpuMax = read(`${dir}/cpu.max`);
        if (cpuMax !== undefined) consider(parseCpuMax(cpuMax));
      }
    } else if (controllers.split(',').includes('cpu')) {
      // The v1 hierarchy is mounted under its controllers' names; /sys/fs/cgroup/cpu is the usual link to it.
      for (const mount of new Set([`/sys/fs/cgroup/${controllers}`, '/sys/fs/cgroup/cpu'])) {
        for (const dir of dirsUp(mount, path)) {
          const quota = read(`${dir}/cpu.cfs_quota_us`);
          const period = read(`${dir}/cpu.cfs_period_us`);
          if (quota !== undefined && period !== undefined) consider(parseCfsQuota(quota, period));
        }
      }
    }
  }
  return limit;
}

/** min(availableParallelism, ceil(cgroup quota)), at least 1. */
export function usableCpus(read: ReadFile = readIfPresent, parallelism = os.availableParallelism()): number {
  const limit = cgroupCpuLimit(read);
  return Math.max(1, Math.min(parallelism, limit === null ? parallelism : Math.ceil(limit)));
}

/** `${mount}${path}` and each parent directory up to `mount`. */
function dirsUp(mount: string, path: string): string[] {
  const parts = path.split('/').filter((p) => p !== '');
  const dirs: string[] = [];
  for (let n = parts.length; n >= 0; n -= 1) dirs.push([mount, ...parts.slice(0, n)].join('/'));
  return dirs;
}

function readIfPresent(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
