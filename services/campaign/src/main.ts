// Composition root: config → start → stop on SIGTERM/SIGINT.
import { ConfigError } from '@webpush/shared/config.js';
import { installLastChanceHandlers } from '@webpush/shared/last-chance.js';
import { createLogger } from '@webpush/shared/log.js';
import { startCampaignService } from './app.js';
import { loadConfig } from './config.js';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const log = createLogger('campaign', config.logLevel);
  installLastChanceHandlers(log);
  const service = await startCampaignService(config, { log });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('stopping', { signal });
    service.stop().then(
      () => process.exit(0),
      (err) => {
        log.error('stop failed', { err });
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err) => {
  const log = createLogger('campaign');
  if (err instanceof ConfigError) log.error(err.message);
  else log.error('start failed', { err });
  process.exit(1);
});
