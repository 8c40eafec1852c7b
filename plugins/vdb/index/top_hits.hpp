// TopHits: the best `limit` hits seen so far, best first on take(): higher score, then lower
// key, so an answer never depends on the order records were seen in. would_keep() lets a scan
// skip the costlier tests (a filter) for a record that could not enter.
//
// Thread-safety: a plain value.
#pragma once

#include <algorithm>
#include <cstddef>
#include <queue>
#include <string>
#include <string_view>
#include <vector>

namespace opbase::vdb {

struct Hit {
  std::string key;
  float score = 0;  // the cosine, -1 to 1
};

// Whether a hit of `score` and `key` goes before `than`.
inline bool better(float score, std::string_view key, const Hit& than) {
  return score != than.score ? score > than.score : key < than.key;
}

class TopHits {
 public:
  explicit TopHits(size_t limit) : limit_(limit) {}

  bool would_keep(float score, std::string_view key) const {
    return limit_ > 0 && (kept_.size() < limit_ || better(score, key, kept_.top()));
  }

  void add(std::string key, float score) {
    if (!would_keep(score, key)) return;
    kept_.push(Hit{std::move(key), score});
    if (kept_.size() > limit_) kept_.pop();
  }

  size_t size() const { return kept_.size(); }

  std::vector<Hit> take() {
    std::vector<Hit> hits;
    hits.reserve(kept_.size());
    for (; !kept_.empty(); kept_.pop()) hits.push_back(kept_.top());
    std::reverse(hits.begin(), hits.end());
    return hits;
  }

 private:
  struct WorseFirst {
    bool operator()(const Hit& a, const Hit& b) const { return better(a.score, a.key, b); }
  };

  size_t limit_;
  std::priority_queue<Hit, std::vector<Hit>, WorseFirst> kept_;  // the worst kept on top
};

}  // namespace opbase::vdb
