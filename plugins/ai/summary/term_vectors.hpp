// Term vectors: each sentence as a TF-IDF vector over its terms, the words that say what it is
// about. A term is a word that is not a stopword, not a lone ASCII character, stemmed with
// Snowball English; its weight is (1 + ln tf) * ln((1 + n) / df) over the text's n sentences,
// and each vector has unit length, so the dot product of two is their cosine similarity.
//
// Thread-safety: pure functions (the stemmer is per thread).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "summary/stopwords.hpp"
#include "text/sentences.hpp"

namespace opbase::ai {

struct TermWeight {
  uint32_t term = 0;  // an id for the stem, local to one text
  float weight = 0;
};

// Sorted by term; unit length, or empty when the sentence has no term.
using TermVector = std::vector<TermWeight>;

struct SentenceTerms {
  TermVector vector;
  size_t words = 0;  // all its words, stopwords included (text/words.hpp)
};

// One entry per sentence of `text`, in order.
std::vector<SentenceTerms> sentence_terms(std::string_view text,
                                          const std::vector<TextRange>& sentences,
                                          const Stopwords& stopwords);

// The cosine similarity of two vectors, in [0, 1]; 0 when either is empty.
float cosine(const TermVector& a, const TermVector& b);

}  // namespace opbase::ai
