// `npm run bench:push-path`: the delivery's push path alone (sender, HTTP/2 client, HPACK,
// metrics-free), CPU per push against the sink simulator, in rounds of separate processes
// (bench/parts/push-path-worker.mjs). Small and steady where the whole pipeline's numbers swing
// with the machine: with `--against DIR` (another checkout, e.g. a `git worktree` of the commit
// before a change, sharing node_modules) the two alternate round by round, so both see the same
// moments of a noisy machine, and the medians are compared.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DELIVERY_HEAP_FLAGS } from '../scripts/lib/services.js';
import { ensureBuilt } from '../scripts/lib/build-output.js';
import { ROOT } from '../scripts/lib/local-env.js';
import { int, median } from './lib/numbers.js';
import { Cleanup, startSimulator } from './lib/stack.js';

const HELP = `npm run bench:push-path -- [flags]

  --pushes N      measured pushes per round (80000), after --warmup N (20000)
  --rounds N      rounds (4); with --against, each round runs both, alternating which goes first
  --against DIR   another checkout (its dist/ is built first) to compare with this one
`;

interface Round {
  pushes: number;
  failed: number;
  cpuMicrosPerPush: number;
  pushesPerSecond: number;
}

function buildOther(dir: string): Promise<void> {
  const script = path.join(dir, 'scripts/build.mjs');
  if (!existsSync(script)) throw new Error(`--against ${dir}: no scripts/build.mjs there (not a checkout of this project?)`);
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [script, '--quiet'], { cwd: dir, maxBuffer: 16 * 1024 * 1024 }, (err, _out, stderr) =>
      err ? reject(new Error(`building ${dir} failed:\n${(stderr || err.message).trim()}`)) : resolve(),
    ),
  );
}

function round(tree: string, sim: { origin: string; caCertFile: string }, pushes: number, warmup: number): Promise<Round> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bench/parts/push-path-worker.mjs')], {
      env: { ...process.env, TREE: tree, PUSHES: String(pushes), WARMUP: String(warmup), SIM_ORIGIN: sim.origin, SIM_CA: sim.caCertFile, NODE_OPTIONS: DELIVERY_HEAP_FLAGS },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0) return reject(new Error(`the push-path round for ${tree} exited with ${code}: ${line}`));
      resolve(JSON.parse(line) as Round);
    });
  });
}

async function main() {
  const { values } = parseArgs({
    options: { pushes: { type: 'string' }, warmup: { type: 'string' }, rounds: { type: 'string' }, against: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } },
  });
  if (values.help) return void process.stdout.write(HELP);
  const pushes = int(values.pushes, 'pushes', 80_000);
  const warmup = int(values.warmup, 'warmup', 20_000);
  const rounds = int(values.rounds, 'rounds', 4);
  const trees = [{ name: 'this checkout', dir: ROOT }];
  if (values.against) {
    const dir = path.resolve(values.against);
    trees.unshift({ name: `against ${dir}`, dir });
  }
  const log = (line: string) => console.log(line);

  // One after the other: --against may name this very checkout, and two builds of one dist/ at once would collide.
  for (const t of trees) await (path.resolve(t.dir) === path.resolve(ROOT) ? ensureBuilt() : buildOther(t.dir));
  const cleanup = new Cleanup();
  process.once('SIGINT', () => void cleanup.run(log).then(() => process.exit(130)));
  try {
    const sim = await startSimulator(log, 'simulator');
    cleanup.add('push simulator', () => sim.stop());
    const results = new Map(trees.map((t) => [t.name, [] as Round[]]));
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? trees : [...trees].reverse();
      for (const t of order) {
        const res = await round(t.dir, sim, pushes, warmup);
        if (res.failed > 0) throw new Error(`${res.failed} pushes were not sent in a round of ${t.name}`);
        results.get(t.name)!.push(res);
        log(`round ${r + 1}/${rounds}, ${t.name}: ${res.cpuMicrosPerPush.toFixed(2)} µs of CPU per push, ${Math.round(res.pushesPerSecond).toLocaleString('en')} pushes/s`);
      }
    }
    const medians = trees.map((t) => ({ name: t.name, cpu: median(results.get(t.name)!.map((x) => x.cpuMicrosPerPush)) }));
    for (const m of medians) log(`median, ${m.name}: ${m.cpu.toFixed(2)} µs of CPU per push (${pushes.toLocaleString('en')} pushes a round)`);
    if (medians.length === 2) log(`this checkout vs the other: ${(((medians[1].cpu - medians[0].cpu) / medians[0].cpu) * 100).toFixed(1)} %`);
  } finally {
    await cleanup.run(log);
  }
}

main().catch((err) => {
  console.error((err as Error).message);
  process.exit(1);
});
