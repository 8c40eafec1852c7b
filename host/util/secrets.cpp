#include "util/secrets.hpp"

#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <memory>
#include <stdexcept>
#include <vector>

#include "opbase/hex.hpp"

namespace opbase::host {

std::string random_hex(size_t bytes) {
  std::vector<unsigned char> raw(bytes);
  if (RAND_bytes(raw.data(), static_cast<int>(raw.size())) != 1) {
    throw std::runtime_error("the system random number generator failed");
  }
  return hex_encode(std::string_view(reinterpret_cast<const char*>(raw.data()), raw.size()));
}

std::string sha256(std::string_view text) {
  // OpenSSL 3's one-shot SHA256() fetches the algorithm from the provider store on every call
  // (EVP_Q_digest -> EVP_MD_fetch: a property query under a lock) and allocates a context. Every
  // API call hashes its key: fetch once, and keep one context per thread.
  static EVP_MD* const md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  thread_local const std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(),
                                                                            &EVP_MD_CTX_free);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (md == nullptr || ctx == nullptr || EVP_DigestInit_ex2(ctx.get(), md, nullptr) != 1 ||
      EVP_DigestUpdate(ctx.get(), text.data(), text.size()) != 1 ||
      EVP_DigestFinal_ex(ctx.get(), digest, &length) != 1) {
    throw std::runtime_error("SHA-256 is not available from OpenSSL");
  }
  return std::string(reinterpret_cast<const char*>(digest), length);
}

}  // namespace opbase::host
