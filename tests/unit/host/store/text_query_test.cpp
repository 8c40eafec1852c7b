// TextQuery (host/store/text_query.hpp) against the reference evaluator (opbase/query.hpp). For a
// text that is one valid JSON object without repeated keys, matches() must answer what
// query::matches answers on the parsed document, and sort_values() must hold what query::resolve
// reaches for each key (null when nothing). Every table case is asserted against both the
// expected answer and the reference, so the tables also document the reference's semantics:
// every operator, null equality where a path is missing (also on one branch of an array), arrays
// of scalars, of objects and of arrays, numbers in every form, escapes in strings and keys, deep
// nesting, more than 64 members on a queried level, whitespace, object and array operands. Then
// compare_sort_values, the empty query, reuse of one TextQuery, a seeded differential run over
// generated documents and matches, and invalid texts (truncated, unbalanced, mutated), which
// must be read safely: each is copied into a heap block of exactly its size, so the sanitizer
// build reports any read past its end.
#include "store/text_query.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "opbase/json_text.hpp"
#include "opbase/query.hpp"
#include "stored_text.hpp"

namespace opbase::host {
namespace {

using nlohmann::json;
using namespace std::literals;
using test::is_stored_text;

query::ParseOptions parse_options() {
  query::ParseOptions options;
  options.allow_system_fields = true;
  return options;
}

query::Match parsed_match(const json& match) {
  auto parsed = query::parse_match(match, parse_options());
  EXPECT_TRUE(parsed.is_ok()) << parsed.status().to_string() << " for " << match.dump();
  return parsed.is_ok() ? *parsed : query::Match{};
}

std::vector<query::SortKey> parsed_sort(std::string_view text) {
  auto parsed = query::parse_sort(text, parse_options());
  EXPECT_TRUE(parsed.is_ok()) << parsed.status().to_string() << " for " << text;
  return parsed.is_ok() ? *parsed : std::vector<query::SortKey>{};
}

// One sort key per condition of the match, on its path, the directions alternating: the table
// tests check the sort values of every path they query.
std::vector<query::SortKey> sort_on_paths(const query::Match& match) {
  std::vector<query::SortKey> keys;
  for (const query::Condition& condition : match) {
    keys.push_back(query::SortKey{condition.path, keys.size() % 2 == 1});
  }
  return keys;
}

// A text in a heap block of exactly its size: a read past its end is a sanitizer error (a
// std::string would have its terminating NUL there).
class ExactText {
 public:
  explicit ExactText(std::string_view text)
      : size_(text.size()), data_(std::make_unique<char[]>(text.size())) {
    if (size_ > 0) std::memcpy(data_.get(), text.data(), size_);
  }
  std::string_view view() const { return {data_.get(), size_}; }

 private:
  std::size_t size_;
  std::unique_ptr<char[]> data_;
};

struct Outcome {
  bool matched = false;
  std::vector<json> sort;  // when matched
};

Outcome reference(const query::Match& match, const std::vector<query::SortKey>& sort,
                  const json& doc) {
  Outcome out{query::matches(match, doc), {}};
  if (out.matched) {
    for (const query::SortKey& key : sort) {
      const json* value = query::resolve(doc, key.path);
      out.sort.push_back(value != nullptr ? *value : json());
    }
  }
  return out;
}

Outcome evaluated(TextQuery& query, std::string_view text) {
  const ExactText exact(text);
  Outcome out{query.matches(exact.view()), {}};
  if (out.matched) out.sort = query.sort_values();
  return out;
}

// The same value, of the same type (an unsigned 1 is not a float 1.0, -0.0 is not 0.0).
bool same_value(const json& a, const json& b) {
  return a.type() == b.type() && a == b && a.dump() == b.dump();
}

// An empty string when the outcomes agree, else what differs.
std::string difference(const Outcome& text, const Outcome& ref) {
  if (text.matched != ref.matched) {
    return "matches() is "s + (text.matched ? "true" : "false") + ", the reference says " +
           (ref.matched ? "true" : "false");
  }
  if (text.sort.size() != ref.sort.size()) {
    return "sort_values() has " + std::to_string(text.sort.size()) + " values, the reference " +
           std::to_string(ref.sort.size());
  }
  for (std::size_t i = 0; i < ref.sort.size(); ++i) {
    if (!same_value(text.sort[i], ref.sort[i])) {
      return "sort value " + std::to_string(i) + " is " + text.sort[i].dump() + " (" +
             text.sort[i].type_name() + "), query::resolve gives " + ref.sort[i].dump() + " (" +
             ref.sort[i].type_name() + ")";
    }
  }
  return {};
}

// Runs `match` (a match object's text) with `sort` over `doc`, asserts that TextQuery and the
// reference agree, and returns the reference's answer.
bool agreed(std::string_view match_text, std::string_view doc,
            const std::vector<query::SortKey>* sort = nullptr) {
  SCOPED_TRACE("match " + std::string(match_text) + " on " + std::string(doc));
  const json match_json = json::parse(match_text);
  const query::Match match = parsed_match(match_json);
  const std::vector<query::SortKey> keys = sort != nullptr ? *sort : sort_on_paths(match);
  EXPECT_TRUE(is_stored_text(doc));
  const json parsed = json::parse(doc);
  TextQuery query(match, keys);
  const Outcome ref = reference(match, keys, parsed);
  const Outcome text = evaluated(query, doc);
  EXPECT_EQ(difference(text, ref), "");
  return ref.matched;
}

struct Case {
  std::string_view match;
  bool expected;
};

// Each case's match against `doc`: the reference must give the expected answer, and TextQuery
// the reference's (and its sort values on the match's paths).
void check_table(std::string_view doc, const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    EXPECT_EQ(agreed(c.match, doc), c.expected) << "match " << c.match << " on " << doc;
  }
}

// ---- Operators ----------------------------------------------------------------------------------

constexpr std::string_view kScalars =
    R"({"n": 5, "s": "abc", "t": true, "f": false, "z": null, "d": 2.5, "neg": -3})";

TEST(TextQueryOperators, Equality) {
  check_table(kScalars,
              {
                  {R"({"n": 5})", true},    {R"({"n": 6})", false},    {R"({"n": 5.0})", true},
                  {R"({"n": "5"})", false}, {R"({"s": "abc"})", true}, {R"({"s": "ab"})", false},
                  {R"({"s": 1})", false},   {R"({"t": true})", true},  {R"({"t": false})", false},
                  {R"({"t": 1})", false},   {R"({"f": false})", true}, {R"({"f": null})", false},
                  {R"({"z": null})", true}, {R"({"z": 0})", false},    {R"({"z": false})", false},
                  {R"({"d": 2.5})", true},  {R"({"neg": -3})", true},  {R"({"neg": -3.0})", true},
                  {R"({"neg": 3})", false},
              });
}

TEST(TextQueryOperators, NotEqual) {
  check_table(kScalars, {
                            {R"({"n:$ne": 5})", false},
                            {R"({"n:$ne": 6})", true},
                            {R"({"n:$ne": null})", true},
                            {R"({"n:$ne": "5"})", true},
                            {R"({"z:$ne": null})", false},
                            {R"({"z:$ne": 0})", true},
                            {R"({"missing:$ne": null})", false},
                            {R"({"missing:$ne": 1})", true},
                            {R"({"t:$ne": true})", false},
                            {R"({"t:$ne": false})", true},
                        });
}

TEST(TextQueryOperators, Ranges) {
  check_table(kScalars, {
                            {R"({"n:$gt": 4})", true},
                            {R"({"n:$gt": 5})", false},
                            {R"({"n:$gte": 5})", true},
                            {R"({"n:$gte": 5.000001})", false},
                            {R"({"n:$lt": 5})", false},
                            {R"({"n:$lt": 5.5})", true},
                            {R"({"n:$lte": 5})", true},
                            {R"({"n:$lte": 4.999})", false},
                            {R"({"n:$gt": "4"})", false},
                            {R"({"s:$gt": "abb"})", true},
                            {R"({"s:$gt": "abc"})", false},
                            {R"({"s:$gte": "abc"})", true},
                            {R"({"s:$lt": "abd"})", true},
                            {R"({"s:$lt": "ab"})", false},
                            {R"({"s:$lte": "abc"})", true},
                            {R"({"s:$lte": ""})", false},
                            {R"({"s:$gt": 1})", false},
                            {R"({"t:$gt": 0})", false},
                            {R"({"t:$lt": "z"})", false},
                            {R"({"z:$gte": 0})", false},
                            {R"({"z:$lte": ""})", false},
                            {R"({"missing:$gt": 0})", false},
                            {R"({"missing:$lt": "z"})", false},
                            {R"({"d:$gt": 2})", true},
                            {R"({"d:$lt": 3})", true},
                            {R"({"d:$gte": 2.5})", true},
                            {R"({"d:$gt": 2.5})", false},
                            {R"({"neg:$lt": 0})", true},
                            {R"({"neg:$gte": -3})", true},
                            {R"({"neg:$gt": -3})", false},
                            {R"({"n:$gt": 1, "n:$lt": 10})", true},
                            {R"({"n:$gt": 1, "n:$lt": 3})", false},
                        });
}

TEST(TextQueryOperators, InAndNotIn) {
  check_table(kScalars, {
                            {R"({"s:$in": ["x", "abc"]})", true},
                            {R"({"s:$in": ["x"]})", false},
                            {R"({"s:$in": []})", false},
                            {R"({"s:$nin": ["abc"]})", false},
                            {R"({"s:$nin": ["x", 1, null]})", true},
                            {R"({"s:$nin": []})", true},
                            {R"({"n:$in": [1, 5.0]})", true},
                            {R"({"n:$in": ["5", [5], {"n": 5}]})", false},
                            {R"({"n:$nin": [1, 2]})", true},
                            {R"({"z:$in": [null]})", true},
                            {R"({"z:$nin": [null]})", false},
                            {R"({"t:$in": [false, true]})", true},
                            {R"({"missing:$in": [1]})", false},
                            {R"({"missing:$nin": [1]})", true},
                            {R"({"missing:$in": [1, null]})", true},
                            {R"({"missing:$nin": [null]})", false},
                        });
}

TEST(TextQueryOperators, Conjunctions) {
  check_table(kScalars, {
                            {R"({"n": 5, "s": "abc"})", true},
                            {R"({"n": 5, "s": "x"})", false},
                            {R"({"n:$ne": 4, "s:$in": ["abc"], "z": null, "d:$lte": 2.5})", true},
                            {R"({"n:$ne": 4, "s:$in": ["abc"], "z": null, "d:$lt": 2.5})", false},
                            {R"({"missing": null, "t": true, "f:$nin": [true]})", true},
                        });
}

// ---- Null equality and missing paths ------------------------------------------------------------

TEST(TextQueryMissing, NullEqualityWithMissingPaths) {
  constexpr std::string_view kDoc = R"({
    "a": {"b": null, "c": 1},
    "items": [{"x": 1}, {"x": null}, {"y": 2}],
    "all": [{"x": 1}, {"x": 2}],
    "mixed": [{"x": 1}, 5],
    "empty": [],
    "nested": [[{"x": 1}]],
    "scalar": 7,
    "nul": null,
    "str": "text"
  })";
  check_table(kDoc, {
                        {R"({"a.b": null})", true},
                        {R"({"a.c": null})", false},
                        {R"({"a.q": null})", true},
                        {R"({"a.q.r": null})", true},
                        {R"({"q": null})", true},
                        {R"({"q.r.s": null})", true},
                        {R"({"a.c.d": null})", true},
                        {R"({"a.b.d": null})", true},
                        {R"({"items.x": null})", true},
                        {R"({"items.x": 1})", true},
                        {R"({"items.x:$ne": null})", false},
                        {R"({"items.y": null})", true},
                        {R"({"items.y": 2})", true},
                        {R"({"items.y:$ne": null})", false},
                        {R"({"items.x:$in": [null]})", true},
                        {R"({"items.x:$nin": [null, 7]})", false},
                        {R"({"all.x": null})", false},
                        {R"({"all.x:$ne": null})", true},
                        {R"({"all.x:$in": [null, 3]})", false},
                        {R"({"all.x:$nin": [null]})", true},
                        {R"({"all.y": null})", true},
                        {R"({"mixed.x": null})", true},
                        {R"({"mixed.x": 1})", true},
                        {R"({"mixed.x:$ne": null})", false},
                        {R"({"empty": []})", true},
                        {R"({"empty.x": null})", true},
                        {R"({"empty.x:$ne": null})", false},
                        {R"({"nested.x": null})", true},
                        {R"({"nested.x": 1})", false},
                        {R"({"scalar.x": null})", true},
                        {R"({"nul.x": null})", true},
                        {R"({"str.x": null})", true},
                        {R"({"str.x:$gt": ""})", false},
                    });
}

