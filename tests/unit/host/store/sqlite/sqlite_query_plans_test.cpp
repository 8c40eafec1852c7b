// How the sqlite store reads each query shape: the choices of the cost model one by one
// (sqlite_plan_choice.hpp), the plan a store takes for each shape over a collection, with the
// same answers as a store without indexes, and the kept counts of each scope staying exact
// through every kind of write (sqlite_scope_counts.hpp).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "opbase/internal/store_codec.hpp"
#include "opbase/query.hpp"
#include "opbase/store.hpp"
#include "store/sqlite/sqlite_plan_choice.hpp"
#include "store/sqlite/sqlite_project_store.hpp"
#include "temp_dir.hpp"

namespace opbase {
namespace {

using host::AutoIndexPolicy;
using host::sqlite::choose_count_plan;
using host::sqlite::choose_find_plan;
using host::sqlite::CountFacts;
using host::sqlite::CountPlan;
using host::sqlite::FindFacts;
using host::sqlite::FindPlan;
using host::sqlite::IndexOrigin;
using host::sqlite::lookup_cap;
using host::sqlite::SqliteProjectStore;
using host::sqlite::StoreOptions;
using host::sqlite::walk_budget;
using nlohmann::json;
using store::Scope;
using store::State;

// ---- The cost model's choices ------------------------------------------------------------------

// A find in date order, a page of 100 over 10,000 documents, with one lookup of `rows` rows.
FindFacts by_date_with_lookup(int64_t rows) {
  FindFacts facts;
  facts.fewest_lookup_rows = rows;
  facts.scope_documents = 10000;
  facts.page_end = 100;
  return facts;
}

TEST(FindPlanChoice, TheCapIsWhereWalkingAndReadingTheIndexCostTheSame) {
  EXPECT_EQ(lookup_cap(100, 10000), 1733);  // 1732^2 = 3 * 100 * 10,000
  EXPECT_EQ(lookup_cap(100, 0), 101);       // never under the page
  EXPECT_EQ(lookup_cap(0, 10000), 1);
}

TEST(FindPlanChoice, FewMatchesAreReadFromTheIndex) {
  EXPECT_EQ(choose_find_plan(by_date_with_lookup(300)), FindPlan::kLookups);
  FindFacts only = by_date_with_lookup(300);
  only.index_only = true;
  EXPECT_EQ(choose_find_plan(only), FindPlan::kIndexOnly);
}

TEST(FindPlanChoice, ManyMatchesAreMetByWalkingInDateOrder) {
  // 5,000 matches in 10,000: the walk meets about 200 documents for a page of 100.
  EXPECT_EQ(choose_find_plan(by_date_with_lookup(5000)), FindPlan::kDateWalk);
  FindFacts only = by_date_with_lookup(5000);
  only.index_only = true;
  EXPECT_EQ(choose_find_plan(only), FindPlan::kDateWalk);
}

TEST(FindPlanChoice, AWalkGivesUpAfterTwiceTheDocumentsItExpects) {
  EXPECT_EQ(walk_budget(by_date_with_lookup(5000)), 400);  // expects 200
  EXPECT_EQ(walk_budget(by_date_with_lookup(10000)), 200);
  FindFacts tiny = by_date_with_lookup(10000);
  tiny.scope_documents = 10;
  EXPECT_EQ(walk_budget(tiny), 100);  // never under the page
}

TEST(FindPlanChoice, ALookupCountedToTheCapIsWalked) {
  EXPECT_EQ(choose_find_plan(by_date_with_lookup(lookup_cap(100, 10000))), FindPlan::kDateWalk);
  EXPECT_EQ(choose_find_plan(by_date_with_lookup(lookup_cap(100, 10000) - 2)), FindPlan::kLookups);
}

TEST(FindPlanChoice, OneEqualityInDateOrderReadsOnlyThePage) {
  FindFacts facts = by_date_with_lookup(9000);
  facts.index_only = true;
  facts.index_only_ordered = true;
  EXPECT_EQ(choose_find_plan(facts), FindPlan::kIndexOnly);
}

TEST(FindPlanChoice, EveryMatchReadAnywayIsReadFromTheIndex) {
  FindFacts counted = by_date_with_lookup(5000);
  counted.pass_counts_all = true;  // a total over conditions the texts decide
  EXPECT_EQ(choose_find_plan(counted), FindPlan::kLookups);
  FindFacts unlimited = by_date_with_lookup(5000);
  unlimited.page_end = -1;
  EXPECT_EQ(choose_find_plan(unlimited), FindPlan::kLookups);
  FindFacts everyone = by_date_with_lookup(5000);
  everyone.walkable = false;  // every owner's documents: the scope index has no date order
  EXPECT_EQ(choose_find_plan(everyone), FindPlan::kLookups);
}

TEST(FindPlanChoice, WithoutALookupTheScopeIsRead) {
  FindFacts facts;
  facts.page_end = 100;
  EXPECT_EQ(choose_find_plan(facts), FindPlan::kScan);
  facts.by_date = false;
  EXPECT_EQ(choose_find_plan(facts), FindPlan::kScan);
}

TEST(FindPlanChoice, ASortOnAPlainIndexReadsItInOrder) {
  FindFacts facts = by_date_with_lookup(5000);
  facts.by_date = false;
  facts.index_order = true;
  EXPECT_EQ(choose_find_plan(facts), FindPlan::kIndexOrder);
  facts.index_order = false;
  EXPECT_EQ(choose_find_plan(facts), FindPlan::kLookups);
}

TEST(FindPlanChoice, ASortOnAFieldWalksItsIndexUnlessFewDocumentsPassTheProbes) {
  FindFacts facts = by_date_with_lookup(500);
  facts.by_date = false;
  facts.index_order = true;
  facts.index_order_probed = true;
  // 500 candidates read and sorted (6 rows each) cost less than meeting 2,000 in order (3 each).
  EXPECT_EQ(choose_find_plan(facts), FindPlan::kLookups);
  facts.fewest_lookup_rows = 1500;  // 9,000 against 667 * 3
  EXPECT_EQ(choose_find_plan(facts), FindPlan::kIndexOrder);
  facts.fewest_lookup_rows = 500;
  facts.index_order_probed = false;  // the rows in order are the matches: only the page is read
  EXPECT_EQ(choose_find_plan(facts), FindPlan::kIndexOrder);
}

TEST(CountPlanChoice, EachShapeHasItsCount) {
  EXPECT_EQ(choose_count_plan({true, false, false, true}), CountPlan::kKeptCount);
  EXPECT_EQ(choose_count_plan({false, true, false, true}), CountPlan::kIndexCount);
  EXPECT_EQ(choose_count_plan({false, false, true, true}), CountPlan::kExcludedCount);
  EXPECT_EQ(choose_count_plan({false, false, false, true}), CountPlan::kSqlCount);
  EXPECT_EQ(choose_count_plan({false, false, false, false}), CountPlan::kScanCount);
}

// ---- The plans a store takes -------------------------------------------------------------------

constexpr std::string_view kNs = "collection";
constexpr int kDocuments = 2000;

query::Match M(std::string_view text) {
  auto parsed = query::parse_match(json::parse(text), store::wire_parse_options());
  EXPECT_TRUE(parsed) << text;
  return parsed ? *parsed : query::Match{};
}

// A store that makes no index by itself: the tests add the ones they read.
std::shared_ptr<SqliteProjectStore> open_store(const std::string& path) {
  AutoIndexPolicy off;
  off.enabled = false;
  auto opened = SqliteProjectStore::open(StoreOptions{path, 2, false, {}, off});
  EXPECT_TRUE(opened) << opened.status().to_string();
  return opened ? *opened : nullptr;
}

class QueryPlansTest : public ::testing::Test {
 protected:
  void SetUp() override {
    indexed_ = open_store(dir_.path() + "/indexed.db");
    plain_ = open_store(dir_.path() + "/plain.db");
    ASSERT_TRUE(indexed_ && plain_);
    // u's documents: g = i % 100, n = i (newest last), among as many of v's.
    std::vector<json> docs;
    for (int i = 0; i < 2 * kDocuments; ++i) {
      docs.push_back({{"_key", "k" + std::to_string(100000 + i)},
                      {"_userkey", i % 2 == 0 ? "u" : "v"},
                      {"_created_at", 1000 + i},
                      {"g", (i / 2) % 100},
                      {"n", i / 2}});
    }
    for (auto& store : {indexed_, plain_}) {
      ASSERT_TRUE(store->insert(kNs, store::InsertRequest{"items", docs}));
    }
    for (const char* field : {"g", "n"}) {
      ASSERT_TRUE(
          indexed_->add_index(kNs, "items", *query::parse_path(field), IndexOrigin::kAdmin));
    }
    indexed_->wait_for_builds(std::chrono::seconds(60));
  }

