// Secrets: random tokens from the OS CSPRNG and SHA-256 digests of secrets kept at rest (compare
// digests with CRYPTO_memcmp, whose time does not depend on where they differ). Thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace opbase::host {

// `bytes` random bytes from OpenSSL's CSPRNG, as lowercase hex (2 * bytes characters).
std::string random_hex(size_t bytes);
// SHA-256 of `text`, as 32 raw bytes.
std::string sha256(std::string_view text);

}  // namespace opbase::host
