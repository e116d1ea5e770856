// Payload encryption for Web Push (RFC 8291, aes128gcm, one 4096-byte record), delegated to
// web-push. Measured: about three quarters of its CPU time is the P-256 ECDH (key generation + shared secret)
// inside OpenSSL, so a hand-written RFC 8291 would gain little; see bench-encrypt.ts.
import webpush from 'web-push';

export function encryptPayload(payload: Buffer | string, p256dh: string, auth: string): Buffer {
  return webpush.encrypt(p256dh, auth, payload, 'aes128gcm').cipherText;
}
