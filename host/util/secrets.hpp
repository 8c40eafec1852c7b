// Secrets: random tokens from the OS CSPRNG, SHA-256 digests of secrets kept at rest, and a
// comparison whose time does not depend on where two secrets differ. Thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace opbase::host {

// `bytes` random bytes from OpenSSL's CSPRNG, as lowercase hex (2 * bytes characters).
std::string random_hex(size_t bytes);
// SHA-256 of `text`, as 32 raw bytes.
std::string sha256(std::string_view text);
// True when a == b; takes the same time for every pair of inputs of the same lengths.
bool constant_time_equal(std::string_view a, std::string_view b);

}  // namespace opbase::host
