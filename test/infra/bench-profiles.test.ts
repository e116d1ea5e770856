// The bench's --profile hook (bench/lib/profile-hook.mjs) preloaded into a real Node process, and
// the summaries the bench prints from what it writes (bench/lib/profile-summary.ts): a process
// that allocates almost only in one named function must show that function first, with most of
// the bytes — the objects it allocated were collected long before the process exited, which is
// what the hook's sampling keeps and Node's own --heap-prof would not.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { summariseAllocations, summariseProfile } from '../../bench/lib/profile-summary.js';

const HOOK = fileURLToPath(new URL('../../bench/lib/profile-hook.mjs', import.meta.url));

// 40 rounds of 100,000 short strings, each round dropped before the next: ~100 MB allocated, a
// few MB live at any time.
const SCRIPT = `
function allocateManyStrings() {
  const kept = [];
  for (let i = 0; i < 100000; i++) kept.push('item ' + i + ' of a round');
  return kept.length;
}
let total = 0;
for (let round = 0; round < 40; round++) total += allocateManyStrings();
if (total !== 4000000) process.exit(2);
`;

describe('bench: --profile writes CPU and allocation profiles, and the summaries name who allocates', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'bench-profiles-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('when a process allocates in one function, then its allocation profile puts that function first, with most of the bytes', () => {
    const run = spawnSync(process.execPath, ['--import', HOOK, '-e', SCRIPT], {
      env: { ...process.env, NODE_OPTIONS: '', BENCH_PROFILE_DIR: dir },
      encoding: 'utf8',
      timeout: 50_000,
    });
    expect(run.status, run.stderr).to.equal(0);
    const files = readdirSync(dir);
    const heap = files.find((f) => f.endsWith('.heapprofile'));
    const cpu = files.find((f) => f.endsWith('.cpuprofile'));
    expect(heap, files.join(', ')).to.be.a('string');
    expect(cpu, files.join(', ')).to.be.a('string');

    const allocations = summariseAllocations(path.join(dir, heap!), 10);
    expect(allocations.allocatedMb).to.be.greaterThan(20);
    expect(allocations.topFunctions[0].name).to.equal('allocateManyStrings');
    expect(allocations.topFunctions[0].percent).to.be.greaterThan(50);
    const shares = allocations.topFunctions.reduce((sum, f) => sum + f.percent, 0);
    expect(shares).to.be.at.most(100.5);

    const time = summariseProfile(path.join(dir, cpu!), 10);
    expect(time.totalMs).to.be.greaterThan(0);
    expect(time.topFunctions.map((f) => f.name)).to.include('allocateManyStrings');
  });
});
