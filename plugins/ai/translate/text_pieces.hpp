// How a text is cut for translation, so that its layout survives and no single message holds a
// pipeline for long: each line's leading and trailing white space and every line break are kept
// as they are (empty lines too), each line's words are translated, and a line longer than
// `max_piece_bytes` is cut at sentence ends (else at a space, else at a character boundary).
// Joining every piece, translated or kept, in order gives the layout of the input back.
//
// Thread-safety: pure functions; the pieces view the text they were cut from.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace opbase::ai {

struct TextPiece {
  std::string_view text;
  bool translate = false;  // false: white space and line breaks, copied as they are
};

std::vector<TextPiece> split_for_translation(std::string_view text, size_t max_piece_bytes);

// Words for the share of known words: runs of letters and digits (any non-ASCII byte counts as a
// letter), so "don't" is two and "3.5" two.
size_t count_apertium_words(std::string_view text);

}  // namespace opbase::ai
