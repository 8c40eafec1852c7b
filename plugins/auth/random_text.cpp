#include "random_text.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <array>
#include <stdexcept>

#include "opbase/base64.hpp"
#include "opbase/hex.hpp"

namespace opbase::auth {
namespace {

std::string hex(const unsigned char* bytes, size_t n) {
  return hex_encode(std::string_view(reinterpret_cast<const char*>(bytes), n));
}

}  // namespace

std::string random_bytes(size_t n) {
  std::string bytes(n, '\0');
  if (n > 0 &&
      RAND_bytes(reinterpret_cast<unsigned char*>(bytes.data()), static_cast<int>(n)) != 1) {
    throw std::runtime_error("the random generator failed");
  }
  return bytes;
}

std::string random_base64url(size_t bytes) { return base64url_encode(random_bytes(bytes)); }

std::string random_hex_id() {
  const std::string raw = random_bytes(16);
  return hex(reinterpret_cast<const unsigned char*>(raw.data()), raw.size());
}

std::string random_digits(size_t digits) {
  std::string out;
  while (out.size() < digits) {
    // 250 is the largest multiple of 10 below 256: bytes from 250 up are drawn again.
    for (unsigned char b : random_bytes(digits)) {
      if (b < 250 && out.size() < digits) out += static_cast<char>('0' + b % 10);
    }
  }
  return out;
}

std::string sha256_hex(std::string_view text) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  if (EVP_Digest(text.data(), text.size(), digest.data(), &length, EVP_sha256(), nullptr) != 1) {
    throw std::runtime_error("SHA-256 failed");
  }
  return hex(digest.data(), length);
}

std::string hmac_sha256_hex(std::string_view key, std::string_view text) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> mac{};
  unsigned int length = 0;
  if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
           reinterpret_cast<const unsigned char*>(text.data()), text.size(), mac.data(),
           &length) == nullptr) {
    throw std::runtime_error("HMAC-SHA256 failed");
  }
  return hex(mac.data(), length);
}

bool constant_time_equal(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace opbase::auth
