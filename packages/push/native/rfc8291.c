// Message Encryption for Web Push (RFC 8291, aes128gcm per RFC 8188) for one chunk at a time, as
// a Node-API addon over the OpenSSL that Node itself carries (its symbols resolve against the
// node binary at load time: nothing is linked here). The same bytes as rfc8291.js, which stays
// the fallback when this file is not built; the encryption tests run both.
//
// Why native: through node:crypto one message costs a key generation, an ECDH that also
// re-checks our own fresh key pair, and OpenSSL 3's provider layer around each; about 140 µs
// against 42 µs for the P-256 derivation itself (`openssl speed ecdhp256`). Here the key pair
// is one fixed-base multiplication, the secret one variable-base multiplication of a peer point
// decoded (and checked to lie on the curve) by EC_POINT_oct2point, the HMACs plain SHA-256 and
// AES-128-GCM one reused cipher context. A new key pair and salt per message stay (RFC 8291
// §3.1, RFC 8188 §2.1).
//
// Built by scripts/build.mjs (its native step, NATIVE_ADDONS) into
// dist/packages/push/native/rfc8291.node; loaded by packages/push/src/encryption/engine.js.
#define NAPI_VERSION 8
#define OPENSSL_SUPPRESS_DEPRECATED
#include <node_api.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POINT_LEN 65
#define AUTH_LEN 16
#define KEYS_LEN (POINT_LEN + AUTH_LEN)
#define SALT_LEN 16
#define TAG_LEN 16
#define RECORD_SIZE 4096
#define HEADER_LEN (SALT_LEN + 4 + 1 + POINT_LEN)
#define OVERHEAD (HEADER_LEN + 1 + TAG_LEN)
#define MAX_PLAINTEXT (RECORD_SIZE - OVERHEAD)
#define SALTS_PER_FILL 256

static const char KEY_INFO_PREFIX[] = "WebPush: info";       // + NUL, written below
static const char CEK_INFO[] = "Content-Encoding: aes128gcm"; // + NUL, 0x01
static const char NONCE_INFO[] = "Content-Encoding: nonce";   // + NUL, 0x01

// One per thread (Node-API instance data: each worker thread is its own environment), so
// nothing here is ever shared between threads.
typedef struct {
  EC_GROUP *group;
  BN_CTX *bn;
  BIGNUM *order, *priv, *x;
  EC_POINT *pub, *peer, *shared;
  EVP_CIPHER *gcm;
  EVP_CIPHER_CTX *cipher;
  unsigned char salts[SALTS_PER_FILL * SALT_LEN];
  size_t salt_at;
} Ctx;

static void ctx_free(Ctx *c) {
  if (!c) return;
  EC_POINT_free(c->pub);
  EC_POINT_free(c->peer);
  EC_POINT_free(c->shared);
  BN_free(c->order);
  BN_clear_free(c->priv);
  BN_clear_free(c->x);
  BN_CTX_free(c->bn);
  EC_GROUP_free(c->group);
  EVP_CIPHER_CTX_free(c->cipher);
  EVP_CIPHER_free(c->gcm);
  OPENSSL_cleanse(c->salts, sizeof c->salts);
  free(c);
}

static Ctx *ctx_new(void) {
  Ctx *c = calloc(1, sizeof(Ctx));
  if (!c) return NULL;
  c->group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
  c->bn = BN_CTX_new();
  c->order = BN_new();
  c->priv = BN_secure_new();
  c->x = BN_secure_new();
  if (!c->group || !c->bn || !c->order || !c->priv || !c->x) goto fail;
  c->pub = EC_POINT_new(c->group);
  c->peer = EC_POINT_new(c->group);
  c->shared = EC_POINT_new(c->group);
  c->gcm = EVP_CIPHER_fetch(NULL, "AES-128-GCM", NULL);
  c->cipher = EVP_CIPHER_CTX_new();
  if (!c->pub || !c->peer || !c->shared || !c->gcm || !c->cipher) goto fail;
  if (!EC_GROUP_get_order(c->group, c->order, c->bn)) goto fail;
  c->salt_at = sizeof c->salts;
  return c;
fail:
  ctx_free(c);
  return NULL;
}

// HMAC-SHA-256 (RFC 2104) for keys of at most one block, as every key here is.
static void hmac_sha256(const unsigned char *key, size_t key_len, const unsigned char *data, size_t data_len,
                        unsigned char out[32]) {
  unsigned char pad[64];
  SHA256_CTX sha;
  for (int i = 0; i < 64; i++) pad[i] = (unsigned char)((i < (int)key_len ? key[i] : 0) ^ 0x36);
  SHA256_Init(&sha);
  SHA256_Update(&sha, pad, 64);
  SHA256_Update(&sha, data, data_len);
  SHA256_Final(out, &sha);
  for (int i = 0; i < 64; i++) pad[i] ^= 0x36 ^ 0x5c;
  SHA256_Init(&sha);
  SHA256_Update(&sha, pad, 64);
  SHA256_Update(&sha, out, 32);
  SHA256_Final(out, &sha);
  OPENSSL_cleanse(pad, sizeof pad);
  OPENSSL_cleanse(&sha, sizeof sha);
}