TEST(TextQueryMissing, MissingOnOneBranchOfAnArrayOfObjects) {
  constexpr std::string_view kOneMissing = R"({"items": [{"x": 1}, {"y": 2}]})";
  check_table(kOneMissing, {
                               {R"({"items.x": null})", true},
                               {R"({"items.x:$ne": null})", false},
                               {R"({"items.x:$in": [null]})", true},
                               {R"({"items.x:$nin": [null]})", false},
                               {R"({"items.x": 1})", true},
                               {R"({"items.x:$gt": 0})", true},
                           });
  constexpr std::string_view kNoneMissing = R"({"items": [{"x": 1}, {"x": 2, "y": 2}]})";
  check_table(kNoneMissing, {
                                {R"({"items.x": null})", false},
                                {R"({"items.x:$ne": null})", true},
                                {R"({"items.y": null})", true},
                            });
  // Missing one level further down, on the last branch only.
  constexpr std::string_view kDeep =
      R"({"a": [{"b": [{"c": 1}, {"c": 2}]}, {"b": [{"c": 3}, {"d": 4}]}]})";
  check_table(kDeep, {
                         {R"({"a.b.c": null})", true},
                         {R"({"a.b.c": 3})", true},
                         {R"({"a.b.c:$ne": null})", false},
                         {R"({"a.b.d": 4})", true},
                         {R"({"a.b.d:$nin": [4]})", false},
                     });
  constexpr std::string_view kDeepFull = R"({"a": [{"b": [{"c": 1}]}, {"b": {"c": 3}}]})";
  check_table(kDeepFull, {
                             {R"({"a.b.c": null})", false},
                             {R"({"a.b.c:$ne": null})", true},
                             {R"({"a.b.c": 3})", true},
                         });
}

// ---- Arrays -------------------------------------------------------------------------------------

