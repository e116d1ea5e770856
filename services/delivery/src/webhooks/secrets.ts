// Signing secrets of webhook endpoints: `whsec_` and 32 random bytes (base64url), shown to the
// customer once and kept only sealed, exactly as a VAPID private key is (sites/vapid-keys.ts:
// AES-256-GCM under VAPID_ENCRYPTION_KEY, naming the key; previous keys still open it), bound to
// the endpoint by the associated data so a sealed secret copied to another row does not open.
import { randomBytes } from 'node:crypto';
import { encryptVapidPrivateKey, openVapidPrivateKey, keyRing, type VapidEncryptionKeys } from '../sites/vapid-keys.js';

const PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

function boundTo(endpointId: string): string {
  return `webhook:${endpointId}`;
}

export function sealWebhookSecret(secret: string, endpointId: string, keys: Buffer | VapidEncryptionKeys): Buffer {
  return encryptVapidPrivateKey(secret.slice(PREFIX.length), boundTo(endpointId), keyRing(keys).current);
}

export function openWebhookSecret(sealed: Buffer, endpointId: string, keys: Buffer | VapidEncryptionKeys): string {
  return PREFIX + openVapidPrivateKey(sealed, boundTo(endpointId), keys).privateKey;
}
