// Sentence selection: which sentences make a summary of a given length. Greedy maximal marginal
// relevance (MMR, lambda 0.7): each step takes the sentence with the best
//   0.7 * relevance - 0.3 * (its highest cosine to a sentence already taken)
// among those that fit the budget, so a second sentence saying the same thing loses to one that
// adds something. A near-duplicate (cosine >= 0.9, or the same text) of a taken sentence is
// never taken.
//
// The budget: sentences are added while the summary is shorter than the target word count. A
// sentence fits when the summary stays within the target with it, or when it brings the summary
// closer to the target than it is without it; so a summary never passes the target by more than
// its last sentence, and never reaches twice the target. When no sentence fits at all (every one
// is longer than twice the target), the most relevant one is taken alone and `cut` is set, for
// the caller to cut it at the target (or, when cutting is not allowed, to keep it whole).
// Ties go to the earlier sentence, so the choice is deterministic.
//
// Thread-safety: a pure function.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "summary/term_vectors.hpp"

namespace opbase::ai {

struct SelectionBudget {
  size_t target_words = 0;
  size_t max_sentences = 0;
};

struct Selection {
  std::vector<size_t> chosen;  // sentence indexes, ascending (the text's order)
  bool cut = false;            // one sentence, longer than twice the target
};

// `relevance` has one score in [0, 1] per sentence; `texts` is each sentence's text.
Selection select_sentences(const std::vector<SentenceTerms>& sentences,
                           const std::vector<double>& relevance,
                           const std::vector<std::string_view>& texts,
                           const SelectionBudget& budget);

}  // namespace opbase::ai