TEST(TextQueryArrays, ScalarsObjectsAndNestedArrays) {
  constexpr std::string_view kDoc = R"({
    "tags": ["home", "light"], "dims": [10, 20, 30], "m": [[1, 2], [3]],
    "objs": [{"k": "a", "v": [1, 2]}, {"k": "b", "v": 3}],
    "deep": {"list": [{"in": [{"z": 1}]}]},
    "nested": [[{"x": 1}]], "mixed": [1, "one", null, true, {"x": 1}, [2]]
  })";
  check_table(kDoc, {
                        {R"({"tags": "home"})", true},
                        {R"({"tags": "x"})", false},
                        {R"({"tags": ["home", "light"]})", true},
                        {R"({"tags": ["light", "home"]})", false},
                        {R"({"tags": ["home"]})", false},
                        {R"({"tags:$in": ["x", "light"]})", true},
                        {R"({"tags:$nin": ["home"]})", false},
                        {R"({"tags:$nin": ["x"]})", true},
                        {R"({"tags:$gt": "k"})", true},
                        {R"({"tags:$gt": "m"})", false},
                        {R"({"tags:$ne": "home"})", false},
                        {R"({"tags.length": null})", true},
                        {R"({"dims:$gt": 25})", true},
                        {R"({"dims:$gt": 30})", false},
                        {R"({"dims:$lt": 11})", true},
                        {R"({"dims:$lte": 9})", false},
                        {R"({"dims": 20})", true},
                        {R"({"dims:$ne": 20})", false},
                        {R"({"dims": [10, 20, 30]})", true},
                        {R"({"dims": [10.0, 2e1, 30]})", true},
                        {R"({"m": [1, 2]})", true},
                        {R"({"m": [3]})", true},
                        {R"({"m": 1})", false},
                        {R"({"m": [[1, 2], [3]]})", true},
                        {R"({"m:$gt": 0})", false},
                        {R"({"m:$in": [[3], 7]})", true},
                        {R"({"objs.k": "b"})", true},
                        {R"({"objs.k:$in": ["c"]})", false},
                        {R"({"objs.v": 2})", true},
                        {R"({"objs.v": 3})", true},
                        {R"({"objs.v": [1, 2]})", true},
                        {R"({"objs.v:$gt": 2})", true},
                        {R"({"objs.v:$gt": 3})", false},
                        {R"({"objs": {"k": "b", "v": 3}})", true},
                        {R"({"objs": {"v": 3, "k": "b"}})", true},
                        {R"({"objs": {"k": "b"}})", false},
                        {R"({"deep.list.in.z": 1})", true},
                        {R"({"deep.list.in.z": null})", false},
                        {R"({"deep.list.in": {"z": 1}})", true},
                        {R"({"nested.x": 1})", false},
                        {R"({"nested": [{"x": 1}]})", true},
                        {R"({"mixed": "one"})", true},
                        {R"({"mixed": null})", true},
                        {R"({"mixed": [2]})", true},
                        {R"({"mixed": 2})", false},
                        {R"({"mixed": {"x": 1}})", true},
                        {R"({"mixed.x": 1})", true},
                        {R"({"mixed.x": null})", true},
                        {R"({"mixed:$gt": 0})", true},
                        {R"({"mixed:$gt": "o"})", true},
                        {R"({"mixed:$gt": 1})", false},
                    });
}

// ---- Numbers ------------------------------------------------------------------------------------

TEST(TextQueryNumbers, EveryForm) {
  constexpr std::string_view kDoc = R"({
    "i": 42, "neg": -17, "zero": 0, "nz": -0, "nzf": -0.0, "frac": 1.0,
    "big": 18446744073709551615, "max": 9223372036854775807, "above": 9223372036854775808,
    "min": -9223372036854775808, "belowmin": -9223372036854775809,
    "over64": 18446744073709551616, "long": 123456789012345678901234567890,
    "f": 0.5, "e": 1e2, "E": 2.5E-3, "ep": 1E+2, "en": -1e-2,
    "under": 1e-400, "nunder": -1e-400, "huge": 1.7976931348623157e308, "tiny": 4.9e-324,
    "digits": 0.1000000000000000055511151231257827021181583404541015625,
    "longexp": 1e0000000000000000000002, "zeroexp": 0e99999999999, "negexp": 1e-99999999999,
    "longmant": 100000000000000000000000000000000000000000000e-44,
    "manydigits": 1.00000000000000000000000000000000000000000000000001,
    "exact": 9007199254740993, "halfsub": 2.4703282292062328e-324,
    "belowhalf": 2.4703282292062327e-324
  })";
  check_table(kDoc, {
                        {R"({"i": 42})", true},
                        {R"({"i": 42.0})", true},
                        {R"({"i": 4.2e1})", true},
                        {R"({"i:$gt": 41.9999})", true},
                        {R"({"i:$lt": 42.0000001})", true},
                        {R"({"neg": -17})", true},
                        {R"({"neg:$lt": -16.5})", true},
                        {R"({"neg:$gt": -17.5})", true},
                        {R"({"zero": -0})", true},
                        {R"({"zero": -0.0})", true},
                        {R"({"nz": 0})", true},
                        {R"({"nz:$lt": 0})", false},
                        {R"({"nzf": 0})", true},
                        {R"({"nzf": -0.0})", true},
                        {R"({"nzf:$gte": 0})", true},
                        {R"({"nzf:$lt": 0})", false},
                        {R"({"frac": 1})", true},
                        {R"({"big": 18446744073709551615})", true},
                        {R"({"big": 18446744073709551614})", false},
                        {R"({"big:$gt": 9223372036854775807})", true},
                        {R"({"big:$gt": -1})", true},
                        {R"({"big": 1.8446744073709552e19})", false},
                        {R"({"big:$lt": 1.8446744073709552e19})", true},
                        {R"({"max": 9223372036854775807})", true},
                        {R"({"max": 9223372036854775808})", false},
                        {R"({"max": 9.223372036854775808e18})", false},
                        {R"({"max:$lt": 9.223372036854775808e18})", true},
                        {R"({"above": 9223372036854775808})", true},
                        {R"({"above": 9.223372036854775808e18})", true},
                        {R"({"above:$gt": 9223372036854775807})", true},
                        {R"({"min": -9223372036854775808})", true},
                        {R"({"min:$lt": -9223372036854775807})", true},
                        {R"({"min": -9.223372036854775808e18})", true},
                        {R"({"belowmin": -9223372036854775808})", true},
                        {R"({"belowmin:$lt": -9223372036854775807})", true},
                        {R"({"over64": 18446744073709551616})", true},
                        {R"({"over64:$gt": 18446744073709551615})", true},
                        {R"({"long:$gt": 1e29})", true},
                        {R"({"long": 1.2345678901234568e29})", true},
                        {R"({"f": 0.5})", true},
                        {R"({"f": 5e-1})", true},
                        {R"({"f:$lt": 1})", true},
                        {R"({"e": 100})", true},
                        {R"({"ep": 100})", true},
                        {R"({"E": 0.0025})", true},
                        {R"({"en": -0.01})", true},
                        {R"({"under": 0})", true},
                        {R"({"under:$gt": 0})", false},
                        {R"({"nunder": 0})", true},
                        {R"({"nunder:$lt": 0})", false},
                        {R"({"tiny:$gt": 0})", true},
                        {R"({"tiny": 5e-324})", true},
                        {R"({"huge:$gt": 1e308})", true},
                        {R"({"huge": 1.7976931348623157e308})", true},
                        {R"({"digits": 0.1})", true},
                        {R"({"longexp": 100})", true},
                        {R"({"zeroexp": 0})", true},
                        {R"({"negexp": 0})", true},
                        {R"({"negexp:$gt": 0})", false},
                        {R"({"longmant": 1})", true},
                        {R"({"manydigits": 1})", true},
                        {R"({"exact": 9007199254740993})", true},
                        {R"({"exact": 9007199254740992.0})", false},
                        {R"({"exact:$gt": 9007199254740992.0})", true},
                        {R"({"halfsub": 5e-324})", true},
                        {R"({"halfsub:$gt": 0})", true},
                        {R"({"belowhalf": 0})", true},
                        {R"({"i:$in": ["42", 42.0]})", true},
                        {R"({"max:$nin": [9223372036854775808]})", true},
                    });
}

// ---- Strings and keys with escapes --------------------------------------------------------------

