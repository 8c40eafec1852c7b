#include "summary/term_vectors.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>

#include "summary/english_stemmer.hpp"
#include "text/words.hpp"

namespace opbase::ai {

namespace {

// Gives each stem an id, and remembers each word's id so a word repeated in the text is
// stemmed once.
class TermIds {
 public:
  explicit TermIds(const Stopwords& stopwords) : stopwords_(stopwords) {}

  // The term id of a word, or kNone for a stopword or a lone ASCII character.
  static constexpr uint32_t kNone = UINT32_MAX;
  uint32_t of(const std::string& word) {
    const auto known = by_word_.find(word);
    if (known != by_word_.end()) return known->second;
    uint32_t id = kNone;
    const bool lone_ascii = word.size() == 1;
    if (!lone_ascii && !stopwords_.contains(word)) {
      const std::string stem(stem_english(word));
      id = by_stem_.emplace(stem, static_cast<uint32_t>(by_stem_.size())).first->second;
    }
    by_word_.emplace(word, id);
    return id;
  }

  size_t count() const { return by_stem_.size(); }

 private:
  const Stopwords& stopwords_;
  std::unordered_map<std::string, uint32_t> by_word_;
  std::unordered_map<std::string, uint32_t> by_stem_;
};

// Term ids with their counts: sorts `ids` and folds repeats into weights (the raw counts).
TermVector counted(std::vector<uint32_t>* ids) {
  std::sort(ids->begin(), ids->end());
  TermVector counts;
  for (const uint32_t id : *ids) {
    if (!counts.empty() && counts.back().term == id) {
      counts.back().weight += 1;
    } else {
      counts.push_back({id, 1});
    }
  }
  return counts;
}

// Turns counts into unit-length TF-IDF weights.
void weigh(const std::vector<uint32_t>& document_frequency, size_t sentences, TermVector* vector) {
  double norm = 0;
  for (TermWeight& entry : *vector) {
    const double tf = 1.0 + std::log(static_cast<double>(entry.weight));
    const double idf = std::log((1.0 + static_cast<double>(sentences)) /
                                static_cast<double>(document_frequency[entry.term]));
    entry.weight = static_cast<float>(tf * idf);
    norm += static_cast<double>(entry.weight) * entry.weight;
  }
  if (norm <= 0) {
    vector->clear();
    return;
  }
  const auto scale = static_cast<float>(1.0 / std::sqrt(norm));
  for (TermWeight& entry : *vector) entry.weight *= scale;
}

}  // namespace

std::vector<SentenceTerms> sentence_terms(std::string_view text,
                                          const std::vector<TextRange>& sentences,
                                          const Stopwords& stopwords) {
  TermIds ids(stopwords);
  std::vector<SentenceTerms> out(sentences.size());
  std::vector<uint32_t> sentence_ids;
  Word word;
  for (size_t i = 0; i < sentences.size(); ++i) {
    sentence_ids.clear();
    WordReader reader(sentences[i].of(text));
    while (reader.next(&word)) {
      ++out[i].words;
      const uint32_t id = ids.of(word.text);
      if (id != TermIds::kNone) sentence_ids.push_back(id);
    }
    out[i].vector = counted(&sentence_ids);
  }
  std::vector<uint32_t> document_frequency(ids.count(), 0);
  for (const SentenceTerms& sentence : out) {
    for (const TermWeight& entry : sentence.vector) ++document_frequency[entry.term];
  }
  for (SentenceTerms& sentence : out) weigh(document_frequency, out.size(), &sentence.vector);
  return out;
}

float cosine(const TermVector& a, const TermVector& b) {
  float dot = 0;
  size_t i = 0;
  size_t j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i].term < b[j].term) {
      ++i;
    } else if (b[j].term < a[i].term) {
      ++j;
    } else {
      dot += a[i++].weight * b[j++].weight;
    }
  }
  return std::clamp(dot, 0.0f, 1.0f);
}

}  // namespace opbase::ai
