// The datastore's query language (sdk/include/opbase/query.hpp): parsing of match, sort, paging
// and projection with their errors, and the reference evaluator's comparison semantics.
#include "opbase/query.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

using nlohmann::json;
using namespace opbase::query;

ParseOptions document_options() {
  ParseOptions options;
  options.system_fields = {"_key", "_userkey", "_created_at", "_modified_at"};
  return options;
}

// Parses `match` (which must parse) and evaluates it against `doc`.
bool match(const json& match, const json& doc) {
  auto parsed = parse_match(match, document_options());
  EXPECT_TRUE(parsed.is_ok()) << parsed.status().to_string() << " for " << match.dump();
  return parsed.is_ok() && matches(*parsed, doc);
}

// The failure of parsing `match`, which must fail.
opbase::Status match_error(const json& match) {
  auto parsed = parse_match(match, document_options());
  EXPECT_FALSE(parsed.is_ok()) << match.dump();
  return parsed.status();
}

void expect_validation(const opbase::Status& status, const json& details) {
  EXPECT_EQ(status.code(), "VALIDATION_ERROR");
  for (const auto& [key, value] : details.items()) {
    EXPECT_EQ(status.details().value(key, json()), value) << key << " in " << status.to_string();
  }
}

const json kProduct = json::parse(R"({
  "_key": "k1", "name": "Lamp", "price": 25, "ratio": 0.5, "stock": null, "active": true,
  "tags": ["home", "light"], "dims": [10, 20, 30],
  "address": {"city": "Paris", "zip": "75001", "geo": {"lat": 48.85}},
  "items": [{"sku": "a1", "qty": 2, "opts": [{"c": "red"}]}, {"sku": "b2", "qty": 5}, {"qty": 1}],
  "matrix": [[1, 2], [3]]
})");

// ---- Operators alone ---------------------------------------------------------------------------

TEST(QueryMatch, EqualityOnScalars) {
  EXPECT_TRUE(match({{"name", "Lamp"}}, kProduct));
  EXPECT_FALSE(match({{"name", "lamp"}}, kProduct));
  EXPECT_TRUE(match({{"price", 25}}, kProduct));
  EXPECT_TRUE(match({{"active", true}}, kProduct));
  EXPECT_FALSE(match({{"active", 1}}, kProduct));  // no cross-type equality
  EXPECT_FALSE(match({{"price", "25"}}, kProduct));
}

TEST(QueryMatch, NotEqual) {
  EXPECT_TRUE(match({{"name:$ne", "Chair"}}, kProduct));
  EXPECT_FALSE(match({{"name:$ne", "Lamp"}}, kProduct));
  EXPECT_TRUE(match({{"missing:$ne", 5}}, kProduct));     // the negation of eq: missing matches
  EXPECT_FALSE(match({{"tags:$ne", "home"}}, kProduct));  // an element equals
}

TEST(QueryMatch, RangeOperatorsOnNumbers) {
  EXPECT_TRUE(match({{"price:$gt", 24}}, kProduct));
  EXPECT_FALSE(match({{"price:$gt", 25}}, kProduct));
  EXPECT_TRUE(match({{"price:$gte", 25}}, kProduct));
  EXPECT_TRUE(match({{"price:$lt", 25.5}}, kProduct));
  EXPECT_FALSE(match({{"price:$lt", 25}}, kProduct));
  EXPECT_TRUE(match({{"price:$lte", 25.0}}, kProduct));
  EXPECT_TRUE(match({{"ratio:$gt", 0}}, kProduct));
  EXPECT_TRUE(match({{"ratio:$lt", 1}}, kProduct));
}

TEST(QueryMatch, RangeOperatorsStayInTheirTypeBracket) {
  EXPECT_FALSE(match({{"price:$gt", "1"}}, kProduct));    // number field, string operand
  EXPECT_FALSE(match({{"name:$gt", 0}}, kProduct));       // string field, number operand
  EXPECT_FALSE(match({{"active:$gte", 0}}, kProduct));    // booleans are in no range
  EXPECT_FALSE(match({{"stock:$lt", 100}}, kProduct));    // null
  EXPECT_FALSE(match({{"missing:$lt", 100}}, kProduct));  // missing
  EXPECT_FALSE(match({{"address:$gt", ""}}, kProduct));   // object
}

TEST(QueryMatch, RangeOperatorsOnStrings) {
  EXPECT_TRUE(match({{"name:$gt", "A"}}, kProduct));
  EXPECT_TRUE(match({{"name:$lt", "Lamq"}}, kProduct));
  EXPECT_TRUE(match({{"name:$gte", "Lamp"}}, kProduct));
  EXPECT_FALSE(match({{"name:$gt", "Lamp"}}, kProduct));
  EXPECT_FALSE(match({{"name:$gt", "lamp"}}, kProduct));  // 'L' < 'l'
}

