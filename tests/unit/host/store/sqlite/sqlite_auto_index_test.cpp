// The sqlite store's automatic indexes: which fields get one and when, that answers stay those
// of a store without indexes while indexes are built, used, dropped and reopened, and that
// writes made during a build are in the index when it is ready.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "opbase/internal/store_codec.hpp"
#include "opbase/query.hpp"
#include "opbase/store.hpp"
#include "store/sqlite/sqlite_project_store.hpp"
#include "temp_dir.hpp"

namespace opbase {
namespace {

using host::AutoIndexPolicy;
using host::sqlite::FieldIndex;
using host::sqlite::IndexOrigin;
using host::sqlite::SqliteProjectStore;
using host::sqlite::StoreOptions;
using nlohmann::json;
using store::Scope;

constexpr std::string_view kNs = "collection";
constexpr auto kBuildWait = std::chrono::seconds(60);

query::Match M(std::string_view text) {
  auto parsed = query::parse_match(json::parse(text), store::wire_parse_options());
  EXPECT_TRUE(parsed) << text;
  return parsed ? *parsed : query::Match{};
}

std::vector<query::SortKey> S(std::string_view text) {
  if (text.empty()) return {};
  return *query::parse_sort(text, store::wire_parse_options());
}

std::shared_ptr<SqliteProjectStore> open_store(const std::string& path, AutoIndexPolicy policy) {
  auto store = SqliteProjectStore::open(StoreOptions{path, 4, false, {}, policy});
  EXPECT_TRUE(store) << store.status().to_string();
  return store ? *store : nullptr;
}

AutoIndexPolicy quick_policy() {
  AutoIndexPolicy policy;
  policy.after_queries = 3;
  policy.costly_rows = 1000;
  return policy;
}

AutoIndexPolicy no_auto_indexes() {
  AutoIndexPolicy policy;
  policy.enabled = false;
  return policy;
}

// Documents of user "u" (and every fifth of "v"), whose fields change type from row to row:
// `g` is a number, a string, an array or missing; `n` a number, a string, null or missing.
std::vector<json> documents(int first, int count) {
  std::vector<json> out;
  for (int i = first; i < first + count; ++i) {
    json doc = {{"_key", "k" + std::to_string(100000 + i)},
                {"_userkey", i % 5 == 0 ? "v" : "u"},
                {"_created_at", 1000 + i}};
    switch (i % 7) {
      case 0:
        doc["g"] = std::to_string(i % 10);
        break;
      case 1:
        doc["g"] = json::array({i % 10, (i + 1) % 10});
        break;
      case 2:
        break;
      default:
        doc["g"] = i % 10;
    }
    if (i % 13 == 0) {
      // no n: sorts as null, and has no row in an index on n
    } else if (i % 17 == 0) {
      doc["n"] = nullptr;
    } else {
      doc["n"] = i % 11 == 0 ? json(std::to_string(i)) : json(i);
    }
    out.push_back(std::move(doc));
  }
  return out;
}

void insert(SqliteProjectStore& store, const std::vector<json>& docs) {
  for (std::size_t i = 0; i < docs.size(); i += 500) {
    const std::size_t end = std::min(docs.size(), i + 500);
    Status s = store.insert(
        kNs,
        store::InsertRequest{"items", std::vector<json>(docs.begin() + i, docs.begin() + end)});
    ASSERT_TRUE(s) << s.to_string();
  }
}

std::vector<std::string> keys(SqliteProjectStore& store, std::string_view match,
                              std::string_view sort = "", Scope scope = Scope::user("u"),
                              int64_t limit = -1) {
  store::FindRequest request{"items", scope, store::State::kActive, M(match), S(sort)};
  request.limit = limit;
  auto found = store.find_documents(kNs, request);
  EXPECT_TRUE(found) << found.status().to_string();
  std::vector<std::string> out;
  if (found) {
    for (const json& doc : found->documents) out.push_back(doc.at("_key").get<std::string>());
  }
  return out;
}

// The pagination total of a find (a page of 5 asked for), as collection.find asks it.
int64_t total(SqliteProjectStore& store, std::string_view match, std::string_view sort,
              Scope scope) {
  store::FindRequest request{"items", scope, store::State::kActive, M(match), S(sort)};
  request.limit = 5;
  request.with_total = true;
  auto found = store.find_documents(kNs, request);
  EXPECT_TRUE(found) << found.status().to_string();
  return found ? found->total : -1;
}

int64_t count(SqliteProjectStore& store, std::string_view match, Scope scope = Scope::user("u")) {
  auto counted = store.count(kNs, {"items", scope, store::State::kActive, M(match)});
  EXPECT_TRUE(counted) << counted.status().to_string();
  return counted ? *counted : -1;
}

const FieldIndex* index_on(const host::sqlite::IndexCatalog::Snapshot& snapshot,
                           std::string_view path) {
  return host::sqlite::IndexCatalog::find(snapshot, kNs, "items", path);
}

// The matches, sorts and scopes every comparison below runs.
const std::vector<std::string_view> kMatches = {R"({"g": 3})",
                                                R"({"g": "3"})",
                                                R"({"g:$gt": 6})",
                                                R"({"g:$in": [1, "2"]})",
                                                R"({"g": null})",
                                                R"({"g:$gte": 2, "g:$lt": 4})",
                                                R"({"n:$gt": 2500})",
                                                R"({"n:$lte": "3000"})",
                                                R"({"n:$gt": 100, "g": 5})",
                                                R"({"n:$gte": 1000, "n:$lt": 1200})",
                                                R"({"n:$gte": "1", "n:$lt": "2", "g:$ne": 3})"};

void expect_same_answers(SqliteProjectStore& store, SqliteProjectStore& plain) {
  for (std::string_view match : kMatches) {
    for (Scope scope : {Scope::user("u"), Scope::everyone()}) {
      for (std::string_view sort : {"", "g asc", "n desc", "n asc"}) {
        EXPECT_EQ(keys(store, match, sort, scope), keys(plain, match, sort, scope))
            << match << " sort " << sort;
        EXPECT_EQ(keys(store, match, sort, scope, 10), keys(plain, match, sort, scope, 10))
            << match << " sort " << sort << " limit 10";
        EXPECT_EQ(total(store, match, sort, scope), total(plain, match, sort, scope))
            << match << " sort " << sort << " total";
      }
      EXPECT_EQ(count(store, match, scope), count(plain, match, scope)) << match;
    }
  }
}

class AutoIndexTest : public ::testing::Test {
 protected:
  test::TempDir dir_{"opbase-autoindex"};
  std::string path(std::string_view name) const { return dir_.path() + "/" + std::string(name); }

