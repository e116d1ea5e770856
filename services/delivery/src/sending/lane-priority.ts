// The notification lane's first claim on the machine (docs/architecture.md, "A notification").
// Pools, topics and the encryption pool's urgent queue kept the lane from queueing behind a
// campaign's work, but not from sharing the CPU with it: a campaign sending at full speed (every
// chunk partition with its batches in flight) holds both cores with its encryption, pushes and
// delivery-log writes, and a notification's two dozen statements, its create and its audit entry
// (in the other services and Postgres) wait for their share. So while the lane has work, and for
// a moment after, a campaign's chunk workers send `whileBusy` claim batches at a time in all:
// the campaign keeps sending, slower, and the rest of the machine goes to the notifications.
// Measured in docs/performance.md ("Notifications beside a campaign").

export interface LanePriority {
  /** Runs a lane handler: the campaign is held back from now until `holdMs` after the lane's last handler ends. */
  lane<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * A campaign claim batch's turn; resolves with the function that ends it (call it once the
   * batch's outcomes are recorded). At once while the lane is idle; while it is busy, once fewer
   * than `whileBusy` campaign batches are out.
   */
  campaignTurn(): Promise<() => void>;
}

export interface LanePriorityOptions {
  /** Campaign claim batches out at once while the lane is busy (at least 1: a campaign never stops). */
  whileBusy: number;
  /** How long the lane counts as busy after its last handler ended: notifications come in streams. */
  holdMs: number;
}

/**
 * One claim batch of a campaign (CLAIM_BATCH_SIZE pushes) at a time beside notifications: the
 * campaign goes on at the pace one batch's round trip allows, instead of CHUNK_CONCURRENCY ×
 * two batches.
 */
export const CAMPAIGN_BATCHES_BESIDE_LANE = 1;
/** A second: at 50 notifications a second the lane never counts as idle between two of them. */
export const LANE_HOLD_MS = 1000;

export function createLanePriority(opts: LanePriorityOptions = { whileBusy: CAMPAIGN_BATCHES_BESIDE_LANE, holdMs: LANE_HOLD_MS }): LanePriority {
  if (!Number.isInteger(opts.whileBusy) || opts.whileBusy < 1) throw new RangeError('whileBusy must be a positive integer');
  let active = 0;
  let holding: NodeJS.Timeout | undefined;
  let out = 0;
  const waiting: (() => void)[] = [];

  const busy = () => active > 0 || holding !== undefined;
  /** Lets waiting batches go as far as the current state allows. */
  const admit = () => {
    while (waiting.length > 0 && (!busy() || out < opts.whileBusy)) {
      out++;
      waiting.shift()!();
    }
  };
  const release = () => {
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      out--;
      admit();
    };
  };

  return {
    async lane(fn) {
      active++;
      if (holding) clearTimeout(holding);
      holding = undefined;
      try {
        return await fn();
      } finally {
        active--;
        if (active === 0) {
          holding = setTimeout(() => {
            holding = undefined;
            admit();
          }, opts.holdMs);
          holding.unref();
        }
      }
    },
    async campaignTurn() {
      if (waiting.length === 0 && (!busy() || out < opts.whileBusy)) {
        out++;
        return release();
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
      return release();
    },
  };
}
