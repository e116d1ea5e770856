// Summarises V8 .cpuprofile files (written by --cpu-prof): self time per function and per file,
// so a report can say which stage burns the CPU; and .heapprofile files (sampled allocations,
// profile-hook.mjs): bytes allocated per function and per file, so it can say which stage makes
// the garbage. Also a CLI:
//   npx tsx bench/lib/profile-summary.ts <file.cpuprofile | file.heapprofile>…
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: Node[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface ProfileSummary {
  file: string;
  totalMs: number;
  idleMs: number;
  topFunctions: { name: string; where: string; selfMs: number; percentOfBusy: number }[];
  topFiles: { file: string; selfMs: number; percentOfBusy: number }[];
}

function shortUrl(url: string): string {
  if (url === '') return '(native)';
  const m = /node_modules\/(.*)$/.exec(url);
  if (m) return m[1];
  return url.replace(/^file:\/\/.*?\/(services|gateway|tools|scripts|bench)\//, '$1/').replace(/^node:/, 'node:');
}

export function summariseProfile(file: string, top = 20): ProfileSummary {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  if (p.samples && p.timeDeltas) {
    for (let i = 0; i < p.samples.length; i++) self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
  }
  const fn = new Map<string, { name: string; where: string; selfMs: number }>();
  const files = new Map<string, number>();
  let idle = 0;
  let total = 0;
  for (const [id, ms] of self) {
    const n = byId.get(id)!;
    total += ms;
    const name = n.callFrame.functionName || '(anonymous)';
    if (name === '(idle)') {
      idle += ms;
      continue;
    }
    const where = `${shortUrl(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
    const key = `${name}@${where}`;
    const e = fn.get(key) ?? { name, where, selfMs: 0 };
    e.selfMs += ms;
    fn.set(key, e);
    const f = shortUrl(n.callFrame.url).replace(/:\d+$/, '') || name;
    files.set(f, (files.get(f) ?? 0) + ms);
  }
  const busy = Math.max(total - idle, 0.001);
  const pct = (ms: number) => Math.round((ms / busy) * 1000) / 10;
  return {
    file,
    totalMs: Math.round(total),
    idleMs: Math.round(idle),
    topFunctions: [...fn.values()]
      .sort((a, b) => b.selfMs - a.selfMs)
      .slice(0, top)
      .map((e) => ({ ...e, selfMs: Math.round(e.selfMs), percentOfBusy: pct(e.selfMs) })),
    topFiles: [...files.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([f, ms]) => ({ file: f, selfMs: Math.round(ms), percentOfBusy: pct(ms) })),
  };
}

interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}

export interface AllocationSummary {
  file: string;
  /** Bytes allocated over the profile (sampled: an estimate), in MB. */
  allocatedMb: number;
  topFunctions: { name: string; where: string; mb: number; percent: number }[];
  topFiles: { file: string; mb: number; percent: number }[];
}

export function summariseAllocations(file: string, top = 20): AllocationSummary {
  const head = (JSON.parse(readFileSync(file, 'utf8')) as { head: HeapNode }).head;
  const fn = new Map<string, { name: string; where: string; bytes: number }>();
  const files = new Map<string, number>();
  let total = 0;
  // Iterative: allocation trees are as deep as the call stacks.
  for (const stack = [head]; stack.length > 0; ) {
    const n = stack.pop()!;
    stack.push(...n.children);
    if (n.selfSize === 0) continue;
    total += n.selfSize;
    const name = n.callFrame.functionName || '(anonymous)';
    const url = shortUrl(n.callFrame.url);
    const where = `${url}:${n.callFrame.lineNumber + 1}`;
    const key = `${name}@${where}`;
    const e = fn.get(key) ?? { name, where, bytes: 0 };
    e.bytes += n.selfSize;
    fn.set(key, e);
    const f = url || name;
    files.set(f, (files.get(f) ?? 0) + n.selfSize);
  }
  const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;
  const pct = (bytes: number) => Math.round((bytes / Math.max(total, 1)) * 1000) / 10;
  return {
    file,
    allocatedMb: mb(total),
    topFunctions: [...fn.values()]
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, top)
      .map((e) => ({ name: e.name, where: e.where, mb: mb(e.bytes), percent: pct(e.bytes) })),
    topFiles: [...files.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([f, bytes]) => ({ file: f, mb: mb(bytes), percent: pct(bytes) })),
  };
}

export function formatAllocations(s: AllocationSummary): string {
  const lines = [`${s.file}: ${s.allocatedMb} MB allocated (sampled)`, '  allocated by function:'];
  for (const f of s.topFunctions) lines.push(`    ${String(f.mb).padStart(7)} MB ${String(f.percent).padStart(5)} %  ${f.name}  ${f.where}`);
  lines.push('  allocated by file:');
  for (const f of s.topFiles.slice(0, 12)) lines.push(`    ${String(f.mb).padStart(7)} MB ${String(f.percent).padStart(5)} %  ${f.file}`);
  return lines.join('\n');
}

export function formatSummary(s: ProfileSummary): string {
  const lines = [`${s.file}: ${s.totalMs} ms sampled, ${s.idleMs} ms idle, ${s.totalMs - s.idleMs} ms busy`, '  self time by function:'];
  for (const f of s.topFunctions) lines.push(`    ${String(f.selfMs).padStart(7)} ms ${String(f.percentOfBusy).padStart(5)} %  ${f.name}  ${f.where}`);
  lines.push('  self time by file:');
  for (const f of s.topFiles.slice(0, 12)) lines.push(`    ${String(f.selfMs).padStart(7)} ms ${String(f.percentOfBusy).padStart(5)} %  ${f.file}`);
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const file of process.argv.slice(2)) {
    console.log((file.endsWith('.heapprofile') ? formatAllocations(summariseAllocations(file)) : formatSummary(summariseProfile(file))) + '\n');
  }
}
