// The MongoDB driver's translation of the query tree (sdk/include/opbase/query.hpp) and of
// documents to BSON: pure functions, no server. docs/query.md defines what a query means; the
// filters built here have the same meaning on a MongoDB server, with the differences listed
// below. Expected failures (a key holding a NUL byte, a BSON type JSON has no value for) are
// Results; nothing here throws (other than std::bad_alloc). Thread-safety: pure functions;
// a BsonDoc is an ordinary value, not shared.
//
// Values. Integers are int64; an unsigned integer above 2^63-1 (nlohmann's number_unsigned) is
// a Decimal128, so it stays exact and MongoDB still compares it numerically with int64 and
// double; doubles are doubles; strings UTF-8; objects documents (keys in the json's order, which
// for nlohmann::json is byte order); arrays arrays. bson_to_json maps back: int32 and int64 to
// integers, double to double, a Decimal128 that is an integer in the uint64/int64 range back to
// that integer (others to a double).
//
// Semantic differences to docs/query.md and how they are handled:
// - Object equality: MongoDB compares embedded documents key ORDER-SENSITIVELY, docs/query.md
//   does not. The translation relies on an invariant instead of rewriting the filter: every
//   object, in stored documents and in operands, has its keys in byte order. nlohmann::json
//   (std::map) iterates in byte order, so json_to_bson and match_to_filter both write that order;
//   the driver must store whole documents through json_to_bson (never $set a new nested key on
//   the server, which appends it out of order). Under the invariant equal key sets have equal
//   order, so MongoDB's comparison agrees.
// - An object operand of equality is written as {"path": {"$eq": {...}}} so that keys starting
//   with '$' in it stay a literal (docs/query.md: {"a": {"$gt": 1}} tests equality with that
//   object); other operands are written as {"path": value}.
// - Array indexes: MongoDB reads a numeric path segment ("items.0") as an array index too;
//   docs/query.md says "0" is a field name. Paths with numeric segments through arrays differ.
// - null/missing through arrays with non-object elements ({"a": [1, {"b": 2}]}, {"a": []} for
//   "a.b": null) are defined in docs/query.md; MongoDB's results there must be checked against a
//   server in the driver's integration tests.
// - Sort: MongoDB sorts an array field by its smallest (asc) / largest (desc) element, reaches
//   through arrays, compares objects type-first per element, and is not stable on ties; see the
//   comment at sort_to_bson.
// - Projection: MongoDB rejects a path together with a path inside it ("path collision");
//   docs/query.md lets the whole field win, so the inner path is dropped here. MongoDB also
//   returns _id unless excluded; the driver removes it from results.
#pragma once

#include <bson/bson.h>

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/query.hpp"
#include "opbase/status.hpp"

namespace opbase::host::mongo {

// Owns one bson_t (move-only). Empty (null) only after a move or release().
class BsonDoc {
 public:
  BsonDoc() : doc_(bson_new()) {}
  explicit BsonDoc(bson_t* doc) : doc_(doc) {}  // takes ownership
  BsonDoc(const BsonDoc&) = delete;
  BsonDoc& operator=(const BsonDoc&) = delete;
  BsonDoc(BsonDoc&& other) noexcept : doc_(other.doc_) { other.doc_ = nullptr; }
  BsonDoc& operator=(BsonDoc&& other) noexcept;
  ~BsonDoc();

  bson_t* get() { return doc_; }
  const bson_t* get() const { return doc_; }
  bson_t* release();  // the caller then owns the bson_t and must bson_destroy() it

  // bson_as_canonical_extended_json / bson_as_relaxed_extended_json ("" when empty).
  std::string to_canonical_json() const;
  std::string to_relaxed_json() const;

 private:
  bson_t* doc_;
};

// A MongoDB filter with the meaning of `match` (an empty Match gives {}, which selects all).
// Conditions are grouped by path in order of first appearance; the operators of one path share
// its key ({"price": {"$gt": 5, "$lt": 10}}) unless the path has an equality condition or an
// operator twice, in which case the conditions of that path go into a top-level $and, one
// document each ({"$and": [{"a": 1}, {"a": {"$gt": 0}}]}), so no key repeats.
// `prefix` is put in front of every path ("doc." addresses the fields of the driver's records,
// which keep the user's document under `doc`); the empty default addresses the document itself.
Result<BsonDoc> match_to_filter(const query::Match& match, std::string_view prefix = {});

// {"path": 1 | -1, ...} in the keys' order. Differences to docs/query.md (MongoDB's order):
// arrays sort by their smallest (asc) or largest (desc) element instead of as one value, a path
// through an array reaches its elements instead of being missing, objects compare each element
// by type before name, and ties have no guaranteed order (the driver adds a unique tie-breaker,
// e.g. {"_id": 1}, to keep paging stable).
// `prefix` is put in front of every path, as for match_to_filter.
Result<BsonDoc> sort_to_bson(const std::vector<query::SortKey>& keys, std::string_view prefix = {});

// Include: {"_key": 1 (unless dropped), "path": 1, ...}; exclude: {"path": 0, ..., "_key": 0
// (when dropped)}. An empty result means no projection. A path inside another named path is
// left out (the whole field wins; MongoDB would reject the pair as a path collision). _id is
// not mentioned: the driver strips it from results.
Result<BsonDoc> projection_to_bson(const query::Projection& projection);

// A JSON object as a BSON document (a non-object or a key holding a NUL byte is
// VALIDATION_ERROR).
Result<BsonDoc> json_to_bson(const nlohmann::json& object);
// Whether `value` holds, at any depth, an integer above int64, which becomes a Decimal128.
bool needs_decimal128(const nlohmann::json& value);

// Appends one JSON value under `key` with the encoding above (false when a key, `key` or one
// inside `value`, holds a NUL byte, or libbson refuses the append).
bool append_json(bson_t* parent, std::string_view key, const nlohmann::json& value);

// A BSON document as a JSON object. Types without a JSON value (ObjectId, dates, binary, ...)
// are INTERNAL_ERROR naming the key; the driver handles _id before converting.
Result<nlohmann::json> bson_to_json(const bson_t* doc);

}  // namespace opbase::host::mongo
