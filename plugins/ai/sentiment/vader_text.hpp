// VaderText: a text split the way VADER splits it, kept with the byte places of every piece so
// that clauses and key phrases can be cut from the original text.
//
// VADER's rules (npm vader-sentiment 1.1.3, SentiText): split at every white-space character;
// drop pieces one character long ("I", "a", "-"); strip one punctuation mark (or one of the runs
// "!!", "!!!", "??", "???", "?!?", "!?!", "?!?!", "!?!?") from the front or the back of a piece
// whose remaining word has no punctuation, so "good." and "(good" lose it but "don't" and ":-)"
// stay whole. "Mixed case" (cap_differential) means some but not all words are ALL CAPS.
//
// Thread-safety: a plain value; split_vader_text() is a pure function.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace opbase::ai {

// A piece of text between white space, as byte offsets [begin, end) into the text.
struct RawToken {
  size_t begin = 0;
  size_t end = 0;
};

// A word VADER scores: its text with edge punctuation stripped, lowercased (ASCII), and the
// raw token it came from.
struct VaderWord {
  std::string_view text;
  std::string lower;
  size_t raw = 0;
};

struct VaderText {
  std::vector<RawToken> raw;     // every piece, single characters included
  std::vector<VaderWord> words;  // the pieces VADER keeps, in order
  bool cap_differential = false;
};

VaderText split_vader_text(std::string_view text);

// True when the word has an ASCII capital letter and no ASCII small letter (Python's isupper()).
bool is_all_caps(std::string_view word);

// ASCII lowercase; other bytes unchanged.
std::string ascii_lower(std::string_view text);

// True for the 32 ASCII punctuation characters (Python's string.punctuation).
bool is_ascii_punctuation(char c);

}  // namespace opbase::ai