  static store::FindRequest request(std::string_view match, int64_t limit, int64_t offset = 0) {
    store::FindRequest r{"items", Scope::user("u"), State::kActive, M(match), {}};
    r.limit = limit;
    r.offset = offset;
    r.with_total = true;
    return r;
  }

  static store::FindRequest sorted(std::string_view match, std::string_view path, bool descending,
                                   int64_t limit) {
    store::FindRequest r = request(match, limit);
    r.sort.push_back({*query::parse_path(path), descending});
    return r;
  }

  // The plan the indexed store takes, after checking both stores answer alike.
  std::string plan_of(const store::FindRequest& r) {
    auto a = indexed_->find_documents(kNs, r);
    auto b = plain_->find_documents(kNs, r);
    EXPECT_TRUE(a && b);
    if (!a || !b) return "";
    EXPECT_EQ(json(a->documents), json(b->documents));
    EXPECT_EQ(a->total, b->total);
    auto plan = indexed_->explain(kNs, r, false);
    EXPECT_TRUE(plan) << plan.status().to_string();
    return plan ? (*plan)["plan"].get<std::string>() : "";
  }

  std::string count_plan_of(std::string_view match) {
    const store::CountRequest r{"items", Scope::user("u"), State::kActive, M(match)};
    auto a = indexed_->count(kNs, r);
    auto b = plain_->count(kNs, r);
    EXPECT_TRUE(a && b);
    if (a && b) {
      EXPECT_EQ(*a, *b) << match;
    }
    auto plan =
        indexed_->explain(kNs, {"items", Scope::user("u"), State::kActive, M(match), {}}, true);
    EXPECT_TRUE(plan) << plan.status().to_string();
    return plan ? (*plan)["plan"].get<std::string>() : "";
  }

