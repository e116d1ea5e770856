// The last-chance handlers of every service process: an unhandled exception or rejection is
// logged once and the process exits with CRASH_EXIT_CODE, for its supervisor to restart. Logs
// are written asynchronously (log.ts): what is buffered at exit still comes out.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import { ROOT } from '../../scripts/lib/local-env.js';
import { CRASH_EXIT_CODE } from '@webpush/shared/last-chance.js';

function runWithHandlers(body: string) {
  const script = `
    import { installLastChanceHandlers } from ${JSON.stringify(path.join(ROOT, 'packages/shared/src/last-chance.ts'))};
    import { createLogger } from ${JSON.stringify(path.join(ROOT, 'packages/shared/src/log.ts'))};
    installLastChanceHandlers(createLogger('probe', 'info'));
    ${body}
  `;
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 30_000, maxBuffer: 64 * 1024 * 1024 });
}

describe('last-chance handlers', () => {
  it('when an exception escapes, then it is logged once and the process exits with the crash code', () => {
    const r = runWithHandlers(`setTimeout(() => { throw new URIError('URI malformed'); }, 0);`);
    expect(r.status).to.equal(CRASH_EXIT_CODE);
    const logged = r.stderr.split('\n').filter((l) => l.includes('uncaught exception: exiting'));
    expect(logged).to.have.length(1);
    expect(logged[0]).to.include('URI malformed');
  });

  it('when a promise rejection is unhandled, then the same', () => {
    const r = runWithHandlers(`Promise.reject(new Error('lost'));`);
    expect(r.status).to.equal(CRASH_EXIT_CODE);
    expect(r.stderr).to.include('unhandled promise rejection: exiting');
  });

  // 20,000 lines outrun an asynchronous stderr pipe: without the flush at exit most are lost.
  const burst = `const log = createLogger('burst', 'info'); for (let i = 0; i < 20000; i++) log.info('line', { i });`;

  it('when a process exits right after logging a burst, then every line reaches stderr (asynchronous logs flushed at exit)', () => {
    const r = runWithHandlers(`${burst} process.exit(0);`);
    expect(r.status).to.equal(0);
    const lines = r.stderr.split('\n').filter((l) => l.includes('"msg":"line"'));
    expect(lines).to.have.length(20000);
    expect(JSON.parse(lines.at(-1)!)).to.include({ i: 19999 });
  });

  it('when it crashes right after a burst, then the burst and the crash line all reach stderr', () => {
    const r = runWithHandlers(`${burst} setImmediate(() => { throw new Error('boom'); });`);
    expect(r.status).to.equal(CRASH_EXIT_CODE);
    expect(r.stderr.split('\n').filter((l) => l.includes('"msg":"line"'))).to.have.length(20000);
    expect(r.stderr).to.include('uncaught exception: exiting');
  });
});
