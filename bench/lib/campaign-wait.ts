// Waiting for one campaign's pushes to reach a simulator, with progress every 5 s. Bounded: it
// ends when `expected` pushes arrived, when the campaign run finished with fewer (every push
// answered), after 60 s without a new push, or at `capMs`.
import { sleep } from './sites.js';
import type { BenchStack, SimulatorStats } from './stack.js';

export interface PushWait {
  /** Pushes the simulator answered since `base`. */
  done: number;
  /** performance.now() of the first and the last poll that saw new pushes. */
  firstAt: number | null;
  lastAt: number;
  /** performance.now() of the first poll that saw at least `markAt` pushes; null when none did. */
  markedAt: number | null;
  /** The simulator's counters at the end. */
  stats: SimulatorStats;
}

export interface PushWaitOptions {
  label: string;
  campaignId: string;
  expected: number;
  /** performance.now() when the campaign was created. */
  t0: number;
  /** accepted + rejected before the campaign. */
  base: number;
  stats: () => Promise<SimulatorStats>;
  capMs: number;
  log: (line: string) => void;
  /** A count whose arrival time is wanted too (markedAt), e.g. to compare with a shorter campaign. */
  markAt?: number;
}

export async function diagnose(stack: BenchStack, campaignId: string): Promise<string> {
  const run = await stack.pool.query('SELECT state, chunks_published, chunks_total, chunks_done, audience_size, sent, failed, expired, reason FROM delivery.campaign_runs WHERE campaign_id = $1', [campaignId]);
  const states = await stack.pool.query('SELECT state, count(*) AS n FROM delivery.delivery_log WHERE campaign_id = $1 GROUP BY state', [campaignId]);
  return `run ${JSON.stringify(run.rows[0] ?? null)}, delivery log ${JSON.stringify(states.rows)}`;
}

export async function waitForPushes(stack: BenchStack, o: PushWaitOptions): Promise<PushWait> {
  const { expected, t0, log } = o;
  let firstAt: number | null = null;
  let lastAt = 0;
  let markedAt: number | null = null;
  let done = 0;
  let lastProgress = 0;
  let lastChange = performance.now();
  let lastLog = performance.now();
  let lastRunCheck = 0;
  let s = await o.stats();
  while (done < expected) {
    await sleep(100);
    s = await o.stats();
    const now = performance.now();
    const count = s.accepted + s.rejected.total - o.base;
    if (count > done) {
      if (firstAt === null) firstAt = now;
      lastAt = now;
      lastChange = now;
      done = count;
      if (markedAt === null && o.markAt !== undefined && done >= o.markAt) markedAt = now;
    }
    if (now - lastLog > 5000) {
      const secs = (now - t0) / 1000;
      log(`  ${o.label}pushed ${done.toLocaleString('en')}/${expected.toLocaleString('en')} in ${secs.toFixed(0)} s (${Math.round(done / secs).toLocaleString('en')}/s avg, ${Math.round(((done - lastProgress) * 1000) / (now - lastLog))}/s now)`);
      lastProgress = done;
      lastLog = now;
    }
    // A run that finished with fewer pushes than subscribers (every push answered) ends the wait too.
    if (now - lastChange > 2000 && now - lastRunCheck > 1000) {
      lastRunCheck = now;
      const r = await stack.pool.query<{ state: string; answered: string }>('SELECT state, (sent + failed + expired)::text AS answered FROM delivery.campaign_runs WHERE campaign_id = $1', [o.campaignId]);
      const run = r.rows[0];
      if (run && (run.state === 'completed' || run.state === 'failed') && done >= Number(run.answered)) {
        log(`  ${o.label}the run is ${run.state} after ${done.toLocaleString('en')} pushes: fewer than the ${expected.toLocaleString('en')} subscribers`);
        break;
      }
    }
    if (now - lastChange > 60_000) throw new Error(`${o.label}delivery stalled at ${done}/${expected} pushes for 60 s; ${await diagnose(stack, o.campaignId)}`);
    if (now - t0 > o.capMs) throw new Error(`${o.label}delivery did not finish within ${o.capMs / 1000} s (${done}/${expected})`);
  }
  return { done, firstAt, lastAt, markedAt, stats: s };
}
