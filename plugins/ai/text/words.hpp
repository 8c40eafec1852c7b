// Words: how the AI parts cut text into words, and the character classes that go with it.
//
// A word is a run of letters and digits. ASCII letters are lowercased; other letters are kept as
// they are (no Unicode case folding without ICU). An apostrophe (' or U+2019) between two letters
// stays inside the word and reads as ' ("don’t" is "don't"); a '.' or ',' between two digits
// stays inside a number ("3.5", "1,000"). Han ideographs and Japanese kana are one word each,
// since those scripts put no spaces between words. Everything else separates words: spaces,
// punctuation, symbols, emoji.
//
// Text is UTF-8; invalid bytes never cause a read past the end (a bad lead byte is one character).
// Thread-safety: pure functions; a WordReader is used by one thread at a time.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "text/unicode_text.hpp"

namespace opbase::ai {

// One word: its folded text and where it came from (byte offsets [begin, end) of the input).
struct Word {
  std::string text;
  size_t begin = 0;
  size_t end = 0;
};

// Reads the words of a text one at a time, reusing one Word's buffer (no allocation per word
// once the buffer has grown). The text must outlive the reader.
class WordReader {
 public:
  explicit WordReader(std::string_view text) : text_(text) {}
  // Fills `word` with the next word; false at the end of the text.
  bool next(Word* word);

 private:
  std::string_view text_;
  size_t at_ = 0;
};

// All the words of a text, in order.
std::vector<Word> split_words(std::string_view text);

// How many words a text has, by the rules above (the unit of ai.summarize's content_length).
size_t count_words(std::string_view text);

// Character classes shared by the text helpers.

// A letter or digit of any script, by exclusion: ASCII letters and digits, and every non-ASCII
// code point outside the punctuation, symbol, emoji and private-use blocks.
bool is_word_char(char32_t point);

// Han ideographs and kana: each one is a word by itself.
bool is_ideograph(char32_t point);

// Letter case for ASCII, Latin-1, Latin Extended-A, Greek and Cyrillic; false for the rest.
bool is_upper(char32_t point);
bool is_lower(char32_t point);

}  // namespace opbase::ai
