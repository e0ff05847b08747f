// The part of OpenSSL's libssl and libcrypto the TLS module uses.
// Several OpenSSL calls are macros, which Swift cannot import; the inline functions below
// give them a name Swift can call, and nothing more.
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/pem.h>
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/bn.h>
#include <openssl/rand.h>

static inline long copenssl_set_min_version(SSL_CTX *context, int version) {
    return SSL_CTX_set_min_proto_version(context, version);
}

static inline long copenssl_set_max_version(SSL_CTX *context, int version) {
    return SSL_CTX_set_max_proto_version(context, version);
}

static inline long copenssl_set_host_name(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name);
}

static inline long copenssl_set_session_cache_client(SSL_CTX *context) {
    return SSL_CTX_set_session_cache_mode(context, SSL_SESS_CACHE_CLIENT);
}

static inline long copenssl_ktls_send_enabled(SSL *ssl) {
    return BIO_get_ktls_send(SSL_get_wbio(ssl));
}

static inline long copenssl_set_modes(SSL_CTX *context) {
    return SSL_CTX_set_mode(context, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
}

/// Servers that answer with `Connection: close` often close without a TLS close_notify; the HTTP
/// layer above checks lengths, so an unannounced end is reported as an ordinary end of stream.
static inline void copenssl_ignore_unexpected_eof(SSL_CTX *context) {
    SSL_CTX_set_options(context, SSL_OP_IGNORE_UNEXPECTED_EOF);
}

static inline EVP_PKEY *copenssl_generate_p256_key(void) {
    return EVP_EC_gen("P-256");
}

static inline void copenssl_set_read_ahead(SSL_CTX *context) {
    SSL_CTX_set_read_ahead(context, 1);
}