enum { OK = 0, BAD_INPUT = 1, FAILED = 2 };

// Writes one message's body (HEADER_LEN + plaintext + 1 + TAG_LEN bytes) at out. BAD_INPUT when
// the subscription's keys are unusable or the plaintext too long (nothing written), FAILED when
// OpenSSL fails (a bug or out of memory).
static int encrypt_one(Ctx *c, unsigned char *out, const unsigned char *plaintext, size_t plaintext_len,
                       const unsigned char *p256dh, const unsigned char *auth) {
  if (plaintext_len > MAX_PLAINTEXT || p256dh[0] != 0x04) return BAD_INPUT;
  // The peer's point: decoding checks that it lies on P-256 (whose cofactor is 1, so that is
  // enough); the point at infinity has no 65-byte form.
  if (!EC_POINT_oct2point(c->group, c->peer, p256dh, POINT_LEN, c->bn)) {
    ERR_clear_error(); // a refused key is an answer, not an error to leave on this thread's queue
    return BAD_INPUT;
  }

  unsigned char sender[POINT_LEN], secret[32];
  do {
    if (!BN_priv_rand_range_ex(c->priv, c->order, 0, c->bn)) return FAILED;
  } while (BN_is_zero(c->priv));
  if (!EC_POINT_mul(c->group, c->pub, c->priv, NULL, NULL, c->bn)) return FAILED;
  if (EC_POINT_point2oct(c->group, c->pub, POINT_CONVERSION_UNCOMPRESSED, sender, POINT_LEN, c->bn) != POINT_LEN)
    return FAILED;
  if (!EC_POINT_mul(c->group, c->shared, NULL, c->peer, c->priv, c->bn)) return FAILED;
  if (!EC_POINT_get_affine_coordinates(c->group, c->shared, c->x, NULL, c->bn)) return FAILED;
  if (BN_bn2binpad(c->x, secret, 32) != 32) return FAILED;

  if (c->salt_at == sizeof c->salts) {
    if (RAND_bytes(c->salts, sizeof c->salts) != 1) return FAILED;
    c->salt_at = 0;
  }
  const unsigned char *salt = c->salts + c->salt_at;
  c->salt_at += SALT_LEN;

  // RFC 8291 §3.4 and RFC 8188 §2.2: HKDF-Extract, and Expand to at most 32 bytes, are one HMAC each.
  unsigned char key_info[sizeof KEY_INFO_PREFIX + 2 * POINT_LEN + 1];
  memcpy(key_info, KEY_INFO_PREFIX, sizeof KEY_INFO_PREFIX); // with its NUL
  memcpy(key_info + sizeof KEY_INFO_PREFIX, p256dh, POINT_LEN);
  memcpy(key_info + sizeof KEY_INFO_PREFIX + POINT_LEN, sender, POINT_LEN);
  key_info[sizeof key_info - 1] = 0x01;
  unsigned char cek_info[sizeof CEK_INFO + 1], nonce_info[sizeof NONCE_INFO + 1];
  memcpy(cek_info, CEK_INFO, sizeof CEK_INFO);
  cek_info[sizeof CEK_INFO] = 0x01;
  memcpy(nonce_info, NONCE_INFO, sizeof NONCE_INFO);
  nonce_info[sizeof NONCE_INFO] = 0x01;

  unsigned char prk_key[32], ikm[32], prk[32], cek[32], nonce[32];
  hmac_sha256(auth, AUTH_LEN, secret, 32, prk_key);
  hmac_sha256(prk_key, 32, key_info, sizeof key_info, ikm);
  hmac_sha256(salt, SALT_LEN, ikm, 32, prk);
  hmac_sha256(prk, 32, cek_info, sizeof cek_info, cek);
  hmac_sha256(prk, 32, nonce_info, sizeof nonce_info, nonce);
  OPENSSL_cleanse(secret, sizeof secret);
  OPENSSL_cleanse(prk_key, sizeof prk_key);
  OPENSSL_cleanse(ikm, sizeof ikm);
  OPENSSL_cleanse(prk, sizeof prk);

  // Header: salt | rs | idlen | keyid, then one record, the last: plaintext | 0x02, and the tag.
  memcpy(out, salt, SALT_LEN);
  out[16] = (RECORD_SIZE >> 24) & 0xff;
  out[17] = (RECORD_SIZE >> 16) & 0xff;
  out[18] = (RECORD_SIZE >> 8) & 0xff;
  out[19] = RECORD_SIZE & 0xff;
  out[20] = POINT_LEN;
  memcpy(out + 21, sender, POINT_LEN);
  unsigned char *body = out + HEADER_LEN;
  static const unsigned char delimiter = 0x02;
  int n = 0, m = 0, f = 0;
  int ok = EVP_EncryptInit_ex2(c->cipher, c->gcm, cek, nonce, NULL) == 1 &&
           EVP_EncryptUpdate(c->cipher, body, &n, plaintext, (int)plaintext_len) == 1 &&
           EVP_EncryptUpdate(c->cipher, body + n, &m, &delimiter, 1) == 1 &&
           EVP_EncryptFinal_ex(c->cipher, body + n + m, &f) == 1 &&
           (size_t)(n + m + f) == plaintext_len + 1 &&
           EVP_CIPHER_CTX_ctrl(c->cipher, EVP_CTRL_AEAD_GET_TAG, TAG_LEN, body + plaintext_len + 1) == 1;
  OPENSSL_cleanse(cek, sizeof cek);
  return ok ? OK : FAILED;
}

