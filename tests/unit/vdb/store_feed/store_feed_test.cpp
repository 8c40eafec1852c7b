// The vdb records in the store (the reference store, a fake clock): a collection takes the
// dimensions of its first insert and the model of its first embedded records, and refuses
// others naming both; the indexes are rebuilt from the store alone; a second daemon's feed on
// the same store sees the first one's inserts and deletes once they have settled, never another
// user's; deleted records stay in the store for that while, then are purged.
#include "store_feed/store_feed.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "index/index_set.hpp"
#include "opbase/store_access.hpp"
#include "records/collection_catalog.hpp"
#include "records/record_document.hpp"
#include "records/record_store.hpp"
#include "store_backed_host.hpp"
#include "vectors/vector_value.hpp"

namespace opbase::vdb {
namespace {

using nlohmann::json;

constexpr std::string_view kProject = "p1";
constexpr std::string_view kAda = "ada0";
constexpr std::string_view kBob = "bob0";
constexpr int64_t kSettleMs = 2000;

std::vector<float> random_vector(std::mt19937& random, size_t dimensions) {
  std::normal_distribution<float> normal;
  std::vector<float> v(dimensions);
  for (float& x : v) x = normal(random);
  return v;
}

// One daemon's view: its own indexes and feed over the shared store.
struct Daemon {
  explicit Daemon(const DocumentStore& store)
      : records(store), catalog(store), indexes(IndexOptions{}), feed(records, catalog, indexes) {}
  RecordStore records;
  CollectionCatalog catalog;
  IndexSet indexes;
  StoreFeed feed;

  std::vector<Hit> search(std::string_view user, std::string_view name,
                          const std::vector<float>& query) {
    auto collection = indexes.find(kProject, user, name);
    if (!collection) return {};
    return collection->index.best(unit(query), 10, nullptr, -2);
  }
};

class VdbStoreFeedTest : public ::testing::Test {
 protected:
  void SetUp() override { env_.fake().set_now_ms(1'795'820'400'000); }

  // Inserts `count` records of random vectors through `daemon` as an op does; answers their keys
  // and vectors.
  std::vector<std::pair<std::string, std::vector<float>>> insert(Daemon& daemon,
                                                                 std::string_view user,
                                                                 size_t count,
                                                                 size_t dimensions = 8) {
    auto info =
        daemon.catalog.claim(kProject, user, "notes", dimensions, std::nullopt, env_.now_ms());
    EXPECT_TRUE(info.is_ok()) << info.status().to_string();
    auto collection = daemon.indexes.open(kProject, *info);
    std::vector<std::pair<std::string, std::vector<float>>> made;
    std::vector<json> docs;
    for (size_t i = 0; i < count; ++i) {
      made.emplace_back(new_record_key(env_.now_ms()), random_vector(random_, dimensions));
      docs.push_back(stored_record({made.back().first,
                                    std::string(user),
                                    "notes",
                                    "text",
                                    {{"i", i}},
                                    std::nullopt,
                                    made.back().second,
                                    env_.now_ms()}));
    }
    EXPECT_TRUE(daemon.records.insert(kProject, docs).is_ok());
    for (size_t i = 0; i < count; ++i) {
      collection->index.put(made[i].first, unit(made[i].second), filter_fields(docs[i]));
    }
    return made;
  }

