// The store.find answer text: what the host writes is read back by position, and any other
// layout of a valid answer still reads (the slow way), while a malformed one is an error.
#include "opbase/internal/find_answer.hpp"

#include <gtest/gtest.h>

#include "opbase/store.hpp"

namespace opbase::store {
namespace {

using nlohmann::json;

TEST(FindAnswer, WrittenPageReadsBackWithoutChange) {
  const std::vector<std::string> docs = {R"({"_key":"a","n":1})", R"({"_key":"b","s":"x,]}"})"};
  const std::string text = encode_find_answer(docs, 42);
  EXPECT_TRUE(json::accept(text));
  auto answer = decode_find_answer(text);
  ASSERT_TRUE(answer) << answer.status().message();
  EXPECT_EQ(answer->documents, R"([{"_key":"a","n":1},{"_key":"b","s":"x,]}"}])");
  EXPECT_EQ(answer->count, 2);
  EXPECT_EQ(answer->total, 42);
}

TEST(FindAnswer, EmptyPageAndNoTotal) {
  auto answer = decode_find_answer(encode_find_answer({}, -1));
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->documents, "[]");
  EXPECT_EQ(answer->count, 0);
  EXPECT_EQ(answer->total, -1);
}

TEST(FindAnswer, AnyOtherLayoutReadsTheSlowWay) {
  auto answer = decode_find_answer(R"( {"documents": [ {"a": 1}, {"b": [2]} ], "total": 7} )");
  ASSERT_TRUE(answer) << answer.status().message();
  EXPECT_EQ(json::parse(answer->documents), json::parse(R"([{"a":1},{"b":[2]}])"));
  EXPECT_EQ(answer->count, 2);
  EXPECT_EQ(answer->total, 7);

  auto no_total = decode_find_answer(R"({"documents":[]})");
  ASSERT_TRUE(no_total);
  EXPECT_EQ(no_total->total, -1);
  EXPECT_EQ(no_total->count, 0);
}

TEST(FindAnswer, AShortPageGivesItsTotal) {
  EXPECT_EQ(total_of_short_page(0, 10, 3), 3);
  EXPECT_EQ(total_of_short_page(20, 10, 3), 23);
  EXPECT_EQ(total_of_short_page(0, -1, 7), 7);
  EXPECT_EQ(total_of_short_page(5, -1, 2), 7);
  EXPECT_EQ(total_of_short_page(0, 10, 0), 0);
  // Full, unread or empty past the offset: only a count tells.
  EXPECT_EQ(total_of_short_page(0, 10, 10), std::nullopt);
  EXPECT_EQ(total_of_short_page(0, 0, 0), std::nullopt);
  EXPECT_EQ(total_of_short_page(20, 10, 0), std::nullopt);
  EXPECT_EQ(total_of_short_page(20, -1, 0), std::nullopt);
}

TEST(FindAnswer, MalformedAnswersAreErrors) {
  for (const char* text : {"", "[]", "not json", R"({"documents":3})", R"({"total":1})",
                           R"({"documents":[],"total":"5"})", R"({"total":1,"count":x})",
                           R"({"total":1,"count":1,"documents":[})"}) {
    auto answer = decode_find_answer(text);
    ASSERT_FALSE(answer) << text;
    EXPECT_EQ(answer.status().code(), "INTERNAL_ERROR") << text;
  }
}

}  // namespace
}  // namespace opbase::store
