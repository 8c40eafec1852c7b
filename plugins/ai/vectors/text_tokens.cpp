#include "vectors/text_tokens.hpp"

#include <cstdint>

namespace opbase::ai {

namespace {

// U+00C0..U+00FF folded to lowercase ASCII; nullptr for × and ÷ (separators).
constexpr const char* kLatin1Letters[32] = {
    "a", "a", "a", "a", "a", "a", "ae", "c",     "e", "e", "e", "e", "i", "i", "i",  "i",
    "d", "n", "o", "o", "o", "o", "o",  nullptr, "o", "u", "u", "u", "u", "y", "th", "ss"};

// The code point at text[*at] (advancing *at), or -1 for a byte that is not valid UTF-8 there
// (advancing one byte).
int32_t decode(std::string_view text, size_t* at) {
  const auto lead = static_cast<unsigned char>(text[*at]);
  if (lead < 0x80) {
    ++*at;
    return lead;
  }
  const size_t size = lead >= 0xC2 && lead <= 0xDF   ? 2
                      : lead >= 0xE0 && lead <= 0xEF ? 3
                      : lead >= 0xF0 && lead <= 0xF4 ? 4
                                                     : 0;
  if (size == 0 || *at + size > text.size()) {
    ++*at;
    return -1;
  }
  int32_t point = lead & (0x7F >> size);
  for (size_t i = 1; i < size; ++i) {
    const auto next = static_cast<unsigned char>(text[*at + i]);
    if ((next & 0xC0) != 0x80) {
      ++*at;
      return -1;
    }
    point = (point << 6) | (next & 0x3F);
  }
  *at += size;
  return point;
}

bool is_connector(int32_t point, char* as) {
  if (point == '\'' || point == 0x2019) {
    *as = '\'';
    return true;
  }
  if (point == '-' || point == 0x2010) {
    *as = '-';
    return true;
  }
  return false;
}

// Appends the token form of a word character to `token`; false for a separator.
bool append_word_char(int32_t point, std::string_view bytes, std::string* token) {
  if (point < 0) {
    token->append(bytes);  // an invalid byte, kept
    return true;
  }
  if (point < 0x80) {
    const char c = static_cast<char>(point);
    if (c >= 'a' && c <= 'z') {
      token->push_back(c);
    } else if (c >= 'A' && c <= 'Z') {
      token->push_back(static_cast<char>(c - 'A' + 'a'));
    } else if (c >= '0' && c <= '9') {
      token->push_back(c);
    } else {
      return false;
    }
    return true;
  }
  if (point < 0xC0) return false;  // Latin-1 controls, punctuation and signs
  if (point < 0x100) {
    const char* folded = kLatin1Letters[(point - 0xC0) & 0x1F];
    if (point == 0xFF) folded = "y";
    if (folded == nullptr) return false;
    token->append(folded);
    return true;
  }
  const bool punctuation =
      (point >= 0x2000 && point <= 0x206F) || (point >= 0x3000 && point <= 0x303F) ||
      (point >= 0xFF01 && point <= 0xFF0F) || (point >= 0xFF1A && point <= 0xFF20);
  if (punctuation) return false;
  token->append(bytes);
  return true;
}

}  // namespace

std::vector<std::string> text_tokens(std::string_view text) {
  std::vector<std::string> tokens;
  std::string token;
  char pending = 0;  // a connector seen after `token`, kept if a word character follows
  size_t at = 0;
  while (at < text.size()) {
    const size_t start = at;
    const int32_t point = decode(text, &at);
    const std::string_view bytes = text.substr(start, at - start);
    char connector = 0;
    if (is_connector(point, &connector)) {
      if (pending != 0 || token.empty()) {
        if (!token.empty()) tokens.push_back(std::move(token));
        token.clear();
        pending = 0;
      } else {
        pending = connector;
      }
      continue;
    }
    const size_t before = token.size();
    if (pending != 0) token.push_back(pending);
    if (append_word_char(point, bytes, &token)) {
      pending = 0;
      continue;
    }
    token.resize(before);
    if (!token.empty()) tokens.push_back(std::move(token));
    token.clear();
    pending = 0;
  }
  if (!token.empty()) tokens.push_back(std::move(token));
  return tokens;
}

}  // namespace opbase::ai