TEST(TextQueryStrings, Escapes) {
  constexpr std::string_view kDoc = R"({
    "e1": "caf\u00e9", "e2": "café", "sp": "\ud83d\ude00", "raw": "😀", "upper": "\u00C9",
    "q": "say \"hi\"", "bs": "back\\", "bsq": "\\\"", "sl": "a\/b", "ctl": "\n\t\b\f\r",
    "endq": "x\\\\", "nul": "a\u0000b", "mix": "\"\\\"\\\\\"", "brackets": "}]{[\",:",
    "uq": "\u0022"
  })";
  check_table(kDoc, {
                        {R"({"e1": "café"})", true},
                        {R"({"e1": "caf\u00e9"})", true},
                        {R"({"e1": "cafe"})", false},
                        {R"({"e2": "caf\u00e9"})", true},
                        {R"({"e1:$gt": "cafe"})", true},
                        {R"({"e1:$gte": "café"})", true},
                        {R"({"e1:$lt": "café"})", false},
                        {R"({"sp": "😀"})", true},
                        {R"({"raw": "\ud83d\ude00"})", true},
                        {R"({"sp:$gt": "\uffff"})", true},
                        {R"({"upper": "É"})", true},
                        {R"({"upper:$lt": "\u00e9"})", true},
                        {R"({"q": "say \"hi\""})", true},
                        {R"({"q": "say "})", false},
                        {R"({"q:$in": ["x", "say \"hi\""]})", true},
                        {R"({"bs": "back\\"})", true},
                        {R"({"bs": "back"})", false},
                        {R"({"bsq": "\\\""})", true},
                        {R"({"sl": "a/b"})", true},
                        {R"({"ctl": "\n\t\b\f\r"})", true},
                        {R"({"endq": "x\\\\"})", true},
                        {R"({"endq:$gt": "x\\"})", true},
                        {R"({"nul": "a\u0000b"})", true},
                        {R"({"nul": "a"})", false},
                        {R"({"nul:$gt": "a"})", true},
                        {R"({"mix": "\"\\\"\\\\\""})", true},
                        {R"({"brackets": "}]{[\",:"})", true},
                        {R"({"uq": "\""})", true},
                        {R"({"uq:$ne": "\""})", false},
                    });
  // Members the walk skips, their strings ending in backslashes and holding quotes and brackets.
  check_table(R"({"s1": "\\", "s2": "\\\\", "s3": "\"}", "s4": "]\\\"[", "s5": ["\\", "]"],
                  "s6": {"\"": "}"}, "t": 2})",
              {
                  {R"({"t": 2})", true},
                  {R"({"t": 3})", false},
                  {R"({"u": null})", true},
              });
}

TEST(TextQueryStrings, KeysWithEscapes) {
  constexpr std::string_view kDoc = R"({
    "z\"": "skipped", "\u0061": 1, "b\"c": 2, "d\\": 3, "\u00e9": 4, "\ud83d\ude00": 5,
    "x\/y": 6, "nested": {"\u006bey": {"v": 7}, "k\\\"": 8}, "\"": 9, "\\": 10, "a\u0000b": 11
  })";
  check_table(kDoc, {
                        {R"({"a": 1})", true},
                        {R"({"\u0061": 1})", true},
                        {R"({"a": 2})", false},
                        {R"({"b\"c": 2})", true},
                        {R"({"d\\": 3})", true},
                        {R"({"d": null})", true},
                        {R"({"é": 4})", true},
                        {R"({"\u00e9": 4})", true},
                        {R"({"😀": 5})", true},
                        {R"({"x/y": 6})", true},
                        {R"({"nested.key.v": 7})", true},
                        {R"({"nested.k": null})", true},
                        {R"({"nested.k\\\"": 8})", true},
                        {R"({"\"": 9})", true},
                        {R"({"\\": 10})", true},
                        {R"({"a\u0000b": 11})", true},
                        {R"({"a": 11})", false},
                        {R"({"z\"": "skipped"})", true},
                        {R"({"z": null})", true},
                    });
}

// ---- Deep nesting -------------------------------------------------------------------------------

TEST(TextQueryNesting, DeepPathsAndDeepSkippedValues) {
  // "a" nested 30 objects deep, then {"v": 1, "w": [1, {"x": 2}]}: the path to w.x has 32
  // segments (the parser's limit). Beside it, arrays 300 deep that the walk skips, and an object
  // 200 deep that it skips or compares whole.
  std::string chain;
  for (int i = 0; i < 30; ++i) chain += i == 0 ? "a" : ".a";
  std::string deep;
  for (int i = 1; i < 30; ++i) deep += R"({"a": )";
  deep += R"({"v": 1, "w": [1, {"x": 2}]})" + std::string(29, '}');
  std::string skipped_object;
  for (int i = 0; i < 200; ++i) skipped_object += R"({"k": )";
  skipped_object += R"("}]")" + std::string(200, '}');
  const std::string doc = R"({"skip": )" + std::string(300, '[') + "1" + std::string(300, ']') +
                          R"(, "obj": )" + skipped_object + R"(, "a": )" + deep + "}";
  ASSERT_TRUE(is_stored_text(doc));
  const std::string v = chain + ".v";
  const std::string w = chain + ".w";
  const std::string x = w + ".x";
  const std::vector<std::pair<std::string, bool>> cases = {
      {R"({")" + v + R"(": 1})", true},
      {R"({")" + v + R"(": 2})", false},
      {R"({")" + v + R"(:$gte": 1})", true},
      {R"({")" + w + R"(": [1, {"x": 2}]})", true},
      {R"({")" + w + R"(": 1})", true},
      {R"({")" + x + R"(": 2})", true},
      {R"({")" + x + R"(": null})", true},
      {R"({")" + chain + R"(.q": null})", true},
      {R"({"skip": 1})", false},
      {R"({"skip.k": null})", true},
      {R"({"obj.k.k.k.k": {"k": {"k": null}}})", false},
      {R"({"obj.k.k.k.k.k.k.k.k.k.k.q": null})", true},
      {R"({"a.a.a": null})", false},
      {json{{"obj", json::parse(skipped_object)}}.dump(), true},
  };
  for (const auto& [match, expected] : cases) EXPECT_EQ(agreed(match, doc), expected) << match;
  // Sort values on every level of the path.
  std::vector<query::SortKey> sort;
  std::string prefix;
  for (int i = 0; i < 30; ++i) {
    prefix += i == 0 ? "a" : ".a";
    sort.push_back(query::SortKey{*query::parse_path(prefix), i % 2 == 0});
  }
  sort.push_back(query::SortKey{*query::parse_path(v), false});
  sort.push_back(query::SortKey{*query::parse_path(x), false});
  sort.push_back(query::SortKey{*query::parse_path("obj"), false});
  EXPECT_TRUE(agreed("{}", doc, &sort));
}

// ---- More than 64 members on a queried level ----------------------------------------------------

// "f00".."f99": names that the match object (a sorted map) keeps in numeric order, so condition
// i is the walk's child i.
std::string field(int i) { return "f" + std::string(i < 10 ? "0" : "") + std::to_string(i); }

std::string wide_object(int members, int skip = -1) {
  std::string out = "{";
  for (int i = 0; i < members; ++i) {
    if (i == skip) continue;
    if (out.size() > 1) out += ", ";
    out += "\"" + field(i) + "\": " + std::to_string(i);
  }
  return out + "}";
}

std::string equalities(int count, const std::string& prefix = "") {
  std::string out;
  for (int i = 0; i < count; ++i) {
    out += ", \"" + prefix + field(i) + "\": " + std::to_string(i);
  }
  return out;
}