static napi_value throw_error(napi_env env, const char *message) {
  napi_throw_error(env, "ERR_RFC8291_NATIVE", message);
  return NULL;
}

// Bytes of a Uint8Array or Uint32Array argument (Buffers are Uint8Arrays); NULL when it is not one
// of the expected type.
static void *typed_bytes(napi_env env, napi_value value, napi_typedarray_type want, size_t *length) {
  bool is_typed = false;
  if (napi_is_typedarray(env, value, &is_typed) != napi_ok || !is_typed) return NULL;
  napi_typedarray_type type;
  void *data = NULL;
  if (napi_get_typedarray_info(env, value, &type, length, &data, NULL, NULL) != napi_ok || type != want) return NULL;
  return data ? data : (void *)"";
}

// encryptChunk(out, keys, plaintexts, plaintextLengths | null, count, lengths) → bytes written.
// keys: count × (p256dh 65 | auth 16). plaintexts: one plaintext for every message when
// plaintextLengths is null, else the messages' plaintexts one after the other. Each body is
// written after the previous one; lengths[i] is its length, 0 when its keys or plaintext were
// refused. Throws (writing nothing more) when the arrays are inconsistent or OpenSSL fails.
static napi_value encrypt_chunk(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != 6)
    return throw_error(env, "encryptChunk takes 6 arguments");
  Ctx *c = NULL;
  if (napi_get_instance_data(env, (void **)&c) != napi_ok || !c) return throw_error(env, "encryptChunk: not initialised");

  size_t out_len, keys_len, plain_len, own_count = 0, lengths_count;
  unsigned char *out = typed_bytes(env, argv[0], napi_uint8_array, &out_len);
  const unsigned char *keys = typed_bytes(env, argv[1], napi_uint8_array, &keys_len);
  const unsigned char *plaintexts = typed_bytes(env, argv[2], napi_uint8_array, &plain_len);
  napi_valuetype own_type;
  napi_typeof(env, argv[3], &own_type);
  const uint32_t *own = own_type == napi_null ? NULL : typed_bytes(env, argv[3], napi_uint32_array, &own_count);
  uint32_t count = 0;
  uint32_t *lengths = typed_bytes(env, argv[5], napi_uint32_array, &lengths_count);
  if (!out || !keys || !plaintexts || (own_type != napi_null && !own) || !lengths ||
      napi_get_value_uint32(env, argv[4], &count) != napi_ok)
    return throw_error(env, "encryptChunk: an argument has the wrong type");
  if ((size_t)count * KEYS_LEN > keys_len || lengths_count < count || (own && own_count < count))
    return throw_error(env, "encryptChunk: fewer keys, lengths or plaintext lengths than messages");

  size_t written = 0, read = 0;
  for (uint32_t i = 0; i < count; i++) {
    size_t length = own ? own[i] : plain_len;
    if (own && length > plain_len - read) return throw_error(env, "encryptChunk: plaintext lengths exceed the plaintexts");
    const unsigned char *plaintext = own ? plaintexts + read : plaintexts;
    read += own ? length : 0;
    lengths[i] = 0;
    size_t body = length + OVERHEAD;
    if (length > MAX_PLAINTEXT) continue;
    if (body > out_len - written) return throw_error(env, "encryptChunk: output too small");
    const unsigned char *k = keys + (size_t)i * KEYS_LEN;
    int result = encrypt_one(c, out + written, plaintext, length, k, k + POINT_LEN);
    if (result == FAILED) {
      unsigned long code = ERR_get_error();
      char reason[256];
      ERR_error_string_n(code, reason, sizeof reason);
      ERR_clear_error();
      char message[320];
      snprintf(message, sizeof message, "encryptChunk: OpenSSL failed: %s", code ? reason : "no reason given");
      return throw_error(env, message);
    }
    if (result == OK) {
      lengths[i] = (uint32_t)body;
      written += body;
    }
  }
  napi_value result;
  napi_create_double(env, (double)written, &result);
  return result;
}

static void finalize_ctx(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  ctx_free(data);
}

NAPI_MODULE_INIT() {
  Ctx *c = ctx_new();
  if (!c) {
    throw_error(env, "rfc8291 native: OpenSSL set-up failed");
    return NULL;
  }
  if (napi_set_instance_data(env, c, finalize_ctx, NULL) != napi_ok) {
    ctx_free(c);
    throw_error(env, "rfc8291 native: cannot keep its state");
    return NULL;
  }
  napi_value fn;
  if (napi_create_function(env, "encryptChunk", NAPI_AUTO_LENGTH, encrypt_chunk, NULL, &fn) != napi_ok ||
      napi_set_named_property(env, exports, "encryptChunk", fn) != napi_ok)
    return NULL;
  return exports;
}
