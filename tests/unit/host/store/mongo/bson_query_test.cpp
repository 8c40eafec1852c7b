// The MongoDB driver's translation to BSON (host/store/mongo/bson_query.hpp): filters, sort and
// projection documents as canonical extended JSON, and exact json <-> bson conversion.
#include "store/mongo/bson_query.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "opbase/query.hpp"

namespace {

using nlohmann::json;
using namespace opbase::host::mongo;
namespace query = opbase::query;

query::ParseOptions document_options() {
  query::ParseOptions options;
  options.system_fields = {"_key", "_userkey", "_created_at", "_modified_at"};
  return options;
}

// The canonical extended JSON of the filter for `match` (which must parse and translate).
std::string filter(const json& match) {
  auto parsed = query::parse_match(match, document_options());
  EXPECT_TRUE(parsed.is_ok()) << parsed.status().to_string() << " for " << match.dump();
  if (!parsed.is_ok()) return "<parse error>";
  auto doc = match_to_filter(*parsed);
  EXPECT_TRUE(doc.is_ok()) << doc.status().to_string();
  return doc.is_ok() ? doc->to_canonical_json() : "<translate error>";
}

std::string sort(std::string_view text) {
  auto keys = query::parse_sort(text, document_options());
  EXPECT_TRUE(keys.is_ok()) << keys.status().to_string();
  if (!keys.is_ok()) return "<parse error>";
  auto doc = sort_to_bson(*keys);
  EXPECT_TRUE(doc.is_ok()) << doc.status().to_string();
  return doc.is_ok() ? doc->to_canonical_json() : "<translate error>";
}

std::string projection(const json& project) {
  auto parsed = query::parse_projection(project, document_options());
  EXPECT_TRUE(parsed.is_ok()) << parsed.status().to_string() << " for " << project.dump();
  if (!parsed.is_ok()) return "<parse error>";
  auto doc = projection_to_bson(*parsed);
  EXPECT_TRUE(doc.is_ok()) << doc.status().to_string();
  return doc.is_ok() ? doc->to_canonical_json() : "<translate error>";
}

json round_trip(const json& value) {
  auto doc = json_to_bson(value);
  EXPECT_TRUE(doc.is_ok()) << doc.status().to_string();
  if (!doc.is_ok()) return nullptr;
  auto back = bson_to_json(doc->get());
  EXPECT_TRUE(back.is_ok()) << back.status().to_string();
  return back.is_ok() ? *back : json(nullptr);
}

TEST(BsonFilter, EmptyMatchSelectsAll) { EXPECT_EQ(filter(json::object()), "{ }"); }

TEST(BsonFilter, EqualityOfScalars) {
  EXPECT_EQ(filter({{"name", "Lamp"}}), R"({ "name" : "Lamp" })");
  EXPECT_EQ(filter({{"price", 25}}), R"({ "price" : { "$numberLong" : "25" } })");
  EXPECT_EQ(filter({{"price", 2.5}}), R"({ "price" : { "$numberDouble" : "2.5" } })");
  EXPECT_EQ(filter({{"ok", true}}), R"({ "ok" : true })");
  EXPECT_EQ(filter({{"stock", nullptr}}), R"({ "stock" : null })");
}

TEST(BsonFilter, EveryOperator) {
  EXPECT_EQ(filter({{"a:$ne", 1}}), R"({ "a" : { "$ne" : { "$numberLong" : "1" } } })");
  EXPECT_EQ(filter({{"a:$ne", nullptr}}), R"({ "a" : { "$ne" : null } })");
  EXPECT_EQ(filter({{"a:$gt", 1}}), R"({ "a" : { "$gt" : { "$numberLong" : "1" } } })");
  EXPECT_EQ(filter({{"a:$gte", 1.5}}), R"({ "a" : { "$gte" : { "$numberDouble" : "1.5" } } })");
  EXPECT_EQ(filter({{"a:$lt", "m"}}), R"({ "a" : { "$lt" : "m" } })");
  EXPECT_EQ(filter({{"a:$lte", -3}}), R"({ "a" : { "$lte" : { "$numberLong" : "-3" } } })");
  EXPECT_EQ(filter({{"a:$in", {1, "x", nullptr}}}),
            R"({ "a" : { "$in" : [ { "$numberLong" : "1" }, "x", null ] } })");
  EXPECT_EQ(filter({{"a:$nin", json::array()}}),
            R"({ "a" : { "$nin" : [  ] } })");  // libbson's spacing
  EXPECT_EQ(filter({{"a:$nin", {true, 2.0}}}),
            R"({ "a" : { "$nin" : [ true, { "$numberDouble" : "2.0" } ] } })");
}

TEST(BsonFilter, OperatorsOnOneFieldShareTheKey) {
  EXPECT_EQ(
      filter({{"price:$gt", 5}, {"price:$lt", 10}}),
      R"({ "price" : { "$gt" : { "$numberLong" : "5" }, "$lt" : { "$numberLong" : "10" } } })");
  EXPECT_EQ(filter({{"a:$ne", 1}, {"a:$nin", {2}}, {"b", 1}}),
            R"({ "a" : { "$ne" : { "$numberLong" : "1" }, "$nin" : [ { "$numberLong" : "2" } ] }, )"
            R"("b" : { "$numberLong" : "1" } })");
}

TEST(BsonFilter, EqualityPlusOperatorUsesAnd) {
  // parse_match keys are distinct, so one field's equality meets an operator, not another equality.
  EXPECT_EQ(filter({{"a", 1}, {"a:$gt", 0}, {"b", "x"}}),
            R"({ "b" : "x", "$and" : [ { "a" : { "$numberLong" : "1" } }, )"
            R"({ "a" : { "$gt" : { "$numberLong" : "0" } } } ] })");
}

TEST(BsonFilter, RepeatedConditionsOnOneFieldUseAnd) {
  // Built by hand: two equalities, and one operator twice, on one field.
  auto path = query::parse_path("a");
  ASSERT_TRUE(path.is_ok());
  query::Match match = {{*path, query::Op::kEq, 1}, {*path, query::Op::kEq, 2}};
  auto doc = match_to_filter(match);
  ASSERT_TRUE(doc.is_ok());
  EXPECT_EQ(
      doc->to_canonical_json(),
      R"({ "$and" : [ { "a" : { "$numberLong" : "1" } }, { "a" : { "$numberLong" : "2" } } ] })");
  match = {{*path, query::Op::kGt, 1}, {*path, query::Op::kLt, 9}, {*path, query::Op::kGt, 3}};
  doc = match_to_filter(match);
  ASSERT_TRUE(doc.is_ok());
  EXPECT_EQ(doc->to_canonical_json(),
            R"({ "$and" : [ { "a" : { "$gt" : { "$numberLong" : "1" } } }, )"
            R"({ "a" : { "$lt" : { "$numberLong" : "9" } } }, )"
            R"({ "a" : { "$gt" : { "$numberLong" : "3" } } } ] })");
}

TEST(BsonFilter, DottedPathsAreKeys) {
  EXPECT_EQ(filter({{"address.city", "Oslo"}, {"items.qty:$gte", 2}}),
            R"({ "address.city" : "Oslo", "items.qty" : { "$gte" : { "$numberLong" : "2" } } })");
  EXPECT_EQ(filter({{"orders._key", "k1"}}), R"({ "orders._key" : "k1" })");
  EXPECT_EQ(filter({{"time:zone", "UTC"}}), R"({ "time:zone" : "UTC" })");
}

TEST(BsonFilter, NestedValues) {
  // Objects use $eq so that their keys stay literal; keys come in byte order (nlohmann::json).
  EXPECT_EQ(filter({{"a", {{"y", 2}, {"x", {1, 2.5}}}}}),
            R"({ "a" : { "$eq" : { "x" : [ { "$numberLong" : "1" }, )"
            R"({ "$numberDouble" : "2.5" } ], "y" : { "$numberLong" : "2" } } } })");
  EXPECT_EQ(filter({{"a", {{"$gt", 1}}}}),
            R"({ "a" : { "$eq" : { "$gt" : { "$numberLong" : "1" } } } })");
  EXPECT_EQ(filter({{"tags", {"home", "light"}}}), R"({ "tags" : [ "home", "light" ] })");
  EXPECT_EQ(filter({{"a:$in", json::array({json::array({1}), json{{"b", nullptr}}})}}),
            R"({ "a" : { "$in" : [ [ { "$numberLong" : "1" } ], { "b" : null } ] } })");
  EXPECT_EQ(filter({{"a:$ne", {{"b", 1}}}}),
            R"({ "a" : { "$ne" : { "b" : { "$numberLong" : "1" } } } })");
}

TEST(BsonFilter, UnicodeAndExtremeNumbers) {
  EXPECT_EQ(filter({{"name", "日本 😀 é"}}), R"({ "name" : "日本 😀 é" })");
  EXPECT_EQ(filter({{"ü", "x"}}), R"({ "ü" : "x" })");
  EXPECT_EQ(filter({{"n", std::numeric_limits<std::int64_t>::max()}}),
            R"({ "n" : { "$numberLong" : "9223372036854775807" } })");
  EXPECT_EQ(filter({{"n", std::numeric_limits<std::int64_t>::min()}}),
            R"({ "n" : { "$numberLong" : "-9223372036854775808" } })");
  // Above int64: Decimal128, exact.
  EXPECT_EQ(filter(json::parse(R"({"n": 9223372036854775808})")),
            R"({ "n" : { "$numberDecimal" : "9223372036854775808" } })");
  EXPECT_EQ(filter(json::parse(R"({"n:$lt": 18446744073709551615})")),
            R"({ "n" : { "$lt" : { "$numberDecimal" : "18446744073709551615" } } })");
  EXPECT_EQ(filter(json::parse(R"({"n": 9223372036854775808.0})")),
            R"({ "n" : { "$numberDouble" : "9223372036854775808.0" } })");
  // libbson prints doubles with 20 significant digits (exact round trip).
  EXPECT_EQ(filter({{"d", 0.1}}), R"({ "d" : { "$numberDouble" : "0.10000000000000000555" } })");
  EXPECT_EQ(filter({{"d", -0.0}}), R"({ "d" : { "$numberDouble" : "-0.0" } })");
}

TEST(BsonFilter, NulInKeyIsValidationError) {
  auto path = query::parse_path("a");
  ASSERT_TRUE(path.is_ok());
  query::Match match = {{*path, query::Op::kEq, json{{std::string("b\0c", 3), 1}}}};
  auto doc = match_to_filter(match);
  ASSERT_FALSE(doc.is_ok());
  EXPECT_EQ(doc.status().code(), "VALIDATION_ERROR");
}

TEST(BsonFilter, PrefixAddressesEveryPath) {
  auto parsed = query::parse_match(
      {{"price:$gt", 5}, {"price:$lt", 10}, {"a", 1}, {"a:$ne", 2}, {"name", "x"}},
      document_options());
  ASSERT_TRUE(parsed.is_ok());
  auto doc = match_to_filter(*parsed, "doc.");
  ASSERT_TRUE(doc.is_ok());
  // nlohmann::json orders the match's keys: a, a:$ne, name, price:$gt, price:$lt.
  EXPECT_EQ(
      doc->to_canonical_json(),
      R"({ "doc.name" : "x", "doc.price" : { "$gt" : { "$numberLong" : "5" }, )"
      R"("$lt" : { "$numberLong" : "10" } }, "$and" : [ { "doc.a" : { "$numberLong" : "1" } }, )"
      R"({ "doc.a" : { "$ne" : { "$numberLong" : "2" } } } ] })");
  // The default prefix is none.
  auto plain = match_to_filter(*parsed);
  ASSERT_TRUE(plain.is_ok());
  EXPECT_EQ(plain->to_canonical_json().find("doc."), std::string::npos);
}

TEST(BsonSort, KeysInOrder) {
  EXPECT_EQ(sort("price desc, name asc, address.city"),
            R"({ "price" : { "$numberInt" : "-1" }, "name" : { "$numberInt" : "1" }, )"
            R"("address.city" : { "$numberInt" : "1" } })");
  EXPECT_EQ(sort("_created_at DESC"), R"({ "_created_at" : { "$numberInt" : "-1" } })");
  auto empty = sort_to_bson({});
  ASSERT_TRUE(empty.is_ok());
  EXPECT_EQ(empty->to_canonical_json(), "{ }");
}

TEST(BsonSort, Prefix) {
  auto keys = query::parse_sort("price desc, a.b", document_options());
  ASSERT_TRUE(keys.is_ok());
  auto doc = sort_to_bson(*keys, "doc.");
  ASSERT_TRUE(doc.is_ok());
  EXPECT_EQ(doc->to_canonical_json(),
            R"({ "doc.price" : { "$numberInt" : "-1" }, "doc.a.b" : { "$numberInt" : "1" } })");
}

TEST(BsonConvert, AppendJson) {
  BsonDoc doc;
  EXPECT_TRUE(append_json(doc.get(), "v", json{{"b", 1}, {"a", nullptr}}));
  EXPECT_TRUE(append_json(doc.get(), "s", "x"));
  EXPECT_FALSE(append_json(doc.get(), std::string_view("a\0b", 3), 1));
  EXPECT_EQ(doc.to_canonical_json(),
            R"({ "v" : { "a" : null, "b" : { "$numberLong" : "1" } }, "s" : "x" })");
}

TEST(BsonProjection, Include) {
  EXPECT_EQ(projection({{"name", 1}, {"address.city", true}}),
            R"({ "_key" : { "$numberInt" : "1" }, "address.city" : { "$numberInt" : "1" }, )"
            R"("name" : { "$numberInt" : "1" } })");
  EXPECT_EQ(projection({{"name", 1}, {"_key", 0}}), R"({ "name" : { "$numberInt" : "1" } })");
  EXPECT_EQ(projection({{"_key", 1}}), R"({ "_key" : { "$numberInt" : "1" } })");
  // The whole field wins over a path inside it (MongoDB would report a path collision).
  EXPECT_EQ(projection({{"a", 1}, {"a.b", 1}, {"ab", 1}}),
            R"({ "_key" : { "$numberInt" : "1" }, "a" : { "$numberInt" : "1" }, )"
            R"("ab" : { "$numberInt" : "1" } })");
}

TEST(BsonProjection, Exclude) {
  EXPECT_EQ(projection(json::object()), "{ }");
  EXPECT_EQ(projection({{"secret", 0}, {"a.b", false}}),
            R"({ "a.b" : { "$numberInt" : "0" }, "secret" : { "$numberInt" : "0" } })");
  EXPECT_EQ(projection({{"_key", 0}}), R"({ "_key" : { "$numberInt" : "0" } })");
  EXPECT_EQ(projection({{"x", 0}, {"_key", 0}}),
            R"({ "x" : { "$numberInt" : "0" }, "_key" : { "$numberInt" : "0" } })");
  EXPECT_EQ(projection({{"a.b.c", 0}, {"a.b", 0}}), R"({ "a.b" : { "$numberInt" : "0" } })");
}

TEST(BsonConvert, RoundTripKeepsTypesExactly) {
  const json doc = json::parse(R"({
    "name": "Lämpchen 日本 😀",
    "max": 9223372036854775807,
    "min": -9223372036854775808,
    "big": 18446744073709551615,
    "one": 1,
    "one_d": 1.0,
    "pi": 3.141592653589793,
    "tiny": 5e-324,
    "flag": false,
    "none": null,
    "address": {"city": "Tromsø", "geo": {"lat": 69.6496, "lon": 18.956}},
    "items": [{"sku": "a1", "qty": 2}, [1, [2.5, "x"]], {}, []],
    "empty": {}
  })");
  const json back = round_trip(doc);
  EXPECT_EQ(back, doc);  // nlohmann compares int and double by value: check the types too
  EXPECT_EQ(back.dump(), doc.dump());
  EXPECT_TRUE(back["max"].is_number_integer() && !back["max"].is_number_unsigned());
  EXPECT_EQ(back["max"].get<std::int64_t>(), std::numeric_limits<std::int64_t>::max());
  EXPECT_TRUE(back["big"].is_number_unsigned());
  EXPECT_EQ(back["big"].get<std::uint64_t>(), std::numeric_limits<std::uint64_t>::max());
  EXPECT_TRUE(back["one"].is_number_integer());
  EXPECT_TRUE(back["one_d"].is_number_float());
  EXPECT_TRUE(back["address"]["geo"]["lat"].is_number_float());
  EXPECT_TRUE(back["items"][0]["qty"].is_number_integer());
  EXPECT_TRUE(back["items"][1][1][0].is_number_float());
  EXPECT_EQ(back["name"].get<std::string>(), "Lämpchen 日本 😀");
}