  // A store under `policy` and one without indexes, both holding documents(0, n).
  void open_pair(AutoIndexPolicy policy, int n) {
    store_ = open_store(path("indexed.db"), policy);
    plain_ = open_store(path("plain.db"), no_auto_indexes());
    ASSERT_TRUE(store_ && plain_);
    const auto docs = documents(0, n);
    insert(*store_, docs);
    insert(*plain_, docs);
  }
  std::shared_ptr<SqliteProjectStore> store_;
  std::shared_ptr<SqliteProjectStore> plain_;
};

TEST_F(AutoIndexTest, AFieldQueriedAtCostGetsAnIndexThatGivesTheSameAnswers) {
  ASSERT_NO_FATAL_FAILURE(open_pair(quick_policy(), 3000));
  auto& store = store_;
  auto& plain = plain_;

  // Two costly queries are not enough.
  const auto first = keys(*store, R"({"g": 3})");
  keys(*store, R"({"g": 3})");
  store->wait_for_builds(kBuildWait);
  EXPECT_EQ(index_on(store->index_snapshot(), "g"), nullptr);

  EXPECT_EQ(keys(*store, R"({"g": 3})"), first);
  store->wait_for_builds(kBuildWait);
  const auto snapshot = store->index_snapshot();
  const FieldIndex* index = index_on(snapshot, "g");
  ASSERT_NE(index, nullptr);
  EXPECT_EQ(index->origin, IndexOrigin::kAuto);
  EXPECT_TRUE(index->ready);
  EXPECT_TRUE(index->multikey->load());  // some rows hold arrays
  EXPECT_EQ(index_on(snapshot, "n"), nullptr);
  expect_same_answers(*store, *plain);
}

TEST_F(AutoIndexTest, CheapQueriesAndDisabledPoliciesAddNoIndex) {
  auto small = open_store(path("small.db"), quick_policy());
  ASSERT_TRUE(small);
  insert(*small, documents(0, 900));  // every query reads fewer than costly_rows documents
  for (int i = 0; i < 10; ++i) keys(*small, R"({"g": 3})", "", Scope::everyone());
  small->wait_for_builds(kBuildWait);
  EXPECT_TRUE(small->index_snapshot()->empty());

  auto off = open_store(path("off.db"), no_auto_indexes());
  ASSERT_TRUE(off);
  insert(*off, documents(0, 3000));
  for (int i = 0; i < 10; ++i) keys(*off, R"({"g": 3})");
  off->wait_for_builds(kBuildWait);
  EXPECT_TRUE(off->index_snapshot()->empty());
}

TEST_F(AutoIndexTest, TheProjectCapLimitsAutomaticIndexesButNotAdministrators) {
  AutoIndexPolicy policy = quick_policy();
  policy.max_per_project = 1;
  auto store = open_store(path("cap.db"), policy);
  ASSERT_TRUE(store);
  insert(*store, documents(0, 2000));
  for (int i = 0; i < 3; ++i) count(*store, R"({"n:$gt": 5})");
  store->wait_for_builds(kBuildWait);
  for (int i = 0; i < 3; ++i) count(*store, R"({"g:$gt": 5})");
  store->wait_for_builds(kBuildWait);
  auto snapshot = store->index_snapshot();
  EXPECT_NE(index_on(snapshot, "n"), nullptr);
  EXPECT_EQ(index_on(snapshot, "g"), nullptr);

  ASSERT_TRUE(store->add_index(kNs, "items", *query::parse_path("g"), IndexOrigin::kAdmin));
  store->wait_for_builds(kBuildWait);
  snapshot = store->index_snapshot();
  ASSERT_NE(index_on(snapshot, "g"), nullptr);
  EXPECT_EQ(index_on(snapshot, "g")->origin, IndexOrigin::kAdmin);
  EXPECT_TRUE(index_on(snapshot, "g")->ready);
}

TEST_F(AutoIndexTest, AnUnusedAutomaticIndexIsDroppedAndAnswersStayTheSame) {
  AutoIndexPolicy policy = quick_policy();
  policy.drop_unused_after_s = 1;
  ASSERT_NO_FATAL_FAILURE(open_pair(policy, 2000));
  auto& store = store_;
  auto& plain = plain_;
  for (int i = 0; i < 3; ++i) count(*store, R"({"n:$gt": 1500})");
  store->wait_for_builds(kBuildWait);
  ASSERT_NE(index_on(store->index_snapshot(), "n"), nullptr);

  // The index thread looks once a second; unused for a second, the index goes.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (index_on(store->index_snapshot(), "n") != nullptr &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(index_on(store->index_snapshot(), "n"), nullptr);
  EXPECT_EQ(count(*store, R"({"n:$gt": 1500})"), count(*plain, R"({"n:$gt": 1500})"));

  // An administrator's index is not the policy's to drop; a declared one is not theirs.
  ASSERT_TRUE(store->add_index(kNs, "items", *query::parse_path("g"), IndexOrigin::kAdmin));
  store->wait_for_builds(kBuildWait);
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  ASSERT_NE(index_on(store->index_snapshot(), "g"), nullptr);
  EXPECT_TRUE(store->drop_index(kNs, "items", "g"));
  EXPECT_EQ(index_on(store->index_snapshot(), "g"), nullptr);
  EXPECT_FALSE(store->drop_index(kNs, "items", "g"));
  expect_same_answers(*store, *plain);
}

TEST_F(AutoIndexTest, WritesDuringABuildAreInTheIndex) {
  ASSERT_NO_FATAL_FAILURE(open_pair(no_auto_indexes(), 10000));
  auto& store = store_;
  auto& plain = plain_;

  std::atomic<bool> building{true};
  std::thread writer([&] {
    // Inserts, changes and deletions while the index fills, bounded.
    for (int round = 0; round < 40 && building; ++round) {
      const auto more = documents(10000 + round * 50, 50);
      insert(*store, more);
      insert(*plain, more);
      const std::string key = "k" + std::to_string(100000 + round * 97);
      const auto match = M(R"({"_key": ")" + key + R"("})");
      store::UpdateRequest update{"items", Scope::everyone(), {{match, {json{{"g", round}}}}}};
      ASSERT_TRUE(store->update(kNs, update));
      ASSERT_TRUE(plain->update(kNs, update));
      store::StateRequest removal;
      removal.collection = "items";
      removal.scope = Scope::everyone();
      removal.match = M(R"({"_key": ")" + key + R"(1"})");
      ASSERT_TRUE(store->change_state(kNs, removal));
      ASSERT_TRUE(plain->change_state(kNs, removal));
    }
  });
  ASSERT_TRUE(store->add_index(kNs, "items", *query::parse_path("g"), IndexOrigin::kAdmin));
  ASSERT_TRUE(store->add_index(kNs, "items", *query::parse_path("n"), IndexOrigin::kAdmin));
  store->wait_for_builds(kBuildWait);
  building = false;
  writer.join();
  const auto snapshot = store->index_snapshot();
  ASSERT_NE(index_on(snapshot, "g"), nullptr);
  EXPECT_TRUE(index_on(snapshot, "g")->ready);
  EXPECT_FALSE(index_on(snapshot, "n")->multikey->load());
  expect_same_answers(*store, *plain);

  // A sort on the plain index reads it in order, with or without a bound on n; the documents
  // without n come first ascending.
  for (std::string_view match : {R"({"g": 3})", R"({"n:$gt": 500})"}) {
    for (std::string_view sort : {"n asc", "n desc"}) {
      store::FindRequest request{"items", Scope::user("u"), store::State::kActive, M(match),
                                 S(sort)};
      request.limit = 5;
      auto plan = store->explain(kNs, request, false);
      ASSERT_TRUE(plan) << plan.status().to_string();
      EXPECT_EQ((*plan)["plan"], "index_order") << match << " " << sort;
      EXPECT_EQ((*plan)["index"], "n");
    }
  }
}

TEST_F(AutoIndexTest, IndexesSurviveARestartAndAnUnfinishedBuildResumes) {
  const auto docs = documents(0, 12000);
  auto plain = open_store(path("plain.db"), no_auto_indexes());
  ASSERT_TRUE(plain);
  insert(*plain, docs);
  {
    auto store = open_store(path("restart.db"), no_auto_indexes());
    ASSERT_TRUE(store);
    insert(*store, docs);
    ASSERT_TRUE(store->add_index(kNs, "items", *query::parse_path("n"), IndexOrigin::kAdmin));
    store->wait_for_builds(kBuildWait);
    // Closed at once: this build is cut short somewhere (or not started).
    ASSERT_TRUE(store->add_index(kNs, "items", *query::parse_path("g"), IndexOrigin::kAdmin));
  }
  auto store = open_store(path("restart.db"), no_auto_indexes());
  ASSERT_TRUE(store);
  const auto reopened = store->index_snapshot();
  ASSERT_NE(index_on(reopened, "n"), nullptr);
  EXPECT_TRUE(index_on(reopened, "n")->ready);
  ASSERT_NE(index_on(reopened, "g"), nullptr);
  store->wait_for_builds(kBuildWait);
  EXPECT_TRUE(index_on(store->index_snapshot(), "g")->ready);
  expect_same_answers(*store, *plain);
}

TEST_F(AutoIndexTest, ASharedScopeIndexesItsListsAndTheIndexesSurviveARestart) {
  std::vector<json> docs = documents(0, 200);
  for (std::size_t i = 0; i < docs.size(); ++i) {
    if (i % 3 == 0) docs[i]["_readers"] = json::array({"w", "role:r"});
    if (i % 4 == 0) docs[i]["_writers"] = "w";
  }
  const Scope shared = Scope::shared("v", {"w"}, {"_readers", "_writers"});
  const std::vector<std::string> expected = {"k100000", "k100003", "k100004", "k100005"};
  {
    auto store = open_store(path("shared.db"), no_auto_indexes());  // no policy needed
    ASSERT_TRUE(store);
    insert(*store, docs);
    EXPECT_EQ(keys(*store, "{}", "_key asc", shared, 4), expected);  // read from the texts
    store->wait_for_builds(kBuildWait);
    const auto built = store->index_snapshot();
    ASSERT_NE(index_on(built, "_readers"), nullptr);
    ASSERT_NE(index_on(built, "_writers"), nullptr);
    EXPECT_TRUE(index_on(built, "_readers")->ready);
    EXPECT_EQ(keys(*store, "{}", "_key asc", shared, 4), expected);  // read from the indexes
  }
  auto store = open_store(path("shared.db"), no_auto_indexes());
  ASSERT_TRUE(store);
  const auto reopened = store->index_snapshot();
  ASSERT_NE(index_on(reopened, "_readers"), nullptr);
  EXPECT_TRUE(index_on(reopened, "_readers")->ready);
  EXPECT_EQ(keys(*store, "{}", "_key asc", shared, 4), expected);
  EXPECT_EQ(count(*store, "{}", shared), 120);
}

}  // namespace
}  // namespace opbase