TEST(TextQueryWide, MoreThan64MembersOnAQueriedLevel) {
  const std::string doc = wide_object(100);
  // 70 conditions: children 64..69 live in the overflow beyond the 64-bit mask.
  EXPECT_TRUE(agreed("{" + equalities(70).substr(2) + "}", doc));
  // A wrong value at child 67.
  {
    json match = json::parse("{" + equalities(70).substr(2) + "}");
    match["f67"] = 0;
    EXPECT_FALSE(agreed(match.dump(), doc));
  }
  // Null equality on a missing child beyond 64 ("g" sorts after every "f.."), and on one that is
  // there.
  EXPECT_TRUE(agreed("{" + equalities(69).substr(2) + R"(, "g": null})", doc));
  EXPECT_FALSE(agreed("{" + equalities(69).substr(2) + R"(, "g:$ne": null})", doc));
  EXPECT_FALSE(agreed("{" + equalities(69).substr(2) + R"(, "f99": null})", doc));
  EXPECT_TRUE(agreed("{" + equalities(69).substr(2) + R"(, "f99:$ne": null})", doc));
  // A missing child below 64 ("a" sorts first) while those beyond are met.
  EXPECT_TRUE(agreed(R"({"a": null)" + equalities(70) + "}", doc));
  EXPECT_FALSE(agreed(R"({"a": null)" + equalities(70) + "}", R"({"a": 1, )" + doc.substr(1)));
  // No member beyond 64 is met at all: those children are missing.
  const std::string narrow = wide_object(64);
  EXPECT_TRUE(agreed("{" + equalities(64).substr(2) + R"(, "f64": null, "f65": null})", narrow));
  EXPECT_FALSE(agreed("{" + equalities(64).substr(2) + R"(, "f64:$ne": null})", narrow));
  EXPECT_FALSE(agreed("{" + equalities(64).substr(2) + R"(, "f64": 64})", narrow));
  // A missing member beyond 64 whose path goes on: everything under it is missing too.
  EXPECT_TRUE(agreed("{" + equalities(68).substr(2) + R"(, "f98.x": null, "h.x.y": null})", doc));
  EXPECT_FALSE(agreed("{" + equalities(68).substr(2) + R"(, "h.x.y:$ne": null})", doc));
  // The member beyond 64 is absent from one document only.
  EXPECT_TRUE(agreed("{" + equalities(64).substr(2) + R"(, "f66": null, "f67": 67})",
                     wide_object(100, 66)));
  EXPECT_FALSE(agreed("{" + equalities(64).substr(2) + R"(, "f66": null, "f67": 67})", doc));
  // The same on a nested level, and on the elements of an array of objects (each element is a
  // level of its own: one lacking f66 makes items.f66 missing).
  const std::string nested = R"({"o": )" + wide_object(100) + "}";
  EXPECT_TRUE(agreed("{" + equalities(70, "o.").substr(2) + "}", nested));
  EXPECT_TRUE(agreed("{" + equalities(69, "o.").substr(2) + R"(, "o.g": null})", nested));
  const std::string items = R"({"items": [)" + wide_object(100) + ", " + wide_object(100, 66) +
                            ", " + wide_object(100) + "]}";
  EXPECT_TRUE(agreed("{" + equalities(65, "items.").substr(2) + R"(, "items.f66": null})", items));
  EXPECT_FALSE(
      agreed("{" + equalities(65, "items.").substr(2) + R"(, "items.f66:$ne": null})", items));
  EXPECT_TRUE(agreed("{" + equalities(65, "items.").substr(2) + R"(, "items.f67": 67})", items));
  const std::string items_full =
      R"({"items": [)" + wide_object(100) + ", " + wide_object(100) + "]}";
  EXPECT_FALSE(
      agreed("{" + equalities(65, "items.").substr(2) + R"(, "items.f66": null})", items_full));
  // Sort keys add children too: 60 conditions and 10 sort keys beyond them.
  {
    const query::Match match = parsed_match(json::parse("{" + equalities(60).substr(2) + "}"));
    std::vector<query::SortKey> sort;
    for (int i = 60; i < 70; ++i) {
      sort.push_back(query::SortKey{*query::parse_path(field(i + 25)), i % 2 == 0});
    }
    sort.push_back(query::SortKey{*query::parse_path("missing"), true});
    TextQuery query(match, sort);
    const Outcome text = evaluated(query, doc);
    EXPECT_EQ(difference(text, reference(match, sort, json::parse(doc))), "");
    ASSERT_TRUE(text.matched);
    EXPECT_EQ(text.sort[5], json(90));
    EXPECT_TRUE(text.sort[10].is_null());
  }
}

// ---- Whitespace ---------------------------------------------------------------------------------

TEST(TextQueryWhitespace, BlanksEverywhere) {
  constexpr std::string_view kDoc =
      " \n\t\r{ \"a\" \n:\r [ 1 , { \"b\" : \"x\" } ,\t[ ] , { } ] \t, \"n\"\n:\n-1.5e+2\n , "
      "\"t\" :true ,\"o\"\t:\t{\t\"p\"\r\n:\r\nnull\r\n}\r\n,\"s\":\"  \"  ,\"e\" : [ ] } \n\t ";
  check_table(kDoc, {
                        {R"({"a": 1})", true},
                        {R"({"a.b": "x"})", true},
                        {R"({"a.b": null})", true},
                        {R"({"a": []})", true},
                        {R"({"a": {}})", true},
                        {R"({"a": {"b": "x"}})", true},
                        {R"({"a": [1, {"b": "x"}, [], {}]})", true},
                        {R"({"n": -150})", true},
                        {R"({"n:$lt": -149.5})", true},
                        {R"({"t": true})", true},
                        {R"({"o.p": null})", true},
                        {R"({"o": {"p": null}})", true},
                        {R"({"o.p:$ne": null})", false},
                        {R"({"s": "  "})", true},
                        {R"({"e": []})", true},
                        {R"({"e.x": null})", true},
                        {R"({"q": null, "t:$ne": false, "n:$in": [-150.0]})", true},
                    });
}

// ---- Object and array operands ------------------------------------------------------------------

TEST(TextQueryOperands, ObjectsAndArrays) {
  constexpr std::string_view kDoc = R"({
    "o": {"a": 1, "b": [1, 2], "c": {"d": null}},
    "arr": [{"a": 1}, [1, 2], 3], "e": {}, "ea": [], "s": "[1]"
  })";
  check_table(kDoc, {
                        {R"({"o": {"b": [1, 2], "a": 1, "c": {"d": null}}})", true},
                        {R"({"o": {"a": 1.0, "b": [1.0, 2], "c": {"d": null}}})", true},
                        {R"({"o": {"a": 1, "b": [2, 1], "c": {"d": null}}})", false},
                        {R"({"o": {"a": 1, "b": [1, 2], "c": {}}})", false},
                        {R"({"o": {"a": 1}})", false},
                        {R"({"o:$ne": {"a": 1}})", true},
                        {R"({"o:$in": [1, {"a": 1, "b": [1, 2], "c": {"d": null}}]})", true},
                        {R"({"o:$nin": [{"a": 1, "b": [1, 2], "c": {"d": null}}]})", false},
                        {R"({"o.c": {"d": null}})", true},
                        {R"({"o.c.d": null})", true},
                        {R"({"o.b": [1, 2]})", true},
                        {R"({"o.b": 2})", true},
                        {R"({"o": {"a": 1, "b": [1, 2], "c": {"d": null}}, "o.a": 1})", true},
                        {R"({"o": {"a": 1, "b": [1, 2], "c": {"d": null}}, "o.a": 2})", false},
                        {R"({"arr": {"a": 1}})", true},
                        {R"({"arr": [1, 2]})", true},
                        {R"({"arr": 3})", true},
                        {R"({"arr": [3]})", false},
                        {R"({"arr": [{"a": 1}, [1, 2], 3]})", true},
                        {R"({"arr:$in": [[1, 2]]})", true},
                        {R"({"arr:$nin": [{"a": 1}]})", false},
                        {R"({"arr.a": 1})", true},
                        {R"({"arr.a": null})", true},
                        {R"({"e": {}})", true},
                        {R"({"e": []})", false},
                        {R"({"ea": []})", true},
                        {R"({"ea": {}})", false},
                        {R"({"ea:$in": [[]]})", true},
                        {R"({"ea:$nin": [[]]})", false},
                        {R"({"s": [1]})", false},
                        {R"({"s": "[1]"})", true},
                    });
}

// ---- Sort values --------------------------------------------------------------------------------

