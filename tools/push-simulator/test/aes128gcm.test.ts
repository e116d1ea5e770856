import { expect } from 'chai';
import { decryptAes128gcm, DecryptError } from '../src/index.js';

// RFC 8291 §5 / Appendix A.
const VECTOR = {
  plaintext: 'When I grow up, I want to be a watermelon',
  uaPublic: 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4',
  uaPrivate: 'q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94',
  authSecret: 'BTBZMqHH6r4Tts7J_aSIgg',
  body: 'DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN',
};

const keys = () => ({
  privateKey: Buffer.from(VECTOR.uaPrivate, 'base64url'),
  publicKey: Buffer.from(VECTOR.uaPublic, 'base64url'),
  authSecret: Buffer.from(VECTOR.authSecret, 'base64url'),
});

describe('push simulator: aes128gcm decryption (RFC 8291)', () => {
  it('decrypts the RFC 8291 test vector to its plaintext', () => {
    const plain = decryptAes128gcm(Buffer.from(VECTOR.body, 'base64url'), keys());
    expect(plain.toString('utf8')).to.equal(VECTOR.plaintext);
  });

  it('when one ciphertext byte is flipped, then decryption fails', () => {
    const body = Buffer.from(VECTOR.body, 'base64url');
    body[body.length - 20] ^= 0x01;
    expect(() => decryptAes128gcm(body, keys())).to.throw(DecryptError);
  });

  it('when the auth secret is wrong, then decryption fails', () => {
    const wrong = { ...keys(), authSecret: Buffer.alloc(16, 7) };
    expect(() => decryptAes128gcm(Buffer.from(VECTOR.body, 'base64url'), wrong)).to.throw(DecryptError);
  });

  it('when the header is truncated or the keyid is not a P-256 point, then decryption fails', () => {
    const body = Buffer.from(VECTOR.body, 'base64url');
    expect(() => decryptAes128gcm(body.subarray(0, 30), keys())).to.throw(DecryptError);
    const shortKeyId = Buffer.from(body);
    shortKeyId[20] = 32;
    expect(() => decryptAes128gcm(shortKeyId, keys())).to.throw(DecryptError, /65-byte/);
  });
});
