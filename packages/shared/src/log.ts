// Structured JSON logs (pino), one line per event on stderr. Never pass secrets (API keys, VAPID
// private keys, subscription keys) or whole request bodies in `fields`; the redaction below is a
// second line of defence, not a licence. Lines written while serving a request carry its id
// (observability/request-context.ts) without the caller passing it.
import { pino, stdSerializers, stdTimeFunctions, type DestinationStream } from 'pino';
import { currentRequestId } from './observability/request-context.js';

export type Level = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

/** Field names whose values are never written, wherever they appear (top level or one deep). */
export const REDACTED_FIELDS: readonly string[] = Object.freeze([
  'authorization',
  'apiKey',
  'privateKey',
  'vapidPrivateKey',
  'vapidEncryptionKey',
  'cursorSecret',
  'p256dh',
  'auth',
  'password',
  'secret',
]);

// One asynchronous stderr stream per process, made on first use (no state exists at import
// time): a log line costs the caller a buffer append, not a write(2), so a slow or blocked stderr
// pipe (a busy log shipper) does not stall requests and pushes. Pino registers the stream to be
// flushed synchronously when the process exits, whatever the exit — a clean stop's
// process.exit(0), a failed start, the last-chance handler's crash exit (last-chance.ts) — so
// the line saying why a process died is not lost (test/infra/last-chance.test.ts). Only a
// SIGKILL loses the lines still buffered.
let stderr: DestinationStream | undefined;
function destination(): DestinationStream {
  stderr ??= pino.destination({ dest: 2, sync: false });
  return stderr;
}

type PinoLogger = pino.Logger<never, boolean>;

function wrap(p: PinoLogger): Logger {
  const write = (level: Level) => (msg: string, fields?: Record<string, unknown>) => {
    if (!p.isLevelEnabled(level)) return;
    if (fields) p[level](fields, msg);
    else p[level](msg);
  };
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    child: (fields) => wrap(p.child(fields) as PinoLogger),
  };
}

export function createLogger(service: string, level: Level = 'info', base: Record<string, unknown> = {}, dest?: DestinationStream): Logger {
  const p = pino(
    {
      level,
      base: { service, ...base },
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: stdSerializers.err },
      mixin: () => {
        const requestId = currentRequestId();
        return requestId ? { requestId } : {};
      },
      redact: { paths: REDACTED_FIELDS.flatMap((f) => [f, `*.${f}`]), censor: '[redacted]' },
    },
    dest ?? destination(),
  ) as PinoLogger;
  return wrap(p);
}

export function parseLevel(raw: string | undefined): Level {
  return raw === 'debug' || raw === 'warn' || raw === 'error' ? raw : 'info';
}
