// `npm start` as a newcomer meets it, for real (its embedded Postgres, its own Kafka broker, the
// simulator, the three services) in a throwaway data directory: a healthy start prints no
// error lines (kafkajs logs a broker still loading its group coordinator as errors), it says
// where the ops ports are, and Ctrl-C — SIGINT to the terminal's whole foreground process group
// — stops everything in order, prints "Stopped." and clears .data/stack.json.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { compiledPath, ensureBuilt } from '../../scripts/lib/build-output.js';
import { ROOT } from '../../scripts/lib/local-env.js';
import { freePort } from '@webpush/shared/ports.js';

const PACKAGE_VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('npm start: a healthy start and Ctrl-C', function () {
  this.timeout(400_000);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'webpush-stack-'));
  // As root the embedded Postgres runs as its own user, which must reach its data directory.
  chmodSync(dataDir, 0o755);
  let launcher: ChildProcess | undefined;
  let output = '';
  let exited: Promise<number | null>;
  const ports: Record<string, number> = {};

  async function until(what: string, check: () => boolean, ms: number): Promise<void> {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (check()) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect.fail(`timed out waiting for ${what}; output:\n${output}`);
  }

  before(async () => {
    await ensureBuilt();
    for (const name of ['GATEWAY_PORT', 'CAMPAIGN_GRPC_PORT', 'DELIVERY_GRPC_PORT', 'DELIVERY_HTTP_PORT', 'SIMULATOR_PORT', 'GATEWAY_OPS_PORT', 'CAMPAIGN_METRICS_PORT', 'DELIVERY_OPS_PORT']) ports[name] = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, WEBPUSH_DATA_DIR: dataDir, ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])) };
    // Its own Postgres and Kafka, as on a fresh clone.
    for (const name of ['DATABASE_URL', 'KAFKA_BROKERS', 'LOG_LEVEL', 'WEBPUSH_STACK_GROUP']) delete env[name];
    // detached: a process group of its own, as a terminal's foreground job.
    launcher = spawn(process.execPath, [compiledPath('scripts/stack.ts')], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    exited = new Promise((r) => launcher!.on('exit', (code) => r(code)));
    for (const s of [launcher.stdout!, launcher.stderr!]) s.on('data', (d) => (output += String(d)));
  });

  after(async () => {
    // Whatever happened, nothing is left running (the stack's group, then the launcher's).
    if (launcher && launcher.exitCode === null) {
      try {
        process.kill(-launcher.pid!, 'SIGKILL');
      } catch {
        // gone
      }
    }
    const file = path.join(dataDir, 'stack.json');
    const stack = (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}) as { pid?: number };
    if (stack.pid) {
      try {
        process.kill(-stack.pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts without error lines and prints the ops ports, which answer with the release\'s version', async () => {
    await until('the stack to be up', () => output.includes('Operator CLI:') || launcher!.exitCode !== null, 300_000);
    expect(output.includes('Operator CLI:'), output).to.equal(true);
    expect(output.split('\n').filter((l) => l.includes('"level":"error"')), 'error lines on a healthy start').to.deep.equal([]);
    expect(output).to.include(`Ops ports:    gateway ${ports.GATEWAY_OPS_PORT}, campaign ${ports.CAMPAIGN_METRICS_PORT}, delivery ${ports.DELIVERY_OPS_PORT} on 127.0.0.1`);
    for (const p of [ports.GATEWAY_OPS_PORT, ports.CAMPAIGN_METRICS_PORT, ports.DELIVERY_OPS_PORT]) {
      expect((await fetch(`http://127.0.0.1:${p}/metrics`)).status, `port ${p}`).to.equal(200);
      // Which release answers (CHANGELOG.md), from the compiled code as the images run it.
      expect(await (await fetch(`http://127.0.0.1:${p}/healthz`)).json(), `port ${p}`).to.deep.equal({ status: 'ok', version: PACKAGE_VERSION });
    }
    expect(JSON.parse(readFileSync(path.join(dataDir, 'stack.json'), 'utf8')).pid).to.be.a('number');
  });

  it('Ctrl-C (SIGINT to the foreground process group) stops it in order: no error lines, "Stopped.", no stack file entry', async () => {
    const before = output.length;
    process.kill(-launcher!.pid!, 'SIGINT');
    const code = await Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 180_000))]);
    const stopping = output.slice(before);
    expect(code, stopping).to.equal(0);
    expect(stopping).to.include('Stopping…').and.include('Stopped.');
    expect(stopping.split('\n').filter((l) => /"level":"error"|failed/.test(l)), 'error lines while stopping').to.deep.equal([]);
    expect(JSON.parse(readFileSync(path.join(dataDir, 'stack.json'), 'utf8'))).to.deep.equal({});
  });
});
