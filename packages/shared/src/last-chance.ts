// The last chance of a service process. An exception or rejection nobody handled leaves the
// process in a state no one reasoned about: log it once (the request id, if any, comes with the
// log line) and exit with a code that says so, so the supervisor (npm start, compose's
// `restart:`, Kubernetes) starts a clean process. Staying up half-broken would be worse.
import type { Logger } from './log.js';

/** Exit code of a process that died of an unhandled error (EX_SOFTWARE). */
export const CRASH_EXIT_CODE = 70;

export function installLastChanceHandlers(log: Logger): void {
  let dying = false;
  const die = (what: string) => (reason: unknown) => {
    if (dying) return;
    dying = true;
    try {
      log.error(what, { err: reason instanceof Error ? reason : new Error(String(reason)) });
    } finally {
      process.exit(CRASH_EXIT_CODE);
    }
  };
  process.on('uncaughtException', die('uncaught exception: exiting'));
  process.on('unhandledRejection', die('unhandled promise rejection: exiting'));
}
