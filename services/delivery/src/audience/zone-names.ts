// Stored zones by their one name (packages/contracts/src/local-time.ts, canonicalZone): subscribes
// store it since this release; rows written before (Chrome's `Asia/Calcutta` for IANA's
// `Asia/Kolkata`) are renamed here, in the background, in short batches of the primary key, so no
// subscribe waits on a long transaction. Done once per zone link table (its tzdata version):
// queries also match every name of a zone (zoneNames), so the results are right meanwhile.
import type { Pool } from '@webpush/shared/db.js';
import { canonicalZone } from '@webpush/contracts/local-time.js';
import { createPeriodic, type Periodic } from '@webpush/shared/periodic.js';
import type { Logger } from '@webpush/shared/log.js';
import { TZDATA_VERSION } from '@webpush/contracts/time-zone-links.js';
import { lastSubscriberId, maintenanceDone, markMaintenanceDone, renameSiteZones, renameSubscriberZones, storedZones } from './zone-name-store.js';

export const ZONE_NAMES_TASK = `canonical-zone-names:${TZDATA_VERSION}`;
const BATCH_IDS = 5000;

/**
 * Renames the stored zones that are not their zone's one name; resolves with the rows renamed,
 * or null when `stopping()` ended it early (the next pass starts again: a batch is idempotent).
 */
export async function canonicaliseStoredZones(pool: Pool, stopping: () => boolean = () => false): Promise<number | null> {
  if (await maintenanceDone(pool, ZONE_NAMES_TASK)) return 0;
  const renames = (await storedZones(pool)).filter((z) => canonicalZone(z) !== z);
  const from = renames;
  const to = renames.map(canonicalZone);
  let renamed = 0;
  if (renames.length > 0) {
    renamed += await renameSiteZones(pool, from, to);
    const last = await lastSubscriberId(pool);
    for (let lo = 0; lo < last; lo += BATCH_IDS) {
      if (stopping()) return null;
      renamed += await renameSubscriberZones(pool, from, to, lo, lo + BATCH_IDS);
    }
  }
  await markMaintenanceDone(pool, ZONE_NAMES_TASK);
  return renamed;
}

/** The pass, started with the service: first a few seconds after start, then hourly until done (a pass once done is one lookup). */
export function zoneNamesMaintenance(pool: Pool, log: Logger): Periodic {
  let loop: Periodic;
  const pass = async () => {
    const renamed = await canonicaliseStoredZones(pool, () => loop.stopping());
    if (renamed) log.info('stored time zones renamed to their IANA names', { renamed, task: ZONE_NAMES_TASK });
  };
  loop = createPeriodic(pass, {
    intervalMs: 3600_000,
    firstPassDelayMs: 5000,
    onError: (err) => log.warn('renaming stored time zones failed; it is tried again in an hour', { error: (err as Error).message }),
  });
  return loop;
}