TEST(QueryMatch, InAndNotIn) {
  EXPECT_TRUE(match({{"name:$in", {"Chair", "Lamp"}}}, kProduct));
  EXPECT_FALSE(match({{"name:$in", {"Chair"}}}, kProduct));
  EXPECT_FALSE(match({{"name:$in", json::array()}}, kProduct));
  EXPECT_TRUE(match({{"name:$nin", {"Chair"}}}, kProduct));
  EXPECT_FALSE(match({{"name:$nin", {"Chair", "Lamp"}}}, kProduct));
  EXPECT_TRUE(match({{"name:$nin", json::array()}}, kProduct));
  EXPECT_TRUE(match({{"price:$in", {1, 25.0}}}, kProduct));
  EXPECT_TRUE(match({{"tags:$in", {"light", "x"}}}, kProduct));  // any element
  EXPECT_FALSE(match({{"tags:$nin", {"light"}}}, kProduct));
  EXPECT_TRUE(match({{"missing:$in", {1, nullptr}}}, kProduct));  // null in the list: missing
  EXPECT_TRUE(match({{"missing:$nin", {1, 2}}}, kProduct));
  EXPECT_FALSE(match({{"missing:$nin", {nullptr}}}, kProduct));
}

// ---- Combined -----------------------------------------------------------------------------------

TEST(QueryMatch, KeysCombineWithAnd) {
  EXPECT_TRUE(match({{"price:$gte", 10}, {"price:$lt", 30}, {"name", "Lamp"}}, kProduct));
  EXPECT_FALSE(match({{"price:$gte", 10}, {"price:$lt", 20}}, kProduct));
  EXPECT_FALSE(match({{"price:$gte", 10}, {"name:$ne", "Lamp"}}, kProduct));
  EXPECT_TRUE(match({{"address.city:$in", {"Paris", "Rome"}},
                     {"tags:$nin", {"garden"}},
                     {"items.qty:$gt", 4},
                     {"stock", nullptr}},
                    kProduct));
}

TEST(QueryMatch, EmptyMatchMatchesEverything) {
  EXPECT_TRUE(match(json::object(), kProduct));
  EXPECT_TRUE(match(json::object(), json::object()));
}

// ---- Numbers ------------------------------------------------------------------------------------

TEST(QueryNumbers, IntegersAndDoublesCompareNumerically) {
  EXPECT_TRUE(match({{"n", 1}}, {{"n", 1.0}}));
  EXPECT_TRUE(match({{"n", 1.0}}, {{"n", 1}}));
  EXPECT_TRUE(match({{"n", -3}}, json::parse(R"({"n": -3.0})")));
  EXPECT_TRUE(match({{"n:$gt", 1}}, {{"n", 1.0000001}}));
  EXPECT_FALSE(match({{"n:$gt", 1}}, {{"n", 1.0}}));
  EXPECT_TRUE(match({{"n:$lt", -1}}, {{"n", -1.5}}));
  EXPECT_TRUE(match({{"n:$gt", -2}}, {{"n", -1.5}}));
  EXPECT_TRUE(match({{"n", 0}}, {{"n", -0.0}}));
}

TEST(QueryNumbers, BigInt64AreExact) {
  const std::int64_t max = std::numeric_limits<std::int64_t>::max();
  const std::int64_t min = std::numeric_limits<std::int64_t>::min();
  const json doc = json::parse(R"({"big": 9223372036854775807, "small": -9223372036854775808,
                                   "u": 18446744073709551615})");
  EXPECT_TRUE(match({{"big", max}}, doc));
  EXPECT_FALSE(match({{"big", max - 1}}, doc));
  EXPECT_TRUE(match({{"big:$gt", max - 1}}, doc));
  // 2^63 as a double is above every int64; 2^63-1 does not equal it although both cast to 2^63.
  EXPECT_FALSE(match({{"big", 9223372036854775808.0}}, doc));
  EXPECT_TRUE(match({{"big:$lt", 9223372036854775808.0}}, doc));
  EXPECT_TRUE(match({{"small", min}}, doc));
  EXPECT_TRUE(match({{"small", -9223372036854775808.0}}, doc));  // exactly -2^63
  EXPECT_TRUE(match({{"small:$lt", min + 1}}, doc));
  EXPECT_TRUE(match({{"u:$gt", max}}, doc));  // uint64 above int64
  EXPECT_FALSE(match({{"u", -1}}, doc));
  EXPECT_TRUE(match({{"u:$lt", 18446744073709551616.0}}, doc));  // 2^64
  // 2^53 + 1 is not representable as a double: the int64 differs from 2^53 as a double.
  EXPECT_FALSE(match({{"n", 9007199254740992.0}}, {{"n", std::int64_t{9007199254740993}}}));
  EXPECT_TRUE(match({{"n:$gt", 9007199254740992.0}}, {{"n", std::int64_t{9007199254740993}}}));
}

