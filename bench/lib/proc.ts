// Linux /proc readers: find the service processes, sample their memory and CPU time. The
// benchmark reports what the kernel saw, not what a process says about itself.
import { readdirSync, readFileSync } from 'node:fs';

const CLOCK_TICKS = 100; // USER_HZ on every Linux the project targets

function readOr(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function pids(): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number);
}

interface Stat {
  pid: number;
  comm: string;
  ppid: number;
  /** user + system CPU seconds, this process's threads only */
  cpuSeconds: number;
  /** user + system CPU seconds of its children that ended and were reaped (cutime + cstime) */
  endedChildrenCpuSeconds: number;
}

function stat(pid: number): Stat | undefined {
  const raw = readOr(`/proc/${pid}/stat`);
  if (!raw) return undefined;
  const close = raw.lastIndexOf(')');
  const comm = raw.slice(raw.indexOf('(') + 1, close);
  const fields = raw.slice(close + 2).split(' ');
  // fields[0] is field 3 (state): ppid is field 4, utime 14, stime 15, cutime 16, cstime 17.
  return {
    pid,
    comm,
    ppid: Number(fields[1]),
    cpuSeconds: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS,
    endedChildrenCpuSeconds: (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS,
  };
}

function cmdline(pid: number): string {
  return (readOr(`/proc/${pid}/cmdline`) ?? '').replace(/\0/g, ' ');
}

/** The child of `parent` whose command line contains `needle`. */
export function findChild(parent: number, needle: string): number | undefined {
  for (const pid of pids()) {
    const s = stat(pid);
    if (s?.ppid === parent && cmdline(pid).includes(needle)) return pid;
  }
  return undefined;
}

/** `pid` and every process below it. */
export function processTree(root: number): number[] {
  const all = pids()
    .map(stat)
    .filter((s): s is Stat => s !== undefined);
  const out = [root];
  for (let i = 0; i < out.length && i < 10_000; i++) for (const s of all) if (s.ppid === out[i]) out.push(s.pid);
  return out;
}

export function cpuSeconds(pidList: readonly number[]): number {
  let total = 0;
  for (const pid of pidList) total += stat(pid)?.cpuSeconds ?? 0;
  return total;
}

/**
 * Waits until the processes together use less than `maxCores` of CPU over a second, at most
 * `limitMs`: the stack stays busy for a while after a large campaign, and that would slow the
 * next measurement down — a naive loop measured right after a 1,000,000-push campaign ran at
 * 458/s against 1,037/s before it.
 */
export async function waitForQuiet(pidsOf: () => readonly number[], opts: { maxCores?: number; limitMs?: number } = {}): Promise<{ waitedMs: number; quiet: boolean }> {
  const maxCores = opts.maxCores ?? 0.2;
  const limitMs = opts.limitMs ?? 60_000;
  const started = Date.now();
  for (;;) {
    const before = cpuSeconds(pidsOf());
    await new Promise((r) => setTimeout(r, 1000));
    const cores = cpuSeconds(pidsOf()) - before;
    const waitedMs = Date.now() - started;
    if (cores < maxCores) return { waitedMs, quiet: true };
    if (waitedMs >= limitMs) return { waitedMs, quiet: false };
  }
}

/** VmRSS and VmHWM (peak) in MB. */
export function memory(pid: number): { rssMb: number; hwmMb: number } | undefined {
  const raw = readOr(`/proc/${pid}/status`);
  if (!raw) return undefined;
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(raw)?.[1] ?? 0);
  return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
}

export interface RssSampler {
  /** Highest VmRSS seen since start, and the kernel's own high-water mark. */
  stop(): { peakRssMb: number; vmHwmMb: number; samples: number };
}

export function sampleRss(pid: number, everyMs = 200): RssSampler {
  let peak = 0;
  let samples = 0;
  const take = () => {
    const m = memory(pid);
    if (m) {
      peak = Math.max(peak, m.rssMb);
      samples++;
    }
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return { peakRssMb: peak, vmHwmMb: memory(pid)?.hwmMb ?? peak, samples };
    },
  };
}

