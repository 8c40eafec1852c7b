#include "endpoints/webhook_signature.hpp"

#include "opbase/base64.hpp"
#include "opbase/crypto.hpp"

namespace opbase::webhooks {
std::optional<std::string> secret_key_bytes(std::string_view secret) {
  if (secret.substr(0, kSecretPrefix.size()) != kSecretPrefix) return std::nullopt;
  auto key = base64_decode(secret.substr(kSecretPrefix.size()));
  if (!key || key->size() < kMinKeyBytes || key->size() > kMaxKeyBytes) return std::nullopt;
  return key;
}

std::string new_secret() {
  return std::string(kSecretPrefix) + base64_encode(random_bytes(kNewKeyBytes));
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
