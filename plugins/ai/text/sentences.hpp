// Sentences: cuts a text into sentences, as byte ranges of the text (so callers can quote the
// original text, keep offsets, or tokenise each piece without copies).
//
// Where a sentence ends:
// - After . ! ? … (and runs of them, "?!", "..."), with the closing quotes and brackets that
//   follow kept in the sentence, when white space or the end of the text comes next. A sentence
//   never ends inside "3.5", "example.com" or "U.S." followed by a letter.
// - Not when the next word starts with a lowercase letter ("e.g. this", "Why?" she asked).
// - Not after a title or Latin abbreviation (Mr, Mrs, Ms, Dr, Prof, St, Mt, vs, e.g., i.e., cf,
//   approx, fig, vol...), nor after "No." before a number, nor after a list number ("1. First").
// - After a month (Jan...Dec) or "etc." only when the next word starts with a capital letter.
// - After a company or name suffix (Inc, Ltd, Co, Corp, Jr, Sr...), an initial ("J. K. Rowling")
//   or a dotted acronym ("U.S.", "p.m.", "Ph.D.") only when the next word is a common sentence
//   opener ("The", "He", "In", "But"...): "the U.S. The" ends, "U.S. President" does not.
// - After 。！？｡ always (CJK text puts no space after them).
// - At a paragraph break (a blank line, U+2029). At a single line break too, unless the line
//   continues the sentence: the next line starts with a lowercase letter, or the line ends with
//   , ; ( - & / or a dash. A next line that starts with a list marker ("- ", "* ", "• ", "1. ",
//   "2) ") always starts a new sentence.
// Ranges are trimmed of white space and never empty; they split no UTF-8 sequence.
//
// Thread-safety: a pure function.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace opbase::ai {

// Byte offsets [begin, end) of a piece of a text.
struct TextRange {
  size_t begin = 0;
  size_t end = 0;
  size_t size() const { return end - begin; }
  std::string_view of(std::string_view text) const { return text.substr(begin, end - begin); }
};

// The sentences of a UTF-8 text, in order.
std::vector<TextRange> split_sentences(std::string_view text);

}  // namespace opbase::ai
