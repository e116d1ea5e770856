// What a push service sees of a throttled campaign: its pushes' receive times, counted in sliding
// windows. Shared by the tests that hold the platform to a pace and the bench that measures it.

/** The most receive times within any window [t, t + windowMs), and where the first such window starts. */
export function densestWindow(times: number[], windowMs: number): { count: number; startsAt: number | null } {
  const sorted = [...times].sort((a, b) => a - b);
  let best = { count: 0, startsAt: null as number | null };
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i] - sorted[j] >= windowMs) j++;
    if (i - j + 1 > best.count) best = { count: i - j + 1, startsAt: sorted[j] };
  }
  return best;
}

/** The documented tolerance on a throttle within any one second (docs/api-decisions.md "Throttling"). */
export const PACE_TOLERANCE = 1.15;

/**
 * How much a test rig's receive times may move on a shared, busy machine: the simulator runs in
 * the test's process and stamps a push when its event loop gets to it, and the processes are
 * descheduled for tens of ms at a time. The tests allow this much of the rate on top of the
 * tolerance (7 pushes at 50 a second); the bench measures against the tolerance alone.
 */
export const RIG_JITTER_MS = 150;

/**
 * The most pushes of a campaign throttled to `perMinute` a push service may get in any one
 * second: 1.15× the rate, plus `jitterMs` of the rate, at least one.
 */
export function paceBound(perMinute: number, jitterMs = 0): number {
  return Math.max(1, Math.floor(((PACE_TOLERANCE + jitterMs / 1000) * perMinute) / 60));
}