export interface CpuMeter {
  /** CPU seconds each group used since the meter started. */
  read(): Record<string, number>;
}

/**
 * CPU time per named group of processes; groups are re-resolved on every read (Postgres forks
 * backends). A group's CPU is its live processes' own plus what the ended children they reaped
 * used (cutime), read as a total at the start and at each read: a Postgres backend that ended
 * meanwhile is still counted (its time moved to the postmaster's cutime), once. A group must
 * hold the parents of its processes (a process tree, or a server and its backends).
 */
export function meterCpu(groups: Record<string, () => number[]>): CpuMeter {
  const total = (list: number[]) => list.reduce((sum, pid) => {
    const s = stat(pid);
    return sum + (s ? s.cpuSeconds + s.endedChildrenCpuSeconds : 0);
  }, 0);
  const start = new Map(Object.entries(groups).map(([name, list]) => [name, total(list())]));
  return {
    read() {
      const out: Record<string, number> = {};
      for (const [name, list] of Object.entries(groups)) out[name] = Math.max(0, total(list()) - start.get(name)!);
      return out;
    },
  };
}

/** Processes named `comm` at or below `root`: this stack's Postgres, not another server on the machine. */
export function descendantsNamed(root: number, comm: string): number[] {
  return processTree(root).filter((pid) => pid !== root && stat(pid)?.comm === comm);
}

/** CPU seconds of every thread of one process, by thread id. */
export function threadTimes(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    const raw = readOr(`/proc/${pid}/task/${tid}/stat`);
    if (!raw) continue;
    const f = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
    out.set(Number(tid), (Number(f[11]) + Number(f[12])) / CLOCK_TICKS);
  }
  return out;
}

/** The thread ids of `pid` that announced themselves as worker threads (thread-roles.cjs). */
export function announcedWorkers(dir: string, pid: number): Set<number> {
  const out = new Set<number>();
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    const m = /^(\d+)\.(\d+)\.worker$/.exec(name);
    if (m && Number(m[1]) === pid) out.add(Number(m[2]));
  }
  return out;
}

export interface ThreadRoleCpu {
  main: number;
  workers: number;
  other: number;
  /** Worker threads that used CPU in the interval. */
  busyWorkers: number;
}

/**
 * CPU seconds of one Node process between two threadTimes() snapshots, by role. Node 20 names
 * every thread "node" (/proc/<pid>/task/<tid>/comm is the same for the main thread, V8's
 * platform threads, libuv's pool and worker threads), so names cannot tell them apart. The rule:
 * - main: the thread whose id is the pid;
 * - workers: the threads that announced themselves as worker threads (`new Worker(...)`: the
 *   bench preloads thread-roles.cjs with --require, which Node runs in every worker thread, and
 *   a worker thread has a parentPort) — in the delivery process, the encryption pool;
 * - other: the rest: V8's GC and compiler threads, libuv's pool, Node's module-hooks thread
 *   (tsx's loader, a thread without a parentPort) and the inspector's.
 * A thread that started in the interval counts from zero; one that ended is missing from `after`
 * and drops out (undercounted, never negative), as in meterCpu.
 */
export function threadRoleCpu(pid: number, before: Map<number, number>, after: Map<number, number>, workers: Set<number>): ThreadRoleCpu {
  const out: ThreadRoleCpu = { main: 0, workers: 0, other: 0, busyWorkers: 0 };
  for (const [tid, seconds] of after) {
    const used = Math.max(0, seconds - (before.get(tid) ?? 0));
    if (tid === pid) out.main += used;
    else if (workers.has(tid)) {
      out.workers += used;
      if (used > 0) out.busyWorkers++;
    } else out.other += used;
  }
  return out;
}