TEST(QueryNumbers, CompareNumbersDirectly) {
  EXPECT_TRUE(compare_numbers(json(1), json(2.5)) < 0);
  EXPECT_TRUE(compare_numbers(json(2.5), json(1)) > 0);
  EXPECT_TRUE(compare_numbers(json(std::uint64_t{5}), json(std::int64_t{-5})) > 0);
  EXPECT_TRUE(compare_numbers(json(std::int64_t{-5}), json(std::uint64_t{5})) < 0);
  EXPECT_TRUE(compare_numbers(json(std::uint64_t{7}), json(7.0)) == 0);
  EXPECT_TRUE(compare_numbers(json(std::uint64_t{7}), json(7.5)) < 0);
  EXPECT_TRUE(compare_numbers(json(std::uint64_t{7}), json(-0.5)) > 0);
  const json nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(compare_numbers(json(1), nan) == std::partial_ordering::unordered);
  EXPECT_TRUE(compare_numbers(json("1"), json(1)) == std::partial_ordering::unordered);
}

// ---- Strings ------------------------------------------------------------------------------------

TEST(QueryStrings, OrderByCodePoint) {
  // "z" (U+007A) < "é" (U+00E9) < "日本" (U+65E5) < "😀" (U+1F600): UTF-8 byte order agrees.
  const json z = {{"s", "z"}}, e = {{"s", "é"}}, jp = {{"s", "日本"}}, emoji = {{"s", "😀"}};
  EXPECT_TRUE(match({{"s:$gt", "z"}}, e));
  EXPECT_TRUE(match({{"s:$gt", "é"}}, jp));
  EXPECT_TRUE(match({{"s:$gt", "日本"}}, emoji));
  EXPECT_TRUE(match({{"s:$lt", "é"}}, z));
  EXPECT_FALSE(match({{"s:$lt", "日"}}, emoji));
  EXPECT_TRUE(match({{"s:$gt", "日"}}, jp));  // a prefix sorts first
  // U+FFFD (EF BF BD) < U+10000 (F0 90 80 80), though UTF-16 code units would order them the
  // other way round.
  EXPECT_TRUE(match({{"s:$lt", "\xF0\x90\x80\x80"}}, {{"s", "\xEF\xBF\xBD"}}));
  EXPECT_TRUE(match({{"s", "日本"}}, jp));
  EXPECT_EQ(compare_values("é", "😀"), -1);
}

// ---- Null and missing ---------------------------------------------------------------------------

TEST(QueryNull, EqualNullMatchesMissingOrNull) {
  EXPECT_TRUE(match({{"stock", nullptr}}, kProduct));
  EXPECT_TRUE(match({{"nothing", nullptr}}, kProduct));
  EXPECT_FALSE(match({{"name", nullptr}}, kProduct));
  EXPECT_TRUE(match({{"n", nullptr}}, {{"n", {1, nullptr}}}));  // an element is null
  EXPECT_TRUE(match({{"address.nothing", nullptr}}, kProduct));
  EXPECT_TRUE(match({{"name.first", nullptr}}, kProduct));  // through a scalar: missing
}

TEST(QueryNull, NotEqualNullMatchesPresentNonNull) {
  EXPECT_TRUE(match({{"name:$ne", nullptr}}, kProduct));
  EXPECT_FALSE(match({{"stock:$ne", nullptr}}, kProduct));
  EXPECT_FALSE(match({{"nothing:$ne", nullptr}}, kProduct));
}

// ---- Arrays -------------------------------------------------------------------------------------

TEST(QueryArrays, AnyElementMatches) {
  EXPECT_TRUE(match({{"tags", "light"}}, kProduct));
  EXPECT_FALSE(match({{"tags", "garden"}}, kProduct));
  EXPECT_TRUE(match({{"dims:$gt", 25}}, kProduct));  // 30
  EXPECT_FALSE(match({{"dims:$gt", 30}}, kProduct));
  EXPECT_TRUE(match({{"dims:$gt", 25}, {"dims:$lt", 15}}, kProduct));  // different elements
  EXPECT_TRUE(match({{"dims", 20.0}}, kProduct));
}

TEST(QueryArrays, WholeArrayEquality) {
  EXPECT_TRUE(match({{"tags", {"home", "light"}}}, kProduct));
  EXPECT_FALSE(match({{"tags", {"light", "home"}}}, kProduct));  // order matters
  EXPECT_FALSE(match({{"tags", {"home"}}}, kProduct));
  EXPECT_TRUE(match({{"matrix", {1, 2}}}, kProduct));  // an element is the array [1, 2]
  EXPECT_TRUE(match({{"matrix", {{1, 2}, {3}}}}, kProduct));
  EXPECT_FALSE(match({{"matrix", 1}}, kProduct));  // one level of elements only
  EXPECT_TRUE(match({{"tags:$in", json::array({json::array({"home", "light"})})}}, kProduct));
  EXPECT_TRUE(match({{"e", json::array()}}, {{"e", json::array()}}));
  EXPECT_FALSE(match({{"e", json::array()}}, {{"e", {1}}}));
}

TEST(QueryArrays, ObjectEqualityIgnoresKeyOrder) {
  EXPECT_TRUE(match({{"address.geo", {{"lat", 48.85}}}}, kProduct));
  EXPECT_TRUE(match(json::parse(R"({"o": {"b": 2, "a": 1.0}})"),
                    json::parse(R"({"o": {"a": 1, "b": 2}})")));
  EXPECT_FALSE(match(json::parse(R"({"o": {"a": 1}})"), json::parse(R"({"o": {"a": 1, "b": 2}})")));
  EXPECT_TRUE(match({{"items", {{"qty", 1}}}}, kProduct));  // an element equal as a whole
}

