// `lookup` of collection.find (docs/api.md#lookup): parse_lookup's refusals and apply_lookups'
// joins, with a fake fetch standing in for the store.
#include "ops/lookup.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "opbase/query.hpp"
#include "ops/document_rules.hpp"

namespace opbase::collection {
namespace {

using nlohmann::json;

// The options the collection plugin parses users' queries with: the base properties allowed.
query::ParseOptions user_options() {
  query::ParseOptions options;
  options.system_fields = base_fields();
  return options;
}

json spec_json(const std::string& from, const std::string& local, const std::string& foreign,
               const std::string& as) {
  return {{"from", from}, {"local_field", local}, {"foreign_field", foreign}, {"as", as}};
}

std::vector<LookupSpec> parsed(const json& lookup) {
  auto specs = parse_lookup(lookup, user_options());
  EXPECT_TRUE(specs.is_ok()) << lookup.dump() << " -> " << specs.status().to_string();
  return specs.is_ok() ? *specs : std::vector<LookupSpec>{};
}

// The lookup is refused with VALIDATION_ERROR, details.field "lookup", and a message holding
// `words`.
void expect_refused(const json& lookup, const std::string& words) {
  SCOPED_TRACE("lookup: " + lookup.dump());
  auto specs = parse_lookup(lookup, user_options());
  ASSERT_FALSE(specs.is_ok());
  const Status status = specs.status();
  EXPECT_EQ(status.code(), "VALIDATION_ERROR");
  EXPECT_EQ(status.http_status(), 400);
  ASSERT_TRUE(status.details().is_object());
  EXPECT_EQ(status.details().value("field", json()), "lookup");
  EXPECT_NE(status.message().find(words), std::string::npos) << status.message();
}

// A fake store: the documents of each collection, and every fetch it returned.
struct FakeStore {
  std::map<std::string, std::vector<json>> collections;
  struct Call {
    std::string from;
    query::Match match;
  };
  std::vector<Call> calls;
  // When set, every fetch returns all documents of the collection, matching or not.
  bool answer_everything = false;

