#include "summary/text_rank.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace opbase::ai {

namespace {

constexpr double kDamping = 0.85;
constexpr int kMaxIterations = 50;
constexpr double kConverged = 1e-6;

// The similarity matrix, n x n, with a zero diagonal. Dot products are summed term by term over
// the sentences that hold each term (an inverted index), so pairs sharing no term cost nothing.
std::vector<float> similarities(const std::vector<SentenceTerms>& sentences) {
  struct Posting {
    uint32_t sentence;
    float weight;
  };
  std::vector<std::vector<Posting>> postings;
  for (uint32_t i = 0; i < sentences.size(); ++i) {
    for (const TermWeight& entry : sentences[i].vector) {
      if (entry.term >= postings.size()) postings.resize(entry.term + 1);
      postings[entry.term].push_back({i, entry.weight});
    }
  }
  const size_t n = sentences.size();
  std::vector<float> matrix(n * n, 0.0f);
  for (const std::vector<Posting>& list : postings) {
    for (size_t a = 0; a < list.size(); ++a) {
      float* row = &matrix[list[a].sentence * n];
      for (size_t b = a + 1; b < list.size(); ++b) {
        row[list[b].sentence] += list[a].weight * list[b].weight;
      }
    }
  }
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = i + 1; j < n; ++j) {
      const float similarity = std::min(matrix[i * n + j], 1.0f);
      matrix[i * n + j] = similarity;
      matrix[j * n + i] = similarity;
    }
  }
  return matrix;
}

std::vector<double> page_rank(const std::vector<float>& matrix, size_t n) {
  std::vector<double> out_weight(n, 0.0);
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; ++j) out_weight[i] += matrix[i * n + j];
  }
  std::vector<double> score(n, 1.0 / static_cast<double>(n));
  std::vector<double> share(n);  // what each node gives per unit of edge weight
  std::vector<double> next(n);
  for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
    double dangling = 0;  // the score of nodes without edges, spread over all nodes
    for (size_t j = 0; j < n; ++j) {
      share[j] = out_weight[j] > 0 ? score[j] / out_weight[j] : 0.0;
      if (out_weight[j] <= 0) dangling += score[j];
    }
    const double base = (1.0 - kDamping + kDamping * dangling) / static_cast<double>(n);
    double moved = 0;
    for (size_t i = 0; i < n; ++i) {
      double received = 0;
      for (size_t j = 0; j < n; ++j) received += matrix[i * n + j] * share[j];  // symmetric
      next[i] = base + kDamping * received;
      moved += std::abs(next[i] - score[i]);
    }
    score.swap(next);
    if (moved < kConverged) break;
  }
  return score;
}

// Cosine of each vector to the sum of all of them.
std::vector<double> centroid_similarity(const std::vector<SentenceTerms>& sentences) {
  std::map<uint32_t, float> sum;
  for (const SentenceTerms& sentence : sentences) {
    for (const TermWeight& entry : sentence.vector) sum[entry.term] += entry.weight;
  }
  TermVector centroid;
  double norm = 0;
  for (const auto& [term, weight] : sum) {
    centroid.push_back({term, weight});
    norm += static_cast<double>(weight) * weight;
  }
  const auto scale = static_cast<float>(norm > 0 ? 1.0 / std::sqrt(norm) : 0.0);
  for (TermWeight& entry : centroid) entry.weight *= scale;
  std::vector<double> score;
  score.reserve(sentences.size());
  for (const SentenceTerms& sentence : sentences)
    score.push_back(cosine(sentence.vector, centroid));
  return score;
}

}  // namespace

std::vector<double> text_rank(const std::vector<SentenceTerms>& sentences) {
  const size_t n = sentences.size();
  if (n == 0) return {};
  const bool any_term =
      std::any_of(sentences.begin(), sentences.end(),
                  [](const SentenceTerms& sentence) { return !sentence.vector.empty(); });
  if (!any_term) return std::vector<double>(n, 0.0);
  std::vector<double> score = n <= kMaxGraphSentences ? page_rank(similarities(sentences), n)
                                                      : centroid_similarity(sentences);
  const double top = *std::max_element(score.begin(), score.end());
  for (double& value : score) value = top > 0 ? value / top : 0.0;
  return score;
}

}  // namespace opbase::ai
