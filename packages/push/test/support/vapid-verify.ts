// What a push service checks in `Authorization: vapid t=…, k=…` (RFC 8292).
import { createPublicKey, verify } from 'node:crypto';

export interface VapidClaims {
  aud: string;
  exp: number;
  sub: string;
}

export function verifyVapidHeader(authorization: string, expectedPublicKey: string): VapidClaims {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization);
  if (!match) throw new Error(`not a vapid Authorization header: ${authorization.slice(0, 40)}`);
  const [, jwt, k] = match;
  if (k !== expectedPublicKey) throw new Error('k is not the expected public key');
  const [h, p, s] = jwt.split('.');
  const header = JSON.parse(Buffer.from(h, 'base64url').toString());
  if (header.alg !== 'ES256' || header.typ !== 'JWT') throw new Error(`unexpected JWT header ${JSON.stringify(header)}`);
  const raw = Buffer.from(k, 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const ok = verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'));
  if (!ok) throw new Error('ES256 signature does not verify');
  return JSON.parse(Buffer.from(p, 'base64url').toString()) as VapidClaims;
}