// ---- Paths --------------------------------------------------------------------------------------

TEST(QueryPaths, NestedObjects) {
  EXPECT_TRUE(match({{"address.city", "Paris"}}, kProduct));
  EXPECT_TRUE(match({{"address.geo.lat:$gt", 48}}, kProduct));
  EXPECT_FALSE(match({{"address.geo.lat:$gt", 49}}, kProduct));
  EXPECT_FALSE(match({{"address.city.name", "Paris"}}, kProduct));
}

TEST(QueryPaths, ArraysOfObjects) {
  EXPECT_TRUE(match({{"items.sku", "b2"}}, kProduct));
  EXPECT_FALSE(match({{"items.sku", "c3"}}, kProduct));
  EXPECT_TRUE(match({{"items.qty:$gte", 5}}, kProduct));
  EXPECT_TRUE(match({{"items.sku:$in", {"x", "a1"}}}, kProduct));
  EXPECT_TRUE(match({{"items.opts.c", "red"}}, kProduct));  // two arrays deep
  // The third item has no sku: the path is missing on that branch, so eq null matches.
  EXPECT_TRUE(match({{"items.sku", nullptr}}, kProduct));
  EXPECT_FALSE(match({{"items.sku:$ne", nullptr}}, kProduct));
  EXPECT_TRUE(match({{"items.qty:$ne", 3}}, kProduct));
  EXPECT_FALSE(match({{"items.qty:$ne", 5}}, kProduct));
}

TEST(QueryPaths, NestedArraysAndScalarsAreNotEntered) {
  const json doc = json::parse(R"({"a": [[{"b": 1}]], "c": [1, {"d": 2}], "e": []})");
  EXPECT_FALSE(match({{"a.b", 1}}, doc));
  EXPECT_TRUE(match({{"a.b", nullptr}}, doc));
  EXPECT_TRUE(match({{"c.d", 2}}, doc));
  EXPECT_TRUE(match({{"c.d", nullptr}}, doc));  // the element 1 has no d
  EXPECT_TRUE(match({{"e.x", nullptr}}, doc));  // an empty array reaches nothing
  EXPECT_FALSE(match({{"e.x:$ne", nullptr}}, doc));
}

TEST(QueryPaths, CollectAndResolve) {
  const auto items_qty = parse_path("items.qty").value();
  const PathValues reached = collect(kProduct, items_qty);
  ASSERT_EQ(reached.values.size(), 3u);
  EXPECT_EQ(*reached.values[0], 2);
  EXPECT_EQ(*reached.values[2], 1);
  EXPECT_FALSE(reached.missing);
  EXPECT_TRUE(collect(kProduct, parse_path("items.sku").value()).missing);
  EXPECT_EQ(resolve(kProduct, items_qty), nullptr);  // resolve does not enter arrays
  const json* city = resolve(kProduct, parse_path("address.city").value());
  ASSERT_NE(city, nullptr);
  EXPECT_EQ(*city, "Paris");
  EXPECT_EQ(*resolve(kProduct, parse_path("tags").value()), json({"home", "light"}));
}

TEST(QueryPaths, ParsePath) {
  const auto path = parse_path("address.city");
  ASSERT_TRUE(path.is_ok());
  EXPECT_EQ(path->text, "address.city");
  EXPECT_EQ(path->segments, (std::vector<std::string>{"address", "city"}));
  expect_validation(parse_path("").status(), {{"field", ""}});
  expect_validation(parse_path("a..b").status(), {{"field", "a..b"}});
  expect_validation(parse_path(".a").status(), {{"field", ".a"}});
  expect_validation(parse_path("a.").status(), {{"field", "a."}});
  expect_validation(parse_path("_key").status(), {{"field", "_key"}});
  expect_validation(parse_path("a.$b").status(), {{"field", "a.$b"}});
  EXPECT_TRUE(parse_path("_key", document_options()).is_ok());
  EXPECT_TRUE(parse_path("orders._created_at", document_options()).is_ok());
  EXPECT_FALSE(parse_path("_secret", document_options()).is_ok());
  EXPECT_TRUE(parse_path("a_b.c$", document_options()).is_ok());  // only a leading _ or $
  EXPECT_TRUE(parse_path("日本.é").is_ok());
  ParseOptions shallow;
  shallow.max_path_depth = 2;
  EXPECT_TRUE(parse_path("a.b", shallow).is_ok());
  EXPECT_FALSE(parse_path("a.b.c", shallow).is_ok());
}

TEST(QueryPaths, SystemFieldsMatchWhenAllowed) {
  EXPECT_TRUE(match({{"_key", "k1"}}, kProduct));
  EXPECT_TRUE(match({{"_key:$in", {"k1", "k2"}}}, kProduct));
}

