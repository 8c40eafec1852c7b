// AES-256-GCM through OpenSSL's EVP interface (see sessions/sealed_box.hpp).
#include "sessions/sealed_box.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <memory>
#include <stdexcept>

#include "opbase/base64.hpp"
#include "opbase/crypto.hpp"

namespace opbase::auth {
namespace {

constexpr size_t kNonceBytes = 12;
constexpr size_t kTagBytes = 16;
constexpr std::string_view kKeyLabel = "opbase sealed box v1";

using CipherContext = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

// The AES key derived from `secret` (32 bytes), wiped when it goes out of scope.
struct KeyHolder {
  explicit KeyHolder(std::string_view secret) : bytes(hmac_sha256(secret, kKeyLabel)) {}
  ~KeyHolder() { OPENSSL_cleanse(bytes.data(), bytes.size()); }
  KeyHolder(const KeyHolder&) = delete;
  KeyHolder& operator=(const KeyHolder&) = delete;
  const unsigned char* aes_key() const {
    return reinterpret_cast<const unsigned char*>(bytes.data());
  }

  std::string bytes;
};

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
  const KeyHolder key(secret);
  const std::string nonce = random_bytes(kNonceBytes);
  std::string out = nonce;
  out.resize(kNonceBytes + plaintext.size() + kTagBytes);
  auto* cipher = reinterpret_cast<unsigned char*>(out.data()) + kNonceBytes;
  CipherContext context = new_context();
  int written = 0;
  int last = 0;
  if (EVP_EncryptInit_ex(context.get(), EVP_aes_256_gcm(), nullptr, key.aes_key(),
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
  const KeyHolder key(secret);
  std::string plain(cipher.size(), '\0');
  CipherContext context = new_context();
  int written = 0;
  int last = 0;
  const bool opened =
      EVP_DecryptInit_ex(context.get(), EVP_aes_256_gcm(), nullptr, key.aes_key(),
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
