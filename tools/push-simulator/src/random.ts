import { randomBytes } from 'node:crypto';

/** mulberry32: small, fast and good enough to make simulated probabilities repeatable. */
export function seededRandom(seed: number | undefined): () => number {
  if (seed === undefined) return Math.random;
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Message ids as a push service makes them: 96 random bits, base64url. Drawn from a pool refilled
 * 256 ids at a time, because one randomBytes call per push cost more CPU than the rest of the
 * push's checks together.
 */
export function randomIds(): () => string {
  const ID_BYTES = 12;
  let pool = Buffer.alloc(0);
  let at = 0;
  return () => {
    if (at === pool.length) {
      pool = randomBytes(ID_BYTES * 256);
      at = 0;
    }
    at += ID_BYTES;
    return pool.toString('base64url', at - ID_BYTES, at);
  };
}