// ---- Parse errors -------------------------------------------------------------------------------

TEST(QueryParse, ConditionTree) {
  const auto parsed =
      parse_match({{"price:$gte", 10}, {"name", "x"}, {"a.b:$nin", {1, 2}}}, document_options());
  ASSERT_TRUE(parsed.is_ok()) << parsed.status().to_string();
  ASSERT_EQ(parsed->size(), 3u);
  // Keys come in JSON object order (sorted): "a.b:$nin", "name", "price:$gte".
  EXPECT_EQ((*parsed)[0].path.segments, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ((*parsed)[0].op, Op::kNin);
  EXPECT_EQ((*parsed)[0].value, json({1, 2}));
  EXPECT_EQ((*parsed)[1].path.text, "name");
  EXPECT_EQ((*parsed)[1].op, Op::kEq);
  EXPECT_EQ((*parsed)[2].op, Op::kGte);
  EXPECT_EQ(op_name(Op::kGte), "$gte");
  EXPECT_EQ(op_name(Op::kNin), "$nin");
}

TEST(QueryParse, ColonWithoutDollarIsPartOfTheName) {
  const auto parsed = parse_match({{"time:zone", "utc"}});
  ASSERT_TRUE(parsed.is_ok());
  EXPECT_EQ((*parsed)[0].path.text, "time:zone");
  EXPECT_EQ((*parsed)[0].op, Op::kEq);
  const auto with_op = parse_match({{"a:b:$gt", 1}});
  ASSERT_TRUE(with_op.is_ok());
  EXPECT_EQ((*with_op)[0].path.text, "a:b");
  EXPECT_EQ((*with_op)[0].op, Op::kGt);
}

TEST(QueryParse, MatchMustBeAnObject) {
  for (const json& bad : {json(nullptr), json(1), json("a"), json::array()}) {
    expect_validation(parse_match(bad).status(), {{"field", "match"}});
  }
}

TEST(QueryParse, ErrorsNameTheKey) {
  expect_validation(match_error({{"price:$foo", 1}}), {{"key", "price:$foo"}});
  expect_validation(match_error({{"price:$eq", 1}}), {{"key", "price:$eq"}});
  expect_validation(match_error({{"price:$GT", 1}}), {{"key", "price:$GT"}});
  expect_validation(match_error({{"price:$", 1}}), {{"key", "price:$"}});
  expect_validation(match_error({{"", 1}}), {{"key", ""}});
  expect_validation(match_error({{":$gt", 1}}), {{"key", ":$gt"}});
  expect_validation(match_error({{"a..b", 1}}), {{"key", "a..b"}});
  expect_validation(match_error({{"_secret", 1}}), {{"key", "_secret"}});
  expect_validation(match_error({{"$where", 1}}), {{"key", "$where"}});
  expect_validation(match_error({{"a.$b:$gt", 1}}), {{"key", "a.$b:$gt"}});
  EXPECT_EQ(match_error({{"price:$foo", 1}}).message(),
            "'price:$foo': unknown match operator '$foo'");
}

TEST(QueryParse, OperandTypes) {
  expect_validation(match_error({{"a:$in", 1}}), {{"key", "a:$in"}});
  expect_validation(match_error({{"a:$nin", "x"}}), {{"key", "a:$nin"}});
  expect_validation(match_error({{"a:$in", {{"x", 1}}}}), {{"key", "a:$in"}});
  for (const char* op : {"a:$gt", "a:$gte", "a:$lt", "a:$lte"}) {
    expect_validation(match_error({{op, nullptr}}), {{"key", op}});
    expect_validation(match_error({{op, true}}), {{"key", op}});
    expect_validation(match_error({{op, json::array({1})}}), {{"key", op}});
    expect_validation(match_error({{op, json::object()}}), {{"key", op}});
  }
  // eq and ne take any value; an object operand is a literal, never an operator.
  EXPECT_TRUE(parse_match({{"a", {{"$gt", 1}}}}).is_ok());
  EXPECT_TRUE(match({{"a", {{"$gt", 1}}}}, json::parse(R"({"a": {"$gt": 1}})")));
  EXPECT_TRUE(parse_match({{"a:$ne", json::array()}}).is_ok());
}

TEST(QueryParse, Limits) {
  ParseOptions options;
  options.max_conditions = 2;
  options.max_in_values = 3;
  EXPECT_TRUE(parse_match({{"a", 1}, {"b", 2}}, options).is_ok());
  expect_validation(parse_match({{"a", 1}, {"b", 2}, {"c", 3}}, options).status(),
                    {{"field", "match"}, {"max", 2}});
  EXPECT_TRUE(parse_match({{"a:$in", {1, 2, 3}}}, options).is_ok());
  expect_validation(parse_match({{"a:$in", {1, 2, 3, 4}}}, options).status(),
                    {{"key", "a:$in"}, {"max", 3}});
  json many_in = json::array();
  for (int i = 0; i < 1001; ++i) many_in.push_back(i);
  EXPECT_FALSE(parse_match({{"a:$in", many_in}}).is_ok());  // default 1000
  many_in.erase(many_in.size() - 1);
  EXPECT_TRUE(parse_match({{"a:$in", many_in}}).is_ok());
}

// ---- Sort ---------------------------------------------------------------------------------------

std::vector<SortKey> sort_keys(std::string_view text) {
  auto parsed = parse_sort(text, document_options());
  EXPECT_TRUE(parsed.is_ok()) << parsed.status().to_string() << " for " << text;
  return parsed.is_ok() ? *parsed : std::vector<SortKey>{};
}

TEST(QuerySort, Parse) {
  const auto keys = sort_keys("price desc, name asc");
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0].path.text, "price");
  EXPECT_TRUE(keys[0].descending);
  EXPECT_EQ(keys[1].path.text, "name");
  EXPECT_FALSE(keys[1].descending);

  const auto loose = sort_keys("  address.city   DESC ,name,\tqty Asc  ");
  ASSERT_EQ(loose.size(), 3u);
  EXPECT_EQ(loose[0].path.segments, (std::vector<std::string>{"address", "city"}));
  EXPECT_TRUE(loose[0].descending);
  EXPECT_FALSE(loose[1].descending);
  EXPECT_EQ(loose[2].path.text, "qty");
  EXPECT_FALSE(loose[2].descending);
  EXPECT_TRUE(sort_keys("a dEsC")[0].descending);
}

