// Words: the text cut into words for the name finders (people, places, organisations). A word
// is a run of letters and digits, with inner hyphens, apostrophes and ampersands ("Coca-Cola",
// "O'Brien", "AT&T"); a possessive "'s" is left outside; dotted abbreviations ("U.S.", "U.K.")
// are one word with their last dot. Each word knows its case, whether a full stop follows it,
// whether it starts a sentence, and whether it joins the word before it on the same line.
//
// Thread-safety: pure function; the result is a plain value.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace opbase::ai::extract {

struct Word {
  size_t begin = 0;          // bytes
  size_t end = 0;            // bytes, exclusive; a dotted abbreviation's last dot is inside
  std::string key;           // fold_key of the word; letters only for dotted abbreviations ("us")
  bool capitalized = false;  // starts with an upper-case letter
  bool all_caps = false;     // two or more letters, none lower case
  bool dotted = false;       // "U.S.", "e.g."
  bool has_digit = false;
  bool period_after = false;  // a '.' right after the word
  bool sentence_start = false;
  // Only blanks on one line since the previous word (its trailing '.' aside): the two may belong
  // to one name.
  bool joined = false;
};

std::vector<Word> split_words(std::string_view text);

// Abbreviations whose '.' does not end a sentence ("Dr.", "Inc.", "Mar."), by key.
bool is_abbreviation(std::string_view key);

}  // namespace opbase::ai::extract
