// Authenticate: the gateway sends the SHA-256 (lowercase hex) of the raw key.
import type { Pool } from '@webpush/shared/db.js';
import { findActiveKeyOwner, type KeyOwner } from './auth-store.js';
import { UnauthenticatedError } from '../base/errors.js';

const SHA256_HEX = /^[0-9a-f]{64}$/;

export function authenticateUseCase(deps: { pool: Pool }) {
  return async function authenticate(keyHash: string): Promise<KeyOwner> {
    if (!SHA256_HEX.test(keyHash)) throw new UnauthenticatedError();
    const owner = await findActiveKeyOwner(deps.pool, keyHash);
    if (!owner) throw new UnauthenticatedError();
    return owner;
  };
}