TEST(QuerySort, BlankTakesTheDefault) {
  const auto keys = parse_sort("  ", document_options(), "_created_at desc");
  ASSERT_TRUE(keys.is_ok());
  ASSERT_EQ(keys->size(), 1u);
  EXPECT_EQ((*keys)[0].path.text, "_created_at");
  EXPECT_TRUE((*keys)[0].descending);
  const auto none = parse_sort("");
  ASSERT_TRUE(none.is_ok());
  EXPECT_TRUE(none->empty());
}

TEST(QuerySort, Errors) {
  const auto error = [](std::string_view text) {
    auto parsed = parse_sort(text, document_options());
    EXPECT_FALSE(parsed.is_ok()) << text;
    return parsed.status();
  };
  expect_validation(error("price sideways"), {{"field", "sort"}, {"value", "price sideways"}});
  expect_validation(error("price desc extra"), {{"field", "sort"}, {"value", "price desc extra"}});
  expect_validation(error("a,,b"), {{"field", "sort"}, {"value", "a,,b"}});
  expect_validation(error("a,"), {{"field", "sort"}});
  expect_validation(error(", a"), {{"field", "sort"}});
  expect_validation(error("a..b desc"), {{"field", "sort"}, {"value", "a..b desc"}});
  expect_validation(error("_secret"), {{"field", "sort"}, {"value", "_secret"}});
  ParseOptions two;
  two.max_conditions = 2;
  EXPECT_TRUE(parse_sort("a, b", two).is_ok());
  EXPECT_FALSE(parse_sort("a, b, c", two).is_ok());
}

TEST(QuerySort, TotalOrderAcrossTypes) {
  const std::vector<json> ascending = {nullptr,
                                       -1e300,
                                       -5,
                                       0,
                                       0.5,
                                       1,
                                       std::uint64_t{18446744073709551615u},
                                       "",
                                       "A",
                                       "a",
                                       "é",
                                       "😀",
                                       json::object(),
                                       {{"a", 1}},
                                       {{"a", 2}},
                                       {{"a", 2}, {"b", 0}},
                                       {{"b", 0}},
                                       json::array(),
                                       {1},
                                       {1, 2},
                                       {2},
                                       {"a"},
                                       false,
                                       true};
  for (std::size_t i = 0; i < ascending.size(); ++i) {
    EXPECT_EQ(compare_values(ascending[i], ascending[i]), 0) << ascending[i].dump();
    for (std::size_t j = i + 1; j < ascending.size(); ++j) {
      EXPECT_EQ(compare_values(ascending[i], ascending[j]), -1)
          << ascending[i].dump() << " < " << ascending[j].dump();
      EXPECT_EQ(compare_values(ascending[j], ascending[i]), 1);
    }
  }
  EXPECT_EQ(compare_values(1, 1.0), 0);
}

// Sorts documents stably by `text` and returns their "id"s in order.
std::vector<int> sorted_ids(std::vector<json> docs, std::string_view text) {
  const auto keys = sort_keys(text);
  std::stable_sort(docs.begin(), docs.end(),
                   [&](const json& a, const json& b) { return compare_for_sort(a, b, keys) < 0; });
  std::vector<int> ids;
  for (const json& doc : docs) ids.push_back(doc["id"].get<int>());
  return ids;
}

