#include "extract/utf8.hpp"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>

#include "text/unicode_text.hpp"

namespace opbase::ai::extract {

namespace {

bool continues(unsigned char byte) { return (byte & 0xC0) == 0x80; }

// The base letter of an accented Latin letter (é -> e), from its canonical decomposition; other
// code points are returned as they are. ß and a few ligature-like letters have no
// decomposition and stay.
char32_t strip_accent(char32_t point) {
  if (point < 0xC0 || point > 0x24F) return point;
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfd = icu::Normalizer2::getNFDInstance(status);
  if (U_FAILURE(status)) return point;
  icu::UnicodeString decomposition;
  if (!nfd->getDecomposition(static_cast<UChar32>(point), decomposition)) return point;
  const UChar32 base = decomposition.char32At(0);
  return base < 0x80 ? static_cast<char32_t>(base) : point;
}

}  // namespace

Decoded decode_at(std::string_view text, size_t at) {
  size_t length = 1;
  const char32_t point = decode_utf8(text, at, &length);
  return {point, length};
}

Decoded decode_before(std::string_view text, size_t end) {
  size_t begin = end - 1;
  while (begin > 0 && end - begin < 4 && continues(static_cast<unsigned char>(text[begin]))) {
    --begin;
  }
  const Decoded decoded = decode_at(text, begin);
  if (begin + decoded.size != end) return {static_cast<unsigned char>(text[end - 1]), 1};
  return decoded;
}

bool is_letter(char32_t point) {
  if (point < 0x80) return (point | 0x20) >= 'a' && (point | 0x20) <= 'z';
  return u_isalpha(static_cast<UChar32>(point));
}

bool is_upper(char32_t point) {
  if (point < 0x80) return point >= 'A' && point <= 'Z';
  return u_isupper(static_cast<UChar32>(point)) || u_istitle(static_cast<UChar32>(point));
}

bool is_digit(char32_t point) { return point >= '0' && point <= '9'; }

bool is_space(char32_t point) {
  if (point < 0x80) return point == ' ' || (point >= 0x09 && point <= 0x0D);
  return u_isUWhiteSpace(static_cast<UChar32>(point));
}

std::string fold_key(std::string_view word) {
  std::string key;
  key.reserve(word.size());
  for (size_t at = 0; at < word.size();) {
    const Decoded decoded = decode_at(word, at);
    at += decoded.size;
    if (decoded.point < 0x80) {
      char c = static_cast<char>(decoded.point);
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      if (c == '\'') continue;  // O'Brien and OBrien meet
      key.push_back(c);
      continue;
    }
    if (decoded.point == 0x2019) continue;  // the typographic apostrophe
    const auto lower = static_cast<char32_t>(u_tolower(static_cast<UChar32>(decoded.point)));
    append_utf8(strip_accent(lower), &key);
  }
  return key;
}

std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

CodePointOffsets::CodePointOffsets(std::string_view text) {
  prefix_.resize(text.size() + 1);
  size_t count = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    prefix_[i] = count;
    if (!continues(static_cast<unsigned char>(text[i]))) ++count;
  }
  prefix_[text.size()] = count;
}

}  // namespace opbase::ai::extract
