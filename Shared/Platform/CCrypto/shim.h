// The part of OpenSSL's libcrypto this package uses: the EVP digest interface (SHA-256).
// The EVP calls are used rather than SHA256_Init and friends, which OpenSSL 3 deprecates.
#include <openssl/evp.h>
