// sha256_hex: the SHA-256 of a text as 64 lowercase hex digits, for tests that solve captcha
// challenges as a client does.
#pragma once

#include <openssl/sha.h>

#include <string>

namespace opbase::test {

inline std::string sha256_hex(const std::string& text) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest);
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  for (unsigned char byte : digest) {
    hex.push_back(kDigits[byte >> 4]);
    hex.push_back(kDigits[byte & 15]);
  }
  return hex;
}

}  // namespace opbase::test