  test::TempDir dir_{"opbase-plans"};
  std::shared_ptr<SqliteProjectStore> indexed_;
  std::shared_ptr<SqliteProjectStore> plain_;
};

TEST_F(QueryPlansTest, ARangeHalfTheDocumentsMeetIsWalkedInDateOrder) {
  EXPECT_EQ(plan_of(request(R"({"n:$gt": 1000})", 10)), "date_walk");
  // The oldest half: the walk meets none of them in its budget, and the index is read.
  EXPECT_EQ(plan_of(request(R"({"n:$lt": 1000})", 10)), "index_only");
  // A deep page among many matches: the walk skips the offset in the scope index.
  EXPECT_EQ(plan_of(request(R"({"g:$lt": 90})", 10, 100)), "date_walk");
  // Deeper among fewer: sorting the index's 1,000 rows costs less than meeting 820 documents.
  EXPECT_EQ(plan_of(request(R"({"g:$lt": 50})", 10, 400)), "index_only");
}

TEST_F(QueryPlansTest, FewMatchesAreSortedFromTheIndex) {
  // 40 matches, under the cap of sqrt(3 * 10 * 2,000) + 1.
  EXPECT_EQ(plan_of(request(R"({"g:$in": [1, 2]})", 10)), "index_only");
  EXPECT_EQ(plan_of(request(R"({"g": 7})", 10)), "index_only");
}

TEST_F(QueryPlansTest, AnInIsReadAsOneRangePerOperandMerged) {
  // Operands that name one value twice (1 and 1.0) give one range, so no document comes twice.
  EXPECT_EQ(plan_of(request(R"({"g:$in": [1, 1.0, 1, 90]})", 50)), "index_only");
  EXPECT_EQ(plan_of(request(R"({"g:$in": [3, "3", true, 4]})", 10, 15)), "index_only");
  EXPECT_EQ(plan_of(request(R"({"g:$in": [5, 6], "g:$gt": 5})", 10)), "index_only");
  // More operands than the merge takes: the cost model chooses another plan (here the walk).
  std::string many = "[";
  for (int g = 0; g < 40; ++g) many += (g ? "," : "") + std::to_string(g);
  EXPECT_EQ(plan_of(request(R"({"g:$in": )" + many + "]}", 10, 5)), "date_walk");
}

TEST_F(QueryPlansTest, TwoFieldsAreDrivenByTheFewerRows) {
  EXPECT_EQ(plan_of(request(R"({"n:$gt": 100, "g": 7})", 10)), "index_lookup");
  EXPECT_EQ(plan_of(request(R"({"n:$gt": 100, "g:$ne": 7})", 10)), "date_walk");
}

TEST_F(QueryPlansTest, NegationsAreProbedAndCountedFromTheIndex) {
  EXPECT_EQ(plan_of(request(R"({"g:$ne": 7})", 10)), "date_walk");
  EXPECT_EQ(plan_of(request(R"({"g:$nin": [1, 2, 3]})", 10, 100)), "date_walk");
  EXPECT_EQ(count_plan_of(R"({"g:$ne": 7})"), "index_count");
  EXPECT_EQ(count_plan_of(R"({"g:$ne": 7, "n:$ne": 5})"), "index_lookup_count");
}

TEST_F(QueryPlansTest, ASortOnAFieldProbesTheOtherFieldsOrReadsTheFewMatches) {
  // 1,980 matches: the index of n in order, each row's document probed for g, till the page.
  EXPECT_EQ(plan_of(sorted(R"({"g:$ne": 7})", "n", true, 10)), "index_order");
  EXPECT_EQ(plan_of(sorted(R"({"g:$ne": 7, "n:$lt": 1500})", "n", false, 10)), "index_order");
  EXPECT_EQ(plan_of(sorted(R"({"g:$gt": 10})", "n", false, 10)), "index_order");
  // 40 matches: read and sorted.
  EXPECT_EQ(plan_of(sorted(R"({"g:$in": [1, 2]})", "n", false, 10)), "index_lookup");
  // A condition left to the texts, with the total: every match is read anyway.
  EXPECT_EQ(plan_of(sorted(R"({"g:$gt": 10, "zz:$ne": 1})", "n", true, 10)), "index_lookup");
}

// Runs `sql` on the store file at `path` (closed by its store), as an older version left it.
::testing::AssertionResult exec_on_file(const std::string& path, const char* sql) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open(path.c_str(), &db);
  if (rc == SQLITE_OK) rc = sqlite3_exec(db, sql, nullptr, nullptr, nullptr);
  const std::string message = db ? sqlite3_errmsg(db) : "no memory";
  sqlite3_close(db);
  if (rc == SQLITE_OK) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << sql << ": " << message;
}

// The first keys of a page sorted on n ascending, from the indexed store, checked against the
// plain store.
std::vector<std::string> first_keys(SqliteProjectStore& indexed, SqliteProjectStore& plain) {
  store::FindRequest r{"items", Scope::user("u"), State::kActive, {}, {}};
  r.sort.push_back({*query::parse_path("n"), false});
  r.limit = 3;
  auto a = indexed.find_documents(kNs, r);
  auto b = plain.find_documents(kNs, r);
  EXPECT_TRUE(a && b);
  std::vector<std::string> keys;
  if (!a || !b) return keys;
  EXPECT_EQ(json(a->documents), json(b->documents));
  for (const json& doc : a->documents) keys.push_back(doc["_key"]);
  return keys;
}

TEST_F(QueryPlansTest, ADocumentWithoutTheSortedFieldSortsFirstFromItsWriteOn) {
  // Every document has n: nothing is looked for before the index's rows.
  EXPECT_EQ(first_keys(*indexed_, *plain_),
            (std::vector<std::string>{"k100000", "k100002", "k100004"}));
  for (auto& store : {indexed_, plain_}) {
    ASSERT_TRUE(store->insert(
        kNs,
        store::InsertRequest{
            "items", {{{"_key", "none"}, {"_userkey", "u"}, {"_created_at", 1}, {"n", nullptr}}}}));
  }
  EXPECT_EQ(first_keys(*indexed_, *plain_),
            (std::vector<std::string>{"none", "k100000", "k100002"}));
  // Kept across a restart, and taken as sparse in a file from before it was kept.
  const std::string path = dir_.path() + "/indexed.db";
  indexed_.reset();
  indexed_ = open_store(path);
  ASSERT_TRUE(indexed_);
  EXPECT_EQ(first_keys(*indexed_, *plain_)[0], "none");
  indexed_.reset();
  ASSERT_TRUE(exec_on_file(path, "ALTER TABLE field_indexes DROP COLUMN sparse"));
  indexed_ = open_store(path);
  ASSERT_TRUE(indexed_);
  EXPECT_EQ(first_keys(*indexed_, *plain_)[0], "none");
}

TEST_F(QueryPlansTest, IndexRowsNamedByTextsAreRebuiltNamedByIds) {
  // The layout before the ids: rows named by ns, coll and path (one left that no document
  // has, to show it goes), and a catalog without the column.
  const std::string path = dir_.path() + "/indexed.db";
  indexed_.reset();
  ASSERT_TRUE(exec_on_file(
      path,
      "DROP TABLE field_index;"
      "CREATE TABLE field_index(ns TEXT NOT NULL, coll TEXT NOT NULL, path TEXT NOT NULL,"
      " owner TEXT NOT NULL, state INTEGER NOT NULL, rank INTEGER NOT NULL, value NOT NULL,"
      " created, key TEXT NOT NULL, doc INTEGER NOT NULL);"
      "INSERT INTO field_index VALUES ('x', 'items', 'g', 'u', 0, 1, 7, 1, 'stale', 999999);"
      "ALTER TABLE field_indexes DROP COLUMN id;"));
  indexed_ = open_store(path);
  ASSERT_TRUE(indexed_);
  // Queries read without the indexes until their builds are done, and answer alike throughout.
  plan_of(request(R"({"g": 7})", 10));
  indexed_->wait_for_builds(std::chrono::seconds(60));
  EXPECT_EQ(plan_of(request(R"({"g": 7})", 10)), "index_only");
  EXPECT_EQ(plan_of(request(R"({"n:$lt": 1000})", 10)), "index_only");
  EXPECT_EQ(count_plan_of(R"({"g:$in": [7, 8]})"), "index_count");
  // A new index gets an id of its own: its rows are told apart from the others'.
  ASSERT_TRUE(indexed_->add_index(kNs, "items", *query::parse_path("h"), IndexOrigin::kAdmin));
  indexed_->wait_for_builds(std::chrono::seconds(60));
  EXPECT_EQ(count_plan_of(R"({"h": 7})"), "index_count");
  EXPECT_EQ(count_plan_of(R"({"g": 7})"), "index_count");
}

// The plan sqlite gives a statement on a store's file: the details of EXPLAIN QUERY PLAN.
std::string query_plan(const std::string& path, std::string_view sql) {
  sqlite3* db = nullptr;
  sqlite3_stmt* stmt = nullptr;
  std::string plan;
  if (sqlite3_open(path.c_str(), &db) == SQLITE_OK &&
      sqlite3_prepare_v2(db, ("EXPLAIN QUERY PLAN " + std::string(sql)).c_str(), -1, &stmt,
                         nullptr) == SQLITE_OK) {
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      plan += reinterpret_cast<const char*>(sqlite3_column_text(stmt, 3));
    }
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return plan;
}

TEST_F(QueryPlansTest, ABuildStepReadsOnlyItsIdRange) {
  // By the scope index instead, each step would walk the whole collection for its ids.
  const std::string plan =
      query_plan(dir_.path() + "/indexed.db", SqliteProjectStore::kBuildStepRows);
  EXPECT_NE(plan.find("INTEGER PRIMARY KEY (rowid>? AND rowid<?)"), std::string::npos) << plan;
}

TEST_F(QueryPlansTest, EveryonesDocumentsAreReadInDateOrderAsOneOwnersAre) {
  // A collection its rules open to every caller: the same plans as one owner's documents.
  store::FindRequest newest = request("{}", 10);
  newest.scope = Scope::everyone();
  EXPECT_EQ(plan_of(newest), "scan");
  auto plan = indexed_->explain(kNs, newest, false);
  ASSERT_TRUE(plan);
  EXPECT_EQ((*plan)["rows_read"], 10);  // the page, from the date order of every owner's
  store::FindRequest equal = request(R"({"g": 7})", 10);
  equal.scope = Scope::everyone();
  EXPECT_EQ(plan_of(equal), "index_only");
  store::FindRequest range = request(R"({"n:$gt": 100})", 10);
  range.scope = Scope::everyone();
  EXPECT_EQ(plan_of(range), "date_walk");
}

TEST_F(QueryPlansTest, ASharedScopeReadsOnlyTheDocumentsItReaches) {
  // 30 of v's 2,000 documents list w, who owns none.
  for (auto& store : {indexed_, plain_}) {
    store::UpdateRequest share{"items", Scope::user("v"), {}};
    share.steps.push_back({M(R"({"n:$lt": 30})"), {json{{"_readers", {"w", "x"}}}, {}, {}}});
    auto shared = store->update(kNs, share);
    ASSERT_TRUE(shared) << shared.status().to_string();
    ASSERT_EQ(shared->documents.size(), 30u);
  }
  for (const char* list : {"_readers", "_writers"}) {
    ASSERT_TRUE(indexed_->add_index(
        kNs, "items", *query::parse_path(list, store::wire_parse_options()), IndexOrigin::kAdmin));
  }
  indexed_->wait_for_builds(std::chrono::seconds(60));
  store::FindRequest r = request("{}", 100);
  r.scope = Scope::shared("w", {"w", "role:user"}, {"_readers", "_writers"});
  EXPECT_EQ(plan_of(r), "index_lookup");
  auto plan = indexed_->explain(kNs, r, false);
  ASSERT_TRUE(plan);
  EXPECT_EQ((*plan)["rows_read"], 30);  // the 30 it reaches, not the 4,000 of the collection
  EXPECT_EQ((*plan)["matched"], 30);
  auto counted = indexed_->explain(kNs, r, true);
  ASSERT_TRUE(counted);
  EXPECT_EQ((*counted)["plan"], "index_lookup_count");
  EXPECT_EQ((*counted)["matched"], 30);
  r.match = M(R"({"g": 7})");  // an indexed condition drives, the scope's set filters
  EXPECT_EQ(plan_of(r), "index_lookup");
}

TEST_F(QueryPlansTest, ACountWithoutConditionsIsKept) {
  EXPECT_EQ(count_plan_of("{}"), "kept_count");
  EXPECT_EQ(plan_of(request("{}", 10)), "scan");
}

// ---- Kept counts -------------------------------------------------------------------------------

// The count of u's documents in `state`, kept, and counted by reading them (a condition on an
// unindexed field every document meets).
void expect_counts(SqliteProjectStore& store, State state, int64_t expected) {
  auto kept = store.count(kNs, {"items", Scope::user("u"), state, {}});
  auto read = store.count(kNs, {"items", Scope::user("u"), state, M(R"({"zz:$ne": 1})")});
  ASSERT_TRUE(kept && read);
  EXPECT_EQ(*kept, expected);
  EXPECT_EQ(*read, expected);
  auto everyone = store.count(kNs, {"items", Scope::everyone(), state, {}});
  auto everyone_read = store.count(kNs, {"items", Scope::everyone(), state, M(R"({"zz:$ne": 1})")});
  ASSERT_TRUE(everyone && everyone_read);
  EXPECT_EQ(*everyone, *everyone_read);
}

TEST_F(QueryPlansTest, KeptCountsFollowEveryWrite) {
  SqliteProjectStore& store = *indexed_;
  expect_counts(store, State::kActive, kDocuments);
  store::StateRequest removal{
      "items", Scope::user("u"), M(R"({"g": 3})"), State::kActive, State::kDeleted, "r1", 5000};
  ASSERT_TRUE(store.change_state(kNs, removal));
  expect_counts(store, State::kActive, kDocuments - 20);
  expect_counts(store, State::kDeleted, 20);
  ASSERT_TRUE(store.restore(kNs, {"items", Scope::user("u"), "r1"}));
  expect_counts(store, State::kActive, kDocuments);
  // A change of owner moves the document to the other scope.
  store::UpdateRequest move{"items", Scope::user("u"), {{M(R"({"g": 4})"), {}}}};
  move.steps[0].change.set = {{"_userkey", "w"}};
  ASSERT_TRUE(store.update(kNs, move));
  expect_counts(store, State::kActive, kDocuments - 20);
  ASSERT_TRUE(store.change_state(kNs, removal));
  ASSERT_TRUE(store.purge(kNs, {State::kDeleted, 6000}));
  expect_counts(store, State::kDeleted, 0);
  expect_counts(store, State::kActive, kDocuments - 40);
}

TEST_F(QueryPlansTest, AStoreFileWithoutKeptCountsGetsThemAtOpen) {
  const std::string path = dir_.path() + "/plain.db";
  plain_.reset();
  ASSERT_TRUE(exec_on_file(path,
                           "DROP TRIGGER scope_counts_insert; DROP TRIGGER scope_counts_delete;"
                           " DROP TRIGGER scope_counts_move; DROP TABLE scope_counts;"));
  auto reopened = open_store(path);
  ASSERT_TRUE(reopened);
  expect_counts(*reopened, State::kActive, kDocuments);
  ASSERT_TRUE(
      reopened->insert(kNs, store::InsertRequest{"items", {{{"_key", "new"}, {"_userkey", "u"}}}}));
  expect_counts(*reopened, State::kActive, kDocuments + 1);
}

}  // namespace
}  // namespace opbase
