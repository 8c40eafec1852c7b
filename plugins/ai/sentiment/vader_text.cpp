#include "sentiment/vader_text.hpp"

#include <array>
#include <cstring>

namespace opbase::ai {

namespace {

// The white space JavaScript's \s matches, which is where VADER splits: the ASCII spaces and
// controls \t \n \v \f \r, and Unicode's space characters. Returns its length in bytes, or 0.
size_t space_length(std::string_view text, size_t at) {
  const auto byte = static_cast<unsigned char>(text[at]);
  if (byte == ' ' || (byte >= 0x09 && byte <= 0x0D)) return 1;
  const auto next = [&](size_t i) {
    return at + i < text.size() ? static_cast<unsigned char>(text[at + i]) : 0;
  };
  if (byte == 0xC2 && next(1) == 0xA0) return 2;                     // U+00A0
  if (byte == 0xE1 && next(1) == 0x9A && next(2) == 0x80) return 3;  // U+1680
  if (byte == 0xE2 && next(1) == 0x80) {
    const unsigned char last = next(2);
    // U+2000..U+200A, U+2028, U+2029, U+202F
    if ((last >= 0x80 && last <= 0x8A) || last == 0xA8 || last == 0xA9 || last == 0xAF) return 3;
  }
  if (byte == 0xE2 && next(1) == 0x81 && next(2) == 0x9F) return 3;  // U+205F
  if (byte == 0xE3 && next(1) == 0x80 && next(2) == 0x80) return 3;  // U+3000
  if (byte == 0xEF && next(1) == 0xBB && next(2) == 0xBF) return 3;  // U+FEFF
  return 0;
}

// VADER measures lengths in UTF-16 code units (JavaScript's String.length): one per code point,
// two for those beyond U+FFFF (4-byte UTF-8 sequences).
bool longer_than_one_unit(std::string_view piece) {
  size_t units = 0;
  for (const char c : piece) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte & 0xC0) != 0x80) units += byte >= 0xF0 ? 2 : 1;
    if (units > 1) return true;
  }
  return false;
}

bool has_punctuation(std::string_view word) {
  for (const char c : word) {
    if (is_ascii_punctuation(c)) return true;
  }
  return false;
}

// VADER's PUNC_LIST: what it strips from either edge of a word.
constexpr std::array<std::string_view, 17> kEdgePunctuation = {
    ".",  "!",   "?",  ",",   ";",   ":",   "-",    "'",   "\"",
    "!!", "!!!", "??", "???", "?!?", "!?!", "?!?!", "!?!?"};

bool is_word_without_punctuation(std::string_view word) {
  return longer_than_one_unit(word) && !has_punctuation(word);
}

// The piece with one edge mark stripped, when VADER would strip it; else the piece.
std::string_view strip_edge(std::string_view piece) {
  for (const std::string_view mark : kEdgePunctuation) {
    if (piece.size() <= mark.size()) continue;
    if (piece.substr(0, mark.size()) == mark &&
        is_word_without_punctuation(piece.substr(mark.size()))) {
      return piece.substr(mark.size());
    }
    if (piece.substr(piece.size() - mark.size()) == mark &&
        is_word_without_punctuation(piece.substr(0, piece.size() - mark.size()))) {
      return piece.substr(0, piece.size() - mark.size());
    }
  }
  return piece;
}

std::vector<RawToken> split_at_spaces(std::string_view text) {
  std::vector<RawToken> tokens;
  size_t at = 0;
  size_t begin = 0;
  while (at < text.size()) {
    const size_t space = space_length(text, at);
    if (space == 0) {
      ++at;
      continue;
    }
    if (at > begin) tokens.push_back({begin, at});
    at += space;
    begin = at;
  }
  if (text.size() > begin) tokens.push_back({begin, text.size()});
  return tokens;
}

}  // namespace

bool is_ascii_punctuation(char c) {
  return c != '\0' && std::strchr("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) != nullptr;
}

std::string ascii_lower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return lower;
}

bool is_all_caps(std::string_view word) {
  bool capital = false;
  for (const char c : word) {
    if (c >= 'a' && c <= 'z') return false;
    if (c >= 'A' && c <= 'Z') capital = true;
  }
  return capital;
}

VaderText split_vader_text(std::string_view text) {
  VaderText split;
  split.raw = split_at_spaces(text);
  size_t all_caps = 0;
  for (size_t i = 0; i < split.raw.size(); ++i) {
    const std::string_view piece =
        text.substr(split.raw[i].begin, split.raw[i].end - split.raw[i].begin);
    if (!longer_than_one_unit(piece)) continue;
    const std::string_view word = strip_edge(piece);
    if (is_all_caps(word)) ++all_caps;
    split.words.push_back({word, ascii_lower(word), i});
  }
  split.cap_differential = all_caps > 0 && all_caps < split.words.size();
  return split;
}

}  // namespace opbase::ai
