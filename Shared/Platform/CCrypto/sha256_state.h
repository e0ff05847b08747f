// A SHA-256 whose state can be saved and restored, for downloads that resume after a restart.
//
// libcrypto's EVP contexts are opaque and have no call to export their state, so this uses the
// plain SHA256_CTX, deprecated since OpenSSL 3.0 but still built, and still running the same
// assembly (SHA-NI where the CPU has it). The deprecation warnings are silenced here only: Swift
// calls the functions below, never the deprecated ones.
#ifndef CCRYPTO_SHA256_STATE_H
#define CCRYPTO_SHA256_STATE_H

#include <openssl/sha.h>
#include <stdint.h>
#include <string.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/// The version of the exported layout; an import of another version is refused.
#define CCRYPTO_SHA256_STATE_VERSION 1u
/// An exported state: "S256", the version and the context's size (both 32-bit little-endian),
/// then the context's bytes as this build of libcrypto lays them out.
#define CCRYPTO_SHA256_STATE_HEADER 12u

static inline size_t ccrypto_sha256_state_size(void) {
    return CCRYPTO_SHA256_STATE_HEADER + sizeof(SHA256_CTX);
}

static inline void ccrypto_sha256_init(SHA256_CTX *context) {
    SHA256_Init(context);
}

static inline void ccrypto_sha256_update(SHA256_CTX *context, const void *bytes, size_t count) {
    SHA256_Update(context, bytes, count);
}

/// Writes the 32 bytes of the digest; the context must be initialised again before more use.
static inline void ccrypto_sha256_final(SHA256_CTX *context, unsigned char *digest) {
    SHA256_Final(digest, context);
}

/// The number of bytes digested so far.
static inline uint64_t ccrypto_sha256_byte_count(const SHA256_CTX *context) {
    return (((uint64_t)context->Nh << 32) | (uint64_t)context->Nl) >> 3;
}

static inline void ccrypto_put_u32(unsigned char *out, uint32_t value) {
    for (int index = 0; index < 4; index++) out[index] = (unsigned char)(value >> (8 * index));
}

static inline uint32_t ccrypto_get_u32(const unsigned char *in) {
    return (uint32_t)in[0] | (uint32_t)in[1] << 8 | (uint32_t)in[2] << 16 | (uint32_t)in[3] << 24;
}

/// Writes the state into `out`, which holds ccrypto_sha256_state_size() bytes.
static inline void ccrypto_sha256_export(const SHA256_CTX *context, unsigned char *out) {
    memcpy(out, "S256", 4);
    ccrypto_put_u32(out + 4, CCRYPTO_SHA256_STATE_VERSION);
    ccrypto_put_u32(out + 8, (uint32_t)sizeof(SHA256_CTX));
    memcpy(out + CCRYPTO_SHA256_STATE_HEADER, context, sizeof(SHA256_CTX));
}

/// Restores a state written by ccrypto_sha256_export. Returns 1, or 0 (and leaves `context` as it
/// was) for anything else: another length, tag, version or context size (another build of
/// libcrypto), or a context no digest could be in (a partial block that does not match the count).
static inline int ccrypto_sha256_import(SHA256_CTX *context, const unsigned char *state, size_t length) {
    if (length != ccrypto_sha256_state_size() || memcmp(state, "S256", 4) != 0
        || ccrypto_get_u32(state + 4) != CCRYPTO_SHA256_STATE_VERSION
        || ccrypto_get_u32(state + 8) != (uint32_t)sizeof(SHA256_CTX)) return 0;
    SHA256_CTX candidate;
    memcpy(&candidate, state + CCRYPTO_SHA256_STATE_HEADER, sizeof(SHA256_CTX));
    if (candidate.md_len != SHA256_DIGEST_LENGTH || candidate.num >= SHA256_CBLOCK
        || ((candidate.Nl >> 3) & (SHA256_CBLOCK - 1)) != candidate.num) return 0;
    *context = candidate;
    return 1;
}

#pragma GCC diagnostic pop

#endif
