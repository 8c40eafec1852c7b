// One user's records in memory: put, replace and remove by key (the block stays whole: the moved
// record is still found), the exact search best first with the right cosines, ties to the lower
// key, min_score, a filter over the record's fields still filling `limit` when enough match, and
// searches in parallel with changes.
#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <thread>

#include "index/record_table.hpp"
#include "vectors/vector_value.hpp"

namespace opbase::vdb {
namespace {

using nlohmann::json;

std::vector<float> axis(size_t dimensions, size_t i, float w = 1) {
  std::vector<float> v(dimensions, 0);
  v[i] = w;
  return unit(v);
}

query::Match match_of(const json& filter) {
  auto match = query::parse_match(filter);
  EXPECT_TRUE(match.is_ok()) << match.status().to_string();
  return std::move(*match);
}

std::vector<std::string> keys_of(const std::vector<Hit>& hits) {
  std::vector<std::string> keys;
  for (const Hit& hit : hits) keys.push_back(hit.key);
  return keys;
}

TEST(VdbRecordTable, FindsTheNearestFirstWithTheirCosines) {
  RecordTable table(3);
  table.put("x", axis(3, 0), json::object());
  table.put("y", axis(3, 1), json::object());
  table.put("xy", unit(std::vector<float>{1, 1, 0}), json::object());
  const auto hits = table.best(axis(3, 0), 10, nullptr, -1);
  ASSERT_EQ(keys_of(hits), (std::vector<std::string>{"x", "xy", "y"}));
  EXPECT_NEAR(hits[0].score, 1.0, 1e-6);
  EXPECT_NEAR(hits[1].score, std::sqrt(0.5), 1e-6);
  EXPECT_NEAR(hits[2].score, 0.0, 1e-6);
  EXPECT_EQ(keys_of(table.best(axis(3, 0), 1, nullptr, -1)), (std::vector<std::string>{"x"}));
  EXPECT_EQ(keys_of(table.best(axis(3, 0), 10, nullptr, 0.5f)),
            (std::vector<std::string>{"x", "xy"}));
  EXPECT_TRUE(table.best(axis(3, 0), 0, nullptr, -1).empty());
}

TEST(VdbRecordTable, TiesGoToTheLowerKey) {
  RecordTable table(2);
  for (const char* key : {"d", "b", "c", "a"}) table.put(key, axis(2, 0), json::object());
  EXPECT_EQ(keys_of(table.best(axis(2, 0), 3, nullptr, -1)),
            (std::vector<std::string>{"a", "b", "c"}));
}

TEST(VdbRecordTable, ReplacingAndRemovingKeepEveryOtherRecordFindable) {
  RecordTable table(4);
  for (size_t i = 0; i < 4; ++i) table.put("k" + std::to_string(i), axis(4, i), json::object());
  table.put("k1", axis(4, 3), json::object());  // replaced: now beside k3
  EXPECT_EQ(table.size(), 4u);
  EXPECT_TRUE(table.remove("k0"));  // k3, the last, moves into k0's place
  EXPECT_FALSE(table.remove("k0"));
  EXPECT_EQ(table.size(), 3u);
  EXPECT_EQ(keys_of(table.best(axis(4, 3), 2, nullptr, 0.5f)),
            (std::vector<std::string>{"k1", "k3"}));
  EXPECT_EQ(keys_of(table.best(axis(4, 2), 1, nullptr, 0.5f)), (std::vector<std::string>{"k2"}));
  EXPECT_TRUE(table.best(axis(4, 0), 3, nullptr, 0.5f).empty());
}

TEST(VdbRecordTable, AFilterStillFillsTheLimitWhenEnoughMatch) {
  RecordTable table(8);
  std::mt19937 random(3);
  std::normal_distribution<float> normal;
  for (int i = 0; i < 200; ++i) {
    std::vector<float> v(8);
    for (float& x : v) x = normal(random);
    table.put("r" + std::to_string(i), unit(v),
              {{"metadata", {{"kind", i % 10 == 0 ? "rare" : "common"}, {"n", i}}}});
  }
  const query::Match rare = match_of({{"metadata.kind", "rare"}});
  const auto hits = table.best(axis(8, 0), 15, &rare, -1);
  ASSERT_EQ(hits.size(), 15u);  // 20 rare records: the best 15 of them
  for (size_t i = 0; i < hits.size(); ++i) {
    EXPECT_EQ(std::stoi(hits[i].key.substr(1)) % 10, 0) << hits[i].key;
    if (i > 0) {
      EXPECT_GE(hits[i - 1].score, hits[i].score);
    }
  }
  const query::Match few = match_of({{"metadata.n:$lt", 3}});
  EXPECT_EQ(table.best(axis(8, 0), 15, &few, -1).size(), 3u);
}

TEST(VdbRecordTable, SearchesRunWhileRecordsChange) {
  RecordTable table(16);
  for (size_t i = 0; i < 16; ++i) table.put("fixed" + std::to_string(i), axis(16, i), {});
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    for (int i = 0; i < 2000; ++i) {
      table.put("moving" + std::to_string(i % 50), axis(16, i % 16, 0.5f), {});
      if (i % 3 == 0) table.remove("moving" + std::to_string((i + 25) % 50));
    }
    stop = true;
  });
  size_t searches = 0;
  while (!stop) {
    const auto hits = table.best(axis(16, 5), 3, nullptr, 0.99f);
    ASSERT_FALSE(hits.empty());
    EXPECT_EQ(hits[0].score, 1.0f);
    ++searches;
  }
  writer.join();
  EXPECT_GT(searches, 0u);
}

}  // namespace
}  // namespace opbase::vdb