  test::StoreBackedHost env_{"vdb"};
  DocumentStore store_{env_.host()};
  std::mt19937 random_{7};
};

TEST_F(VdbStoreFeedTest, ACollectionKeepsTheDimensionsAndModelItStartedWith) {
  CollectionCatalog catalog(store_);
  auto first = catalog.claim(kProject, kAda, "notes", 1536, std::nullopt, env_.now_ms());
  ASSERT_TRUE(first.is_ok());
  EXPECT_FALSE(first->model_version);

  auto other_size = catalog.claim(kProject, kAda, "notes", 768, std::nullopt, env_.now_ms());
  ASSERT_FALSE(other_size.is_ok());
  EXPECT_EQ(other_size.status().code(), code::kValidationError);
  EXPECT_EQ(other_size.status().details()["expected_dimensions"], 1536);
  EXPECT_EQ(other_size.status().details()["provided_dimensions"], 768);

  // Given vectors have no model; the first embedded records set it, and another is refused.
  auto embedded = catalog.claim(kProject, kAda, "notes", 1536, "model-a", env_.now_ms());
  ASSERT_TRUE(embedded.is_ok());
  EXPECT_EQ(embedded->model_version, "model-a");
  auto other_model = catalog.claim(kProject, kAda, "notes", 1536, "model-b", env_.now_ms());
  ASSERT_FALSE(other_model.is_ok());
  EXPECT_EQ(other_model.status().details()["expected_model_version"], "model-a");
  EXPECT_EQ(other_model.status().details()["provided_model_version"], "model-b");
  EXPECT_TRUE(catalog.claim(kProject, kAda, "notes", 1536, std::nullopt, env_.now_ms()).is_ok());

  // Another user's collection of the same name is their own.
  EXPECT_TRUE(catalog.claim(kProject, kBob, "notes", 768, "model-b", env_.now_ms()).is_ok());
  auto missing = catalog.find(kProject, kBob, "other");
  ASSERT_TRUE(missing.is_ok());
  EXPECT_FALSE(*missing);
}

TEST_F(VdbStoreFeedTest, TheIndexesAreRebuiltFromTheStoreAlone) {
  Daemon writer(store_);
  const auto made = insert(writer, kAda, 300);
  insert(writer, kBob, 20);

  Daemon restarted(store_);
  auto loaded = restarted.feed.load(kProject, env_.now_ms(), kSettleMs);
  ASSERT_TRUE(loaded.is_ok()) << loaded.status().to_string();
  EXPECT_EQ(loaded->records, 320u);
  EXPECT_EQ(loaded->collections, 2u);
  EXPECT_EQ(restarted.indexes.user_records(kProject, kAda), 300u);
  EXPECT_EQ(restarted.indexes.user_records(kProject, kBob), 20u);
  for (size_t i = 0; i < made.size(); i += 37) {
    const auto hits = restarted.search(kAda, "notes", made[i].second);
    ASSERT_FALSE(hits.empty());
    EXPECT_EQ(hits.front().key, made[i].first);
    EXPECT_NEAR(hits.front().score, 1.0, 2e-3);  // the index's int8 codes, at 8 dimensions
  }
}

TEST_F(VdbStoreFeedTest, AnotherDaemonSeesInsertsAndDeletesOnceSettled) {
  Daemon a(store_), b(store_);
  ASSERT_TRUE(b.feed.load(kProject, env_.now_ms(), kSettleMs).is_ok());
  const auto made = insert(a, kAda, 5);

  // Not yet settled: b reads nothing.
  auto early = b.feed.refresh(kProject, env_.now_ms() + kSettleMs / 2, kSettleMs);
  ASSERT_TRUE(early.is_ok());
  EXPECT_EQ(*early, 0u);
  EXPECT_EQ(b.indexes.user_records(kProject, kAda), 0u);

  env_.fake().advance_ms(kSettleMs + 1);
  auto added = b.feed.refresh(kProject, env_.now_ms(), kSettleMs);
  ASSERT_TRUE(added.is_ok()) << added.status().to_string();
  EXPECT_EQ(*added, 5u);
  EXPECT_EQ(b.search(kAda, "notes", made[3].second).front().key, made[3].first);
  EXPECT_EQ(b.indexes.user_records(kProject, kBob), 0u);

  // A delete through a, of one record by its key, reaches b the same way.
  auto removed =
      a.records.remove(kProject, kAda, "notes", match_of({{"_key", made[3].first}}), env_.now_ms());
  ASSERT_TRUE(removed.is_ok());
  ASSERT_EQ(removed->size(), 1u);
  a.indexes.find(kProject, kAda, "notes")->index.remove(made[3].first);
  env_.fake().advance_ms(kSettleMs + 1);
  auto dropped = b.feed.refresh(kProject, env_.now_ms(), kSettleMs);
  ASSERT_TRUE(dropped.is_ok());
  EXPECT_EQ(*dropped, 1u);
  EXPECT_EQ(b.indexes.user_records(kProject, kAda), 4u);
  EXPECT_NE(b.search(kAda, "notes", made[3].second).front().key, made[3].first);

  // A second refresh of the same time reads nothing again.
  auto again = b.feed.refresh(kProject, env_.now_ms(), kSettleMs);
  ASSERT_TRUE(again.is_ok());
  EXPECT_EQ(*again, 0u);
}

TEST_F(VdbStoreFeedTest, DeletesOnlyTheOwnersRecordsAndPurgesThemAfterTheRetention) {
  Daemon a(store_);
  insert(a, kAda, 4);
  insert(a, kBob, 4);
  // Bob's delete of everything in his "notes" leaves Ada's alone.
  auto removed = a.records.remove(kProject, kBob, "notes", {}, env_.now_ms());
  ASSERT_TRUE(removed.is_ok());
  EXPECT_EQ(removed->size(), 4u);
  EXPECT_EQ(env_.documents(kProject, kRecordsCollection).size(), 4u);
  EXPECT_EQ(env_.documents(kProject, kRecordsCollection, store::State::kDeleted).size(), 4u);

  ASSERT_TRUE(a.records.purge_deleted(kProject, env_.now_ms()).is_ok());
  EXPECT_EQ(env_.documents(kProject, kRecordsCollection, store::State::kDeleted).size(), 4u);
  env_.fake().advance_ms(kDeletedRetentionMs + 1);
  ASSERT_TRUE(a.records.purge_deleted(kProject, env_.now_ms()).is_ok());
  EXPECT_EQ(env_.documents(kProject, kRecordsCollection, store::State::kDeleted).size(), 0u);
  EXPECT_EQ(env_.documents(kProject, kRecordsCollection).size(), 4u);
}

TEST_F(VdbStoreFeedTest, TheStoredVectorIsCompactAndExact) {
  Daemon a(store_);
  const auto made = insert(a, kAda, 1, 1536);
  const json stored = env_.documents(kProject, kRecordsCollection).front();
  ASSERT_TRUE(stored["vector"].is_string());
  EXPECT_EQ(stored["vector"].get<std::string>().size(), 8192u);  // base64 of 1536 float32
  const json client = client_record(stored, true);
  ASSERT_EQ(client["vector"].size(), 1536u);
  for (size_t i = 0; i < 1536; ++i) EXPECT_EQ(client["vector"][i].get<float>(), made[0].second[i]);
  EXPECT_FALSE(client.contains("changed_ms"));
  EXPECT_FALSE(client_record(stored, false).contains("vector"));
}

}  // namespace
}  // namespace opbase::vdb
