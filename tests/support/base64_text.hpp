// base64_text: standard base64 (with padding) of bytes, by OpenSSL, for tests that build what a
// client would send (a captcha payload, a webhook secret) without the code under test.
#pragma once

#include <openssl/evp.h>

#include <string>

namespace opbase::test {

inline std::string base64_text(const std::string& bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(bytes.data()),
                                static_cast<int>(bytes.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

}  // namespace opbase::test
