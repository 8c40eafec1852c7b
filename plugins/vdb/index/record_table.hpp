// RecordTable: one user's records of one vector collection, in memory, as search reads them:
// each record's `_key`, the code of its unit vector (vectors/vector_code.hpp: int8 and a scale,
// all in one contiguous block, so a scan reads memory in order) and the fields a filter may test
// (its metadata and system fields). best() is the exhaustive search: the cosine with every
// record, the best `limit` kept.
//
// Thread-safety: every method may be called from any thread; searches run in parallel with each
// other; a change waits for them, and searches that come after a waiting change wait for it.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "index/top_hits.hpp"
#include "index/writer_first_mutex.hpp"
#include "opbase/query.hpp"
#include "vectors/vector_code.hpp"

namespace opbase::vdb {

class RecordTable {
 public:
  explicit RecordTable(size_t dimensions)
      : dimensions_(dimensions), code_size_(code_size(dimensions)) {}

  size_t dimensions() const { return dimensions_; }
  size_t size() const;
  bool contains(std::string_view key) const;

  // Adds the record `key`, or replaces the one of that key. `unit_vector` has dimensions()
  // components and length 1; `fields` is what filters test.
  void put(const std::string& key, std::span<const float> unit_vector, nlohmann::json fields);

  // Removes the record `key`; false when there was none.
  bool remove(std::string_view key);

  // The `limit` records of highest cosine with `unit_query` (dimensions() components, length
  // 1), best first, among those `filter` matches (every record when null) and scoring at least
  // `min_score`. Ties go to the lower key, so an answer never depends on insertion order.
  std::vector<Hit> best(std::span<const float> unit_query, size_t limit, const query::Match* filter,
                        float min_score) const;

  // Up to `max` records, whole: an indexer takes them from here into a graph.
  struct Record {
    std::string key;
    std::vector<std::byte> code;  // code_size(dimensions()) bytes
    nlohmann::json fields;
  };
  std::vector<Record> records(size_t max) const;

 private:
  const std::byte* code_at(size_t slot) const { return codes_.data() + slot * code_size_; }

  const size_t dimensions_;
  const size_t code_size_;
  mutable WriterFirstMutex mutex_;
  std::vector<std::byte> codes_;                   // slot-major: slot i is [i * code_size_, ...)
  std::vector<std::string> keys_;                  // by slot
  std::vector<nlohmann::json> fields_;             // by slot
  std::unordered_map<std::string, size_t> slots_;  // key -> slot
};

}  // namespace opbase::vdb
