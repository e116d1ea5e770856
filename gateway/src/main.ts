// Composition root: config → start → wait for SIGTERM/SIGINT → ordered stop.
import { ConfigError } from '@webpush/shared/config.js';
import { installLastChanceHandlers } from '@webpush/shared/last-chance.js';
import { createLogger } from '@webpush/shared/log.js';
import { startGateway } from './app.js';
import { loadConfig } from './config.js';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger('gateway', config.logLevel);
  installLastChanceHandlers(logger);
  const gateway = await startGateway(config, { logger });
  const shutdown = (signal: string) => {
    logger.info('stopping', { signal });
    gateway.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error('stop failed', { err: err instanceof Error ? err : undefined });
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  const message = err instanceof ConfigError ? err.message : 'gateway failed to start';
  createLogger('gateway').error(message, { err: err instanceof Error && !(err instanceof ConfigError) ? err : undefined });
  process.exit(1);
});
