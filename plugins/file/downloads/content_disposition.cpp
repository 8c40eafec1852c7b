#include "downloads/content_disposition.hpp"

#include <algorithm>
#include <array>

#include "downloads/media_type.hpp"

namespace opbase::file {
namespace {

// The quoted filename: ASCII for clients that do not read filename*. Each non-ASCII character
// becomes one '_' (its UTF-8 continuation bytes are dropped); '"' and '\' would end or escape
// the quoted-string; '%' because some browsers percent-decode this parameter; controls because
// nothing may break the header.
std::string ascii_fallback(std::string_view name) {
  std::string out;
  for (const char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x80) {
      if ((byte & 0xC0) != 0x80) out += '_';
    } else if (byte < 0x20 || byte == 0x7F || c == '"' || c == '\\' || c == '%') {
      out += '_';
    } else {
      out += c;
    }
  }
  return out;
}

// RFC 8187 attr-char: what a filename* value may hold unencoded.
bool is_attr_char(char c) {
  static constexpr std::string_view kMarks = "!#$&+-.^_`|~";
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         kMarks.find(c) != std::string_view::npos;
}

// Every other byte as %XX, uppercase as in RFC 8187's examples.
std::string percent_encoded(std::string_view name) {
  static constexpr std::array<char, 16> kHex = {'0', '1', '2', '3', '4', '5', '6', '7',
                                                '8', '9', 'A', 'B', 'C', 'D', 'E', 'F'};
  std::string out;
  for (const char c : name) {
    if (is_attr_char(c)) {
      out += c;
    } else {
      const auto byte = static_cast<unsigned char>(c);
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 0x0F];
    }
  }
  return out;
}

}  // namespace

bool safe_inline(std::string_view content_type) {
  static constexpr std::array<std::string_view, 7> kShown = {
      "image/png",  "image/jpeg", "image/gif",      "image/webp",
      "image/avif", "text/plain", "application/pdf"};
  const std::string essence = media_type_essence(content_type);
  return std::find(kShown.begin(), kShown.end(), essence) != kShown.end() ||
         has_media_type(essence, "audio") || has_media_type(essence, "video");
}

std::string content_disposition(std::string_view name, std::string_view content_type) {
  std::string value = safe_inline(content_type) ? "inline" : "attachment";
  value += "; filename=\"" + ascii_fallback(name) + "\"";
  value += "; filename*=UTF-8''" + percent_encoded(name);
  return value;
}

}  // namespace opbase::file
