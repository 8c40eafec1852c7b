#include "text/unicode_text.hpp"

#include <cstdint>

namespace opbase::ai {

namespace {

bool continues_sequence(unsigned char byte) { return (byte & 0xC0) == 0x80; }

constexpr char32_t kReplacement = 0xFFFD;

}  // namespace

char32_t decode_utf8(std::string_view text, size_t at, size_t* length) {
  const auto lead = static_cast<unsigned char>(text[at]);
  *length = 1;
  if (lead < 0x80) return lead;
  size_t size = 0;
  char32_t point = 0;
  if (lead >= 0xC2 && lead < 0xE0) {
    size = 2;
    point = lead & 0x1F;
  } else if (lead >= 0xE0 && lead < 0xF0) {
    size = 3;
    point = lead & 0x0F;
  } else if (lead >= 0xF0 && lead < 0xF5) {
    size = 4;
    point = lead & 0x07;
  } else {
    return kReplacement;  // a continuation byte or an impossible lead byte
  }
  if (at + size > text.size()) return kReplacement;
  for (size_t i = 1; i < size; ++i) {
    const auto next = static_cast<unsigned char>(text[at + i]);
    if ((next & 0xC0) != 0x80) return kReplacement;
    point = (point << 6) | (next & 0x3F);
  }
  *length = size;
  return point;
}

void append_utf8(char32_t point, std::string* out) {
  if (point < 0x80) {
    out->push_back(static_cast<char>(point));
  } else if (point < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (point >> 6)));
    out->push_back(static_cast<char>(0x80 | (point & 0x3F)));
  } else if (point < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (point >> 12)));
    out->push_back(static_cast<char>(0x80 | ((point >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (point & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (point >> 18)));
    out->push_back(static_cast<char>(0x80 | ((point >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((point >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (point & 0x3F)));
  }
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
    if (!is_space(decode_utf8(text, at, &length))) return false;
    at += length;
  }
  return true;
}

}  // namespace opbase::ai
