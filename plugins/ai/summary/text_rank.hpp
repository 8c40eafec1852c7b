// TextRank: how central each sentence is to its text. Sentences are the nodes of a graph whose
// edges weigh the cosine similarity of their term vectors; PageRank (damping 0.85, at most 50
// iterations, stopping once the scores move less than 1e-6 in total) gives each its share.
// A sentence that shares no term with the others gets the floor, (1 - 0.85) / n.
//
// Above 1,000 sentences (a 50,000-character text of very short sentences) the graph would cost
// O(n^2) memory and time, so centrality is the cosine to the text's centroid (the sum of all
// vectors) instead, as LexRank's centroid variant does.
//
// Thread-safety: a pure function.
#pragma once

#include <vector>

#include "summary/term_vectors.hpp"

namespace opbase::ai {

inline constexpr size_t kMaxGraphSentences = 1000;

// One score per sentence, the largest 1 (all 0 when no sentence has a term).
std::vector<double> text_rank(const std::vector<SentenceTerms>& sentences);

}  // namespace opbase::ai
