// Webhook signing as the Standard Webhooks convention has it (docs/api.md#signatures): secrets are
// "whsec_" + standard base64 of 24 to 64 random key bytes; a signature is "v1," + base64 of
// HMAC-SHA256 over the signed text, keyed with those bytes; the Webhook-Signature header holds
// one signature per key, separated by single spaces, so a secret can be rotated without downtime
// (the receiver accepts the request when any one of them verifies).
//
// The signed text is "<msg_id>.<timestamp>.<body>" by default, so the official verification
// libraries accept what we send; an endpoint may choose the spec's literal "<timestamp>.<body>"
// instead (signature_content = timestamp.body).
// Thread-safety: pure functions; safe from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace opbase::webhooks {

inline constexpr std::string_view kSecretPrefix = "whsec_";
// The convention's bounds on the key: at least 192 bits, at most 512.
inline constexpr size_t kMinKeyBytes = 24;
inline constexpr size_t kMaxKeyBytes = 64;
// What new_secret draws.
inline constexpr size_t kNewKeyBytes = 32;

// The key bytes of "whsec_<base64>", or nullopt when the prefix is missing, the rest is not
// canonical padded standard base64 (RFC 4648 section 4: [A-Za-z0-9+/], a length that is a
// multiple of 4, '=' only as the final padding, zero unused bits), or the key has fewer than
// kMinKeyBytes or more than kMaxKeyBytes bytes.
std::optional<std::string> secret_key_bytes(std::string_view secret);

// "whsec_" + base64 of kNewKeyBytes bytes from OpenSSL's CSPRNG. Throws std::runtime_error when
// the generator fails (the SDK turns that into INTERNAL_ERROR): no caller can go on without it.
std::string new_secret();

// What the signature covers. The names are the endpoint's `signature_content` config strings.
enum class SignatureContent {
  kIdTimestampBody,  // "id.timestamp.body": "<msg_id>.<timestamp>.<body>" (Standard Webhooks)
  kTimestampBody,    // "timestamp.body": "<timestamp>.<body>" (the spec's literal text)
};
inline constexpr SignatureContent kDefaultSignatureContent = SignatureContent::kIdTimestampBody;

// The content for a config string, or nullopt for any other text (exact, case-sensitive).
std::optional<SignatureContent> parse_signature_content(std::string_view name);
std::string_view signature_content_name(SignatureContent content);

// The text that is signed; `msg_id` is left out for kTimestampBody.
std::string signed_text(SignatureContent content, std::string_view msg_id, int64_t timestamp_s,
                        std::string_view body);

// "v1,<base64 of HMAC-SHA256(key_bytes, signed_text(...))>". Throws std::runtime_error when
// OpenSSL's HMAC fails.
std::string signature(std::string_view key_bytes, SignatureContent content, std::string_view msg_id,
                      int64_t timestamp_s, std::string_view body);

// The Webhook-Signature header value: signature() for each key, in the order given, joined by
// single spaces (the current key and, while a rotation lasts, the previous one). Empty for no
// keys.
std::string signature_header(const std::vector<std::string>& key_bytes_list,
                             SignatureContent content, std::string_view msg_id, int64_t timestamp_s,
                             std::string_view body);

}  // namespace opbase::webhooks
