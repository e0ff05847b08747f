// The part of OpenSSL's libcrypto this package uses: the EVP digest interface (SHA-256), and a
// SHA-256 whose state can be saved (sha256_state.h), for downloads that resume after a restart.
// The EVP calls are used elsewhere rather than SHA256_Init and friends, which OpenSSL 3 deprecates.
#include <openssl/evp.h>
#include "sha256_state.h"
