// `npm run bench:push-path` (bench/push-path.ts) end to end, tiny: it starts the sink simulator,
// runs the push path in rounds of its own processes against it, and prints CPU per push and the
// medians — with --against, for both checkouts (here this one twice), in alternating order.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function bench(...args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/push-path.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: '' },
    encoding: 'utf8',
    timeout: 110_000,
  });
}

describe('bench: the push path alone (npm run bench:push-path)', function () {
  this.timeout(120_000);

  it('when run against another checkout, then both push every message in alternating rounds and their medians are compared', () => {
    const run = bench('--pushes', '3000', '--warmup', '600', '--rounds', '2', '--against', ROOT);
    expect(run.status, run.stderr + run.stdout).to.equal(0);
    const rounds = run.stdout.split('\n').filter((l) => l.startsWith('round '));
    expect(rounds.map((l) => l.replace(/:.*/, ''))).to.deep.equal([
      `round 1/2, against ${ROOT.replace(/\/$/, '')}`,
      'round 1/2, this checkout',
      'round 2/2, this checkout',
      `round 2/2, against ${ROOT.replace(/\/$/, '')}`,
    ]);
    for (const line of rounds) expect(Number(/: ([\d.]+) µs of CPU per push/.exec(line)?.[1])).to.be.greaterThan(0);
    expect(run.stdout).to.match(/median, this checkout: [\d.]+ µs of CPU per push \(3,000 pushes a round\)/);
    expect(run.stdout).to.match(/this checkout vs the other: -?[\d.]+ %/);
  });

  it('when a flag is not a positive integer, then it says which and exits non-zero', () => {
    const run = bench('--rounds', 'zero');
    expect(run.status).to.equal(1);
    expect(run.stderr).to.include('--rounds must be a positive integer');
  });
});
