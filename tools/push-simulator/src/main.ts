// Runs the simulator as its own process: one JSON line on stdout says where it is and which CA
// to trust; SIGTERM/SIGINT stop it.
import { loadSimulatorConfig, SimulatorConfigError } from './config.js';
import { startPushSimulator } from './simulator.js';

async function main(): Promise<void> {
  const config = loadSimulatorConfig();
  const log = (msg: string, fields?: Record<string, unknown>) => {
    process.stderr.write(JSON.stringify({ time: new Date().toISOString(), service: 'push-simulator', msg, ...fields }) + '\n');
  };
  const simulator = await startPushSimulator({ ...config.options, log: config.verbose ? log : undefined });
  process.stdout.write(JSON.stringify({ origin: simulator.origin, caCertFile: simulator.caCertFile, mode: simulator.mode, pid: process.pid }) + '\n');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log('stopping', { signal });
    simulator.close().then(
      () => process.exit(0),
      (err: unknown) => {
        log('stop failed', { error: (err as Error).message });
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  const message = err instanceof SimulatorConfigError ? `configuration: ${err.message}` : (err as Error).message;
  process.stderr.write(`push simulator failed to start: ${message}\n`);
  process.exit(err instanceof SimulatorConfigError ? 2 : 1);
});
