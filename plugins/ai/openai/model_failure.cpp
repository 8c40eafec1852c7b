#include "openai/model_failure.hpp"

#include <algorithm>

namespace opbase::ai {
namespace {

constexpr size_t kMinSecretPiece = 8;
constexpr std::string_view kRedacted = "[redacted]";

// The length of the valid UTF-8 sequence starting at text[i], or 0 when it is not one.
size_t sequence_length(std::string_view text, size_t i) {
  const auto b = static_cast<unsigned char>(text[i]);
  size_t length = 0;
  if (b < 0x80) return 1;
  if (b >= 0xC2 && b <= 0xDF) length = 2;
  if (b >= 0xE0 && b <= 0xEF) length = 3;
  if (b >= 0xF0 && b <= 0xF4) length = 4;
  if (length == 0 || i + length > text.size()) return 0;
  for (size_t k = 1; k < length; ++k) {
    if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return 0;
  }
  const auto second = static_cast<unsigned char>(text[i + 1]);
  if (b == 0xE0 && second < 0xA0) return 0;  // overlong
  if (b == 0xED && second > 0x9F) return 0;  // a surrogate
  if (b == 0xF0 && second < 0x90) return 0;  // overlong
  if (b == 0xF4 && second > 0x8F) return 0;  // past U+10FFFF
  return length;
}

// The longest piece of `secret` (at least kMinSecretPiece long) that `text` holds at `at`.
size_t secret_piece_at(std::string_view text, size_t at, std::string_view secret) {
  size_t best = 0;
  for (size_t start = 0; start < secret.size(); ++start) {
    size_t n = 0;
    while (at + n < text.size() && start + n < secret.size() && text[at + n] == secret[start + n]) {
      ++n;
    }
    best = std::max(best, n);
  }
  return best >= std::min(kMinSecretPiece, secret.size()) ? best : 0;
}

}  // namespace

Status model_failure(std::string_view error_type, bool retry_recommended, std::string message) {
  return Status(code::kProcessingFailed, std::move(message),
                nlohmann::json{{"error_type", std::string(error_type)},
                               {"retry_recommended", retry_recommended}});
}

Status bad_answer(std::string message) {
  return model_failure(model_error::kBadAnswer, true, std::move(message));
}

std::string redact_secret(std::string_view text, std::string_view secret) {
  if (secret.empty()) return std::string(text);
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    const size_t piece = secret_piece_at(text, i, secret);
    if (piece > 0) {
      out += kRedacted;
      i += piece;
    } else {
      out += text[i++];
    }
  }
  return out;
}

std::string shorten(std::string_view text, size_t max_bytes) {
  // A text that is cut keeps room for the "..." that says so.
  const size_t budget =
      text.size() <= max_bytes ? max_bytes : max_bytes - std::min<size_t>(3, max_bytes);
  std::string out;
  out.reserve(std::min(text.size(), max_bytes));
  size_t i = 0;
  while (i < text.size()) {
    const size_t length = sequence_length(text, i);
    if (out.size() + std::max<size_t>(length, 1) > budget) {
      out += "...";
      break;
    }
    if (length == 0) {
      out += '?';
      ++i;
    } else {
      out.append(text.substr(i, length));
      i += length;
    }
  }
  return out;
}

std::string quote_server_text(std::string_view text, std::string_view secret, size_t max_bytes) {
  // Cut first (a long error page costs nothing then), with room so that a key the first cut
  // broke is still whole enough to be found; then cut to size.
  const std::string first = shorten(text, 2 * max_bytes + secret.size());
  return shorten(redact_secret(first, secret), max_bytes);
}

}  // namespace opbase::ai
