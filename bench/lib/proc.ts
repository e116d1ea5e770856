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
}

function stat(pid: number): Stat | undefined {
  const raw = readOr(`/proc/${pid}/stat`);
  if (!raw) return undefined;
  const close = raw.lastIndexOf(')');
  const comm = raw.slice(raw.indexOf('(') + 1, close);
  const fields = raw.slice(close + 2).split(' ');
  // fields[0] is field 3 (state): ppid is field 4, utime 14, stime 15.
  return { pid, comm, ppid: Number(fields[1]), cpuSeconds: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS };
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

/** Every process named `comm` (e.g. all of Postgres's backends). */
export function processesNamed(comm: string): number[] {
  return pids().filter((pid) => stat(pid)?.comm === comm);
}

export function cpuSeconds(pidList: readonly number[]): number {
  let total = 0;
  for (const pid of pidList) total += stat(pid)?.cpuSeconds ?? 0;
  return total;
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
 * backends). Counted per pid, so a process that exits meanwhile drops out instead of making the
 * total go backwards: short-lived processes are undercounted, never negative.
 */
export function meterCpu(groups: Record<string, () => number[]>): CpuMeter {
  const start = new Map<number, number>();
  for (const list of Object.values(groups)) for (const pid of list()) start.set(pid, cpuSeconds([pid]));
  return {
    read() {
      const out: Record<string, number> = {};
      for (const [name, list] of Object.entries(groups)) {
        let total = 0;
        for (const pid of list()) total += Math.max(0, cpuSeconds([pid]) - (start.get(pid) ?? 0));
        out[name] = total;
      }
      return out;
    },
  };
}

/** CPU seconds per thread name of one process (main thread, libuv pool, V8 workers, worker threads). */
export function threadCpu(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    const raw = readOr(`/proc/${pid}/task/${tid}/stat`);
    if (!raw) continue;
    const close = raw.lastIndexOf(')');
    const comm = tid === String(pid) ? 'main' : raw.slice(raw.indexOf('(') + 1, close);
    const f = raw.slice(close + 2).split(' ');
    out[comm] = (out[comm] ?? 0) + (Number(f[11]) + Number(f[12])) / CLOCK_TICKS;
  }
  return out;
}
