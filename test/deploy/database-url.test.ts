// DATABASE_URL with a password as the docs used to make it (`openssl rand -base64 32` holds `/`
// half the time): every process stopped with pg's bare "Invalid URL". Each must name the
// variable and say how to fix it, without repeating the value (it holds the password); a
// percent-encoded or hex password works.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import path from 'node:path';
import { expect } from 'chai';
import { ConfigError, postgresUrl } from '@webpush/shared/config.js';
import { ROOT } from '../../scripts/lib/local-env.js';
import { INTERNAL_TOKENS } from '../support/internal-tokens.js';

// Real outputs of `openssl rand -base64 32`: one with `/`, one with `/` after leading digits (pg
// would read "1945" as the port of host "webpush" and the rest as the path), one with `+` and `=`.
const SLASH = 'k3Qm/8uV2rX0bY+9sLw1pZc7dE4fG6hJ5nA2tU8vW0o=';
const DIGITS_SLASH = '1945/xYq2Lm8RtB0vC3nD6wE9fG1hJ4kL7pQ0sT5uV8=';
const PLUS = 'k3Qm+8uV2rX0bY+9sLw1pZc7dE4fG6hJ5nA2tU8vW0o=';
const url = (password: string) => `postgres://webpush:${password}@postgres:5432/webpush`;

describe('DATABASE_URL with a password that is not URL-safe', () => {
  it('names the variable and the fix, never the password', () => {
    for (const password of [SLASH, DIGITS_SLASH, 'a#b', 'a?b@c']) {
      let error: unknown;
      try {
        postgresUrl({ DATABASE_URL: url(password) }, 'DATABASE_URL');
      } catch (err) {
        error = err;
      }
      expect(error, password).to.be.instanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).to.match(/^DATABASE_URL is not a valid connection URL/).and.include('encodeURIComponent').and.include('openssl rand -hex 32');
      expect(message).to.not.include(password);
    }
  });

  it('accepts the same password percent-encoded, a hex one, one with + and =, and a socket directory', () => {
    for (const value of [url(encodeURIComponent(SLASH)), url(encodeURIComponent(DIGITS_SLASH)), url('9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'), url(PLUS), '/var/run/postgresql webpush', 'postgres://webpush@/webpush?host=/var/run/postgresql']) {
      expect(postgresUrl({ DATABASE_URL: value }, 'DATABASE_URL'), value).to.equal(value);
    }
  });

  for (const service of ['campaign', 'delivery'] as const) {
    it(`stops the ${service} service at start-up with that message`, async function () {
      this.timeout(60_000);
      // Every other required variable valid, so that DATABASE_URL is what stops it.
      const key = randomBytes(32).toString('base64');
      const env = { PATH: process.env.PATH, DATABASE_URL: url(SLASH), CURSOR_SECRET: key, VAPID_ENCRYPTION_KEY: key, ...INTERNAL_TOKENS };
      const run = promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(ROOT, `services/${service}/src/main.ts`)], { env, cwd: ROOT });
      const failure = await run.then(
        () => expect.fail('started'),
        (err: { code: number; stdout: string; stderr: string }) => err,
      );
      expect(failure.code).to.equal(1);
      const output = failure.stdout + failure.stderr;
      expect(output).to.include('DATABASE_URL is not a valid connection URL').and.not.include('Invalid URL');
      expect(output).to.not.include(SLASH);
    });
  }
});

describe('the recipes for the Postgres password', () => {
  it('make a password of hex digits, which needs no encoding in DATABASE_URL', () => {
    const env = readFileSync(path.join(ROOT, '.env.example'), 'utf8');
    const block = env.slice(0, env.indexOf('POSTGRES_PASSWORD='));
    expect(block.slice(block.lastIndexOf('\n\n'))).to.include('openssl rand -hex 32').and.not.include('-base64');
    const operations = readFileSync(path.join(ROOT, 'docs/operations.md'), 'utf8');
    expect(operations).to.match(/`POSTGRES_PASSWORD` \(`openssl rand -hex 32`/);
  });
});
