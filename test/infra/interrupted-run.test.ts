// A test run stopped by Ctrl-C leaves nothing running: the run's Postgres and Kafka are stopped
// (test/support/global-setup.ts) and the processes its suites started are sent SIGTERM on exit
// (scripts/lib/exit-reaper.ts). Checked on a real run of mocha holding both, interrupted.
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import { alive, ROOT } from '../../scripts/lib/local-env.js';

function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(2000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(false));
  });
}

describe('a test run interrupted by Ctrl-C', function () {
  this.timeout(150_000);

  it('stops its Postgres, its Kafka and the processes it started, and exits with 130 (or 143)', async () => {
    // Its own servers, whatever this run uses.
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.KAFKA_BROKERS;
    delete env.DATABASE_URL;
    const run = spawn(process.execPath, [path.join(ROOT, 'node_modules/mocha/bin/mocha.js'), 'test/infra/fixtures/interrupted-run.fixture.ts'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const exited = new Promise<number | null>((resolve) => run.once('exit', (code) => resolve(code)));
    try {
      const ready = await new Promise<{ kafka: string; postgres: string; childPid: number }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the fixture run did not get ready within 120 s:\n${output}`)), 120_000);
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          const m = /FIXTURE READY (\{.*\})/.exec(output);
          if (m) {
            clearTimeout(timer);
            resolve(JSON.parse(m[1]));
          }
        };
        run.stdout.on('data', onData);
        run.stderr.on('data', onData);
        void exited.then((code) => reject(new Error(`the fixture run exited with ${code} before it was ready:\n${output}`)));
      });
      const [kafkaHost, kafkaPort] = ready.kafka.split(':');
      const pg = new URL(ready.postgres);
      expect(await accepts(kafkaHost, Number(kafkaPort))).to.equal(true);
      expect(await accepts(pg.hostname, Number(pg.port))).to.equal(true);
      expect(alive(ready.childPid)).to.equal(true);

      // Mocha's own process forwards SIGINT and at once SIGTERM: whichever the run sees first wins.
      run.kill('SIGINT');
      const code = await Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 40_000))]);
      expect([130, 143], output).to.include(code);
      expect(output).to.match(/test run stopped by SIG(INT|TERM)/);
      expect(await accepts(kafkaHost, Number(kafkaPort)), 'Kafka still answers').to.equal(false);
      expect(await accepts(pg.hostname, Number(pg.port)), 'Postgres still answers').to.equal(false);
      // SIGTERM was sent at exit; give the child a moment to go.
      for (let i = 0; i < 50 && alive(ready.childPid); i++) await new Promise((r) => setTimeout(r, 100));
      expect(alive(ready.childPid), 'the started process is still running').to.equal(false);
    } finally {
      if (run.exitCode === null && run.signalCode === null) run.kill('SIGKILL');
    }
  });
});
