// AES-256-GCM through OpenSSL's EVP interface (see sealed_box.hpp).
#include "sealed_box.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <array>
#include <memory>
#include <stdexcept>

#include "opbase/base64.hpp"
#include "random_text.hpp"

namespace opbase::auth {
namespace {

constexpr size_t kNonceBytes = 12;
constexpr size_t kTagBytes = 16;
constexpr std::string_view kKeyLabel = "opbase sealed box v1";

using Key = std::array<unsigned char, 32>;
using CipherContext = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

// Wipes the key when it goes out of scope.
struct KeyHolder {
  Key bytes{};
  ~KeyHolder() { OPENSSL_cleanse(bytes.data(), bytes.size()); }
};

void derive_key(std::string_view secret, Key& key) {
  unsigned int length = 0;
  if (HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
           reinterpret_cast<const unsigned char*>(kKeyLabel.data()), kKeyLabel.size(), key.data(),
           &length) == nullptr ||
      length != key.size()) {
    throw std::runtime_error("HMAC-SHA256 failed");
  }
}

CipherContext new_context() {
  CipherContext context(EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free);
  if (!context) throw std::runtime_error("no cipher context");
  return context;
}

const unsigned char* bytes_of(std::string_view text) {
  return reinterpret_cast<const unsigned char*>(text.data());
}

}  // namespace

std::string seal(std::string_view secret, std::string_view plaintext) {
  KeyHolder key;
  derive_key(secret, key.bytes);
  const std::string nonce = random_bytes(kNonceBytes);
  std::string out = nonce;
  out.resize(kNonceBytes + plaintext.size() + kTagBytes);
  auto* cipher = reinterpret_cast<unsigned char*>(out.data()) + kNonceBytes;
  CipherContext context = new_context();
  int written = 0;
  int last = 0;
  if (EVP_EncryptInit_ex(context.get(), EVP_aes_256_gcm(), nullptr, key.bytes.data(),
                         bytes_of(nonce)) != 1 ||
      EVP_EncryptUpdate(context.get(), cipher, &written, bytes_of(plaintext),
                        static_cast<int>(plaintext.size())) != 1 ||
      EVP_EncryptFinal_ex(context.get(), cipher + written, &last) != 1 ||
      EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_GET_TAG, kTagBytes,
                          cipher + plaintext.size()) != 1) {
    throw std::runtime_error("AES-256-GCM sealing failed");
  }
  return base64url_encode(out);
}

std::optional<std::string> open_sealed(std::string_view secret, std::string_view box) {
  const std::optional<std::string> raw = base64url_decode(box);
  if (!raw || raw->size() < kNonceBytes + kTagBytes) return std::nullopt;
  const std::string_view all(*raw);
  const std::string_view nonce = all.substr(0, kNonceBytes);
  const std::string_view cipher = all.substr(kNonceBytes, all.size() - kNonceBytes - kTagBytes);
  std::string tag(all.substr(all.size() - kTagBytes));
  KeyHolder key;
  derive_key(secret, key.bytes);
  std::string plain(cipher.size(), '\0');
  CipherContext context = new_context();
  int written = 0;
  int last = 0;
  const bool opened =
      EVP_DecryptInit_ex(context.get(), EVP_aes_256_gcm(), nullptr, key.bytes.data(),
                         bytes_of(nonce)) == 1 &&
      EVP_DecryptUpdate(context.get(), reinterpret_cast<unsigned char*>(plain.data()), &written,
                        bytes_of(cipher), static_cast<int>(cipher.size())) == 1 &&
      EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_SET_TAG, kTagBytes, tag.data()) == 1 &&
      EVP_DecryptFinal_ex(context.get(), reinterpret_cast<unsigned char*>(plain.data()) + written,
                          &last) == 1;
  if (!opened) return std::nullopt;
  return plain;
}

}  // namespace opbase::auth
