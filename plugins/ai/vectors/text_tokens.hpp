// Text tokens for the word vectors: the runs of word characters in a text, lowercased the way the
// GloVe vocabulary is (ASCII lowercase, Latin-1 accents folded: "Café" -> "cafe").
//
// Word characters are ASCII letters and digits, the Latin-1 letters (folded to ASCII), and every
// code point from U+0100 up except general and CJK punctuation and the full-width ASCII
// punctuation (so a Greek or Japanese run stays one token: never in the vocabulary, but it still
// tells one unknown text from another). An apostrophe (' or U+2019) or a hyphen (- or U+2010)
// joins word characters on both its sides and is kept as ' or -, so "don't" and "e-mail" stay
// one token each; elsewhere it separates, like every other character. Bytes that are not valid
// UTF-8 count as word characters, kept as they are.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace opbase::ai {

std::vector<std::string> text_tokens(std::string_view text);

}  // namespace opbase::ai