TEST(BsonConvert, DocumentEncoding) {
  auto doc = json_to_bson({{"b", 1}, {"a", {1.5, "é"}}});
  ASSERT_TRUE(doc.is_ok());
  EXPECT_EQ(doc->to_canonical_json(),
            R"({ "a" : [ { "$numberDouble" : "1.5" }, "é" ], "b" : { "$numberLong" : "1" } })");
  EXPECT_EQ(doc->to_relaxed_json(), R"({ "a" : [ 1.5, "é" ], "b" : 1 })");
}

TEST(BsonConvert, Errors) {
  EXPECT_EQ(json_to_bson(json::array()).status().code(), "VALIDATION_ERROR");
  EXPECT_EQ(json_to_bson(json{{std::string("a\0b", 3), 1}}).status().code(), "VALIDATION_ERROR");
  EXPECT_EQ(json_to_bson(json{{"x", {{std::string("\0", 1), 1}}}}).status().code(),
            "VALIDATION_ERROR");

  // Types without a JSON value, and int32 (which reads as an integer).
  BsonDoc doc;
  BSON_APPEND_INT32(doc.get(), "i", 7);
  auto ok = bson_to_json(doc.get());
  ASSERT_TRUE(ok.is_ok());
  EXPECT_EQ(ok->dump(), R"({"i":7})");
  bson_oid_t oid;
  bson_oid_init_from_string(&oid, "0123456789abcdef01234567");
  BSON_APPEND_OID(doc.get(), "_id", &oid);
  auto bad = bson_to_json(doc.get());
  ASSERT_FALSE(bad.is_ok());
  EXPECT_EQ(bad.status().code(), "INTERNAL_ERROR");
}

TEST(BsonDoc, OwnershipMovesAndReleases) {
  BsonDoc a;
  BSON_APPEND_INT32(a.get(), "x", 1);
  BsonDoc b = std::move(a);
  EXPECT_EQ(a.get(), nullptr);  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(a.to_canonical_json(), "");
  a = std::move(b);
  bson_t* raw = a.release();
  EXPECT_EQ(a.get(), nullptr);
  BsonDoc c(raw);
  EXPECT_EQ(c.to_canonical_json(), R"({ "x" : { "$numberInt" : "1" } })");
}

}  // namespace