  FetchForeign fetch() {
    return [this](const std::string& from, const query::Match& match) -> Result<std::vector<json>> {
      calls.push_back({from, match});
      std::vector<json> out;
      for (const json& doc : collections[from]) {
        if (answer_everything || query::matches(match, doc)) out.push_back(doc);
      }
      return out;
    };
  }
};

// The `_key`s of the documents joined into `field` of `doc`, sorted.
std::vector<std::string> joined_keys(const json& doc, const std::string& field) {
  std::vector<std::string> keys;
  const json* joined = &doc;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = field.find('.', start);
    joined = &joined->at(field.substr(start, dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  EXPECT_TRUE(joined->is_array()) << joined->dump();
  for (const json& d : *joined) keys.push_back(d.at("_key").get<std::string>());
  std::sort(keys.begin(), keys.end());
  return keys;
}

using Keys = std::vector<std::string>;

// ---- parse_lookup -----------------------------------------------------------------------------

TEST(ParseLookup, OneObject) {
  const auto specs = parsed(spec_json("users", "user_id", "_key", "user"));
  ASSERT_EQ(specs.size(), 1u);
  EXPECT_EQ(specs[0].from, "users");
  EXPECT_EQ(specs[0].local.text, "user_id");
  EXPECT_EQ(specs[0].foreign.segments, (std::vector<std::string>{"_key"}));
  EXPECT_EQ(specs[0].as.text, "user");
}

TEST(ParseLookup, ArrayInOrderWithDotPaths) {
  const auto specs = parsed(json::array({spec_json("users", "owner.id", "_key", "owner.profile"),
                                         spec_json("tags", "tag_ids", "code", "tags")}));
  ASSERT_EQ(specs.size(), 2u);
  EXPECT_EQ(specs[0].from, "users");
  EXPECT_EQ(specs[0].local.segments, (std::vector<std::string>{"owner", "id"}));
  EXPECT_EQ(specs[0].as.segments, (std::vector<std::string>{"owner", "profile"}));
  EXPECT_EQ(specs[1].from, "tags");
  EXPECT_EQ(specs[1].foreign.text, "code");
}

TEST(ParseLookup, TenIsTheMaximum) {
  json ten = json::array();
  for (int i = 0; i < 10; ++i) ten.push_back(spec_json("c", "a", "b", "j" + std::to_string(i)));
  EXPECT_EQ(parsed(ten).size(), 10u);
  json eleven = ten;
  eleven.push_back(spec_json("c", "a", "b", "j10"));
  auto specs = parse_lookup(eleven, user_options());
  ASSERT_FALSE(specs.is_ok());
  EXPECT_EQ(specs.status().code(), "VALIDATION_ERROR");
  EXPECT_EQ(specs.status().details(), json({{"field", "lookup"}, {"max", 10}}));
}

TEST(ParseLookup, UnknownKeysAreRefused) {
  json spec = spec_json("users", "a", "b", "c");
  spec["pipeline"] = json::array();
  expect_refused(spec, "pipeline");
  json camel = spec_json("users", "a", "b", "c");
  camel.erase("local_field");
  camel["localField"] = "a";
  expect_refused(camel, "localField");
  json in_array = json::array({spec_json("users", "a", "b", "c"), spec});
  expect_refused(in_array, "pipeline");
}

TEST(ParseLookup, NotAnObjectIsRefused) {
  for (const json& bad : {json(nullptr), json("users"), json(1), json(true)}) {
    expect_refused(bad, "object");
  }
  expect_refused(json::array({spec_json("users", "a", "b", "c"), "users"}), "object");
  expect_refused(json::array({json::array({spec_json("users", "a", "b", "c")})}), "object");
}

TEST(ParseLookup, BadFromIsRefused) {
  json missing = spec_json("users", "a", "b", "c");
  missing.erase("from");
  expect_refused(missing, "from");
  json number = spec_json("users", "a", "b", "c");
  number["from"] = 5;
  expect_refused(number, "from");
  json null_from = spec_json("users", "a", "b", "c");
  null_from["from"] = nullptr;
  expect_refused(null_from, "from");
  // Names that check_collection_name refuses (docs/api.md#collections).
  for (const std::string& bad : std::vector<std::string>{"", "Users", "1users", "us-ers", "users.x",
                                                         "üsers", std::string(65, 'a')}) {
    expect_refused(spec_json(bad, "a", "b", "c"), "collection name");
  }
  EXPECT_EQ(parsed(spec_json(std::string(64, 'a'), "a", "b", "c")).size(), 1u);
}

TEST(ParseLookup, MissingOrNonStringFieldsAreRefused) {
  for (const char* field : {"local_field", "foreign_field", "as"}) {
    json missing = spec_json("users", "a", "b", "c");
    missing.erase(field);
    expect_refused(missing, field);
    for (const json& bad : {json(nullptr), json(1), json::array({"a"}), json({{"a", 1}})}) {
      json wrong = spec_json("users", "a", "b", "c");
      wrong[field] = bad;
      expect_refused(wrong, field);
    }
    json empty = spec_json("users", "a", "b", "c");
    empty[field] = "";
    expect_refused(empty, field);
    json empty_segment = spec_json("users", "a", "b", "c");
    empty_segment[field] = "a..b";
    expect_refused(empty_segment, field);
  }
  expect_refused(json::object(), "from");
}

TEST(ParseLookup, AsMayNotBeASystemName) {
  expect_refused(spec_json("users", "a", "b", "_key"), "as");
  expect_refused(spec_json("users", "a", "b", "_joined"), "as");
  expect_refused(spec_json("users", "a", "b", "x._y"), "as");
  expect_refused(spec_json("users", "a", "b", "$x"), "as");
}

TEST(ParseLookup, LocalAndForeignMayBeBaseFieldsButNotOtherSystemNames) {
  const auto specs = parsed(spec_json("users", "_userkey", "_key", "owner"));
  ASSERT_EQ(specs.size(), 1u);
  EXPECT_EQ(specs[0].local.text, "_userkey");
  EXPECT_EQ(specs[0].foreign.text, "_key");
  expect_refused(spec_json("users", "_secret", "b", "c"), "local_field");
  expect_refused(spec_json("users", "a", "_secret", "c"), "foreign_field");
  expect_refused(spec_json("users", "$a", "b", "c"), "local_field");
  expect_refused(spec_json("users", "a", "b.$c", "c"), "foreign_field");
}

TEST(ParseLookup, EmptyArrayIsNoJoin) { EXPECT_TRUE(parsed(json::array()).empty()); }

// ---- apply_lookups ----------------------------------------------------------------------------

TEST(ApplyLookups, JoinsMatchingForeignDocuments) {
  FakeStore store;
  store.collections["users"] = {{{"_key", "u1"}, {"name", "Ann"}},
                                {{"_key", "u2"}, {"name", "Bob"}},
                                {{"_key", "u3"}, {"name", "Cid"}}};
  std::vector<json> docs = {{{"_key", "o1"}, {"user_id", "u1"}},
                            {{"_key", "o2"}, {"user_id", "u2"}},
                            {{"_key", "o3"}, {"user_id", "nobody"}}};
  const Status s =
      apply_lookups(docs, parsed(spec_json("users", "user_id", "_key", "user")), store.fetch());
  ASSERT_TRUE(s.is_ok()) << s.to_string();
  EXPECT_EQ(docs[0].at("user"), json::array({{{"_key", "u1"}, {"name", "Ann"}}}));
  EXPECT_EQ(joined_keys(docs[1], "user"), Keys{"u2"});
  EXPECT_EQ(docs[2].at("user"), json::array());  // no match: an empty array, not absent
  EXPECT_EQ(docs[0].at("user_id"), "u1");        // the rest of the document is untouched
}

TEST(ApplyLookups, SeveralForeignDocumentsJoinOneDocument) {
  FakeStore store;
  store.collections["items"] = {{{"_key", "i1"}, {"order", 1}},
                                {{"_key", "i2"}, {"order", 1}},
                                {{"_key", "i3"}, {"order", 2}}};
  std::vector<json> docs = {{{"_key", "o1"}, {"n", 1}}, {{"_key", "o2"}, {"n", 2.0}}};
  ASSERT_TRUE(apply_lookups(docs, parsed(spec_json("items", "n", "order", "items")), store.fetch())
                  .is_ok());
  EXPECT_EQ(joined_keys(docs[0], "items"), (Keys{"i1", "i2"}));
  EXPECT_EQ(joined_keys(docs[1], "items"), Keys{"i3"});  // 2.0 == 2: numbers compare numerically
}

TEST(ApplyLookups, TypesAreNotCoerced) {
  FakeStore store;
  store.collections["c"] = {{{"_key", "f1"}, {"v", "1"}}, {{"_key", "f2"}, {"v", 1}}};
  std::vector<json> docs = {{{"_key", "d1"}, {"v", 1}}, {{"_key", "d2"}, {"v", "1"}}};
  ASSERT_TRUE(apply_lookups(docs, parsed(spec_json("c", "v", "v", "j")), store.fetch()).is_ok());
  EXPECT_EQ(joined_keys(docs[0], "j"), Keys{"f2"});
  EXPECT_EQ(joined_keys(docs[1], "j"), Keys{"f1"});
}

TEST(ApplyLookups, ArrayLocalValuesJoinElementByElement) {
  FakeStore store;
  store.collections["tags"] = {{{"_key", "t1"}, {"code", "red"}},
                               {{"_key", "t2"}, {"code", "green"}},
                               {{"_key", "t3"}, {"code", "blue"}}};
  std::vector<json> docs = {{{"_key", "p1"}, {"tags", {"red", "blue", "pink"}}},
                            {{"_key", "p2"}, {"tags", json::array()}},
                            {{"_key", "p3"}, {"tags", json::array({"green"})}}};
  ASSERT_TRUE(
      apply_lookups(docs, parsed(spec_json("tags", "tags", "code", "tag_docs")), store.fetch())
          .is_ok());
  EXPECT_EQ(joined_keys(docs[0], "tag_docs"), (Keys{"t1", "t3"}));
  EXPECT_EQ(joined_keys(docs[1], "tag_docs"), Keys{});
  EXPECT_EQ(joined_keys(docs[2], "tag_docs"), Keys{"t2"});
  EXPECT_EQ(docs[0].at("tags"), json({"red", "blue", "pink"}));  // the local array stays
}

TEST(ApplyLookups, ArrayForeignValuesMatchAnyElement) {
  FakeStore store;
  store.collections["groups"] = {{{"_key", "g1"}, {"members", {"u1", "u2"}}},
                                 {{"_key", "g2"}, {"members", json::array({"u3"})}}};
  std::vector<json> docs = {{{"_key", "u2"}}, {{"_key", "u3"}}};
  ASSERT_TRUE(
      apply_lookups(docs, parsed(spec_json("groups", "_key", "members", "groups")), store.fetch())
          .is_ok());
  EXPECT_EQ(joined_keys(docs[0], "groups"), Keys{"g1"});
  EXPECT_EQ(joined_keys(docs[1], "groups"), Keys{"g2"});
}

TEST(ApplyLookups, LocalValuesThroughAnArrayOfObjects) {
  FakeStore store;
  store.collections["products"] = {{{"_key", "a1"}, {"sku", "A"}},
                                   {{"_key", "b2"}, {"sku", "B"}},
                                   {{"_key", "c3"}, {"sku", "C"}}};
  std::vector<json> docs = {
      {{"_key", "o1"}, {"lines", json::array({{{"sku", "A"}}, {{"sku", "C"}}, {{"qty", 1}}})}}};
  ASSERT_TRUE(apply_lookups(docs, parsed(spec_json("products", "lines.sku", "sku", "products")),
                            store.fetch())
                  .is_ok());
  EXPECT_EQ(joined_keys(docs[0], "products"), (Keys{"a1", "c3"}));
}

TEST(ApplyLookups, MissingLocalValueJoinsDocumentsMissingTheForeignField) {
  FakeStore store;
  store.collections["c"] = {{{"_key", "f_missing"}},
                            {{"_key", "f_null"}, {"ref", nullptr}},
                            {{"_key", "f_set"}, {"ref", "x"}}};
  std::vector<json> docs = {{{"_key", "d_missing"}},
                            {{"_key", "d_null"}, {"ref", nullptr}},
                            {{"_key", "d_set"}, {"ref", "x"}},
                            {{"_key", "d_other"}, {"ref", 5}}};
  ASSERT_TRUE(
      apply_lookups(docs, parsed(spec_json("c", "ref", "ref", "j")), store.fetch()).is_ok());
  EXPECT_EQ(joined_keys(docs[0], "j"), (Keys{"f_missing", "f_null"}));
  EXPECT_EQ(joined_keys(docs[1], "j"), (Keys{"f_missing", "f_null"}));
  EXPECT_EQ(joined_keys(docs[2], "j"), Keys{"f_set"});
  EXPECT_EQ(joined_keys(docs[3], "j"), Keys{});
}

TEST(ApplyLookups, MissingNestedLocalValueJoinsOnNullToo) {
  FakeStore store;
  store.collections["c"] = {{{"_key", "f1"}, {"a", {{"b", 1}}}}, {{"_key", "f2"}, {"a", 3}}};
  std::vector<json> docs = {{{"_key", "d1"}, {"x", "no a.b here"}}};
  ASSERT_TRUE(
      apply_lookups(docs, parsed(spec_json("c", "a.b", "a.b", "j")), store.fetch()).is_ok());
  EXPECT_EQ(joined_keys(docs[0], "j"), Keys{"f2"});  // f2 cannot reach a.b: missing
}

TEST(ApplyLookups, NestedAsPathCreatesObjects) {
  FakeStore store;
  store.collections["users"] = {{{"_key", "u1"}}};
  std::vector<json> docs = {{{"_key", "o1"}, {"uid", "u1"}, {"meta", {{"keep", true}}}},
                            {{"_key", "o2"}, {"uid", "u1"}}};
  ASSERT_TRUE(apply_lookups(docs, parsed(spec_json("users", "uid", "_key", "meta.joined.users")),
                            store.fetch())
                  .is_ok());
  EXPECT_EQ(docs[0].at("meta"),
            json({{"keep", true}, {"joined", {{"users", json::array({{{"_key", "u1"}}})}}}}));
  EXPECT_EQ(joined_keys(docs[1], "meta.joined.users"), Keys{"u1"});
}

TEST(ApplyLookups, AsReplacesAnExistingField) {
  FakeStore store;
  store.collections["users"] = {{{"_key", "u1"}}};
  std::vector<json> docs = {{{"_key", "o1"}, {"user", "u1"}}};
  ASSERT_TRUE(apply_lookups(docs, parsed(spec_json("users", "user", "_key", "user")), store.fetch())
                  .is_ok());
  EXPECT_EQ(docs[0].at("user"), json::array({{{"_key", "u1"}}}));
}

TEST(ApplyLookups, AsUnderAScalarIsRefused) {
  FakeStore store;
  store.collections["users"] = {{{"_key", "u1"}}};
  std::vector<json> docs = {{{"_key", "o1"}, {"uid", "u1"}, {"name", "text"}}};
  const Status s =
      apply_lookups(docs, parsed(spec_json("users", "uid", "_key", "name.user")), store.fetch());
  ASSERT_FALSE(s.is_ok());
  EXPECT_EQ(s.code(), "VALIDATION_ERROR");
  EXPECT_EQ(s.details().value("field", json()), "lookup");
  EXPECT_NE(s.message().find("name.user"), std::string::npos) << s.message();
}

TEST(ApplyLookups, JoinOnlyKeepsMatchesEvenWhenFetchAnswersMore) {
  FakeStore store;
  store.answer_everything = true;
  store.collections["c"] = {{{"_key", "f1"}, {"v", 1}}, {{"_key", "f2"}, {"v", 2}}};
  std::vector<json> docs = {{{"_key", "d1"}, {"v", 2}}};
  ASSERT_TRUE(apply_lookups(docs, parsed(spec_json("c", "v", "v", "j")), store.fetch()).is_ok());
  EXPECT_EQ(joined_keys(docs[0], "j"), Keys{"f2"});
}

TEST(ApplyLookups, FetchIsCalledOncePerSpecWithTheDistinctValues) {
  FakeStore store;
  store.collections["users"] = {{{"_key", "u1"}}, {{"_key", "u2"}}};
  store.collections["tags"] = {{{"_key", "t1"}, {"code", "x"}}};
  std::vector<json> docs = {{{"_key", "o1"}, {"uid", "u1"}, {"tags", {"x", "y", "x"}}},
                            {{"_key", "o2"}, {"uid", "u2"}, {"tags", json::array({"y"})}},
                            {{"_key", "o3"}, {"uid", "u1"}, {"tags", {1, 1.0}}},
                            {{"_key", "o4"}}};
  const auto specs = parsed(json::array(
      {spec_json("users", "uid", "_key", "user"), spec_json("tags", "tags", "code", "tag_docs")}));
  ASSERT_TRUE(apply_lookups(docs, specs, store.fetch()).is_ok());
  ASSERT_EQ(store.calls.size(), 2u);

  EXPECT_EQ(store.calls[0].from, "users");
  ASSERT_EQ(store.calls[0].match.size(), 1u);
  const query::Condition& users = store.calls[0].match[0];
  EXPECT_EQ(users.path.text, "_key");
  EXPECT_EQ(users.op, query::Op::kIn);
  ASSERT_TRUE(users.value.is_array());
  // u1 (twice) and u2, and null for o4's missing uid: each value once.
  EXPECT_EQ(users.value, json({"u1", "u2", nullptr}));

  EXPECT_EQ(store.calls[1].from, "tags");
  ASSERT_EQ(store.calls[1].match.size(), 1u);
  const query::Condition& tags = store.calls[1].match[0];
  EXPECT_EQ(tags.path.text, "code");
  EXPECT_EQ(tags.op, query::Op::kIn);
  ASSERT_TRUE(tags.value.is_array());
  // Distinct values; no duplicate of "x" or "y". (1 and 1.0 may stay two entries: both are
  // equal to the same stored values, so either way the answer is the same.)
  std::vector<std::string> texts;
  for (const json& v : tags.value) texts.push_back(v.dump());
  std::vector<std::string> sorted = texts;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end()) << tags.value.dump();
  for (const json& expected : {json("x"), json("y"), json(1), json(nullptr)}) {
    EXPECT_TRUE(std::any_of(tags.value.begin(), tags.value.end(),
                            [&](const json& v) { return query::json_equal(v, expected); }))
        << expected.dump() << " not in " << tags.value.dump();
  }

  EXPECT_EQ(joined_keys(docs[0], "user"), Keys{"u1"});
  EXPECT_EQ(joined_keys(docs[0], "tag_docs"), Keys{"t1"});
  EXPECT_EQ(joined_keys(docs[1], "tag_docs"), Keys{});
}

TEST(ApplyLookups, NoDocumentsNoFetch) {
  FakeStore store;
  std::vector<json> docs;
  ASSERT_TRUE(
      apply_lookups(docs, parsed(spec_json("users", "a", "b", "c")), store.fetch()).is_ok());
  EXPECT_TRUE(store.calls.empty());
  EXPECT_TRUE(docs.empty());
}

TEST(ApplyLookups, NoSpecsNoFetchNoChange) {
  FakeStore store;
  std::vector<json> docs = {{{"_key", "d1"}, {"a", 1}}};
  const std::vector<json> before = docs;
  ASSERT_TRUE(apply_lookups(docs, {}, store.fetch()).is_ok());
  EXPECT_TRUE(store.calls.empty());
  EXPECT_EQ(docs, before);
}

TEST(ApplyLookups, LaterSpecsSeeEarlierJoins) {
  FakeStore store;
  store.collections["users"] = {{{"_key", "u1"}, {"team", "t9"}}};
  store.collections["teams"] = {{{"_key", "t9"}, {"name", "Blue"}}};
  std::vector<json> docs = {{{"_key", "o1"}, {"uid", "u1"}}};
  const auto specs = parsed(json::array({spec_json("users", "uid", "_key", "user"),
                                         spec_json("teams", "user.team", "_key", "team")}));
  ASSERT_TRUE(apply_lookups(docs, specs, store.fetch()).is_ok());
  EXPECT_EQ(joined_keys(docs[0], "team"), Keys{"t9"});
  ASSERT_EQ(store.calls.size(), 2u);
  EXPECT_EQ(store.calls[1].match.at(0).value, json::array({"t9"}));
}

TEST(ApplyLookups, FetchFailurePropagates) {
  std::vector<json> docs = {{{"_key", "o1"}, {"uid", "u1"}}};
  const std::vector<json> before = docs;
  int calls = 0;
  const FetchForeign failing = [&](const std::string&,
                                   const query::Match&) -> Result<std::vector<json>> {
    ++calls;
    return Status("STORE_UNAVAILABLE", "the store is down", {{"retry", true}});
  };
  const auto specs = parsed(json::array(
      {spec_json("users", "uid", "_key", "user"), spec_json("teams", "uid", "_key", "team")}));
  const Status s = apply_lookups(docs, specs, failing);
  ASSERT_FALSE(s.is_ok());
  EXPECT_EQ(s.code(), "STORE_UNAVAILABLE");
  EXPECT_EQ(s.message(), "the store is down");
  EXPECT_EQ(s.details(), json({{"retry", true}}));
  EXPECT_EQ(calls, 1);  // the first failure stops the pipeline
  EXPECT_EQ(docs, before);
}

TEST(ApplyLookups, FailureOfTheSecondSpecPropagates) {
  FakeStore store;
  store.collections["users"] = {{{"_key", "u1"}}};
  const FetchForeign inner = store.fetch();
  const FetchForeign fetch = [&](const std::string& from,
                                 const query::Match& match) -> Result<std::vector<json>> {
    if (from == "teams") return Status::internal("boom");
    return inner(from, match);
  };
  std::vector<json> docs = {{{"_key", "o1"}, {"uid", "u1"}}};
  const auto specs = parsed(json::array(
      {spec_json("users", "uid", "_key", "user"), spec_json("teams", "uid", "_key", "team")}));
  const Status s = apply_lookups(docs, specs, fetch);
  ASSERT_FALSE(s.is_ok());
  EXPECT_EQ(s.code(), "INTERNAL_ERROR");
  EXPECT_EQ(s.message(), "boom");
}

}  // namespace
}  // namespace opbase::collection
