// A population whose engagement depends on the hour (issue 40's simulated population): each
// device has hours of the day (UTC) in which it is likely to see and click a notification, drawn
// from its subscription id and the population's seed, and known only to the simulator — the
// platform has to learn them from the reports. In its `width` peak hours a push is seen and clicked
// at the device's rates; in any other hour at `offPeak` times those rates. The bench draws a
// history with the same functions (as the devices would have reported it) and scores the hours
// the platform chose against these.
import { createHash } from 'node:crypto';

export interface HourlyPopulation {
  /** Which hours each device prefers: the same seed gives every subscription the same hours. */
  seed: number;
  /** Consecutive peak hours per device (default 2). */
  width?: number;
  /** The factor on the impression and click rates outside the peak (default 0.2). */
  offPeak?: number;
}

/** The first of a subscription's peak hours (UTC, 0–23): uniform over the day. */
export function peakHour(population: HourlyPopulation, subscriptionId: string): number {
  const digest = createHash('sha256').update(`${population.seed}:${subscriptionId}`).digest();
  return digest.readUInt32BE(0) % 24;
}

/** True when `hour` (UTC) is one of the subscription's peak hours. */
export function inPeak(population: HourlyPopulation, subscriptionId: string, hour: number): boolean {
  const width = population.width ?? 2;
  return (hour - peakHour(population, subscriptionId) + 24) % 24 < width;
}

/** The factor on a device's impression and click rates for a push arriving at `at`. */
export function engagementFactor(population: HourlyPopulation, subscriptionId: string, at: Date): number {
  return inPeak(population, subscriptionId, at.getUTCHours()) ? 1 : (population.offPeak ?? 0.2);
}

/** The subscription id a push endpoint names: its last path segment. */
export function subscriptionIdOf(endpoint: string): string {
  return endpoint.slice(endpoint.lastIndexOf('/') + 1);
}
