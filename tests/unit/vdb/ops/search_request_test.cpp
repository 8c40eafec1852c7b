// The bodies of vdb.search and vdb.delete: a query to embed or a vector (exactly one), limit
// 1 to 100 (default 10), min_score in [-1, 1], include_vector, and a filter (or delete's match)
// in the datastore's match syntax over metadata.<path>, _key, _created_at and _modified_at only;
// every refusal names its field and reason.
#include "ops/search_request.hpp"

#include <gtest/gtest.h>

namespace opbase::vdb {
namespace {

using nlohmann::json;

json search(json more) {
  json body = {{"collection", "notes"}};
  if (more.is_object()) body.update(more);
  return body;
}

std::string reason_of(const json& body, bool delete_op = false) {
  const Status s =
      delete_op ? read_delete_request(body).status() : read_search_request(body).status();
  EXPECT_FALSE(s.is_ok()) << body.dump();
  EXPECT_EQ(s.code(), code::kValidationError) << s.to_string();
  return s.details().value("field", "") + ":" + s.details().value("reason", "");
}

TEST(VdbSearchRequest, ReadsAQueryOrAVectorAndTheOptions) {
  auto by_text = read_search_request(search({{"query", "cats"}}));
  ASSERT_TRUE(by_text.is_ok()) << by_text.status().to_string();
  EXPECT_EQ(by_text->query, "cats");
  EXPECT_FALSE(by_text->vector);
  EXPECT_EQ(by_text->limit, 10u);
  EXPECT_FALSE(by_text->min_score);
  EXPECT_FALSE(by_text->include_vector);
  EXPECT_TRUE(by_text->filter.empty());

  auto by_vector = read_search_request(search({{"vector", {0.5, 0.5}},
                                               {"limit", 100},
                                               {"min_score", -0.25},
                                               {"include_vector", true},
                                               {"filter", {{"metadata.tag", "a"}}}}));
  ASSERT_TRUE(by_vector.is_ok()) << by_vector.status().to_string();
  EXPECT_EQ(by_vector->vector, (std::vector<float>{0.5f, 0.5f}));
  EXPECT_EQ(by_vector->limit, 100u);
  EXPECT_FLOAT_EQ(*by_vector->min_score, -0.25f);
  EXPECT_TRUE(by_vector->include_vector);
  ASSERT_EQ(by_vector->filter.size(), 1u);
  EXPECT_EQ(by_vector->filter[0].path.text, "metadata.tag");
}

TEST(VdbSearchRequest, RefusesEachBadFieldByName) {
  EXPECT_EQ(reason_of({{"query", "x"}}), "collection:missing");
  EXPECT_EQ(reason_of(search({})), "query:query_or_vector");
  EXPECT_EQ(reason_of(search({{"query", "x"}, {"vector", {1}}})), "query:query_or_vector");
  EXPECT_EQ(reason_of(search({{"query", 3}})), "query:not_string");
  EXPECT_EQ(reason_of(search({{"vector", {0, 0}}})), "vector:zero_norm");
  EXPECT_EQ(reason_of(search({{"vector", {1, "x"}}})), "vector:not_number");
  EXPECT_EQ(reason_of(search({{"vector", json::array()}})), "vector:empty");
  for (const json& limit : {json(0), json(101), json(-1), json(2.5), json("10")}) {
    EXPECT_EQ(reason_of(search({{"query", "x"}, {"limit", limit}})), "limit:out_of_range");
  }
  for (const json& score : {json(1.5), json(-1.01), json("0.5")}) {
    EXPECT_EQ(reason_of(search({{"query", "x"}, {"min_score", score}})), "min_score:out_of_range");
  }
  EXPECT_EQ(reason_of(search({{"query", "x"}, {"include_vector", 1}})),
            "include_vector:not_boolean");
  EXPECT_EQ(reason_of(search({{"query", "x"}, {"filter", "tag"}})), "filter:not_object");
  EXPECT_EQ(reason_of(search({{"query", "x"}, {"filter", {{"content", "a"}}}})),
            "filter:not_filterable");
  EXPECT_EQ(reason_of(search({{"query", "x"}, {"filter", {{"metadata", "a"}}}})),
            "filter:not_filterable");
  EXPECT_EQ(reason_of(search({{"query", "x"}, {"filter", {{"_userkey", "u"}}}})),
            "filter:not_filterable");
  // The match parser's own refusals keep its details and gain the field.
  const Status bad_op =
      read_search_request(search({{"query", "x"}, {"filter", {{"metadata.n:$near", 1}}}})).status();
  EXPECT_EQ(bad_op.code(), code::kValidationError);
  EXPECT_EQ(bad_op.details()["field"], "filter");
}

TEST(VdbSearchRequest, ABlankQueryIsContentEmpty) {
  const Status s = read_search_request(search({{"query", " \n\t"}})).status();
  EXPECT_EQ(s.code(), code::kContentEmpty);
  EXPECT_EQ(s.details()["field"], "query");
}

TEST(VdbDeleteRequest, TakesAMatchOfKeysOrMetadata) {
  auto by_key = read_delete_request({{"collection", "notes"}, {"match", {{"_key", "k1"}}}});
  ASSERT_TRUE(by_key.is_ok()) << by_key.status().to_string();
  EXPECT_EQ(by_key->match.size(), 1u);
  auto every = read_delete_request({{"collection", "notes"}, {"match", json::object()}});
  ASSERT_TRUE(every.is_ok());
  EXPECT_TRUE(every->match.empty());
  auto by_metadata =
      read_delete_request({{"collection", "notes"},
                           {"match", {{"metadata.year:$lt", 2000}, {"_key:$in", {"a", "b"}}}}});
  ASSERT_TRUE(by_metadata.is_ok()) << by_metadata.status().to_string();
  EXPECT_EQ(by_metadata->match.size(), 2u);

  EXPECT_EQ(reason_of({{"collection", "notes"}}, true), "match:missing");
  EXPECT_EQ(reason_of({{"collection", "notes"}, {"match", {{"content", "x"}}}}, true),
            "match:not_filterable");
  EXPECT_EQ(reason_of({{"match", json::object()}}, true), "collection:missing");
}

}  // namespace
}  // namespace opbase::vdb
