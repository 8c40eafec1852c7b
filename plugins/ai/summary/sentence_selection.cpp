#include "summary/sentence_selection.hpp"

#include <algorithm>

namespace opbase::ai {

namespace {

constexpr double kLambda = 0.7;
constexpr float kNearDuplicate = 0.9f;

// Does a sentence of `words` words fit a summary of `total` words aiming at `target`?
bool fits(size_t total, size_t words, size_t target) {
  if (total + words <= target) return true;
  return total + words - target <= target - std::min(total, target);
}

class Selector {
 public:
  Selector(const std::vector<SentenceTerms>& sentences, const std::vector<double>& relevance,
           const std::vector<std::string_view>& texts)
      : sentences_(sentences), relevance_(relevance), texts_(texts) {}

  Selection run(const SelectionBudget& budget) {
    Selection selection;
    redundancy_.assign(sentences_.size(), 0.0);
    excluded_.assign(sentences_.size(), false);
    size_t total = 0;
    while (total < budget.target_words && selection.chosen.size() < budget.max_sentences) {
      const size_t best = best_fitting(total, budget.target_words);
      if (best == kNone) break;
      take(best);
      selection.chosen.push_back(best);
      total += sentences_[best].words;
    }
    if (selection.chosen.empty()) {
      selection.chosen.push_back(most_relevant());
      selection.cut = true;
    }
    std::sort(selection.chosen.begin(), selection.chosen.end());
    return selection;
  }

 private:
  static constexpr size_t kNone = SIZE_MAX;

  // Updates each sentence's redundancy with the one just taken, and rules out its duplicates.
  void take(size_t taken) {
    excluded_[taken] = true;
    for (size_t i = 0; i < sentences_.size(); ++i) {
      if (excluded_[i]) continue;
      const float similarity = cosine(sentences_[i].vector, sentences_[taken].vector);
      redundancy_[i] = std::max(redundancy_[i], static_cast<double>(similarity));
      if (similarity >= kNearDuplicate || texts_[i] == texts_[taken]) excluded_[i] = true;
    }
  }

  size_t best_fitting(size_t total, size_t target) const {
    size_t best = kNone;
    double best_score = 0;
    for (size_t i = 0; i < sentences_.size(); ++i) {
      if (excluded_[i] || sentences_[i].words == 0 || !fits(total, sentences_[i].words, target)) {
        continue;
      }
      const double score = kLambda * relevance_[i] - (1.0 - kLambda) * redundancy_[i];
      if (best == kNone || score > best_score) {
        best = i;
        best_score = score;
      }
    }
    return best;
  }

  size_t most_relevant() const {
    size_t best = 0;
    for (size_t i = 1; i < relevance_.size(); ++i) {
      if (relevance_[i] > relevance_[best]) best = i;
    }
    return best;
  }

  const std::vector<SentenceTerms>& sentences_;
  const std::vector<double>& relevance_;
  const std::vector<std::string_view>& texts_;
  std::vector<double> redundancy_;  // highest cosine to a sentence taken
  std::vector<bool> excluded_;      // taken, or a near-duplicate of one taken
};

}  // namespace

Selection select_sentences(const std::vector<SentenceTerms>& sentences,
                           const std::vector<double>& relevance,
                           const std::vector<std::string_view>& texts,
                           const SelectionBudget& budget) {
  if (sentences.empty()) return {};
  return Selector(sentences, relevance, texts).run(budget);
}

}  // namespace opbase::ai