TEST(TextQuerySort, ValuesAreWhatResolveReaches) {
  constexpr std::string_view kDoc = R"({
    "a": {"b": 2, "c": [1, {"d": 3}]}, "s": "caf\u00e9 \"q\"", "n": -0.0, "i": -0,
    "u": 18446744073709551615, "f": 1.5e-3, "arr": [{"x": 1}], "nul": null,
    "o": {"z": 1, "a": [true]}, "t": false, "under": 1e-400
  })";
  const std::vector<query::SortKey> sort = parsed_sort(
      "a.b, a.c desc, a.c.d, s desc, n, i, u, f, arr.x, arr, nul desc, missing, o, o.a, a.b.c, "
      "t, under, a");
  TextQuery query({}, sort);
  EXPECT_TRUE(query.reads_documents());
  const Outcome text = evaluated(query, kDoc);
  const Outcome ref = reference({}, sort, json::parse(kDoc));
  EXPECT_EQ(difference(text, ref), "");
  ASSERT_TRUE(text.matched);
  ASSERT_EQ(text.sort.size(), sort.size());
  EXPECT_TRUE(same_value(text.sort[0], json(2u)));
  EXPECT_EQ(text.sort[1], json::parse(R"([1, {"d": 3}])"));
  EXPECT_TRUE(text.sort[2].is_null());  // through an array
  EXPECT_EQ(text.sort[3], json("café \"q\""));
  EXPECT_TRUE(same_value(text.sort[4], json(-0.0)));
  EXPECT_TRUE(same_value(text.sort[5], json(std::int64_t{0})));
  EXPECT_TRUE(same_value(text.sort[6], json(UINT64_MAX)));
  EXPECT_TRUE(text.sort[8].is_null());  // through an array
  EXPECT_EQ(text.sort[9], json::parse(R"([{"x": 1}])"));
  EXPECT_TRUE(text.sort[10].is_null());
  EXPECT_TRUE(text.sort[11].is_null());  // missing
  EXPECT_EQ(text.sort[12], json::parse(R"({"a": [true], "z": 1})"));
  EXPECT_TRUE(text.sort[14].is_null());  // a scalar in the way
  EXPECT_TRUE(same_value(text.sort[15], json(false)));
  EXPECT_TRUE(same_value(text.sort[16], json(0.0)));
}

TEST(TextQuerySort, ValuesComeOnlyWithAMatch) {
  const query::Match match = parsed_match(json::parse(R"({"k:$gt": 1})"));
  const std::vector<query::SortKey> sort = parsed_sort("v desc");
  TextQuery query(match, sort);
  EXPECT_TRUE(query.matches(R"({"k": 2, "v": "x"})"));
  ASSERT_EQ(query.sort_values().size(), 1u);
  EXPECT_EQ(query.sort_values()[0], json("x"));
  EXPECT_FALSE(query.matches(R"({"k": 1, "v": "y"})"));
  EXPECT_TRUE(query.matches(R"({"k": 3})"));
  ASSERT_EQ(query.sort_values().size(), 1u);
  EXPECT_TRUE(query.sort_values()[0].is_null());  // not the value of an earlier document
}

TEST(TextQuerySort, CompareSortValuesWithMixedDirections) {
  const std::vector<query::SortKey> keys = parsed_sort("a asc, b desc, c asc");
  const auto row = [](const char* text) { return json::parse(text).get<std::vector<json>>(); };
  EXPECT_EQ(compare_sort_values(row("[1, 2, 3]"), row("[1, 2, 3]"), keys), 0);
  EXPECT_LT(compare_sort_values(row("[1, 2, 3]"), row("[2, 9, 0]"), keys), 0);
  EXPECT_GT(compare_sort_values(row("[2, 9, 0]"), row("[1, 2, 3]"), keys), 0);
  EXPECT_LT(compare_sort_values(row("[1, 9, 3]"), row("[1, 2, 3]"), keys), 0);  // b desc
  EXPECT_GT(compare_sort_values(row("[1, 2, 3]"), row("[1, 9, 3]"), keys), 0);
  EXPECT_LT(compare_sort_values(row("[1, 2, 3]"), row("[1, 2, 4]"), keys), 0);
  EXPECT_LT(compare_sort_values(row("[null, 2, 3]"), row("[0, 2, 3]"), keys), 0);
  EXPECT_LT(compare_sort_values(row("[1, true, 3]"), row("[1, [], 3]"), keys), 0);
  EXPECT_GT(compare_sort_values(row("[1, null, 3]"), row("[1, -5, 3]"), keys), 0);
  EXPECT_EQ(compare_sort_values(row("[1, 1.0, 3]"), row("[1.0, 1, 3e0]"), keys), 0);
  EXPECT_LT(compare_sort_values(row(R"([1, 2, "a"])"), row("[1, 2, {}]"), keys), 0);

  // On documents: the order of their sort values is compare_for_sort's.
  const std::vector<std::string> docs = {
      R"({"a": 1, "b": "x", "c": [1]})",
      R"({"a": 1, "b": "y"})",
      R"({"a": 1.0, "b": "y", "c": [0, 5]})",
      R"({"a": null, "b": {"z": 1}})",
      R"({"b": true, "c": false})",
      R"({"a": "1", "b": [], "c": {"k": 1}})",
      R"({"a": [1], "b": 18446744073709551615, "c": -1})",
      R"({"a": {"x": 1}, "b": -0.0, "c": 1e-400})",
      R"({"a": 1, "b": "y", "c": [0, 5]})",
      R"({"a": {"b": 1}, "c": "é"})",
  };
  const std::vector<query::SortKey> doc_keys = parsed_sort("a, b desc, c");
  TextQuery query({}, doc_keys);
  std::vector<std::vector<json>> rows;
  for (const std::string& doc : docs) {
    ASSERT_TRUE(query.matches(doc));
    rows.push_back(query.sort_values());
  }
  const auto sign = [](int v) { return v < 0 ? -1 : (v > 0 ? 1 : 0); };
  for (std::size_t i = 0; i < docs.size(); ++i) {
    for (std::size_t j = 0; j < docs.size(); ++j) {
      EXPECT_EQ(sign(compare_sort_values(rows[i], rows[j], doc_keys)),
                sign(query::compare_for_sort(json::parse(docs[i]), json::parse(docs[j]), doc_keys)))
          << docs[i] << " vs " << docs[j];
    }
  }
}

// ---- The empty query; reuse ---------------------------------------------------------------------

TEST(TextQueryEmpty, NoConditionsAndNoSortReadNothing) {
  TextQuery query({}, {});
  EXPECT_FALSE(query.reads_documents());
  EXPECT_TRUE(query.matches(R"({"a": 1})"));
  EXPECT_TRUE(query.matches(""));
  EXPECT_TRUE(query.matches("not json"));
  EXPECT_TRUE(query.sort_values().empty());

  TextQuery sorted({}, parsed_sort("a"));
  EXPECT_TRUE(sorted.reads_documents());
  TextQuery matching(parsed_match(json::parse(R"({"a": null})")));
  EXPECT_TRUE(matching.reads_documents());
  EXPECT_TRUE(matching.matches("{}"));
  EXPECT_TRUE(agreed("{}", R"({"a": 1})"));
}

TEST(TextQueryReuse, StateDoesNotLeakBetweenDocuments) {
  const query::Match match = parsed_match(json::parse(R"({"a.b": null, "c:$ne": 1})"));
  const std::vector<query::SortKey> sort = parsed_sort("d desc, a.b");
  TextQuery query(match, sort);
  const std::vector<std::string> docs = {
      R"({"a": {"b": 1}, "d": 5})",
      R"({"a": {}, "d": 6})",
      R"({"a": {"b": 1}})",
      R"({"a": [{"b": null}], "c": 2})",
      R"({"d": "x", "c": 1})",
      R"({"a": [{"b": 2}, {"c": 1}], "d": [1]})",
      R"({"a": [{"b": 2}, {"b": 3}]})",
      "not json",
      R"({"a": {"b": null}, "d": {"e": 1}})",
      R"({"a": 7})",
  };
  // Twice over, and once more after a move.
  for (int round = 0; round < 3; ++round) {
    if (round == 2) {
      TextQuery moved(std::move(query));
      query = std::move(moved);
    }
    for (const std::string& doc : docs) {
      SCOPED_TRACE(doc);
      const json parsed = json::parse(doc, nullptr, false);
      const Outcome text = evaluated(query, doc);
      if (parsed.is_discarded()) continue;
      EXPECT_EQ(difference(text, reference(match, sort, parsed)), "");
    }
  }
}

