#include "index/record_table.hpp"

#include <algorithm>
#include <mutex>
#include <queue>

#include "vectors/dot_product.hpp"

namespace opbase::vdb {
namespace {

// Orders hits best first: higher score, then lower key.
bool better(float score, std::string_view key, const Hit& than) {
  return score != than.score ? score > than.score : key < than.key;
}
bool better(const Hit& a, const Hit& b) { return better(a.score, a.key, b); }

}  // namespace

size_t RecordTable::size() const {
  const std::shared_lock lock(mutex_);
  return keys_.size();
}

void RecordTable::put(const std::string& key, std::span<const float> unit_vector,
                      nlohmann::json fields) {
  const std::unique_lock lock(mutex_);
  const auto [found, added] = slots_.try_emplace(key, keys_.size());
  const size_t slot = found->second;
  if (added) {
    keys_.push_back(key);
    fields_.push_back(std::move(fields));
    vectors_.insert(vectors_.end(), unit_vector.begin(), unit_vector.end());
    return;
  }
  fields_[slot] = std::move(fields);
  std::copy(unit_vector.begin(), unit_vector.end(), vectors_.begin() + slot * dimensions_);
}

bool RecordTable::remove(std::string_view key) {
  const std::unique_lock lock(mutex_);
  const auto found = slots_.find(std::string(key));
  if (found == slots_.end()) return false;
  // The last record moves into the freed slot, so the block stays without holes.
  const size_t slot = found->second;
  const size_t last = keys_.size() - 1;
  slots_.erase(found);
  if (slot != last) {
    keys_[slot] = std::move(keys_[last]);
    fields_[slot] = std::move(fields_[last]);
    std::copy_n(vectors_.begin() + last * dimensions_, dimensions_,
                vectors_.begin() + slot * dimensions_);
    slots_[keys_[slot]] = slot;
  }
  keys_.pop_back();
  fields_.pop_back();
  vectors_.resize(last * dimensions_);
  return true;
}

std::vector<Hit> RecordTable::best(std::span<const float> unit_query, size_t limit,
                                   const query::Match* filter, float min_score) const {
  const std::shared_lock lock(mutex_);
  if (limit == 0) return {};
  // A heap of the best so far with the worst on top; the filter, the costlier test, runs only
  // for records that would enter it.
  auto worse_on_top = [](const Hit& a, const Hit& b) { return better(a, b); };
  std::priority_queue<Hit, std::vector<Hit>, decltype(worse_on_top)> kept(worse_on_top);
  for (size_t slot = 0; slot < keys_.size(); ++slot) {
    const float score = dot_product(unit_query.data(), vector_at(slot), dimensions_);
    if (score < min_score) continue;
    if (kept.size() == limit && !better(score, keys_[slot], kept.top())) continue;
    if (filter != nullptr && !query::matches(*filter, fields_[slot])) continue;
    kept.push(Hit{keys_[slot], score});
    if (kept.size() > limit) kept.pop();
  }
  std::vector<Hit> hits;
  hits.reserve(kept.size());
  for (; !kept.empty(); kept.pop()) hits.push_back(kept.top());
  std::reverse(hits.begin(), hits.end());
  return hits;
}

}  // namespace opbase::vdb
