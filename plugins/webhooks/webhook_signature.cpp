// Standard base64 with padding (RFC 4648 section 4) is written here rather than shared with the
// auth plugin's base64url: a different alphabet and padding rules, and the plugins stay apart.
#include "webhook_signature.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <array>
#include <stdexcept>

namespace opbase::webhooks {
namespace {

constexpr std::string_view kAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr int8_t kInvalid = -1;

constexpr std::array<int8_t, 256> make_decode_table() {
  std::array<int8_t, 256> table{};
  table.fill(kInvalid);
  for (size_t i = 0; i < kAlphabet.size(); ++i) {
    table[static_cast<unsigned char>(kAlphabet[i])] = static_cast<int8_t>(i);
  }
  return table;
}
constexpr std::array<int8_t, 256> kDecode = make_decode_table();

uint32_t byte_at(std::string_view bytes, size_t i) {
  return i < bytes.size() ? static_cast<unsigned char>(bytes[i]) : 0;
}

std::string base64_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (size_t i = 0; i < bytes.size(); i += 3) {
    const uint32_t n = byte_at(bytes, i) << 16 | byte_at(bytes, i + 1) << 8 | byte_at(bytes, i + 2);
    const size_t present = bytes.size() - i;  // 1, 2, or 3 and more
    out += kAlphabet[n >> 18 & 63];
    out += kAlphabet[n >> 12 & 63];
    out += present > 1 ? kAlphabet[n >> 6 & 63] : '=';
    out += present > 2 ? kAlphabet[n & 63] : '=';
  }
  return out;
}

// Strict: one spelling per byte string, so a secret cannot be written two ways that both work
// (nor with stray characters a lenient decoder would skip).
std::optional<std::string> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  size_t padding = 0;
  while (padding < 2 && padding < text.size() && text[text.size() - 1 - padding] == '=') {
    ++padding;
  }
  const std::string_view data = text.substr(0, text.size() - padding);
  std::string out;
  out.reserve(data.size() * 3 / 4);
  uint32_t acc = 0;
  int bits = 0;
  for (const char c : data) {
    const int8_t v = kDecode[static_cast<unsigned char>(c)];
    if (v == kInvalid) return std::nullopt;  // '=' included: padding only at the end
    acc = (acc << 6 | static_cast<uint32_t>(v)) & 0xFFFFFF;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>(acc >> bits & 0xFF);
    }
  }
  // The 2 or 4 bits left over after the last byte must be zero (RFC 4648 section 3.5).
  if ((acc & ((1u << bits) - 1)) != 0) return std::nullopt;
  return out;
}

std::string hmac_sha256(std::string_view key, std::string_view text) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> mac{};
  unsigned int length = 0;
  // An empty key must still be a pointer: HMAC() reads a null key as "keep the previous one".
  static constexpr char kEmpty[1] = {};
  if (HMAC(EVP_sha256(), key.empty() ? kEmpty : key.data(), static_cast<int>(key.size()),
           reinterpret_cast<const unsigned char*>(text.data()), text.size(), mac.data(),
           &length) == nullptr) {
    throw std::runtime_error("HMAC-SHA256 failed");
  }
  return std::string(reinterpret_cast<const char*>(mac.data()), length);
}

}  // namespace

std::optional<std::string> secret_key_bytes(std::string_view secret) {
  if (secret.substr(0, kSecretPrefix.size()) != kSecretPrefix) return std::nullopt;
  auto key = base64_decode(secret.substr(kSecretPrefix.size()));
  if (!key || key->size() < kMinKeyBytes || key->size() > kMaxKeyBytes) return std::nullopt;
  return key;
}

std::string new_secret() {
  std::string key(kNewKeyBytes, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(key.data()), static_cast<int>(key.size())) != 1) {
    throw std::runtime_error("the random generator failed");
  }
  return std::string(kSecretPrefix) + base64_encode(key);
}

std::optional<SignatureContent> parse_signature_content(std::string_view name) {
  for (SignatureContent content :
       {SignatureContent::kIdTimestampBody, SignatureContent::kTimestampBody}) {
    if (signature_content_name(content) == name) return content;
  }
  return std::nullopt;
}

std::string_view signature_content_name(SignatureContent content) {
  switch (content) {
    case SignatureContent::kIdTimestampBody:
      return "id.timestamp.body";
    case SignatureContent::kTimestampBody:
      return "timestamp.body";
  }
  return "id.timestamp.body";  // not reached: the switch names every value
}

std::string signed_text(SignatureContent content, std::string_view msg_id, int64_t timestamp_s,
                        std::string_view body) {
  const std::string timestamp = std::to_string(timestamp_s);
  std::string text;
  text.reserve(msg_id.size() + timestamp.size() + body.size() + 2);
  if (content == SignatureContent::kIdTimestampBody) {
    text += msg_id;
    text += '.';
  }
  text += timestamp;
  text += '.';
  text += body;
  return text;
}

std::string signature(std::string_view key_bytes, SignatureContent content, std::string_view msg_id,
                      int64_t timestamp_s, std::string_view body) {
  return "v1," +
         base64_encode(hmac_sha256(key_bytes, signed_text(content, msg_id, timestamp_s, body)));
}

std::string signature_header(const std::vector<std::string>& key_bytes_list,
                             SignatureContent content, std::string_view msg_id, int64_t timestamp_s,
                             std::string_view body) {
  // The text is the same for every key: built once.
  const std::string text = signed_text(content, msg_id, timestamp_s, body);
  std::string header;
  for (const std::string& key : key_bytes_list) {
    if (!header.empty()) header += ' ';
    header += "v1," + base64_encode(hmac_sha256(key, text));
  }
  return header;
}

}  // namespace opbase::webhooks
