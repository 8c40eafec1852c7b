// Clauses: where a text's raw tokens (vader_text.hpp) divide into the stretches one opinion
// usually covers. A clause ends at a line break, after a token ending in . ! ? ; or : (closing
// quotes and brackets aside), and before a contrast word (but, however, although, though, yet,
// whereas, while, except), which belongs to no clause. Fragments also end after a comma and at a
// lone dash. Both let aspect sentiment and key phrases look only at the words near a mention.
//
// Thread-safety: pure functions; safe from any thread.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "sentiment/vader_text.hpp"

namespace opbase::ai {

// Raw token indexes [first, last); never empty.
struct TokenSpan {
  size_t first = 0;
  size_t last = 0;
};

enum class Granularity { kClauses, kFragments };

std::vector<TokenSpan> split_clauses(std::string_view text, const std::vector<RawToken>& raw,
                                     Granularity granularity);

// A clause cut further at "and", "or", "plus", "with" and commas: where one clause speaks of two
// things ("great food and slow service").
std::vector<TokenSpan> split_coordination(std::string_view text, const std::vector<RawToken>& raw,
                                          TokenSpan clause);

// The text from the span's first token to its last, as written.
std::string_view span_text(std::string_view text, const std::vector<RawToken>& raw, TokenSpan span);

}  // namespace opbase::ai