TEST(QuerySort, DocumentsByMixedTypesAndSeveralKeys) {
  const std::vector<json> docs = {
      {{"id", 1}, {"v", "b"}, {"g", 1}},
      {{"id", 2}, {"v", 3}, {"g", 2}},
      {{"id", 3}, {"g", 1}},
      {{"id", 4}, {"v", true}, {"g", 2}},
      {{"id", 5}, {"v", nullptr}, {"g", 2}},
      {{"id", 6}, {"v", 2.5}, {"g", 1}},
      {{"id", 7}, {"v", {1}}, {"g", 1}},
      {{"id", 8}, {"v", {{"x", 1}}}, {"g", 2}},
  };
  // missing and null tie, keeping input order.
  EXPECT_EQ(sorted_ids(docs, "v"), (std::vector<int>{3, 5, 6, 2, 1, 8, 7, 4}));
  EXPECT_EQ(sorted_ids(docs, "v desc"), (std::vector<int>{4, 7, 8, 1, 2, 6, 3, 5}));
  EXPECT_EQ(sorted_ids(docs, "g desc, v asc"), (std::vector<int>{5, 2, 8, 4, 3, 6, 1, 7}));
  EXPECT_EQ(sorted_ids(docs, "g"), (std::vector<int>{1, 3, 6, 7, 2, 4, 5, 8}));  // stable
}

TEST(QuerySort, NestedPathsAndArraysInTheWay) {
  const std::vector<json> docs = {
      json::parse(R"({"id": 1, "a": {"b": 2}})"), json::parse(R"({"id": 2, "a": {"b": 1}})"),
      json::parse(R"({"id": 3, "a": [{"b": 0}]})"),  // through an array: missing
  };
  EXPECT_EQ(sorted_ids(docs, "a.b"), (std::vector<int>{3, 2, 1}));
  EXPECT_EQ(compare_for_sort(docs[0], docs[0], sort_keys("a.b")), 0);
  EXPECT_EQ(compare_for_sort(docs[0], docs[1], {}), 0);
}

// ---- Paging -------------------------------------------------------------------------------------

TEST(QueryPaging, DefaultsAndValues) {
  auto paging = parse_paging(json::object());
  ASSERT_TRUE(paging.is_ok());
  EXPECT_EQ(paging->limit, 100);
  EXPECT_EQ(paging->offset, 0);
  paging = parse_paging({{"limit", 10}, {"offset", 20}});
  ASSERT_TRUE(paging.is_ok());
  EXPECT_EQ(paging->limit, 10);
  EXPECT_EQ(paging->offset, 20);
  paging = parse_paging({{"limit", nullptr}, {"offset", nullptr}});
  ASSERT_TRUE(paging.is_ok());
  EXPECT_EQ(paging->limit, 100);
  EXPECT_EQ(paging->offset, 0);
  paging = parse_paging({{"limit", 0}, {"offset", std::numeric_limits<std::int64_t>::max()}});
  ASSERT_TRUE(paging.is_ok());
  EXPECT_EQ(paging->limit, 0);
  EXPECT_EQ(paging->offset, std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(parse_paging({{"limit", 1000}})->limit, 1000);
  ParseOptions options;
  options.limit_default = 7;
  options.limit_cap = 50;
  EXPECT_EQ(parse_paging(json::object(), options)->limit, 7);
  EXPECT_EQ(parse_paging({{"limit", 50}}, options)->limit, 50);
}

TEST(QueryPaging, Errors) {
  for (const char* field : {"limit", "offset"}) {
    for (const json& bad : {json(-1), json(1.5), json(10.0), json("10"), json(true), json::array(),
                            json::object(), json(std::uint64_t{9223372036854775808u})}) {
      const auto paging = parse_paging({{field, bad}});
      EXPECT_FALSE(paging.is_ok()) << field << " " << bad.dump();
      expect_validation(paging.status(), {{"field", field}});
    }
  }
  expect_validation(parse_paging({{"limit", 1001}}).status(), {{"field", "limit"}, {"max", 1000}});
  ParseOptions options;
  options.limit_cap = 50;
  expect_validation(parse_paging({{"limit", 51}}, options).status(), {{"max", 50}});
}

// ---- Projection ---------------------------------------------------------------------------------

json project(const json& projection, const json& doc) {
  auto parsed = parse_projection(projection, document_options());
  EXPECT_TRUE(parsed.is_ok()) << parsed.status().to_string() << " for " << projection.dump();
  return parsed.is_ok() ? apply_projection(doc, *parsed) : json();
}

const json kPerson = json::parse(R"({
  "_key": "k9", "_created_at": "2026-01-01T00:00:00Z", "name": "Ann", "age": 30,
  "address": {"city": "Oslo", "zip": "0150", "geo": {"lat": 59.9, "lon": 10.7}},
  "orders": [{"sku": "a", "qty": 1}, {"sku": "b"}, 5]
})");

TEST(QueryProjection, Include) {
  EXPECT_EQ(project({{"name", 1}, {"age", true}}, kPerson),
            json::parse(R"({"_key": "k9", "name": "Ann", "age": 30})"));
  EXPECT_EQ(project({{"name", 1}, {"nothing", 1}}, kPerson),
            json::parse(R"({"_key": "k9", "name": "Ann"})"));
  EXPECT_EQ(project({{"_created_at", 1}}, kPerson),
            json::parse(R"({"_key": "k9", "_created_at": "2026-01-01T00:00:00Z"})"));
}

