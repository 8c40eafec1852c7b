// The query language of the document datastore (docs/query.md, docs/api.md#find), parsed once here
// into a small tree that every store driver translates: match conditions, sort keys, paging and
// projection. The comparison semantics are defined once, below and in docs/query.md; the
// in-memory evaluator (matches, compare_for_sort, apply_projection) is the reference the drivers
// are tested against. Expected failures are VALIDATION_ERROR Results; nothing here throws
// (other than std::bad_alloc). Thread-safety: pure functions over values; safe from any thread.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/status.hpp"

namespace opbase::query {

// Limits and the system fields a caller lets users address. The collection plugin allows the
// base properties (_key, _userkey, _created_at, _modified_at) in match, sort and project.
struct ParseOptions {
  // Names starting with '_' or '$' that may appear as a path segment (at any depth).
  std::vector<std::string> system_fields;
  // Every '_' name may appear (store drivers parsing a plugin's query: the plugin decided).
  bool allow_system_fields = false;
  std::size_t max_conditions = 100;  // keys of a match; also entries of a projection, sort keys
  std::size_t max_in_values = 1000;  // length of a $in / $nin array
  std::size_t max_path_depth = 32;   // segments of one path
  std::int64_t limit_default = 100;
  std::int64_t limit_cap = 1000;
};

// A dotted path ("address.city"). Every segment is non-empty; a '.' always separates segments.
struct FieldPath {
  std::string text;                   // as written
  std::vector<std::string> segments;  // {"address", "city"}
  bool operator==(const FieldPath&) const = default;
};

Result<FieldPath> parse_path(std::string_view text, const ParseOptions& options = {});

enum class Op { kEq, kNe, kGt, kGte, kLt, kLte, kIn, kNin };
std::string_view op_name(Op op);  // "$eq", "$ne", "$gt", ...

struct Condition {
  FieldPath path;
  Op op = Op::kEq;
  nlohmann::json value;  // the operand; for $in / $nin an array
};

// A conjunction: a document matches when every condition does (an empty Match matches all).
using Match = std::vector<Condition>;

// `match` is an object whose keys are "field" (equality) or "field:$op" with $op one of $ne,
// $gt, $gte, $lt, $lte, $in, $nin. The key splits at its last ':' when a '$' follows it; a key
// without ":$" is a field name as a whole. Errors carry details {"key": <the key>}.
Result<Match> parse_match(const nlohmann::json& match, const ParseOptions& options = {});

bool matches(const Condition& condition, const nlohmann::json& doc);
bool matches(const Match& match, const nlohmann::json& doc);

// The values a path reaches in a document (Mongo-style): objects are entered by key; an array
// met before the last segment is entered element by element, each element that is an object
// continuing the walk. `missing` says at least one branch could not reach the field (a missing
// key, a scalar or nested array where an object was needed, or an empty array).
struct PathValues {
  std::vector<const nlohmann::json*> values;
  bool missing = false;
};
PathValues collect(const nlohmann::json& doc, const FieldPath& path);

// The one value at a path through objects only (nullptr when missing or when an array stands
// in the way). Sorting uses this.
const nlohmann::json* resolve(const nlohmann::json& doc, const FieldPath& path);

// Numbers compare exactly across int64, uint64 and double (1 == 1.0; 2^63-1 != 2^63).
// Unordered only when a NaN is involved, which JSON text cannot carry.
std::partial_ordering compare_numbers(const nlohmann::json& a, const nlohmann::json& b);

// Deep equality: numbers numerically, strings by bytes, arrays element by element in order,
// objects by key set and values (key order irrelevant).
bool json_equal(const nlohmann::json& a, const nlohmann::json& b);

// The total order of sort: null (and missing) < numbers < strings < objects < arrays <
// booleans (false < true). Numbers numerically, strings by code point (= UTF-8 byte order),
// objects by their (key, value) pairs in key order then size, arrays lexicographically.
// Answers <0, 0 or >0.
int compare_values(const nlohmann::json& a, const nlohmann::json& b);

struct SortKey {
  FieldPath path;
  bool descending = false;
};

// "price desc, name asc": keys separated by commas, each a path and an optional direction
// (asc or desc, any case; asc when absent). A blank `text` parses `default_text` instead
// (for find: "_created_at desc"). Errors carry details {"field": "sort", "value": <the part>}.
Result<std::vector<SortKey>> parse_sort(std::string_view text, const ParseOptions& options = {},
                                        std::string_view default_text = {});

// Compares two documents by the keys, the first difference deciding: <0 when `a` sorts first,
// 0 on a tie (the caller sorts stably). Values come from resolve(); missing sorts as null.
int compare_for_sort(const nlohmann::json& a, const nlohmann::json& b,
                     const std::vector<SortKey>& keys);

struct Paging {
  std::int64_t limit = 100;
  std::int64_t offset = 0;
};

// Reads "limit" and "offset" from a request body. Absent (or null) takes the default; either must
// be a non-negative JSON integer, limit at most options.limit_cap. Errors carry details
// {"field": "limit" | "offset"}, plus {"max": cap} when limit is above the cap.
Result<Paging> parse_paging(const nlohmann::json& body, const ParseOptions& options = {});

// {field: 1, ...} keeps only the named paths (include); {field: 0, ...} drops them (exclude);
// true/false stand for 1/0. `_key` is kept in either mode unless named with 0, and naming it does
// not count towards the include/exclude mix. An empty projection changes nothing.
struct Projection {
  bool include = false;
  std::vector<FieldPath> fields;  // other than _key
  bool keep_key = true;
};

// Errors carry details {"key": <the key>}.
Result<Projection> parse_projection(const nlohmann::json& project,
                                    const ParseOptions& options = {});

nlohmann::json apply_projection(const nlohmann::json& doc, const Projection& projection);

}  // namespace opbase::query
