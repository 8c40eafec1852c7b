// UTF-8 helpers for the entity scanners: decoding one code point, classifying it (through ICU,
// so accented and non-Latin letters count as letters), folding words into lookup keys, and
// turning byte offsets into the code point offsets the API reports.
//
// Thread-safety: pure functions; CodePointOffsets is immutable after construction.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace opbase::ai::extract {

struct Decoded {
  char32_t point = 0;
  size_t size = 1;  // bytes
};

// The code point starting at `text[at]`. Request texts are valid UTF-8; a broken sequence
// decodes as its first byte alone.
Decoded decode_at(std::string_view text, size_t at);

// The code point ending just before `text[end]`.
Decoded decode_before(std::string_view text, size_t end);

bool is_letter(char32_t point);
bool is_upper(char32_t point);  // upper or title case
bool is_digit(char32_t point);  // ASCII digits only: the scanners read numbers in ASCII
bool is_space(char32_t point);  // Unicode white space

// A word as a lookup key: lower case, Latin diacritics removed ("Zürich" -> "zurich"), so the
// text and the gazetteers meet whatever accents or capitals the writer used.
std::string fold_key(std::string_view word);

// ASCII lower case: for values such as e-mail addresses and host names.
std::string ascii_lower(std::string_view text);

// Byte offset -> code point offset, for one text.
class CodePointOffsets {
 public:
  explicit CodePointOffsets(std::string_view text);
  size_t at(size_t byte) const { return byte < prefix_.size() ? prefix_[byte] : prefix_.back(); }

 private:
  std::vector<size_t> prefix_;  // code points before each byte, plus one for the end
};

}  // namespace opbase::ai::extract