TEST(QueryProjection, IncludeNested) {
  EXPECT_EQ(project({{"address.city", 1}, {"address.geo.lat", 1}}, kPerson),
            json::parse(R"({"_key": "k9", "address": {"city": "Oslo", "geo": {"lat": 59.9}}})"));
  // A whole field and a path inside it: the whole field wins.
  EXPECT_EQ(project({{"address", 1}, {"address.city", 1}}, kPerson),
            json::parse(R"({"_key": "k9", "address": )" + kPerson["address"].dump() + "}"));
  // Through an array of objects; elements that are not objects are dropped.
  EXPECT_EQ(project({{"orders.sku", 1}}, kPerson),
            json::parse(R"({"_key": "k9", "orders": [{"sku": "a"}, {"sku": "b"}]})"));
  // A parent object without the field stays, empty; a path through a scalar keeps nothing.
  EXPECT_EQ(project({{"address.nothing", 1}}, kPerson),
            json::parse(R"({"_key": "k9", "address": {}})"));
  EXPECT_EQ(project({{"name.first", 1}}, kPerson), json::parse(R"({"_key": "k9"})"));
}

TEST(QueryProjection, Exclude) {
  EXPECT_EQ(project({{"address", 0}, {"orders", false}, {"_created_at", 0}}, kPerson),
            json::parse(R"({"_key": "k9", "name": "Ann", "age": 30})"));
  json expected = kPerson;
  expected["address"].erase("zip");
  expected["address"]["geo"].erase("lon");
  expected["orders"][0].erase("qty");
  EXPECT_EQ(project({{"address.zip", 0}, {"address.geo.lon", 0}, {"orders.qty", 0}}, kPerson),
            expected);
  EXPECT_EQ(project({{"nothing.at.all", 0}}, kPerson), kPerson);
}

TEST(QueryProjection, KeyIsKeptUnlessExcludedByName) {
  EXPECT_EQ(project({{"name", 1}, {"_key", 0}}, kPerson), json::parse(R"({"name": "Ann"})"));
  EXPECT_EQ(project({{"name", 1}, {"_key", 1}}, kPerson),
            json::parse(R"({"_key": "k9", "name": "Ann"})"));
  EXPECT_EQ(project({{"_key", 1}}, kPerson), json::parse(R"({"_key": "k9"})"));
  json without_key = kPerson;
  without_key.erase("_key");
  EXPECT_EQ(project({{"_key", 0}}, kPerson), without_key);
  without_key.erase("age");
  EXPECT_EQ(project({{"age", 0}, {"_key", false}}, kPerson), without_key);
  EXPECT_EQ(project({{"age", 0}, {"_key", 1}}, kPerson).value("_key", ""), "k9");
  EXPECT_EQ(project({{"name", 1}}, json::parse(R"({"name": "x"})")),
            json::parse(R"({"name": "x"})"));
}

TEST(QueryProjection, EmptyChangesNothing) { EXPECT_EQ(project(json::object(), kPerson), kPerson); }

TEST(QueryProjection, Errors) {
  const auto error = [](const json& projection) {
    auto parsed = parse_projection(projection, document_options());
    EXPECT_FALSE(parsed.is_ok()) << projection.dump();
    return parsed.status();
  };
  expect_validation(error({{"a", 1}, {"b", 0}}), {{"key", "b"}});
  expect_validation(error({{"a", 2}}), {{"key", "a"}});
  expect_validation(error({{"a", -1}}), {{"key", "a"}});
  expect_validation(error({{"a", 1.0}}), {{"key", "a"}});
  expect_validation(error({{"a", "1"}}), {{"key", "a"}});
  expect_validation(error({{"a", nullptr}}), {{"key", "a"}});
  expect_validation(error({{"a..b", 1}}), {{"key", "a..b"}});
  expect_validation(error({{"_secret", 1}}), {{"key", "_secret"}});
  expect_validation(error(json::array()), {{"field", "project"}});
  ParseOptions one;
  one.max_conditions = 1;
  expect_validation(parse_projection({{"a", 1}, {"b", 1}}, one).status(),
                    {{"field", "project"}, {"max", 1}});
}

// ---- Equivalences the drivers rely on -----------------------------------------------------------

TEST(QueryLaws, NegationsAreComplements) {
  const std::vector<json> operands = {nullptr, 25, "Lamp", "home", json({"home", "light"}), 1.5};
  const std::vector<std::string> fields = {"name",    "price",     "tags",        "stock",
                                           "nothing", "items.sku", "address.city"};
  for (const auto& field : fields) {
    for (const json& operand : operands) {
      EXPECT_NE(match({{field, operand}}, kProduct), match({{field + ":$ne", operand}}, kProduct))
          << field << " " << operand.dump();
      EXPECT_EQ(match({{field, operand}}, kProduct),
                match({{field + ":$in", json::array({operand})}}, kProduct));
      EXPECT_NE(match({{field + ":$in", json::array({operand, 0})}}, kProduct),
                match({{field + ":$nin", json::array({operand, 0})}}, kProduct));
    }
  }
}

}  // namespace
