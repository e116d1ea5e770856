// @ts-check
// The two ways a worker encrypts a chunk, with one signature: the native addon
// (packages/push/native/rfc8291.c, about a third of the CPU per message) or rfc8291.js (the
// fallback where the addon was not built: no C compiler, or Node's headers missing). The pool
// decides once, on the main thread (ENCRYPTION_ENGINE), and every worker opens the engine it was
// told to. Plain JavaScript importing only node: modules, like the worker.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { KEYS_LENGTH } from './protocol.js';
import { Aes128gcmEncoder, encryptedLength, P256_POINT_LENGTH, Rfc8291Error } from './rfc8291.js';

/**
 * Where scripts/build.mjs writes the addon, relative to this file: in dist/ beside the compiled
 * code (dist/packages/push/native/). Running from the TypeScript sources there is none, so
 * the in-process tests encrypt in JavaScript unless they name the built addon (addonUrl).
 */
export const ADDON_URL = new URL('../../native/rfc8291.node', import.meta.url);

/** ENCRYPTION_ENGINE's values. */
export const ENGINE_CHOICES = /** @type {const} */ (['auto', 'native', 'javascript']);
/** @typedef {typeof ENGINE_CHOICES[number]} EngineChoice */
/** @typedef {'native' | 'javascript'} EngineName */

/**
 * Encrypts `count` messages: the bodies back to back in `out`, `lengths[i]` each one's length or
 * 0 where its keys or plaintext were refused. `keys`: count × (p256dh 65 | auth 16). `plaintexts`:
 * one plaintext for every message when `plaintextLengths` is null, else each one's back to back.
 * Returns the bytes written.
 * @typedef {(out: Uint8Array, keys: Uint8Array, plaintexts: Uint8Array, plaintextLengths: Uint32Array | null, count: number, lengths: Uint32Array) => number} EncryptChunk
 */

/**
 * The addon's encryptChunk; throws an Error saying why it cannot be used.
 * @param {URL} [url]
 * @returns {EncryptChunk}
 */
export function loadNative(url = ADDON_URL) {
  const file = fileURLToPath(url);
  if (!existsSync(file)) throw new Error(`${file} was not built (npm run build needs a C compiler, cc or $CC)`);
  /** @type {{ encryptChunk?: unknown }} */
  const addon = createRequire(import.meta.url)(file);
  if (typeof addon.encryptChunk !== 'function') throw new Error(`${file} has no encryptChunk`);
  return /** @type {EncryptChunk} */ (addon.encryptChunk);
}

/**
 * encryptChunk over rfc8291.js, for one thread.
 * @returns {EncryptChunk}
 */
export function javascriptEncryptChunk() {
  const encoder = new Aes128gcmEncoder();
  return (out, keys, plaintexts, plaintextLengths, count, lengths) => {
    let written = 0;
    let read = 0;
    for (let i = 0; i < count; i += 1) {
      const own = plaintextLengths ? plaintextLengths[i] : plaintexts.length;
      const plaintext = plaintextLengths ? plaintexts.subarray(read, read + own) : plaintexts;
      read += plaintextLengths ? own : 0;
      const at = i * KEYS_LENGTH;
      lengths[i] = 0;
      try {
        lengths[i] = encoder.encryptInto(out, written, plaintext, keys.subarray(at, at + P256_POINT_LENGTH), keys.subarray(at + P256_POINT_LENGTH, at + KEYS_LENGTH));
        written += lengths[i];
      } catch (err) {
        // Unusable keys or plaintext refuse this one message; anything else is a bug.
        if (!(err instanceof Rfc8291Error)) throw err;
      }
    }
    return written;
  };
}

/**
 * The engine ENCRYPTION_ENGINE asks for: `auto` takes the addon when it loads, else JavaScript
 * (and says why); `native` insists on the addon (throws when it cannot load); `javascript` never
 * loads it.
 * @param {EngineChoice} choice
 * @param {URL} [url]
 * @returns {{ engine: EngineName, reason?: string }}
 */
export function resolveEngine(choice, url = ADDON_URL) {
  if (choice === 'javascript') return { engine: 'javascript', reason: 'ENCRYPTION_ENGINE=javascript' };
  try {
    loadNative(url);
    return { engine: 'native' };
  } catch (err) {
    const reason = /** @type {Error} */ (err).message;
    if (choice === 'native') throw new Error(`ENCRYPTION_ENGINE=native, but the addon cannot be used: ${reason}`);
    return { engine: 'javascript', reason };
  }
}

/**
 * A thread's encryptChunk for the engine the pool chose.
 * @param {EngineName} engine
 * @param {URL} [url]
 * @returns {EncryptChunk}
 */
export function openEngine(engine, url = ADDON_URL) {
  return engine === 'native' ? loadNative(url) : javascriptEncryptChunk();
}

/** Bytes the bodies of a chunk take at most. @param {number} count @param {Uint8Array} plaintexts @param {Uint32Array | null} plaintextLengths */
export function chunkCapacity(count, plaintexts, plaintextLengths) {
  if (!plaintextLengths) return count * encryptedLength(plaintexts.length);
  let capacity = 0;
  for (let i = 0; i < count; i += 1) capacity += encryptedLength(plaintextLengths[i]);
  return capacity;
}
