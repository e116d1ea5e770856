import { expect } from 'chai';
import { ConfigError } from '@webpush/shared/config.js';
import { loadConfig } from '../src/config.js';
import { INTERNAL_TOKENS } from '../../../test/support/internal-tokens.js';

const SECRET = Buffer.alloc(32, 7).toString('base64');

describe('campaign config', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({ DATABASE_URL: 'postgres://x/y', CURSOR_SECRET: SECRET, ...INTERNAL_TOKENS });
    expect(c).to.deep.include({ audienceTarget: '127.0.0.1:50052', audienceDeadlineMs: 5000, logLevel: 'info' });
    expect(c.grpc).to.deep.equal({ host: '127.0.0.1', port: 50051 });
    expect(c.scheduler).to.deep.equal({ enabled: true, intervalMs: 1000, batchSize: 100 });
    expect(Object.isFrozen(c)).to.equal(true);
  });

  it('names a missing or malformed variable', () => {
    expect(() => loadConfig({ CURSOR_SECRET: SECRET })).to.throw(ConfigError, 'DATABASE_URL');
    expect(() => loadConfig({ DATABASE_URL: 'x' })).to.throw(ConfigError, 'CURSOR_SECRET');
    expect(() => loadConfig({ DATABASE_URL: 'x', CURSOR_SECRET: Buffer.alloc(16).toString('base64') })).to.throw(ConfigError, 'CURSOR_SECRET');
    expect(() => loadConfig({ DATABASE_URL: 'x', CURSOR_SECRET: SECRET, SCHEDULER_ENABLED: 'maybe' })).to.throw(ConfigError, 'SCHEDULER_ENABLED');
    expect(() => loadConfig({ DATABASE_URL: 'x', CURSOR_SECRET: SECRET, CAMPAIGN_GRPC_PORT: '70000' })).to.throw(ConfigError, 'CAMPAIGN_GRPC_PORT');
  });
});
