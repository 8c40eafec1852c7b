#include "text/words.hpp"

namespace opbase::ai {

namespace {

bool in(char32_t point, char32_t first, char32_t last) { return point >= first && point <= last; }

bool is_ascii_digit(char32_t point) { return in(point, '0', '9'); }

bool is_apostrophe(char32_t point) { return point == '\'' || point == 0x2019; }

// Non-ASCII code points that are not letters or digits: punctuation, symbols, emoji, private use
// and the odd full stops of other scripts. What is left over is taken as a letter.
bool is_non_ascii_separator(char32_t point) {
  if (point < 0xC0) return point != 0xAA && point != 0xB5 && point != 0xBA;  // ª µ º are letters
  if (point == 0xD7 || point == 0xF7) return true;                           // × ÷
  if (point < 0x0589) return false;
  switch (point) {
    case 0x0589:  // Armenian full stop
    case 0x060C:  // Arabic comma
    case 0x061F:  // Arabic question mark
    case 0x06D4:  // Arabic full stop
    case 0x0964:  // Devanagari danda
    case 0x0965:
    case 0x1680:  // Ogham space
    case 0xFEFF:  // byte order mark
      return true;
    default:
      break;
  }
  return in(point, 0x2000, 0x2BFF) ||    // punctuation, symbols, arrows, shapes, dingbats
         in(point, 0x2E00, 0x2E7F) ||    // supplemental punctuation
         in(point, 0x3000, 0x303F) ||    // CJK symbols and punctuation
         in(point, 0xD800, 0xF8FF) ||    // surrogates, private use
         in(point, 0xFE00, 0xFE6F) ||    // variation selectors, vertical and small forms
         in(point, 0xFF00, 0xFF0F) ||    // fullwidth punctuation...
         in(point, 0xFF1A, 0xFF20) ||    //
         in(point, 0xFF3B, 0xFF40) ||    //
         in(point, 0xFF5B, 0xFF65) ||    // ...and halfwidth CJK punctuation
         in(point, 0xFFF0, 0xFFFF) ||    // specials, the replacement character
         in(point, 0x1F000, 0x1FAFF) ||  // emoji and pictographs
         point >= 0xE0000;               // tags, private use
}

bool is_latin_extended_a_upper(char32_t point) {
  if (in(point, 0x0100, 0x0137) || in(point, 0x014A, 0x0177)) return point % 2 == 0;
  if (in(point, 0x0139, 0x0148) || in(point, 0x0179, 0x017E)) return point % 2 == 1;
  return point == 0x0178;  // Ÿ
}

// Appends the code point at `text[at]` (`length` bytes), lowercased when it is ASCII.
void append_folded(std::string_view text, size_t at, size_t length, std::string* out) {
  const char byte = text[at];
  if (length == 1 && byte >= 'A' && byte <= 'Z') {
    out->push_back(static_cast<char>(byte - 'A' + 'a'));
  } else {
    out->append(text.substr(at, length));
  }
}

}  // namespace

bool is_word_char(char32_t point) {
  if (point < 0x80) {
    return is_ascii_digit(point) || in(point, 'a', 'z') || in(point, 'A', 'Z');
  }
  return !is_non_ascii_separator(point);
}

bool is_ideograph(char32_t point) {
  return in(point, 0x3040, 0x30FF) ||  // hiragana, katakana
         in(point, 0x3400, 0x4DBF) ||  // CJK extension A
         in(point, 0x4E00, 0x9FFF) ||  // CJK unified ideographs
         in(point, 0xF900, 0xFAFF) ||  // CJK compatibility ideographs
         in(point, 0x20000, 0x2FFFF);  // CJK extensions B and later
}

bool is_upper(char32_t point) {
  if (point < 0x80) return in(point, 'A', 'Z');
  if (point < 0x100) return in(point, 0xC0, 0xDE) && point != 0xD7;
  if (point < 0x180) return is_latin_extended_a_upper(point);
  if (in(point, 0x0386, 0x03AB)) return point != 0x0387 && point != 0x0390 && point != 0x03A2;
  return in(point, 0x0400, 0x042F);  // Cyrillic
}

bool is_lower(char32_t point) {
  if (point < 0x80) return in(point, 'a', 'z');
  if (point < 0x100) return in(point, 0xDF, 0xFF) && point != 0xF7;
  if (point < 0x180) return !is_latin_extended_a_upper(point);
  if (point == 0x0390 || in(point, 0x03AC, 0x03CE)) return true;  // Greek
  return in(point, 0x0430, 0x045F);                               // Cyrillic
}

bool WordReader::next(Word* word) {
  word->text.clear();
  size_t length = 1;
  char32_t point = 0;
  while (at_ < text_.size()) {
    point = decode_utf8(text_, at_, &length);
    if (is_word_char(point)) break;
    at_ += length;
  }
  if (at_ >= text_.size()) return false;
  word->begin = at_;
  append_folded(text_, at_, length, &word->text);
  at_ += length;
  if (!is_ideograph(point)) {
    char32_t last = point;  // the last code point taken into the word
    while (at_ < text_.size()) {
      point = decode_utf8(text_, at_, &length);
      if (is_ideograph(point)) break;
      if (!is_word_char(point)) {
        // An apostrophe between letters, or a decimal point or thousands comma between digits.
        size_t next_length = 1;
        const bool has_next = at_ + length < text_.size();
        const char32_t next = has_next ? decode_utf8(text_, at_ + length, &next_length) : 0;
        const bool joins_letters = is_apostrophe(point) && !is_ascii_digit(last) &&
                                   is_word_char(next) && !is_ascii_digit(next) &&
                                   !is_ideograph(next);
        const bool joins_digits =
            (point == '.' || point == ',') && is_ascii_digit(last) && is_ascii_digit(next);
        if (!joins_letters && !joins_digits) break;
        word->text.push_back(joins_letters ? '\'' : static_cast<char>(point));
        at_ += length;
        point = next;
        length = next_length;
      }
      append_folded(text_, at_, length, &word->text);
      at_ += length;
      last = point;
    }
  }
  word->end = at_;
  return true;
}

std::vector<Word> split_words(std::string_view text) {
  std::vector<Word> words;
  WordReader reader(text);
  Word word;
  while (reader.next(&word)) words.push_back(word);
  return words;
}

size_t count_words(std::string_view text) {
  size_t count = 0;
  WordReader reader(text);
  Word word;
  while (reader.next(&word)) ++count;
  return count;
}

}  // namespace opbase::ai
