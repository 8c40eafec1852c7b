// The body of vdb.insert: one record or an array of them, each to embed (content) or given as a
// vector, with metadata; every refusal with the field and reason it names: the collection name,
// data's shape and size, unknown fields, a record with nothing to embed (CONTENT_EMPTY with its
// index), a bad vector, metadata that is not an object or too large.
#include "ops/insert_request.hpp"

#include <gtest/gtest.h>

namespace opbase::vdb {
namespace {

using nlohmann::json;

Status refusal(const json& body) {
  auto read = read_insert_request(body);
  EXPECT_FALSE(read.is_ok()) << body.dump().substr(0, 200);
  return read.is_ok() ? Status::ok() : read.status();
}

std::string reason_of(const json& body) {
  const Status s = refusal(body);
  EXPECT_EQ(s.code(), code::kValidationError) << s.to_string();
  return s.details().value("field", "") + ":" + s.details().value("reason", "");
}

TEST(VdbInsertRequest, ReadsOneRecordOrAnArray) {
  auto one = read_insert_request(
      {{"collection", "notes"}, {"data", {{"content", "hello"}, {"metadata", {{"tag", "a"}}}}}});
  ASSERT_TRUE(one.is_ok()) << one.status().to_string();
  EXPECT_EQ(one->collection, "notes");
  EXPECT_FALSE(one->many);
  ASSERT_EQ(one->items.size(), 1u);
  EXPECT_EQ(one->items[0].content, "hello");
  EXPECT_FALSE(one->items[0].vector.has_value());
  EXPECT_EQ(one->items[0].metadata, json({{"tag", "a"}}));

  auto many = read_insert_request(
      {{"collection", "notes"},
       {"data", {{{"vector", {1, 0}}}, {{"vector", {0, 2}}, {"content", nullptr}}}}});
  ASSERT_TRUE(many.is_ok()) << many.status().to_string();
  EXPECT_TRUE(many->many);
  ASSERT_EQ(many->items.size(), 2u);
  EXPECT_EQ(*many->items[1].vector, (std::vector<float>{0, 2}));
  EXPECT_FALSE(many->items[1].content.has_value());
  EXPECT_EQ(many->items[1].metadata, json::object());
}

TEST(VdbInsertRequest, RefusesEachBadPartNamingIt) {
  const json ok = {{"content", "x"}};
  EXPECT_EQ(reason_of({{"data", ok}}), "collection:missing");
  EXPECT_EQ(refusal({{"collection", "Bad Name"}, {"data", ok}}).details()["rule"],
            "first_character");
  EXPECT_EQ(reason_of({{"collection", "n"}}), "data:missing");
  EXPECT_EQ(reason_of({{"collection", "n"}, {"data", "text"}}), "data:missing");
  EXPECT_EQ(reason_of({{"collection", "n"}, {"data", json::array()}}), "data:empty");
  EXPECT_EQ(reason_of({{"collection", "n"}, {"data", json(std::vector<json>(101, ok))}}),
            "data:too_many");
  EXPECT_EQ(reason_of({{"collection", "n"}, {"data", {ok, 5}}}), "data[1]:not_object");
  EXPECT_EQ(reason_of({{"collection", "n"}, {"data", {{"content", "x"}, {"_key", "k"}}}}),
            "data[0]._key:unknown");
  EXPECT_EQ(reason_of({{"collection", "n"}, {"data", {{"content", 5}}}}),
            "data[0].content:not_string");
  EXPECT_EQ(reason_of({{"collection", "n"}, {"data", {{"vector", {0, 0}}}}}),
            "data[0].vector:zero_norm");
  EXPECT_EQ(reason_of({{"collection", "n"}, {"data", {{"content", "x"}, {"metadata", 3}}}}),
            "data[0].metadata:not_object");
  const json big = {{"blob", std::string(kMaxMetadataBytes, 'a')}};
  EXPECT_EQ(reason_of({{"collection", "n"}, {"data", {{"content", "x"}, {"metadata", big}}}}),
            "data[0].metadata:too_large");
}

TEST(VdbInsertRequest, ARecordWithNothingToEmbedIsContentEmpty) {
  for (const json& record : {json({{"metadata", {{"a", 1}}}}), json({{"content", nullptr}}),
                             json({{"content", " \n\t"}})}) {
    const Status s = refusal({{"collection", "n"}, {"data", {{{"content", "fine"}}, record}}});
    EXPECT_EQ(s.code(), code::kContentEmpty) << record;
    EXPECT_EQ(s.details()["index"], 1) << record;
  }
  // With a vector, content is only kept: it may be empty.
  EXPECT_TRUE(
      read_insert_request({{"collection", "n"}, {"data", {{"vector", {1}}, {"content", ""}}}})
          .is_ok());
}

}  // namespace
}  // namespace opbase::vdb
