// The sign code of a unit vector: one bit per component, set where the component is positive,
// in 64-bit words (192 bytes at 1,536 dimensions, an eighth of the int8 code). A scan of a
// large collection reads these first to pick a shortlist for the int8 codes
// (index/record_table.hpp): 100,000 of them fit in the processor's cache where the int8 codes
// (154 MB) do not, so the first pass is bound by arithmetic, not memory.
//
// The query keeps more than its signs (SignQuery): each component on 16 levels, so a record's
// score estimates its cosine with the query from the record's signs alone. On random unit
// vectors of 1,536 dimensions the true best 10 of 20,000 rank within the best 4 % of these
// scores 0.94 of the time (tests/unit/vdb/vectors/sign_code_test.cpp). With the query's signs alone
// (a Hamming distance, cheaper) it was 0.83 of 100,000 when this was chosen, against 0.98.
//
// Thread-safety: pure functions; a SignQuery is immutable once made.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace opbase::vdb {

inline constexpr size_t sign_words(size_t dimensions) { return (dimensions + 63) / 64; }

// Writes the sign code of `vector` to `words` (sign_words(size) words).
void encode_signs(std::span<const float> vector, uint64_t* words);

class SignQuery {
 public:
  explicit SignQuery(std::span<const float> unit_query);

  size_t words() const { return words_; }

  // Scores `count` sign codes laid one after another: a higher score, a likelier high cosine.
  // The scale is the query's own, so scores rank records of one query only. A score is within
  // +-30 * the padded dimensions (sign_words * 64).
  void score(const uint64_t* codes, size_t count, int32_t* scores) const;

  // The same without the machine's wide units (for tests: both give the same numbers).
  void score_portable(const uint64_t* codes, size_t count, int32_t* scores) const;

 private:
  size_t words_;
  // Component i of the query is about (level - 7.5) * its largest component / 7.5, level 0..15
  // in four bit planes: plane p (words_ words at p * words_) has bit i set where level i has
  // bit p.
  std::vector<uint64_t> planes_;
};

}  // namespace opbase::vdb
