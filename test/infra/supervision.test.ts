// `npm start` supervises its services: one that dies on its own is started again, with backoff,
// and the launcher says so; stop() and restart() are not crashes. Real processes, no Kafka.
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { RESTART_BACKOFF, startServices, type RunningServices, type ServiceName } from '../../scripts/lib/services.js';
import { freshDatabase } from '../support/postgres.js';

describe('launcher: supervised services', function () {
  this.timeout(120_000);
  let db: { url: string; drop(): Promise<void> };
  let services: RunningServices;
  const lines: string[] = [];

  before(async () => {
    db = await freshDatabase('supervision');
    services = await startServices({
      databaseUrl: db.url,
      cursorSecret: randomBytes(32).toString('base64'),
      vapidEncryptionKey: randomBytes(32).toString('base64'),
      env: { LOG_LEVEL: 'error' },
      supervise: true,
      onLine: (name, line) => lines.push(`[${name}] ${line}`),
    });
  });

  after(async () => {
    await services?.stop();
    await db?.drop();
  });

  async function until(what: string, check: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect.fail(`timed out waiting for ${what}`);
  }

  const answers = async (name: ServiceName) => {
    try {
      const url = name === 'gateway' ? `${services.gatewayUrl}/healthz` : `${services.deliveryHttpUrl}/healthz`;
      return (await fetch(url, { signal: AbortSignal.timeout(1000) })).ok;
    } catch {
      return false;
    }
  };

  it('when a service is killed, then it is restarted, answers again, and the launcher says so', async () => {
    services.signal('gateway', 'SIGKILL');
    await until('the gateway to be restarted', () => services.restarts('gateway') === 1);
    await until('the gateway to answer again', () => answers('gateway'));
    expect(lines.some((l) => /^\[gateway\] exited unexpectedly \(signal SIGKILL\); restarting in 0\.5 s \(restart 1\)$/.test(l)), lines.join('\n')).to.equal(true);
    await until('the ready line', () => lines.includes('[gateway] restarted and ready (restart 1)'));
  });

  it('when it dies again soon, then the next restart waits twice as long', async () => {
    services.signal('gateway', 'SIGKILL');
    await until('the second restart', () => services.restarts('gateway') === 2);
    expect(lines).to.include(`[gateway] exited unexpectedly (signal SIGKILL); restarting in ${((RESTART_BACKOFF.firstMs * 2) / 1000).toFixed(1)} s (restart 2)`);
    await until('the gateway to answer again', () => answers('gateway'));
  });

  it('when a service is restarted on purpose, then the supervisor does not count it', async () => {
    await services.restart('delivery');
    expect(await answers('delivery')).to.equal(true);
    expect(services.restarts('delivery')).to.equal(0);
  });
});