// ---- Differential run ---------------------------------------------------------------------------

// Random documents (objects without repeated keys) written with random blanks, escapes and
// number spellings, and random matches and sorts over a small set of names so that most paths
// meet something.
class Generator {
 public:
  explicit Generator(std::uint32_t seed) : rng_(seed) {}

  int below(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  bool chance(int percent) { return below(100) < percent; }

  std::string blank() {
    static const char* const kBlanks[] = {"", "", "", "", " ", "\n", "\t", " \r\n "};
    return kBlanks[below(8)];
  }

  // `text` as a JSON string literal, each character written raw or escaped at random.
  std::string quoted(const std::u32string& text) {
    std::string out = "\"";
    for (const char32_t ch : text) {
      if (ch == U'"') {
        out += chance(80) ? "\\\"" : "\\u0022";
      } else if (ch == U'\\') {
        out += chance(80) ? "\\\\" : "\\u005C";
      } else if (ch == U'/' && chance(50)) {
        out += "\\/";
      } else if (ch == U'\n' && chance(70)) {
        out += "\\n";
      } else if (ch == U'\t' && chance(70)) {
        out += "\\t";
      } else if (ch < 0x20 || chance(15)) {
        out += escaped(ch);
      } else {
        out += utf8(ch);
      }
    }
    return out + "\"";
  }

  static std::string utf8(char32_t ch) {
    std::string out;
    if (ch < 0x80) {
      out += static_cast<char>(ch);
    } else if (ch < 0x800) {
      out += static_cast<char>(0xC0 | (ch >> 6));
      out += static_cast<char>(0x80 | (ch & 0x3F));
    } else if (ch < 0x10000) {
      out += static_cast<char>(0xE0 | (ch >> 12));
      out += static_cast<char>(0x80 | ((ch >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (ch & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (ch >> 18));
      out += static_cast<char>(0x80 | ((ch >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((ch >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (ch & 0x3F));
    }
    return out;
  }

  static std::string utf8(const std::u32string& text) {
    std::string out;
    for (const char32_t ch : text) out += utf8(ch);
    return out;
  }

  std::string escaped(char32_t ch) {
    const auto unit = [this](unsigned value) {
      static constexpr char kHex[] = "0123456789abcdef";
      static constexpr char kUpper[] = "0123456789ABCDEF";
      const char* digits = chance(50) ? kHex : kUpper;
      std::string out = "\\u";
      for (int shift = 12; shift >= 0; shift -= 4) out += digits[(value >> shift) & 0xF];
      return out;
    };
    if (ch < 0x10000) return unit(ch);
    const unsigned v = ch - 0x10000;
    return unit(0xD800 + (v >> 10)) + unit(0xDC00 + (v & 0x3FF));
  }

  std::string number() {
    static const char* const kForms[] = {
        "0",
        "-0",
        "0.0",
        "-0.0",
        "1",
        "-1",
        "1.0",
        "1e0",
        "10E-1",
        "0.1e1",
        "2",
        "2.5",
        "-2.5",
        "25e-1",
        "3",
        "1e2",
        "100",
        "1E+2",
        "0.5",
        "5e-1",
        "1e-400",
        "-1e-400",
        "4.9e-324",
        "1.5e300",
        "-1.5e300",
        "9223372036854775807",
        "9223372036854775808",
        "9.223372036854775808e18",
        "-9223372036854775808",
        "-9223372036854775809",
        "18446744073709551615",
        "18446744073709551616",
        "1.8446744073709552e19",
        "123456789012345678901234567890",
        "0.30000000000000004",
        "0.1",
        "0.2",
    };
    if (chance(40)) return std::to_string(below(7) - 3);
    return kForms[below(static_cast<int>(std::size(kForms)))];
  }

  const std::u32string& text() {
    static const std::u32string kTexts[] = {
        U"",
        U"a",
        U"b",
        U"ab",
        U"abc",
        U"caf\u00e9",
        U"\u00c9",
        U"\U0001F600",
        U"\uffff",
        U"say \"hi\"",
        U"back\\",
        U"\\",
        U"\\\"",
        U"a/b",
        U"\n\t",
        U"x\\\\",
        std::u32string(U"a\0b", 3),
        U"}]\"{[,:",
        U"Z",
        U"1",
        U"null",
    };
    return kTexts[below(static_cast<int>(std::size(kTexts)))];
  }

  const std::u32string& name() {
    static const std::u32string kNames[] = {U"a", U"b", U"c", U"d", U"\u00e9", U"k\"q", U"s\\"};
    return kNames[below(static_cast<int>(std::size(kNames)))];
  }

  std::string value(int depth) {
    const int kind = below(12);
    if (kind < 3) return number();
    if (kind < 5) return quoted(text());
    if (kind == 5) return chance(50) ? "null" : (chance(50) ? "true" : "false");
    if (depth <= 0) return kind < 9 ? number() : quoted(text());
    if (kind < 9) return object(depth - 1, 0, 5);
    // An array: often of objects only.
    const bool objects = chance(50);
    const int size = below(4);
    std::string out = "[" + blank();
    for (int i = 0; i < size; ++i) {
      if (i > 0) out += blank() + "," + blank();
      out += objects && chance(85) ? object(depth - 1, 0, 4) : value(depth - 1);
    }
    return out + blank() + "]";
  }

  std::string object(int depth, int min_members, int max_members) {
    std::vector<const std::u32string*> names;
    const int size = min_members + below(max_members - min_members + 1);
    for (int tries = 0; static_cast<int>(names.size()) < size && tries < 20; ++tries) {
      const std::u32string* candidate = &name();
      if (std::find(names.begin(), names.end(), candidate) == names.end()) {
        names.push_back(candidate);
      }
    }
    std::string out = "{" + blank();
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (i > 0) out += blank() + "," + blank();
      out += quoted(*names[i]) + blank() + ":" + blank() + value(depth);
    }
    return out + blank() + "}";
  }

  std::string document() { return blank() + object(3, 1, 6) + blank(); }

  std::string path() {
    std::string out = utf8(name());
    const int more = below(10) < 5 ? 0 : (below(10) < 7 ? 1 : 2);
    for (int i = 0; i < more; ++i) out += "." + utf8(name());
    return out;
  }

  json operand_value() {
    if (chance(25)) return nullptr;
    return json::parse(value(chance(80) ? 0 : 1));
  }

  json match() {
    static const char* const kOps[] = {"",     ":$ne",  ":$gt", ":$gte",
                                       ":$lt", ":$lte", ":$in", ":$nin"};
    json out = json::object();
    const int size = below(4);
    for (int i = 0; i < size; ++i) {
      const int op = below(8);
      json operand;
      if (op >= 2 && op <= 5) {
        operand = chance(60) ? json::parse(number()) : json(utf8(text()));
      } else if (op >= 6) {
        operand = json::array();
        for (int n = below(4); n > 0; --n) operand.push_back(operand_value());
      } else {
        operand = operand_value();
      }
      out[path() + kOps[op]] = operand;
    }
    return out;
  }

  std::vector<query::SortKey> sort() {
    std::vector<query::SortKey> out;
    for (int n = below(3); n > 0; --n) {
      out.push_back(query::SortKey{*query::parse_path(path()), chance(50)});
    }
    return out;
  }

 private:
  std::mt19937 rng_;
};

TEST(TextQueryDifferential, GeneratedDocumentsAndMatches) {
  Generator gen(20240611);
  constexpr int kRounds = 60;
  constexpr int kDocuments = 50;
  constexpr int kQueries = 10;
  int evaluations = 0, matched = 0, mismatches = 0, order_mismatches = 0;
  std::vector<std::string> reported;
  for (int round = 0; round < kRounds; ++round) {
    std::vector<std::string> texts;
    std::vector<json> docs;
    for (int i = 0; i < kDocuments; ++i) {
      texts.push_back(gen.document());
      ASSERT_TRUE(is_stored_text(texts.back())) << texts.back();
      docs.push_back(json::parse(texts.back()));
    }
    for (int q = 0; q < kQueries; ++q) {
      const json match_json = gen.match();
      const query::Match match = parsed_match(match_json);
      const std::vector<query::SortKey> sort = gen.sort();
      TextQuery query(match, sort);
      std::vector<std::size_t> hits;
      std::vector<std::vector<json>> rows;
      for (std::size_t i = 0; i < texts.size(); ++i) {
        ++evaluations;
        const Outcome text = evaluated(query, texts[i]);
        const std::string diff = difference(text, reference(match, sort, docs[i]));
        if (!diff.empty()) {
          ++mismatches;
          if (reported.size() < 5) {
            reported.push_back(diff + "\n  match " + match_json.dump() + "\n  document " +
                               texts[i]);
          }
          continue;
        }
        if (text.matched) {
          ++matched;
          hits.push_back(i);
          rows.push_back(text.sort);
        }
      }
      for (std::size_t k = 1; k < hits.size(); ++k) {
        const int by_values = compare_sort_values(rows[k - 1], rows[k], sort);
        const int by_docs = query::compare_for_sort(docs[hits[k - 1]], docs[hits[k]], sort);
        if ((by_values < 0) != (by_docs < 0) || (by_values > 0) != (by_docs > 0)) {
          ++order_mismatches;
        }
      }
    }
  }
  for (const std::string& report : reported) ADD_FAILURE() << report;
  EXPECT_EQ(mismatches, 0) << "of " << evaluations << " evaluations";
  EXPECT_EQ(order_mismatches, 0);
  EXPECT_EQ(evaluations, kRounds * kDocuments * kQueries);
  // The generated matches are not trivial: a fair share matches and a fair share does not.
  EXPECT_GT(matched, evaluations / 10);
  EXPECT_LT(matched, evaluations * 9 / 10);
}

// ---- Invalid texts ------------------------------------------------------------------------------

// Queries that enter every level the texts below have.
struct Probe {
  query::Match match;
  std::vector<query::SortKey> sort;
  TextQuery query;
};

std::vector<Probe> probes() {
  const std::pair<const char*, const char*> kQueries[] = {
      {R"({"a.b.c": null, "b:$in": [1, "x", null, {"a": 1}, [1]], "c:$gt": 0, "d": [1]})",
       "a, b.c desc, d, k\"q"},
      {R"({"a": {"b": 1}, "a.b:$ne": "\"", "k\"q.s\\:$lte": "z", "é:$nin": [2.5, []]})",
       "é desc, a.b"},
      {R"({"a.a.a.a": 1, "b.b": "x", "c:$lt": "zzz", "d.e:$gte": -1})", "c"},
      {R"({"a:$gt": 0})", "b"},
      {"{}", "a.b.c, é"},
  };
  std::vector<Probe> out;
  for (const auto& [match_text, sort_text] : kQueries) {
    query::Match match = parsed_match(json::parse(match_text));
    std::vector<query::SortKey> sort = parsed_sort(sort_text);
    TextQuery query(match, sort);
    out.push_back(Probe{std::move(match), std::move(sort), std::move(query)});
  }
  return out;
}

// Runs every probe over the text (in a block of its exact size); for a text the promise covers,
// also checks the answer against the reference.
void probe(std::vector<Probe>& probes, std::string_view text, int* checked) {
  const bool covered = is_stored_text(text);
  const json doc = covered ? json::parse(text) : json();
  for (Probe& p : probes) {
    const Outcome out = evaluated(p.query, text);
    // Read the values; a broken text may leave bytes in them that are not UTF-8.
    for (const json& value : out.sort)
      (void)value.dump(-1, ' ', false, json::error_handler_t::replace);
    if (!covered) continue;
    EXPECT_EQ(difference(out, reference(p.match, p.sort, doc)), "") << text;
    ++*checked;
  }
}

TEST(TextQueryInvalid, BrokenTextsAreReadSafely) {
  std::vector<Probe> queries = probes();
  int checked = 0;
  const std::string kTexts[] = {
      "",
      " ",
      "{",
      "}",
      "[",
      "{\"a\"",
      "{\"a\":",
      "{\"a\": ",
      "{\"a\":1",
      "{\"a\":1,",
      "{\"a\":\"",
      "{\"a\":\"\\",
      "{\"a\":\"\\\"}",
      "{\"a\":\"abc\\\\\\",
      "{\"a\":[1,2",
      "{\"a\":{\"b\":",
      "{\"a\":{\"b\":{\"c\"",
      "{\"a\":{\"b\":{\"c\":[[[[",
      "{\"a\":{\"b\":{\"c\":\"",
      "{\"a\":1}}}",
      "{\"a\":1} garbage",
      "{\"a\":1}]",
      "{\"a\":1 2}",
      "{\"a\" 1}",
      "{a:1}",
      "{\"a\":tru}",
      "{\"a\":-}",
      "{\"a\":1.}",
      "{\"a\":01}",
      "{\"a\":+1}",
      "{\"a\":.5}",
      "{\"a\":1e}",
      "{\"a\":-inf}",
      "{\"a\":nan}",
      "{\"a\":0x10}",
      "{\"a\":[}",
      "{\"a\":{]}",
      "{\"a\":]",
      "{\"a\":}",
      "{\"a\":,}",
      "{\"a\":1,,\"b\":2}",
      "{,}",
      "{\"a\":1e999}",
      "{\"c\":1e999}",
      "{\"c\":-1e999}",
      "{\"a\":\"\x01\"}",
      "{\"a\":\"\xff\"}",
      "{\"b\":\"\\ud800\"}",
      "{\"b\":\"\\udc00x\"}",
      "{\"b\":\"\\u12\"}",
      "{\"b\":\"\\q\"}",
      "{\"\\u12\":1}",
      "{\"\\",
      "{\"a\\",
      "{\"a\": [ {\"b\": 1}, {\"b\" ",
      "{\"b\":[1,",
      "{\"b\":[1,]}",
      "{\"d\":[1]",
      "{\"d\":[1}",
      "{\"d\":{\"e\":[}}",
      "[1,2]",
      "\"str\"",
      "123",
      "null",
      "\xef\xbb\xbf{\"a\":1}",
      "{\"a\":1}\0{\"b\":2}"s,
      "{\"a\":\0}"s,
      "\0"s,
      "{\"a\":{\"b\":{\"c\":1}}, \"a\":{\"b\":{\"c\":2}}}",
      "{\"b\":" + std::string(5000, '[') + "1",
      "{\"b\":" + std::string(5000, '{'),
      "{\"b\":\"" + std::string(5000, '\\'),
      "{\"b\":\"" + std::string(5001, '\\') + "\"}",
      "{\"a\":" + std::string(3000, '}') + std::string(3000, ']'),
  };
  for (const std::string& text : kTexts) probe(queries, text, &checked);

  // Every prefix and many mutations of generated documents; those that still are valid objects
  // without repeated keys must agree with the reference.
  Generator gen(77);
  static const char kBytes[] = "{}[]\",:\\ 0-.eE\"tnu";
  std::mt19937 rng(5);
  for (int d = 0; d < 100; ++d) {
    const std::string doc = gen.document();
    for (std::size_t cut = 0; cut < doc.size(); ++cut) {
      probe(queries, std::string_view(doc).substr(0, cut), &checked);
    }
    for (int m = 0; m < 40; ++m) {
      std::string mutated = doc;
      const std::size_t at = rng() % mutated.size();
      switch (rng() % 3) {
        case 0:
          mutated[at] = kBytes[rng() % (sizeof(kBytes) - 1)];
          break;
        case 1:
          mutated.erase(at, 1 + rng() % 3);
          break;
        default:
          mutated.insert(at, 1, kBytes[rng() % (sizeof(kBytes) - 1)]);
          break;
      }
      probe(queries, mutated, &checked);
    }
  }
  EXPECT_GT(checked, 0);
}

}  // namespace
}  // namespace opbase::host
