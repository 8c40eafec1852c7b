// One user's collection with its approximate index: below graph_from no graph is made and search
// is the table's scan; above it the indexer moves records into the HNSW graph and search finds them
// there and in the table alike; recall@10 against exact float32 search on 100,000 random vectors;
// removing and replacing indexed records; filters that pass few records still fill `limit`;
// min_score; and searches, changes and the indexer all at once.
#include "index/collection_index.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <random>
#include <set>
#include <thread>

#include "under_sanitizer.hpp"
#include "vdb_random_vectors.hpp"
#include "vectors/dot_product.hpp"
#include "vectors/vector_value.hpp"

namespace opbase::vdb {
namespace {

using nlohmann::json;

std::set<std::string> keys_of(const std::vector<Hit>& hits) {
  std::set<std::string> keys;
  for (const Hit& hit : hits) keys.insert(hit.key);
  return keys;
}

json fields_of(int i) { return {{"_key", "r" + std::to_string(i)}, {"metadata", {{"n", i}}}}; }

// The index and a plain table holding the same `count` records (the table's scan compares the
// same int8 codes, so its answers are the index's without a graph), and the records' float32
// vectors, for the exact truth.
struct Twins {
  Twins(size_t dimensions, IndexOptions options) : index(dimensions, options), table(dimensions) {}
  void fill(RandomVectors& vectors, int count) {
    for (int i = 0; i < count; ++i) {
      floats.push_back(vectors.next());
      index.put("r" + std::to_string(i), floats.back(), fields_of(i));
      table.put("r" + std::to_string(i), floats.back(), fields_of(i));
    }
  }
  // The `limit` records of highest float32 cosine with `query`, every one compared.
  std::set<std::string> exact_best(const std::vector<float>& query, size_t limit) const {
    TopHits top(limit);
    for (size_t i = 0; i < floats.size(); ++i) {
      top.add("r" + std::to_string(i), dot_product(query.data(), floats[i].data(), query.size()));
    }
    return keys_of(top.take());
  }
  void index_all() {
    while (index.index_pending(4096) > 0) {
    }
  }
  CollectionIndex index;
  RecordTable table;
  std::vector<std::vector<float>> floats;
};

// `count` records from `vectors`, every one moved into the graph, which starts at `graph_from`.
std::unique_ptr<Twins> indexed_twins(size_t dimensions, size_t graph_from, RandomVectors& vectors,
                                     int count) {
  IndexOptions options;
  options.graph_from = graph_from;
  auto twins = std::make_unique<Twins>(dimensions, options);
  twins->fill(vectors, count);
  twins->index_all();
  return twins;
}

TEST(VdbCollectionIndex, SmallCollectionsGetNoGraph) {
  IndexOptions options;
  options.graph_from = 100;
  Twins twins(8, options);
  RandomVectors vectors(8, 1);
  twins.fill(vectors, 99);
  EXPECT_EQ(twins.index.index_pending(1000), 0u);
  EXPECT_EQ(twins.index.pending(), 99u);
  const std::vector<float> q = vectors.next();
  EXPECT_EQ(keys_of(twins.index.best(q, 5, nullptr, -1)),
            keys_of(twins.table.best(q, 5, nullptr, -1)));
}

// The sanitized build runs the same code on a tenth of the records: this graph takes minutes to
// build there.
constexpr int kRecallRecords = testing::kUnderSanitizer ? 10'000 : 100'000;

TEST(VdbCollectionIndex, RecallAtTenAgainstExactSearchOn100000RandomVectors) {
  IndexOptions options;  // the defaults, but a graph from 1,000 records
  options.graph_from = 1000;
  Twins twins(32, options);
  RandomVectors vectors(32, 2);
  twins.fill(vectors, kRecallRecords);
  const auto start = std::chrono::steady_clock::now();
  twins.index_all();
  const double build_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(twins.index.pending(), 0u);
  EXPECT_EQ(twins.index.size(), static_cast<size_t>(kRecallRecords));
  size_t found = 0;
  constexpr int kQueries = 200;
  for (int q = 0; q < kQueries; ++q) {
    const std::vector<float> query = vectors.next();
    const auto truth = twins.exact_best(query, 10);
    for (const std::string& key : keys_of(twins.index.best(query, 10, nullptr, -1))) {
      found += truth.contains(key) ? 1 : 0;
    }
  }
  const double recall = static_cast<double>(found) / (kQueries * 10);
  std::printf("recall@10 %.3f over %d queries; graph of %d built in %.1f s\n", recall, kQueries,
              kRecallRecords, build_s);
  EXPECT_GE(recall, 0.95);
}

TEST(VdbCollectionIndex, RemovedAndReplacedRecordsAfterIndexing) {
  RandomVectors vectors(16, 3);
  auto owned = indexed_twins(16, 50, vectors, 500);
  Twins& twins = *owned;
  const std::vector<float> target = vectors.next();
  twins.index.put("r7", target, fields_of(7));  // replaced: now exactly the query
  EXPECT_EQ(twins.index.best(target, 1, nullptr, -1).front().key, "r7");
  EXPECT_TRUE(twins.index.remove("r7"));
  EXPECT_FALSE(twins.index.remove("r7"));
  for (const Hit& hit : twins.index.best(target, 50, nullptr, -1)) EXPECT_NE(hit.key, "r7");
  EXPECT_EQ(twins.index.size(), 499u);
  twins.index.put("r7", target, fields_of(7));
  twins.index_all();
  EXPECT_EQ(twins.index.best(target, 1, nullptr, -1).front().key, "r7");
  EXPECT_EQ(twins.index.size(), 500u);
}

TEST(VdbCollectionIndex, FiltersThatPassFewStillFillTheLimit) {
  RandomVectors vectors(16, 4);
  auto owned = indexed_twins(16, 100, vectors, 5000);
  Twins& twins = *owned;
  auto rare = query::parse_match({{"metadata.n:$in", {17, 1017, 2017, 3017, 4017}}});
  ASSERT_TRUE(rare.is_ok());
  const std::vector<float> q = vectors.next();
  EXPECT_EQ(keys_of(twins.index.best(q, 3, &*rare, -1)),
            keys_of(twins.table.best(q, 3, &*rare, -1)));
  auto half = query::parse_match({{"metadata.n:$lt", 2500}});
  const auto hits = twins.index.best(q, 10, &*half, -1);
  ASSERT_EQ(hits.size(), 10u);
  for (const Hit& hit : hits) EXPECT_LT(std::stoi(hit.key.substr(1)), 2500);
  for (const Hit& hit : twins.index.best(q, 100, nullptr, 0.5f)) EXPECT_GE(hit.score, 0.5f);
}

TEST(VdbCollectionIndex, SearchesChangesAndTheIndexerAllAtOnce) {
  IndexOptions options;
  options.graph_from = 100;
  CollectionIndex index(16, options);
  RandomVectors vectors(16, 5);
  for (int i = 0; i < 300; ++i) index.put("base" + std::to_string(i), vectors.next(), {});
  std::atomic<bool> stop{false};
  std::thread indexer([&] {
    while (!stop) {
      if (index.index_pending(16) == 0) std::this_thread::yield();
    }
  });
  std::thread writer([&] {
    RandomVectors mine(16, 6);
    for (int i = 0; i < 3000; ++i) {
      index.put("w" + std::to_string(i % 400), mine.next(), {});
      if (i % 5 == 0) index.remove("w" + std::to_string((i + 200) % 400));
    }
  });
  RandomVectors queries(16, 7);
  size_t searches = 0;
  for (; searches < 2000; ++searches) {
    const auto hits = index.best(queries.next(), 10, nullptr, -1);
    ASSERT_EQ(hits.size(), 10u);
    EXPECT_EQ(keys_of(hits).size(), 10u) << "a record twice";
  }
  writer.join();
  stop = true;
  indexer.join();
  while (index.index_pending(1000) > 0) {
  }
  EXPECT_EQ(index.pending(), 0u);
  // The 300 base records and the writer's 400 keys, less those it removed last.
  EXPECT_GE(index.size(), 300u);
  EXPECT_LE(index.size(), 700u);
}

}  // namespace
}  // namespace opbase::vdb
