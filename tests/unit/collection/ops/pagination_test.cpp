// pagination(): meta.pagination of collection.find, every field as docs/api.md#pagination
// defines it: page = offset / limit + 1, total_pages = ceil(size / limit), count = items
// returned, page_showing_start = offset + 1 (0 when nothing is returned), page_showing_end =
// offset + count, has_prev = offset > 0, prev_page = page - 1 or null, has_next = offset + count
// < size, next_page = page + 1 or null.
#include "ops/pagination.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>

namespace opbase::collection {
namespace {

using nlohmann::json;

// The metadata docs/api.md#pagination defines, written out independently of the code under test.
json by_the_rules(int64_t limit, int64_t offset, int64_t size, int64_t count) {
  const int64_t page = offset / limit + 1;
  const bool has_next = offset + count < size;
  const bool has_prev = offset > 0;
  int64_t total_pages = size / limit;
  if (size % limit != 0) ++total_pages;
  return {{"page", page},
          {"per_page", limit},
          {"total_pages", total_pages},
          {"size", size},
          {"count", count},
          {"has_next", has_next},
          {"next_page", has_next ? json(page + 1) : json(nullptr)},
          {"has_prev", has_prev},
          {"prev_page", has_prev ? json(page - 1) : json(nullptr)},
          {"page_showing_start", count == 0 ? 0 : offset + 1},
          {"page_showing_end", offset + count}};
}

TEST(Pagination, HasExactlyTheFieldsOfSpec28) {
  const json meta = pagination(10, 0, 3, 3);
  ASSERT_TRUE(meta.is_object());
  EXPECT_EQ(meta.size(), 11u);
  for (const char* field :
       {"page", "per_page", "total_pages", "size", "count", "has_next", "next_page", "has_prev",
        "prev_page", "page_showing_start", "page_showing_end"}) {
    EXPECT_TRUE(meta.contains(field)) << field;
  }
}

TEST(Pagination, EmptyResult) {
  EXPECT_EQ(pagination(10, 0, 0, 0), json({{"page", 1},
                                           {"per_page", 10},
                                           {"total_pages", 0},
                                           {"size", 0},
                                           {"count", 0},
                                           {"has_next", false},
                                           {"next_page", nullptr},
                                           {"has_prev", false},
                                           {"prev_page", nullptr},
                                           {"page_showing_start", 0},
                                           {"page_showing_end", 0}}));
}

TEST(Pagination, SinglePartialPage) {
  EXPECT_EQ(pagination(100, 0, 7, 7), json({{"page", 1},
                                            {"per_page", 100},
                                            {"total_pages", 1},
                                            {"size", 7},
                                            {"count", 7},
                                            {"has_next", false},
                                            {"next_page", nullptr},
                                            {"has_prev", false},
                                            {"prev_page", nullptr},
                                            {"page_showing_start", 1},
                                            {"page_showing_end", 7}}));
}

TEST(Pagination, ExactMultipleFirstMiddleLastPage) {
  // 30 documents, 10 per page.
  const json first = pagination(10, 0, 30, 10);
  EXPECT_EQ(first["page"], 1);
  EXPECT_EQ(first["total_pages"], 3);
  EXPECT_EQ(first["has_next"], true);
  EXPECT_EQ(first["next_page"], 2);
  EXPECT_EQ(first["has_prev"], false);
  EXPECT_TRUE(first["prev_page"].is_null());
  EXPECT_EQ(first["page_showing_start"], 1);
  EXPECT_EQ(first["page_showing_end"], 10);

  const json middle = pagination(10, 10, 30, 10);
  EXPECT_EQ(middle["page"], 2);
  EXPECT_EQ(middle["has_next"], true);
  EXPECT_EQ(middle["next_page"], 3);
  EXPECT_EQ(middle["has_prev"], true);
  EXPECT_EQ(middle["prev_page"], 1);
  EXPECT_EQ(middle["page_showing_start"], 11);
  EXPECT_EQ(middle["page_showing_end"], 20);

  EXPECT_EQ(pagination(10, 20, 30, 10), json({{"page", 3},
                                              {"per_page", 10},
                                              {"total_pages", 3},
                                              {"size", 30},
                                              {"count", 10},
                                              {"has_next", false},
                                              {"next_page", nullptr},
                                              {"has_prev", true},
                                              {"prev_page", 2},
                                              {"page_showing_start", 21},
                                              {"page_showing_end", 30}}));
}

TEST(Pagination, PartialLastPage) {
  // 25 documents, 10 per page: the third page holds 5.
  EXPECT_EQ(pagination(10, 20, 25, 5), json({{"page", 3},
                                             {"per_page", 10},
                                             {"total_pages", 3},
                                             {"size", 25},
                                             {"count", 5},
                                             {"has_next", false},
                                             {"next_page", nullptr},
                                             {"has_prev", true},
                                             {"prev_page", 2},
                                             {"page_showing_start", 21},
                                             {"page_showing_end", 25}}));
  EXPECT_EQ(pagination(10, 0, 11, 10)["total_pages"], 2);
  EXPECT_EQ(pagination(10, 0, 19, 10)["total_pages"], 2);
  EXPECT_EQ(pagination(10, 0, 21, 10)["total_pages"], 3);
}

TEST(Pagination, OffsetPastTheEnd) {
  // Nothing is returned: start is 0, end is offset + 0, and there is no next page.
  EXPECT_EQ(pagination(10, 50, 25, 0), json({{"page", 6},
                                             {"per_page", 10},
                                             {"total_pages", 3},
                                             {"size", 25},
                                             {"count", 0},
                                             {"has_next", false},
                                             {"next_page", nullptr},
                                             {"has_prev", true},
                                             {"prev_page", 5},
                                             {"page_showing_start", 0},
                                             {"page_showing_end", 50}}));
  // Exactly at the end.
  const json at_end = pagination(10, 30, 30, 0);
  EXPECT_EQ(at_end["page"], 4);
  EXPECT_EQ(at_end["has_next"], false);
  EXPECT_EQ(at_end["page_showing_start"], 0);
  EXPECT_EQ(at_end["page_showing_end"], 30);
  // Past the end of an empty collection.
  const json empty = pagination(10, 5, 0, 0);
  EXPECT_EQ(empty["total_pages"], 0);
  EXPECT_EQ(empty["has_prev"], true);
  EXPECT_EQ(empty["prev_page"], 0);
  EXPECT_EQ(empty["has_next"], false);
}

TEST(Pagination, OffsetNotAMultipleOfLimit) {
  // Offset 5, limit 10: still page 1 by integer division; has_prev because offset > 0, and
  // prev_page = page - 1 = 0 exactly as the rule says.
  EXPECT_EQ(pagination(10, 5, 30, 10), json({{"page", 1},
                                             {"per_page", 10},
                                             {"total_pages", 3},
                                             {"size", 30},
                                             {"count", 10},
                                             {"has_next", true},
                                             {"next_page", 2},
                                             {"has_prev", true},
                                             {"prev_page", 0},
                                             {"page_showing_start", 6},
                                             {"page_showing_end", 15}}));
  const json later = pagination(10, 25, 30, 5);
  EXPECT_EQ(later["page"], 3);
  EXPECT_EQ(later["prev_page"], 2);
  EXPECT_EQ(later["has_next"], false);
  EXPECT_EQ(later["page_showing_start"], 26);
  EXPECT_EQ(later["page_showing_end"], 30);
}

TEST(Pagination, HasNextDependsOnCountNotOnPageSize) {
  // A short page before the end (count < limit, e.g. after a lookup filter) still has a next.
  const json meta = pagination(10, 0, 30, 4);
  EXPECT_EQ(meta["has_next"], true);
  EXPECT_EQ(meta["next_page"], 2);
  EXPECT_EQ(meta["page_showing_end"], 4);
}

TEST(Pagination, LimitOne) {
  EXPECT_EQ(pagination(1, 0, 3, 1), json({{"page", 1},
                                          {"per_page", 1},
                                          {"total_pages", 3},
                                          {"size", 3},
                                          {"count", 1},
                                          {"has_next", true},
                                          {"next_page", 2},
                                          {"has_prev", false},
                                          {"prev_page", nullptr},
                                          {"page_showing_start", 1},
                                          {"page_showing_end", 1}}));
  const json last = pagination(1, 2, 3, 1);
  EXPECT_EQ(last["page"], 3);
  EXPECT_EQ(last["has_next"], false);
  EXPECT_TRUE(last["next_page"].is_null());
  EXPECT_EQ(last["prev_page"], 2);
  EXPECT_EQ(last["page_showing_start"], 3);
  EXPECT_EQ(last["page_showing_end"], 3);
}

TEST(Pagination, LargeNumbersStayExact) {
  const int64_t size = int64_t{1} << 40;
  const json meta = pagination(1000, size - 1000, size, 1000);
  EXPECT_EQ(meta["page"], size / 1000);  // (2^40 - 1000) / 1000 + 1 = floor(2^40 / 1000)
  EXPECT_EQ(meta["total_pages"], size / 1000 + 1);
  EXPECT_EQ(meta["page_showing_end"], size);
  EXPECT_EQ(meta["has_next"], false);
}

TEST(Pagination, EveryCombinationFollowsTheRules) {
  for (int64_t limit : {1, 2, 3, 7, 10, 1000}) {
    for (int64_t size : {0, 1, 2, 9, 10, 11, 29, 30, 31}) {
      for (int64_t offset : {0, 1, 2, 5, 9, 10, 11, 20, 30, 31, 100}) {
        const int64_t count = std::max<int64_t>(0, std::min(limit, size - offset));
        SCOPED_TRACE(testing::Message() << "limit " << limit << " offset " << offset << " size "
                                        << size << " count " << count);
        EXPECT_EQ(pagination(limit, offset, size, count), by_the_rules(limit, offset, size, count));
      }
    }
  }
}

}  // namespace
}  // namespace opbase::collection
