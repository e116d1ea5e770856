// The request id of the work in progress, carried implicitly through async calls so that every
// log line written while serving one API call (or one Kafka message it caused) names it.
// Accepted from X-Request-Id at the gateway, sent on as gRPC metadata and Kafka headers.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** The HTTP header, gRPC metadata key and Kafka header name (all lowercase on the wire). */
export const REQUEST_ID_KEY = 'x-request-id';

// Same rule as the gateway's: an id that could inject into log lines or headers is replaced.
const SANE = /^[A-Za-z0-9._:-]{1,128}$/;

const storage = new AsyncLocalStorage<{ requestId: string }>();

/** The id if it is safe to carry and log, else undefined. */
export function saneRequestId(raw: unknown): string | undefined {
  const value = Buffer.isBuffer(raw) ? raw.toString('utf8') : raw;
  return typeof value === 'string' && SANE.test(value) ? value : undefined;
}

export function newRequestId(): string {
  return randomUUID();
}

/** Runs `fn` with `requestId` as the current request id (a fresh one when none is given). */
export function runWithRequestId<T>(requestId: string | undefined, fn: () => T): T {
  return storage.run({ requestId: saneRequestId(requestId) ?? newRequestId() }, fn);
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
