#include "index/record_table.hpp"

#include <algorithm>
#include <mutex>
#include <shared_mutex>

#include "vectors/vector_code.hpp"

namespace opbase::vdb {

size_t RecordTable::size() const {
  const std::shared_lock lock(mutex_);
  return keys_.size();
}

bool RecordTable::contains(std::string_view key) const {
  const std::shared_lock lock(mutex_);
  return slots_.contains(std::string(key));
}

void RecordTable::put(const std::string& key, std::span<const float> unit_vector,
                      nlohmann::json fields) {
  const std::unique_lock lock(mutex_);
  const auto [found, added] = slots_.try_emplace(key, keys_.size());
  const size_t slot = found->second;
  if (added) {
    keys_.push_back(key);
    fields_.push_back(std::move(fields));
    codes_.resize(codes_.size() + code_size_);
  } else {
    fields_[slot] = std::move(fields);
  }
  encode(unit_vector, codes_.data() + slot * code_size_);
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
    std::copy_n(codes_.begin() + last * code_size_, code_size_, codes_.begin() + slot * code_size_);
    slots_[keys_[slot]] = slot;
  }
  keys_.pop_back();
  fields_.pop_back();
  codes_.resize(last * code_size_);
  // A table emptied into a graph gives its memory back (a shrink when a quarter is used keeps
  // the copying linear overall).
  if (codes_.size() * 4 <= codes_.capacity()) {
    codes_.shrink_to_fit();
    keys_.shrink_to_fit();
    fields_.shrink_to_fit();
  }
  return true;
}

std::vector<Hit> RecordTable::best(std::span<const float> unit_query, size_t limit,
                                   const query::Match* filter, float min_score) const {
  std::vector<std::byte> query(code_size_);
  encode(unit_query, query.data());
  const std::shared_lock lock(mutex_);
  // The filter, the costlier test, runs only for records that would enter the best.
  TopHits top(limit);
  for (size_t slot = 0; slot < keys_.size(); ++slot) {
    const float score = code_dot(query.data(), code_at(slot), dimensions_);
    if (score < min_score || !top.would_keep(score, keys_[slot])) continue;
    if (filter != nullptr && !query::matches(*filter, fields_[slot])) continue;
    top.add(keys_[slot], score);
  }
  return top.take();
}

std::vector<RecordTable::Record> RecordTable::records(size_t max) const {
  const std::shared_lock lock(mutex_);
  std::vector<Record> out;
  for (size_t slot = 0; slot < keys_.size() && out.size() < max; ++slot) {
    out.push_back({keys_[slot], std::vector<std::byte>(code_at(slot), code_at(slot) + code_size_),
                   fields_[slot]});
  }
  return out;
}

}  // namespace opbase::vdb
