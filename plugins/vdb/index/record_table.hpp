// RecordTable: one user's records of one vector collection, in memory, as search reads them:
// each record's `_key`, the code of its unit vector (vectors/vector_code.hpp: int8 and a scale,
// all in one contiguous block, so a scan reads memory in order), its sign code
// (vectors/sign_code.hpp, an eighth of that, in a block of its own) and the fields a filter may
// test (its metadata and system fields).
//
// best() scans every record. Up to kWholeScan records it compares every int8 code with the
// query's: exact but for the codes' rounding. Above, the int8 codes no longer fit the
// processor's cache and reading them all bounds the search (8 ms for 100,000 of 1,536
// dimensions), so it reads the sign codes first and compares int8 codes only for the best 3 %
// of those scores (at least kWholeScan): about 2.5 ms for 100,000, with the true best 10 found
// 0.97 of the time even on random vectors (tests/unit/vdb/index/record_table_test.cpp). A filter is
// tested on that shortlist; when fewer than `limit` of it match, every record is tested and scored
// by its int8 code, so `limit` results come back whenever that many records match.
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
#include "vectors/sign_code.hpp"
#include "vectors/vector_code.hpp"

namespace opbase::vdb {

class RecordTable {
 public:
  // Records a search compares whole (by int8 code) at least: all of a table this size or smaller.
  static constexpr size_t kWholeScan = 2000;
  // Above that, the share of records whose sign code scores best that it compares whole.
  static constexpr size_t kShortlistPercent = 3;

  explicit RecordTable(size_t dimensions)
      : dimensions_(dimensions),
        code_size_(code_size(dimensions)),
        sign_words_(sign_words(dimensions)) {}

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
  // The slots to compare whole: those of the best sign scores (mutex_ held).
  std::vector<uint32_t> shortlist(std::span<const float> unit_query) const;
  // Scores every slot (or those in `slots`) by int8 code into `top` (mutex_ held).
  void score_codes(const std::byte* query, const std::vector<uint32_t>* slots,
                   const query::Match* filter, float min_score, TopHits& top) const;

  const size_t dimensions_;
  const size_t code_size_;
  const size_t sign_words_;
  mutable WriterFirstMutex mutex_;
  std::vector<std::byte> codes_;                   // slot-major: slot i is [i * code_size_, ...)
  std::vector<uint64_t> signs_;                    // slot-major: slot i is [i * sign_words_, ...)
  std::vector<std::string> keys_;                  // by slot
  std::vector<nlohmann::json> fields_;             // by slot
  std::unordered_map<std::string, size_t> slots_;  // key -> slot
};

}  // namespace opbase::vdb
