// POST /v2/events written by group commit (docs/api-decisions.md, "Automations", "Events"): the
// events that arrive while one transaction runs are written together by the next — their
// Idempotency-Keys claimed in one statement, then all applied with two statements a round — so
// 1,000 events a second cost tens of transactions, not a thousand. An event is answered once the transaction
// that holds it has committed (its key with it, as before); a failed transaction fails only its
// own events, which their callers may retry with their keys. One transaction at a time per
// process: a lone event is written at once, a crowd in batches of at most `maxEvents`.
import { withTransaction, type Pool } from '@webpush/shared/db.js';
import { claimKeys } from '../campaigns/index.js';
import { applyEvents, type EventToApply } from './automation-store.js';

export interface EventToWrite extends EventToApply {
  /** '' without an Idempotency-Key. */
  idempotencyKey: string;
  requestHash: string;
  /** The event's id, the key's answer. */
  id: string;
}

/** Resolves true when the event was applied; false when its key was held already (the caller answers the holder's). */
export type EventWriter = (event: EventToWrite) => Promise<boolean>;

interface Waiting {
  event: EventToWrite;
  resolve(applied: boolean): void;
  reject(err: unknown): void;
}

/**
 * One batch in one transaction: the keys (a key given twice in the batch is held by its first
 * event, as by an earlier request), then the events whose keys were taken, in
 * rounds — a person's first event in the first round, their second in the next… — so each
 * person's events apply in their order and each statement names a person once.
 */
async function writeBatch(pool: Pool, batch: readonly EventToWrite[]): Promise<{ applied: boolean[]; dueNow: boolean }> {
  return withTransaction(pool, async (tx) => {
    // A key's first event in the batch claims it; a later one finds it held, as a later request would.
    const firsts = new Map<string, number>();
    batch.forEach((e, i) => {
      const k = JSON.stringify([e.siteId, e.idempotencyKey]);
      if (e.idempotencyKey !== '' && !firsts.has(k)) firsts.set(k, i);
    });
    // In one order whatever the arrival, so that two instances' batches wait for each other's keys, never deadlock.
    const claimers = [...firsts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, i]) => i);
    const claimed = await claimKeys(tx, claimers.map((i) => ({ siteId: batch[i].siteId, key: batch[i].idempotencyKey, requestHash: batch[i].requestHash, id: batch[i].id })));
    const taken = new Set(claimers.filter((_, n) => claimed[n]));
    const applied = batch.map((e, i) => e.idempotencyKey === '' || taken.has(i));
    const rounds: EventToWrite[][] = [];
    const seen = new Map<string, number>();
    batch.forEach((e, i) => {
      if (!applied[i]) return;
      const person = JSON.stringify([e.siteId, e.externalId]);
      const round = seen.get(person) ?? 0;
      seen.set(person, round + 1);
      (rounds[round] ??= []).push(e);
    });
    let dueNow = false;
    for (const round of rounds) if (await applyEvents(tx, round)) dueNow = true;
    return { applied, dueNow };
  });
}

/** `onStepsDue`: after a commit that started a run whose first step is due at once. */
export function createEventWriter(pool: Pool, onStepsDue?: () => void, maxEvents = 500): EventWriter {
  const waiting: Waiting[] = [];
  let writing = false;

  async function pump(): Promise<void> {
    writing = true;
    while (waiting.length > 0) {
      const batch = waiting.splice(0, maxEvents);
      try {
        const { applied, dueNow } = await writeBatch(pool, batch.map((w) => w.event));
        if (dueNow) onStepsDue?.();
        batch.forEach((w, i) => w.resolve(applied[i]));
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    writing = false;
  }

  return (event) =>
    new Promise<boolean>((resolve, reject) => {
      waiting.push({ event, resolve, reject });
      if (!writing) void pump();
    });
}
