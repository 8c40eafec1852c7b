// SHA-256, HMAC-SHA256, randomness and comparison on OpenSSL (see crypto.hpp).
#include "opbase/crypto.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <limits>
#include <stdexcept>

#include "opbase/hex.hpp"

namespace opbase {
namespace {

constexpr size_t kSha256Bytes = 32;

unsigned char* bytes_of(std::string& text) { return reinterpret_cast<unsigned char*>(text.data()); }

// OpenSSL reads a null pointer otherwise than an empty buffer (HMAC() takes a null key for "keep
// the previous one"), and an empty string_view may hold one: empty text still gets a pointer.
const unsigned char* bytes_of(std::string_view text) {
  static constexpr char kEmpty[1] = {};
  return reinterpret_cast<const unsigned char*>(text.empty() ? kEmpty : text.data());
}

// OpenSSL 3 looks EVP_sha256() up in its provider store (a property query under a lock) each
// time a digest starts with it; the host hashes the API key of every call. Fetched once.
const EVP_MD* sha256_algorithm() {
  static EVP_MD* const md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  if (md == nullptr) throw std::runtime_error("SHA-256 is not available from OpenSSL");
  return md;
}

std::string finish_digest(EVP_MD_CTX* context) {
  std::string digest(kSha256Bytes, '\0');
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(context, bytes_of(digest), &length) != 1 || length != kSha256Bytes) {
    throw std::runtime_error("SHA-256 failed");
  }
  return digest;
}

}  // namespace

std::string sha256(std::string_view data) {
  // One context per thread, reused: a one-shot digest would allocate one each call.
  thread_local const std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> context(EVP_MD_CTX_new(),
                                                                                &EVP_MD_CTX_free);
  if (context == nullptr || EVP_DigestInit_ex2(context.get(), sha256_algorithm(), nullptr) != 1 ||
      EVP_DigestUpdate(context.get(), data.data(), data.size()) != 1) {
    throw std::runtime_error("SHA-256 failed");
  }
  return finish_digest(context.get());
}

std::string sha256_hex(std::string_view data) { return hex_encode(sha256(data)); }

void Sha256::ContextFree::operator()(evp_md_ctx_st* context) const { EVP_MD_CTX_free(context); }

Sha256::Sha256() : context_(EVP_MD_CTX_new()) {
  if (context_ == nullptr || EVP_DigestInit_ex2(context_.get(), sha256_algorithm(), nullptr) != 1) {
    throw std::runtime_error("SHA-256 did not start");
  }
}

void Sha256::add(std::string_view bytes) {
  if (EVP_DigestUpdate(context_.get(), bytes.data(), bytes.size()) != 1) {
    throw std::runtime_error("SHA-256 failed");
  }
}

std::string Sha256::finish() { return finish_digest(context_.get()); }

std::string hmac_sha256(std::string_view key, std::string_view data) {
  std::string mac(kSha256Bytes, '\0');
  unsigned int length = 0;
  if (HMAC(EVP_sha256(), bytes_of(key), static_cast<int>(key.size()), bytes_of(data), data.size(),
           bytes_of(mac), &length) == nullptr ||
      length != kSha256Bytes) {
    throw std::runtime_error("HMAC-SHA256 failed");
  }
  return mac;
}

std::string hmac_sha256_hex(std::string_view key, std::string_view data) {
  return hex_encode(hmac_sha256(key, data));
}

std::string random_bytes(size_t n) {
  if (n > static_cast<size_t>(std::numeric_limits<int>::max())) {
    throw std::invalid_argument("random_bytes: too many bytes at once");
  }
  std::string bytes(n, '\0');
  if (n > 0 && RAND_bytes(bytes_of(bytes), static_cast<int>(n)) != 1) {
    throw std::runtime_error("the random generator failed");
  }
  return bytes;
}

std::string random_hex(size_t n) { return hex_encode(random_bytes(n)); }

uint64_t random_below(uint64_t bound) {
  if (bound == 0) throw std::invalid_argument("random_below: the bound must be above 0");
  // 2^64 mod bound: that many of the largest values would make the lowest remainders likelier.
  const uint64_t surplus = (std::numeric_limits<uint64_t>::max() % bound + 1) % bound;
  const uint64_t last_fair = std::numeric_limits<uint64_t>::max() - surplus;
  for (;;) {
    uint64_t value = 0;
    for (const char byte : random_bytes(sizeof value)) {
      value = value << 8 | static_cast<unsigned char>(byte);
    }
    if (value <= last_fair) return value % bound;
  }
}

bool constant_time_equal(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace opbase
