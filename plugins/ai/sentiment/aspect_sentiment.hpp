// Aspect sentiment: how the text feels about each aspect the caller names ("food", "service").
// A mention is the aspect's words in a row, case-insensitively, plural or singular ("Services"
// matches "service"). Each mention is scored by VADER over its clause (clauses.hpp); when that
// clause also mentions another requested aspect, only over the part of it between "and", "or",
// "with" and commas that holds the mention ("great food and slow service"), unless that part has
// no sentiment word ("the food and the service were awful"). A clause without sentiment words
// borrows the next clause when that one names no other aspect ("We had the pasta. It was
// wonderful."). The aspect's score is the mean compound of its mentions that carry sentiment.
//
// Results: "positive" (score >= 0.05), "negative" (<= -0.05), "neutral" (mentioned, but no
// sentiment or a score in between), "not_mentioned" with score 0 (the aspect's words never occur).
//
// Thread-safety: a pure function over an immutable lexicon; safe from any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sentiment/clauses.hpp"
#include "sentiment/vader_lexicon.hpp"
#include "sentiment/vader_text.hpp"

namespace opbase::ai {

struct AspectSentiment {
  std::string aspect;     // as requested
  std::string sentiment;  // positive, negative, neutral or not_mentioned
  double score = 0;       // in [-1, 1]
};

std::vector<AspectSentiment> aspect_sentiments(const VaderLexicon& lexicon, std::string_view text,
                                               const VaderText& words,
                                               const std::vector<TokenSpan>& clauses,
                                               const std::vector<std::string>& aspects);

}  // namespace opbase::ai
