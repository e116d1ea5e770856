// @ts-check
// Messages between the encryption pool (pool.ts) and its workers (worker.js). Every buffer is
// transferred, not copied: the request's to the worker, the reply's back.
import { AUTH_SECRET_LENGTH, P256_POINT_LENGTH } from './rfc8291.js';

/** Bytes per subscription in ChunkRequest.keys: p256dh, then auth. */
export const KEYS_LENGTH = P256_POINT_LENGTH + AUTH_SECRET_LENGTH;

/**
 * @typedef {object} ChunkRequest
 * @property {number} id
 * @property {number} count subscriptions in the chunk
 * @property {ArrayBuffer} keys count × KEYS_LENGTH bytes. A subscription whose keys could not be
 *   decoded has zeros there, which is no P-256 point: the worker refuses it like any other.
 * @property {ArrayBuffer} plaintexts UTF-8: the one plaintext of every subscription, or (with
 *   plaintextLengths) each one's, back to back
 * @property {Uint32Array | null} plaintextLengths
 */

/**
 * @typedef {object} ChunkResponse
 * @property {number} id
 * @property {ArrayBuffer} arena the bodies back to back (possibly followed by unused bytes)
 * @property {Uint32Array} lengths each body's length; 0: refused (unusable keys or plaintext)
 */
