#include "text/unicode_text.hpp"

#include <cstdint>

namespace opbase::ai {

namespace {

bool continues_sequence(unsigned char byte) { return (byte & 0xC0) == 0x80; }

// The code point starting at `text[at]` (valid UTF-8), and its length in bytes.
char32_t decode_at(std::string_view text, size_t at, size_t* length) {
  const auto lead = static_cast<unsigned char>(text[at]);
  size_t size = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
  if (at + size > text.size()) size = 1;
  char32_t point = size == 1   ? lead
                   : size == 2 ? lead & 0x1F
                   : size == 3 ? lead & 0x0F
                               : lead & 0x07;
  for (size_t i = 1; i < size; ++i) {
    point = (point << 6) | (static_cast<unsigned char>(text[at + i]) & 0x3F);
  }
  *length = size;
  return point;
}

bool is_space(char32_t point) {
  if (point <= 0x20) return true;  // ASCII controls and the space
  switch (point) {
    case 0x7F:
    case 0x85:
    case 0xA0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000:
    case 0xFEFF:
      return true;
    default:
      return point >= 0x2000 && point <= 0x200A;
  }
}

}  // namespace

size_t code_points(std::string_view text) {
  size_t count = 0;
  for (const char byte : text) {
    if (!continues_sequence(static_cast<unsigned char>(byte))) ++count;
  }
  return count;
}

bool is_blank(std::string_view text) {
  size_t at = 0;
  while (at < text.size()) {
    size_t length = 1;
    if (!is_space(decode_at(text, at, &length))) return false;
    at += length;
  }
  return true;
}

}  // namespace opbase::ai
