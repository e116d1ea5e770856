// Console passwords: Node's scrypt (docs/console.md), N = 2^15, r = 8, p = 1, a 16-byte salt and
// a 64-byte key, stored with their parameters as `$scrypt$ln=15,r=8,p=1$<salt>$<key>` (base64 without
// padding), so the parameters can be raised later: a hash made with others still verifies, and
// needsRehash() says when it should be replaced at the next successful login.
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export interface ScryptParams {
  /** log2 of N, the CPU and memory cost. */
  ln: number;
  r: number;
  p: number;
}

export const CURRENT_PARAMS: Readonly<ScryptParams> = Object.freeze({ ln: 15, r: 8, p: 1 });
const SALT_BYTES = 16;
const KEY_BYTES = 64;
// Parameters a stored hash may name: anything outside is not one of ours, and must not make one
// verification cost the whole process (2^20 × r 16 would be 2 GiB).
const MAX_LN = 20;
const MAX_R = 16;
const MAX_P = 4;

const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d)\$([A-Za-z0-9+/]{16,64})\$([A-Za-z0-9+/]{16,128})$/;

function scrypt(password: string, salt: Buffer, keyLength: number, params: ScryptParams): Promise<Buffer> {
  const N = 2 ** params.ln;
  // scrypt needs 128·N·r bytes; Node refuses more than maxmem (32 MiB by default, exactly what
  // N = 2^15, r = 8 takes, so the default would refuse our own parameters).
  const options: ScryptOptions = { N, r: params.r, p: params.p, maxmem: 128 * N * params.r * 2 };
  return new Promise((resolve, reject) => scryptCallback(password.normalize('NFC'), salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key))));
}

const b64 = (buf: Buffer) => buf.toString('base64').replace(/=+$/, '');

export async function hashPassword(password: string, params: ScryptParams = CURRENT_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await scrypt(password, salt, KEY_BYTES, params);
  return `$scrypt$ln=${params.ln},r=${params.r},p=${params.p}$${b64(salt)}$${b64(key)}`;
}

interface Parsed extends ScryptParams {
  salt: Buffer;
  key: Buffer;
}

function parse(stored: string): Parsed | null {
  const m = PHC.exec(stored);
  if (!m) return null;
  const [ln, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (ln < 1 || ln > MAX_LN || r < 1 || r > MAX_R || p < 1 || p > MAX_P) return null;
  return { ln, r, p, salt: Buffer.from(m[4], 'base64'), key: Buffer.from(m[5], 'base64') };
}

/** True when `password` is the one `stored` was made from; compared in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const key = await scrypt(password, parsed.salt, parsed.key.length, parsed);
  return timingSafeEqual(key, parsed.key);
}

/** True when `stored` was made with weaker parameters than today's. */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.ln < CURRENT_PARAMS.ln || parsed.r < CURRENT_PARAMS.r || parsed.p < CURRENT_PARAMS.p || parsed.key.length < KEY_BYTES;
}

/**
 * A verifier that costs what a real one costs for an email that is no account: the answer and
 * its time must not tell which emails exist. The dummy hash is made once, by warm() (the service
 * calls it at start, so even the first unknown email costs one verification, not a hash and a
 * verification) or at the first need.
 */
export function createDummyVerifier(): { verify(password: string): Promise<false>; warm(): void } {
  let dummy: Promise<string> | undefined;
  const warm = () => {
    if (dummy) return;
    dummy = hashPassword(randomBytes(16).toString('base64'));
    dummy.catch(() => (dummy = undefined)); // made again at the next need
  };
  return {
    warm,
    async verify(password) {
      warm();
      await verifyPassword(password, await dummy!);
      return false;
    },
  };
}
