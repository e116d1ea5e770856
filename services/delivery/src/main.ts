// Composition root: config → start → on SIGTERM/SIGINT stop the servers, then the pool.
import { ConfigError } from '@webpush/shared/config.js';
import { installLastChanceHandlers } from '@webpush/shared/last-chance.js';
import { createLogger } from '@webpush/shared/log.js';
import { startDeliveryService } from './app.js';
import { loadConfig } from './config.js';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const log = createLogger('delivery', config.logLevel);
  installLastChanceHandlers(log);
  const service = await startDeliveryService(config, { log });
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('stopping', { signal });
    service.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error('stop failed', { err });
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  const message = err instanceof ConfigError ? err.message : 'delivery service failed to start';
  createLogger('delivery').error(message, { err: err instanceof ConfigError ? undefined : err });
  process.exit(1);
});
