// The mongodb driver (host/store/mongo/): its record layout and commands down to the BSON text,
// and its wire behaviour against a scripted mongod (tests/support/mock_mongod.py, on Debian's
// python3-mockupdb): what it sends for each request and how it reads the replies. With
// OPBASE_TEST_MONGODB_URI set, a short round trip against that server too (the full contract is
// the conformance suite's).
#include "store/mongo/mongo_driver.hpp"

#include <gtest/gtest.h>
#include <mongoc/mongoc.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "child_server.hpp"
#include "ferretdb_server.hpp"
#include "opbase/query.hpp"
#include "opbase/store.hpp"
#include "store/mongo/record.hpp"
#include "temp_dir.hpp"

namespace {

using nlohmann::json;
// Commands keep their key order (the command name first, sort keys in order).
using ojson = nlohmann::ordered_json;
using namespace opbase;
using namespace opbase::host;

query::FieldPath path(const char* text) {
  return *query::parse_path(text, store::wire_parse_options());
}

query::Match match(const json& m) {
  auto parsed = query::parse_match(m, store::wire_parse_options());
  EXPECT_TRUE(parsed.is_ok()) << parsed.status().to_string();
  return parsed.is_ok() ? *parsed : query::Match{};
}

std::vector<query::SortKey> sort(const char* text) {
  auto parsed = query::parse_sort(text, store::wire_parse_options());
  EXPECT_TRUE(parsed.is_ok()) << parsed.status().to_string();
  return parsed.is_ok() ? *parsed : std::vector<query::SortKey>{};
}

std::string text(Result<mongo::BsonDoc> doc) {
  EXPECT_TRUE(doc.is_ok()) << doc.status().to_string();
  return doc.is_ok() ? doc->to_canonical_json() : "<error>";
}

const json kLamp = {{"_key", "a"},
                    {"_userkey", "u1"},
                    {"_created_at", "2024-01-01T00:00:00Z"},
                    {"name", "Lamp"},
                    {"price", 25}};

// ---- record layout and commands ------------------------------------------------------------

TEST(MongoRecord, LayoutOfADocument) {
  EXPECT_EQ(text(mongo::make_record("collection", "items", kLamp)),
            R"({ "_id" : "a", "ns" : "collection", "collection" : "items", "owner" : "u1", )"
            R"("state" : "active", "created" : "2024-01-01T00:00:00Z", "doc" : { )"
            R"("_created_at" : "2024-01-01T00:00:00Z", "_key" : "a", "_userkey" : "u1", )"
            R"("name" : "Lamp", "price" : { "$numberLong" : "25" } } })");
  // No owner: null; a creation time that is a number is kept, one of another type is null (as
  // the sqlite driver's columns).
  EXPECT_EQ(text(mongo::make_record("n", "c",
                                    {{"_key", "b"}, {"_userkey", nullptr}, {"_created_at", 5}})),
            R"({ "_id" : "b", "ns" : "n", "collection" : "c", "owner" : null, "state" : "active", )"
            R"("created" : { "$numberLong" : "5" }, "doc" : { "_created_at" : { "$numberLong" : )"
            R"("5" }, "_key" : "b", "_userkey" : null } })");
  EXPECT_EQ(text(mongo::make_record("n", "c", {{"_key", "c"}, {"_created_at", true}})),
            R"({ "_id" : "c", "ns" : "n", "collection" : "c", "owner" : null, "state" : "active", )"
            R"("created" : null, "doc" : { "_created_at" : true, "_key" : "c" } })");
}

TEST(MongoRecord, DocumentsNeedAStringKey) {
  EXPECT_EQ(mongo::make_record("n", "c", {{"x", 1}}).status().code(), "VALIDATION_ERROR");
  EXPECT_EQ(mongo::make_record("n", "c", {{"_key", 1}}).status().code(), "VALIDATION_ERROR");
  EXPECT_EQ(mongo::make_record("n", "c", json::array()).status().code(), "VALIDATION_ERROR");
}

TEST(MongoRecord, SelectionFilter) {
  EXPECT_EQ(text(mongo::selection_filter("collection", "items", store::Scope::user("u1"),
                                         store::State::kActive,
                                         match({{"price:$gt", 5}, {"name", "Lamp"}}))),
            R"({ "ns" : "collection", "collection" : "items", "state" : "active", "owner" : "u1", )"
            R"("doc.name" : "Lamp", "doc.price" : { "$gt" : { "$numberLong" : "5" } } })");
  // Everyone: no owner condition; another state; $and keeps its prefixed paths.
  EXPECT_EQ(text(mongo::selection_filter("n", "c", store::Scope::everyone(), store::State::kDeleted,
                                         match({{"a", 1}, {"a:$gt", 0}}))),
            R"({ "ns" : "n", "collection" : "c", "state" : "deleted", "$and" : [ )"
            R"({ "doc.a" : { "$numberLong" : "1" } }, )"
            R"({ "doc.a" : { "$gt" : { "$numberLong" : "0" } } } ] })");
}

TEST(MongoRecord, ASharedScopeIsAnOrOfTheOwnerAndEachList) {
  EXPECT_EQ(text(mongo::selection_filter(
                "n", "c", store::Scope::shared("u", {"u", "role:staff"}, {"_readers", "_writers"}),
                store::State::kActive, match({{"done", false}}))),
            R"({ "ns" : "n", "collection" : "c", "state" : "active", "$or" : [ )"
            R"({ "ns" : "n", "collection" : "c", "state" : "active", "owner" : "u" }, )"
            R"({ "ns" : "n", "collection" : "c", "state" : "active", )"
            R"("doc._readers" : { "$in" : [ "u", "role:staff" ] } }, )"
            R"({ "ns" : "n", "collection" : "c", "state" : "active", )"
            R"("doc._writers" : { "$in" : [ "u", "role:staff" ] } } ], "doc.done" : false })");
  // Without `owner` in the rule: the listed documents only.
  EXPECT_EQ(text(mongo::selection_filter("n", "c",
                                         store::Scope::shared(std::nullopt, {"u"}, {"_writers"}),
                                         store::State::kActive, {})),
            R"({ "ns" : "n", "collection" : "c", "state" : "active", "$or" : [ )"
            R"({ "ns" : "n", "collection" : "c", "state" : "active", )"
            R"("doc._writers" : { "$in" : [ "u" ] } } ] })");
  EXPECT_EQ(
      mongo::list_index_command("_readers").to_relaxed_json(),
      R"({ "createIndexes" : "documents", "indexes" : [ { "key" : { "ns" : 1, )"
      R"("collection" : 1, "state" : 1, "doc._readers" : 1 }, "name" : "list__readers" } ] })");
}

TEST(MongoRecord, KeyConditionsAlsoUseTheId) {
  EXPECT_EQ(text(mongo::selection_filter("n", "c", store::Scope::user("u"), store::State::kActive,
                                         match({{"_key", "k1"}}))),
            R"({ "ns" : "n", "collection" : "c", "state" : "active", "owner" : "u", )"
            R"("_id" : "k1", "doc._key" : "k1" })");
  EXPECT_EQ(text(mongo::selection_filter("n", "c", store::Scope::user("u"), store::State::kActive,
                                         match({{"_key:$in", {"k1", "k2"}}}))),
            R"({ "ns" : "n", "collection" : "c", "state" : "active", "owner" : "u", )"
            R"("_id" : { "$in" : [ "k1", "k2" ] }, "doc._key" : { "$in" : [ "k1", "k2" ] } })");
  // A range from a string, as a plugin paging by key sends.
  EXPECT_EQ(text(mongo::selection_filter("n", "c", store::Scope::everyone(), store::State::kActive,
                                         match({{"_key:$gt", "k1"}}))),
            R"({ "ns" : "n", "collection" : "c", "state" : "active", )"
            R"("_id" : { "$gt" : "k1" }, "doc._key" : { "$gt" : "k1" } })");
  // A non-string operand never equals a _key: left to the doc._key condition alone.
  EXPECT_EQ(text(mongo::selection_filter("n", "c", store::Scope::everyone(), store::State::kActive,
                                         match({{"_key", 5}}))),
            R"({ "ns" : "n", "collection" : "c", "state" : "active", )"
            R"("doc._key" : { "$numberLong" : "5" } })");
}

TEST(MongoRecord, SortMapsSystemFieldsAndBreaksTies) {
  EXPECT_EQ(text(mongo::record_sort({})),
            R"({ "created" : { "$numberInt" : "-1" }, "_id" : { "$numberInt" : "-1" } })");
  EXPECT_EQ(text(mongo::record_sort(sort("price desc, name"))),
            R"({ "doc.price" : { "$numberInt" : "-1" }, "doc.name" : { "$numberInt" : "1" }, )"
            R"("_id" : { "$numberInt" : "1" } })");
  EXPECT_EQ(text(mongo::record_sort(sort("_userkey, _created_at desc, _key desc"))),
            R"({ "owner" : { "$numberInt" : "1" }, "created" : { "$numberInt" : "-1" }, )"
            R"("_id" : { "$numberInt" : "-1" } })");
  // A repeated key once (its first direction decides); a nested _key is a user path.
  EXPECT_EQ(text(mongo::record_sort(sort("a, a desc, b._key desc"))),
            R"({ "doc.a" : { "$numberInt" : "1" }, "doc.b._key" : { "$numberInt" : "-1" }, )"
            R"("_id" : { "$numberInt" : "-1" } })");
}

TEST(MongoRecord, FindOptionsAndKeys) {
  mongo::BsonDoc sort_doc;
  BSON_APPEND_INT32(sort_doc.get(), "_id", 1);
  EXPECT_EQ(
      mongo::find_options(sort_doc.get(), 5, 10).to_canonical_json(),
      R"({ "projection" : { "doc" : { "$numberInt" : "1" }, "_id" : { "$numberInt" : "0" } }, )"
      R"("sort" : { "_id" : { "$numberInt" : "1" } }, "skip" : { "$numberLong" : "5" }, )"
      R"("limit" : { "$numberLong" : "10" } })");
  EXPECT_EQ(
      mongo::find_options(sort_doc.get(), 0, -1).to_canonical_json(),
      R"({ "projection" : { "doc" : { "$numberInt" : "1" }, "_id" : { "$numberInt" : "0" } }, )"
      R"("sort" : { "_id" : { "$numberInt" : "1" } } })");
  mongo::BsonDoc filter;
  BSON_APPEND_UTF8(filter.get(), "ns", "n");
  EXPECT_EQ(mongo::with_keys(filter.get(), {"a", "b"}).to_canonical_json(),
            R"({ "$and" : [ { "ns" : "n" }, { "_id" : { "$in" : [ "a", "b" ] } } ] })");
}

TEST(MongoRecord, IndexCommand) {
  const std::vector<IndexSpec> specs = {{"collection", "items", path("price")},
                                        {"collection", "other", path("price")},
                                        {"collection", "items", path("address.city")}};
  EXPECT_EQ(
      mongo::index_command(specs).to_relaxed_json(),
      R"({ "createIndexes" : "documents", "indexes" : [ )"
      R"({ "key" : { "ns" : 1, "collection" : 1, "owner" : 1, "state" : 1, "created" : 1, )"
      R"("_id" : 1 }, "name" : "scope_created" }, )"
      R"({ "key" : { "ns" : 1, "collection" : 1, "state" : 1, "created" : 1, "_id" : 1 }, )"
      R"("name" : "any_created" }, )"
      R"({ "key" : { "ref" : 1 }, "name" : "ref", "sparse" : true }, )"
      R"({ "key" : { "ns" : 1, "state" : 1, "state_ms" : 1 }, "name" : "purge" }, )"
      R"({ "key" : { "ns" : 1, "collection" : 1, "owner" : 1, "state" : 1, "doc.price" : 1 }, )"
      R"("name" : "field_price" }, )"
      R"({ "key" : { "ns" : 1, "collection" : 1, "owner" : 1, "state" : 1, )"
      R"("doc.address.city" : 1 }, "name" : "field_address.city" } ] })");
  const std::string long_name = mongo::index_name(path(std::string(100, 'x').c_str()));
  EXPECT_LE(long_name.size(), 64u);
  EXPECT_EQ(long_name, mongo::index_name(path(std::string(100, 'x').c_str())));  // stable
}

TEST(MongoDriverSetup, BadUriFailsWithoutThePassword) {
  MongoDriver driver(MongoOptions{"mongodb://user:s3cret@:bad:port/", "t_", {}, {}});
  auto store = driver.open("p");
  ASSERT_FALSE(store.is_ok());
  EXPECT_EQ(store.status().code(), "INTERNAL_ERROR");
  EXPECT_EQ(store.status().message().find("s3cret"), std::string::npos) << store.status().message();
  EXPECT_EQ(driver.name(), "mongodb");
}

TEST(MongoDriverSetup, ProjectIdMustNameADatabase) {
  MongoDriver driver(
      MongoOptions{"mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=100", "t_", {}, {}});
  EXPECT_EQ(driver.open("a/b").status().code(), "VALIDATION_ERROR");
  EXPECT_EQ(driver.open("a.b").status().code(), "VALIDATION_ERROR");
  EXPECT_EQ(driver.open("").status().code(), "VALIDATION_ERROR");
  // Nobody listens on port 1: INTERNAL_ERROR, after the (short) server selection time-out.
  EXPECT_EQ(driver.open("p").status().code(), "INTERNAL_ERROR");
}

// ---- wire behaviour against the scripted mongod --------------------------------------------

// tests/support/mock_mongod.py in a child process, with its replies file and command log in a
// fresh temporary directory. Stops it (closing its stdin; SIGKILL after 10 s) on destruction.
class MockMongod {
 public:
  explicit MockMongod(const json& replies) {
    if (dir_.path().empty()) return;
    std::ofstream(dir_.path() + "/replies.json") << replies.dump();
    const std::string script =
        std::string(OPBASE_TEST_SOURCE_DIR) + "/tests/support/mock_mongod.py";
    server_ = std::make_unique<test::ChildServer>(std::vector<std::string>{
        test::kSystemPython, script, "--replies", dir_.path() + "/replies.json", "--log",
        dir_.path() + "/commands.log", "--lifetime", "120"});
  }

  int port() const { return server_ ? server_->port() : 0; }
  std::string uri() const {
    return "mongodb://127.0.0.1:" + std::to_string(port()) +
           "/?serverSelectionTimeoutMS=5000&connectTimeoutMS=5000&socketTimeoutMS=10000";
  }

  // The commands logged so far (handshake and monitoring excluded), optionally of one name.
  std::vector<ojson> commands(const std::string& name = "") const {
    std::ifstream log(dir_.path() + "/commands.log");
    std::vector<ojson> out;
    for (std::string line; std::getline(log, line);) {
      ojson command = ojson::parse(line, nullptr, false);
      if (command.is_discarded() || command.empty()) continue;
      if (name.empty() || command.begin().key() == name) out.push_back(std::move(command));
    }
    return out;
  }

 private:
  test::TempDir dir_{"opbase-mongo-test"};
  std::unique_ptr<test::ChildServer> server_;  // after dir_: stops before the folder goes
};

json cursor(const json& batch) { return {{"cursor", {{"firstBatch", batch}}}, {"ok", 1}}; }
json records(const std::vector<json>& docs) {
  json batch = json::array();
  for (const auto& doc : docs) batch.push_back({{"doc", doc}});
  return batch;
}
json count_reply(int n) { return cursor(json::array({{{"_id", 1}, {"n", n}}})); }
// Canonical extended JSON of a long, as mockupdb logs libmongoc's int64 values.
ojson i64(int64_t v) { return {{"$numberLong", std::to_string(v)}}; }
ojson i32(int v) { return {{"$numberInt", std::to_string(v)}}; }

// A driver opened on project "p1" of a scripted mongod; skips when the mock cannot start.
class MongoWire : public ::testing::Test {
 protected:
  // Automatic indexes are off unless a test gives a policy: they add commands of their own.
  void start(const json& replies, std::vector<IndexSpec> indexes = {},
             AutoIndexPolicy policy = AutoIndexPolicy{false}) {
    mock_ = std::make_unique<MockMongod>(replies);
    if (mock_->port() <= 0) GTEST_SKIP() << "the scripted mongod (python3-mockupdb) did not start";
    driver_ =
        std::make_unique<MongoDriver>(MongoOptions{mock_->uri(), "t_", std::move(indexes), policy});
    auto opened = driver_->open("p1");
    ASSERT_TRUE(opened.is_ok()) << opened.status().to_string();
    store_ = *opened;
  }
  void TearDown() override {
    store_.reset();
    driver_.reset();
    mock_.reset();
  }

  // The only command of `name` logged so far.
  ojson the(const std::string& name) {
    auto found = mock_->commands(name);
    EXPECT_EQ(found.size(), 1u) << name;
    return found.empty() ? ojson::object() : found.back();
  }

  std::unique_ptr<MockMongod> mock_;
  std::unique_ptr<MongoDriver> driver_;
  std::shared_ptr<ProjectStore> store_;
};

TEST_F(MongoWire, OpenCreatesTheIndexes) {
  start(json::object(), {{"collection", "items", path("price")}});
  if (!store_) return;
  ojson command = the("createIndexes");
  EXPECT_EQ(command["createIndexes"], "documents");
  EXPECT_EQ(command["$db"], "t_p1");
  std::vector<std::string> names;
  for (const auto& index : command["indexes"]) names.push_back(index["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"scope_created", "any_created", "ref", "purge",
                                             "field_price"}));
  EXPECT_EQ(command["indexes"][4]["key"].dump(),
            ojson::parse(R"({"ns": {"$numberInt": "1"}, "collection": {"$numberInt": "1"},
                            "owner": {"$numberInt": "1"}, "state": {"$numberInt": "1"},
                            "doc.price": {"$numberInt": "1"}})")
                .dump());
}

TEST_F(MongoWire, InsertSendsRecordsAndMarksTheCollection) {
  start(json::object());
  if (!store_) return;
  json second = {{"_key", "b"}, {"_userkey", "u1"}, {"tags", {"x"}}};
  ASSERT_TRUE(store_->insert("collection", {"items", {kLamp, second}}).is_ok());
  ojson insert = the("insert");
  EXPECT_EQ(insert["insert"], "documents");
  EXPECT_EQ(insert["$db"], "t_p1");
  EXPECT_EQ(insert["ordered"], true);
  ASSERT_EQ(insert["documents"].size(), 2u);
  ojson record = insert["documents"][0];
  EXPECT_EQ(record["_id"], "a");
  EXPECT_EQ(record["ns"], "collection");
  EXPECT_EQ(record["collection"], "items");
  EXPECT_EQ(record["owner"], "u1");
  EXPECT_EQ(record["state"], "active");
  EXPECT_EQ(record["created"], "2024-01-01T00:00:00Z");
  EXPECT_EQ(record["doc"]["price"], i64(25));
  EXPECT_EQ(record["doc"]["_key"], "a");
  EXPECT_EQ(insert["documents"][1]["created"], nullptr);
  // Then the collection is recorded as existing.
  ojson update = the("update");
  EXPECT_EQ(update["update"], "collections");
  ASSERT_EQ(update["updates"].size(), 1u);
  EXPECT_EQ(update["updates"][0]["q"], (ojson{{"_id", "collection/items"}}));
  EXPECT_EQ(update["updates"][0]["upsert"], true);
  EXPECT_EQ(update["updates"][0]["u"]["$set"]["name"], "items");
}

TEST_F(MongoWire, DuplicateKeyRemovesWhatTheCallInserted) {
  ojson duplicate = {
      {"ok", 1},
      {"n", 1},
      {"writeErrors", {{{"index", 1}, {"code", 11000}, {"errmsg", "E11000 duplicate key error"}}}}};
  start({{"insert", {duplicate}}});
  if (!store_) return;
  json second = {{"_key", "taken"}};
  const Status status = store_->insert("collection", {"items", {kLamp, second}});
  EXPECT_EQ(status.code(), store::kDuplicateKey);
  EXPECT_EQ(status.details(), (json{{"_key", "taken"}}));
  ojson removal = the("delete");
  EXPECT_EQ(removal["delete"], "documents");
  EXPECT_EQ(removal["deletes"][0]["q"].dump(),
            ojson::parse(R"({"$and": [{}, {"_id": {"$in": ["a"]}}]})").dump());
  EXPECT_TRUE(mock_->commands("update").empty());  // not marked: nothing was inserted
}

// A value the server refuses (code 2, BadValue) is the request's fault, and what the call
// inserted before it goes again.
TEST_F(MongoWire, AValueTheServerRefusesIsAValidationError) {
  ojson refused = {{"ok", 1},
                   {"n", 1},
                   {"writeErrors", {{{"index", 1}, {"code", 2}, {"errmsg", "invalid value"}}}}};
  start({{"insert", {refused}}});
  if (!store_) return;
  const Status status = store_->insert("collection", {"items", {kLamp, {{"_key", "bad"}}}});
  EXPECT_EQ(status.code(), "VALIDATION_ERROR") << status.to_string();
  EXPECT_NE(status.message().find("invalid value"), std::string::npos) << status.message();
  EXPECT_EQ(the("delete")["deletes"][0]["q"].dump(),
            ojson::parse(R"({"$and": [{}, {"_id": {"$in": ["a"]}}]})").dump());
}

TEST_F(MongoWire, FindSendsFilterSortAndPaging) {
  json first = kLamp;
  json second = {{"_key", "b"}, {"price", 9.5}, {"nested", {{"z", nullptr}, {"a", {1, 2}}}}};
  start({{"find", {cursor(records({first, second}))}}, {"aggregate", {count_reply(7)}}});
  if (!store_) return;
  store::FindRequest request{"items",
                             store::Scope::user("u1"),
                             store::State::kActive,
                             match({{"price:$gte", 5}}),
                             sort("price desc"),
                             5,
                             2,
                             true};
  auto answer = store_->find_documents("collection", request);
  ASSERT_TRUE(answer.is_ok()) << answer.status().to_string();
  ASSERT_EQ(answer->documents.size(), 2u);
  EXPECT_EQ(answer->documents[0].dump(), first.dump());
  EXPECT_EQ(answer->documents[1].dump(), second.dump());
  EXPECT_EQ(answer->total, 7);

  ojson find = the("find");
  EXPECT_EQ(find["find"], "documents");
  EXPECT_EQ(find["filter"].dump(),
            ojson::parse(R"({"ns": "collection", "collection": "items", "state": "active",
                            "owner": "u1", "doc.price": {"$gte": {"$numberLong": "5"}}})")
                .dump());
  EXPECT_EQ(find["sort"].dump(), (ojson{{"doc.price", i32(-1)}, {"_id", i32(-1)}}).dump());
  EXPECT_EQ(find["projection"].dump(), (ojson{{"doc", i32(1)}, {"_id", i32(0)}}).dump());
  EXPECT_EQ(find["skip"], i64(5));
  EXPECT_EQ(find["limit"], i64(2));
  // The total counts with the same filter.
  ojson aggregate = the("aggregate");
  EXPECT_EQ(aggregate["pipeline"][0]["$match"].dump(), find["filter"].dump());
}

TEST_F(MongoWire, FindDefaultsAndLimitZero) {
  start({{"aggregate", {count_reply(3)}}});
  if (!store_) return;
  store::FindRequest request{
      "items", store::Scope::everyone(), store::State::kArchived, {}, {}, 0, -1, false};
  ASSERT_TRUE(store_->find_documents("collection", request).is_ok());
  ojson find = the("find");
  EXPECT_EQ(
      find["filter"].dump(),
      ojson::parse(R"({"ns": "collection", "collection": "items", "state": "archived"})").dump());
  EXPECT_EQ(find["sort"].dump(), (ojson{{"created", i32(-1)}, {"_id", i32(-1)}}).dump());
  EXPECT_FALSE(find.contains("skip"));
  EXPECT_FALSE(find.contains("limit"));
  // limit 0 is "nothing" (MongoDB reads it as "no limit"): only the total is asked for.
  request.limit = 0;
  request.with_total = true;
  auto answer = store_->find_documents("collection", request);
  ASSERT_TRUE(answer.is_ok()) << answer.status().to_string();
  EXPECT_TRUE(answer->documents.empty());
  EXPECT_EQ(answer->total, 3);
  EXPECT_EQ(mock_->commands("find").size(), 1u);
}

TEST_F(MongoWire, CountAggregatesWithTheFilter) {
  start({{"aggregate", {count_reply(4)}}});
  if (!store_) return;
  auto n = store_->count("collection", {"items", store::Scope::user("u2"), store::State::kDeleted,
                                        match({{"tags", "x"}})});
  ASSERT_TRUE(n.is_ok()) << n.status().to_string();
  EXPECT_EQ(*n, 4);
  ojson aggregate = the("aggregate");
  EXPECT_EQ(aggregate["aggregate"], "documents");
  EXPECT_EQ(aggregate["pipeline"][0]["$match"].dump(),
            ojson::parse(R"({"ns": "collection", "collection": "items", "state": "deleted",
                            "owner": "u2", "doc.tags": "x"})")
                .dump());
}

// The automatic index policy on MongoDB (docs/query.md#automatic-indexes): the scope's size
// stands for the documents an unindexed query reads; at the third costly count on a field, an
// index "auto_<field>" is created off the request thread; unused, it is dropped.
// The indexes a database has already are not asked for again (FerretDB fails on that).
TEST_F(MongoWire, OpeningCreatesOnlyTheIndexesTheDatabaseLacks) {
  start({{"listIndexes",
          {cursor(
              json::array({{{"name", "_id_"}}, {{"name", "scope_created"}}, {{"name", "ref"}}}))}}},
        {{"collection", "items", path("price")}});
  if (!store_) return;
  const auto created = mock_->commands("createIndexes");
  ASSERT_EQ(created.size(), 1u);
  std::vector<std::string> names;
  for (const ojson& index : created[0]["indexes"]) names.push_back(index["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"any_created", "purge", "field_price"}));
}

TEST_F(MongoWire, OpeningAStoreThatHasEveryIndexCreatesNone) {
  start({{"listIndexes",
          {cursor(json::array({{{"name", "_id_"}},
                               {{"name", "scope_created"}},
                               {{"name", "any_created"}},
                               {{"name", "ref"}},
                               {{"name", "purge"}},
                               {{"name", "field_price"}}}))}}},
        {{"collection", "items", path("price")}});
  if (!store_) return;
  EXPECT_EQ(mock_->commands("createIndexes").size(), 0u);
}

TEST_F(MongoWire, CostlyQueriesCreateAnAutomaticIndexAndUnusedOnesAreDropped) {
  AutoIndexPolicy policy;
  policy.drop_unused_after_s = 2;
  // listIndexes at open (once for the indexes to create, once for the automatic ones) finds an
  // automatic index of an earlier run; the scope holds 5,000.
  const json listed =
      cursor(json::array({{{"name", "_id_"}}, {{"name", "auto_old"}}, {{"name", "x"}}}));
  start({{"listIndexes", {listed, listed}},
         {"aggregate", {count_reply(1), count_reply(5000), count_reply(1), count_reply(1)}}},
        {{"collection", "items", path("price")}}, policy);
  if (!store_) return;
  const store::CountRequest on_g{"items", store::Scope::user("u2"), store::State::kActive,
                                 match({{"g", 3}, {"price:$gt", 10}})};
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(store_->count("collection", on_g).is_ok());
  // Three counts, and one count of the scope (kept for a minute); none for the declared price.
  EXPECT_EQ(mock_->commands("aggregate").size(), 4u);
  std::vector<ojson> created;
  for (int i = 0; i < 100 && created.size() < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    created = mock_->commands("createIndexes");
  }
  ASSERT_EQ(created.size(), 2u);  // the declared ones at open, then the automatic one
  const ojson& automatic = created.back()["indexes"].back();
  EXPECT_EQ(automatic["name"], "auto_g");
  EXPECT_EQ(automatic["key"].dump(),
            ojson::parse(R"({"ns": {"$numberInt": "1"}, "collection": {"$numberInt": "1"},
                            "owner": {"$numberInt": "1"}, "state": {"$numberInt": "1"},
                            "doc.g": {"$numberInt": "1"}})")
                .dump());

  // Queries on g use the index now: no further scope count. Unused for 2 s, both automatic
  // indexes go, the one found at open first.
  ASSERT_TRUE(store_->count("collection", on_g).is_ok());
  EXPECT_EQ(mock_->commands("aggregate").size(), 5u);
  std::vector<ojson> dropped;
  for (int i = 0; i < 200 && dropped.size() < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    dropped = mock_->commands("dropIndexes");
  }
  ASSERT_EQ(dropped.size(), 2u);
  std::set<std::string> names;
  for (const ojson& command : dropped) {
    EXPECT_EQ(command["dropIndexes"], "documents");
    names.insert(command["index"].get<std::string>());
  }
  EXPECT_EQ(names, (std::set<std::string>{"auto_g", "auto_old"}));
}

// The admin side on MongoDB: an administrator's index is built before add answers, listed
// beside the declared ones for every collection, and dropped by name; a declared one is not.
// explain reads MongoDB's own explain.
TEST_F(MongoWire, AdministratorsAddListAndDropIndexes) {
  const json index_plan = {
      {"queryPlanner",
       {{"winningPlan",
         {{"stage", "FETCH"}, {"inputStage", {{"stage", "IXSCAN"}, {"indexName", "auto_g"}}}}}}},
      {"executionStats", {{"nReturned", 7}, {"totalDocsExamined", 7}, {"executionTimeMillis", 3}}},
      {"ok", 1}};
  const json scan_plan = {
      {"queryPlanner",
       {{"winningPlan", {{"stage", "COUNT"}, {"inputStage", {{"stage", "COLLSCAN"}}}}}}},
      {"executionStats", {{"totalDocsExamined", 5000}, {"executionTimeMillis", 12}}},
      {"ok", 1}};
  const json indexes = cursor(json::array({{{"name", "_id_"}}, {{"name", "admin_old.x"}}}));
  start({{"listIndexes", {indexes, indexes}},
         {"explain", {index_plan, scan_plan}},
         {"aggregate", {count_reply(40)}}},
        {{"collection", "items", path("price")}});
  if (!store_) return;
  auto listed = store_->indexes("collection", "items");
  ASSERT_TRUE(listed.is_ok()) << listed.status().to_string();
  std::vector<std::string> fields;
  for (const json& index : (*listed)["indexes"]) {
    fields.push_back(index["field"].get<std::string>() + ":" + index["origin"].get<std::string>());
  }
  EXPECT_EQ(fields, (std::vector<std::string>{"price:declared", "old.x:admin"}));

  auto added = store_->add_index("collection", "items", path("size"));
  ASSERT_TRUE(added.is_ok()) << added.status().to_string();
  EXPECT_EQ((*added)["field"], "size");
  EXPECT_EQ((*added)["origin"], "admin");
  const auto created = mock_->commands("createIndexes");
  ASSERT_EQ(created.size(), 2u);
  EXPECT_EQ(created.back()["indexes"].back()["name"], "admin_size");
  // Again: the index it has.
  ASSERT_TRUE(store_->add_index("collection", "items", path("size")).is_ok());
  EXPECT_EQ(mock_->commands("createIndexes").size(), 2u);

  EXPECT_TRUE(store_->drop_index("collection", "items", "old.x").is_ok());
  ASSERT_EQ(mock_->commands("dropIndexes").size(), 1u);
  EXPECT_EQ(mock_->commands("dropIndexes")[0]["index"], "admin_old.x");
  EXPECT_EQ(store_->drop_index("collection", "items", "old.x").code(), "VALIDATION_ERROR");
  EXPECT_EQ(store_->drop_index("collection", "items", "price").code(), "VALIDATION_ERROR");
  EXPECT_EQ(mock_->commands("dropIndexes").size(), 1u);

  // explain: MongoDB's explain of the whole match, read in collection.explain's terms.
  store::FindRequest request{
      "items", store::Scope::user("u1"), store::State::kActive, match({{"g", 3}}), {}};
  auto plan = store_->explain("collection", request, false);
  ASSERT_TRUE(plan.is_ok()) << plan.status().to_string();
  EXPECT_EQ(*plan, (json{{"plan", "index_lookup"},
                         {"index", "g"},
                         {"rows_read", 7},
                         {"matched", 7},
                         {"time_ms", 3.0}}));
  ojson sent = mock_->commands("explain").front();
  EXPECT_EQ(sent["explain"]["find"], "documents");
  EXPECT_EQ(sent["explain"]["filter"]["doc.g"], i64(3));
  EXPECT_EQ(sent["verbosity"], "executionStats");
  plan = store_->explain("collection", request, true);
  ASSERT_TRUE(plan.is_ok()) << plan.status().to_string();
  EXPECT_EQ((*plan)["plan"], "scan");
  EXPECT_TRUE((*plan)["index"].is_null());
  EXPECT_EQ((*plan)["rows_read"], 5000);
  EXPECT_EQ((*plan)["matched"], 40);
  EXPECT_EQ(mock_->commands("explain").back()["explain"]["count"], "documents");
}

TEST_F(MongoWire, UpdateFindsAppliesAndReplacesWholeDocuments) {
  start({{"find", {cursor(records({kLamp}))}},
         {"update", {{{"ok", 1}, {"n", 1}, {"nModified", 1}}}}});
  if (!store_) return;
  store::Change change;
  change.set = {{"address", {{"city", "Oslo"}}}};
  change.inc = {{"price", 5}};
  store::UpdateRequest request{
      "items", store::Scope::user("u1"), {{match({{"name", "Lamp"}}), change}}};
  auto answer = store_->update("collection", request);
  ASSERT_TRUE(answer.is_ok()) << answer.status().to_string();
  json expected = kLamp;
  expected["price"] = 30;
  expected["address"] = {{"city", "Oslo"}};
  ASSERT_EQ(answer->documents.size(), 1u);
  EXPECT_EQ(answer->documents[0].dump(), expected.dump());

  ojson find = the("find");
  EXPECT_EQ(find["filter"]["doc.name"], "Lamp");
  EXPECT_EQ(find["filter"]["owner"], "u1");
  ojson update = the("update");
  EXPECT_EQ(update["update"], "documents");
  ASSERT_EQ(update["updates"].size(), 1u);
  ojson one = update["updates"][0];
  // Only while the record still holds the document as read (another writer's change in between
  // makes it match nothing).
  EXPECT_EQ(one["q"].dump(), ojson::parse(R"({"_id": "a", "ns": "collection", "collection": "items",
                             "state": "active", "doc": {"_created_at": "2024-01-01T00:00:00Z",
                             "_key": "a", "_userkey": "u1", "name": "Lamp",
                             "price": {"$numberLong": "25"}}})")
                                 .dump());
  EXPECT_FALSE(one.value("multi", false));
  // The whole record, its document in key order (no $set of a nested path).
  EXPECT_EQ(one["u"]["_id"], "a");
  EXPECT_EQ(one["u"]["state"], "active");
  EXPECT_EQ(one["u"]["doc"].dump(),
            ojson::parse(R"({"_created_at": "2024-01-01T00:00:00Z", "_key": "a", "_userkey": "u1",
                            "address": {"city": "Oslo"}, "name": "Lamp",
                            "price": {"$numberLong": "30"}})")
                .dump());
}

TEST_F(MongoWire, UpdateStepsSeeEarlierStepsAndWriteOnce) {
  json other = {
      {"_key", "b"}, {"_userkey", "u1"}, {"_created_at", "2023-01-01T00:00:00Z"}, {"price", 50}};
  // Step 1 selects a; step 2's server answer is b only (a's new price is not written yet), so
  // the driver judges a itself: price 30 > 25 holds.
  const json written = {{"ok", 1}, {"n", 1}, {"nModified", 1}};
  start({{"find", {cursor(records({kLamp})), cursor(records({other}))}},
         {"update", {written, written}}});
  if (!store_) return;
  store::Change first;
  first.inc = {{"price", 5}};
  store::Change second;
  second.set = {{"seen", true}};
  store::UpdateRequest request{
      "items",
      store::Scope::user("u1"),
      {{match({{"_key", "a"}}), first}, {match({{"price:$gt", 25}}), second}}};
  auto answer = store_->update("collection", request);
  ASSERT_TRUE(answer.is_ok()) << answer.status().to_string();
  ASSERT_EQ(answer->documents.size(), 3u);
  EXPECT_EQ(answer->documents[0]["price"], 30);
  EXPECT_EQ(answer->documents[1]["_key"], "a");  // a step's documents in _key order
  EXPECT_EQ(answer->documents[1]["seen"], true);
  EXPECT_EQ(answer->documents[2]["_key"], "b");
  // Written once each, after every step was computed, in _key order.
  const auto updates = mock_->commands("update");
  ASSERT_EQ(updates.size(), 2u);
  EXPECT_EQ(updates[0]["updates"][0]["u"]["doc"]["price"], i64(30));
  EXPECT_EQ(updates[0]["updates"][0]["u"]["doc"]["seen"], true);
  EXPECT_EQ(updates[1]["updates"][0]["q"]["_id"], "b");
  // Step 1 addressed its key on the unique index too.
  EXPECT_EQ(mock_->commands("find")[0]["filter"]["_id"], "a");
}

// Two daemons read a message free and both set their lease: the second write finds the record
// changed, reads it again, and no step selects it any more (the lease is taken).
TEST_F(MongoWire, UpdateOfADocumentChangedMeanwhileReadsItAgain) {
  json free = {{"_key", "m"}, {"_userkey", nullptr}, {"lease", 0}};
  json taken = free;
  taken["lease"] = 500;
  start({{"find", {cursor(records({free})), cursor(records({taken}))}},
         {"update", {{{"ok", 1}, {"n", 0}, {"nModified", 0}}}}});
  if (!store_) return;
  store::Change lease;
  lease.set = {{"lease", 900}};
  store::UpdateRequest request{
      "messages", store::Scope::everyone(), {{match({{"_key", "m"}, {"lease", 0}}), lease}}};
  auto answer = store_->update("webhooks", request);
  ASSERT_TRUE(answer.is_ok()) << answer.status().to_string();
  EXPECT_TRUE(answer->documents.empty()) << "the other daemon won the lease";
  ASSERT_EQ(mock_->commands("update").size(), 1u) << "nothing written over its change";
  EXPECT_EQ(mock_->commands("find")[1]["filter"]["_id"], "m");
}

// The same race where the document still matches after the other writer's change: the change
// is applied to the document as it is now, not as it was read.
TEST_F(MongoWire, UpdateOfADocumentChangedMeanwhileAppliesTheChangeAnew) {
  json before = {{"_key", "c"}, {"_userkey", nullptr}, {"n", 1}};
  json now = before;
  now["n"] = 5;
  start({{"find", {cursor(records({before})), cursor(records({now}))}},
         {"update", {{{"ok", 1}, {"n", 0}, {"nModified", 0}}, {{"ok", 1}, {"n", 1}}}}});
  if (!store_) return;
  store::Change add;
  add.inc = {{"n", 1}};
  auto answer = store_->update(
      "webhooks", {"counters", store::Scope::everyone(), {{match({{"_key", "c"}}), add}}});
  ASSERT_TRUE(answer.is_ok()) << answer.status().to_string();
  ASSERT_EQ(answer->documents.size(), 1u);
  EXPECT_EQ(answer->documents[0]["n"], 6) << "5 + 1: the other writer's increment is kept";
  const auto updates = mock_->commands("update");
  ASSERT_EQ(updates.size(), 2u);
  EXPECT_EQ(updates[1]["updates"][0]["q"]["doc"]["n"], i64(5));
  EXPECT_EQ(updates[1]["updates"][0]["u"]["doc"]["n"], i64(6));
}

TEST_F(MongoWire, UpdateThatFailsValidationWritesNothing) {
  start({{"find", {cursor(records({kLamp}))}}});
  if (!store_) return;
  store::Change change;
  change.inc = {{"name", 1}};  // not a number
  auto answer = store_->update("collection", {"items", store::Scope::user("u1"), {{{}, change}}});
  EXPECT_EQ(answer.status().code(), "VALIDATION_ERROR");
  EXPECT_TRUE(mock_->commands("update").empty());
}

TEST_F(MongoWire, UpsertInsertsWhenNothingMatches) {
  start(json::object());
  if (!store_) return;
  json insert = {{"_key", "n1"}, {"_userkey", "u1"}, {"name", "New"}};
  auto answer = store_->upsert(
      "collection", {"items", store::Scope::user("u1"), match({{"name", "New"}}), {}, insert});
  ASSERT_TRUE(answer.is_ok()) << answer.status().to_string();
  EXPECT_TRUE(answer->inserted);
  EXPECT_EQ(answer->document, insert);
  ojson find = the("find");
  EXPECT_EQ(find["limit"], i64(1));
  EXPECT_EQ(find["sort"].dump(), (ojson{{"created", i32(-1)}, {"_id", i32(-1)}}).dump());
  EXPECT_EQ(the("insert")["documents"][0]["_id"], "n1");
}

TEST_F(MongoWire, ChangeStateTagsTheSelectedKeys) {
  start({{"find", {cursor(json::array({{{"_id", "b"}}, {{"_id", "a"}}}))}},
         {"update", {{{"ok", 1}, {"n", 2}, {"nModified", 2}}}}});
  if (!store_) return;
  store::StateRequest request{"items",
                              store::Scope::user("u1"),
                              match({{"price:$lt", 10}}),
                              store::State::kActive,
                              store::State::kDeleted,
                              "ref-1",
                              1234};
  auto answer = store_->change_state("collection", request);
  ASSERT_TRUE(answer.is_ok()) << answer.status().to_string();
  EXPECT_EQ(answer->keys, (std::vector<std::string>{"a", "b"}));
  ojson find = the("find");
  EXPECT_EQ(find["projection"].dump(), (ojson{{"_id", i32(1)}}).dump());
  ojson one = the("update")["updates"][0];
  EXPECT_EQ(one["multi"], true);
  EXPECT_EQ(one["q"]["$and"][1].dump(), ojson::parse(R"({"_id": {"$in": ["b", "a"]}})").dump());
  EXPECT_EQ(one["u"].dump(), ojson::parse(R"({"$set": {"state": "deleted", "ref": "ref-1",
                                              "state_ms": {"$numberLong": "1234"}}})")
                                 .dump());
}

TEST_F(MongoWire, RestorePurgeExistsAndPing) {
  start({{"find", {cursor(json::array({{{"_id", "a"}}}))}},
         {"delete", {{{"ok", 1}, {"n", 4}}}},
         {"aggregate", {count_reply(1)}}});
  if (!store_) return;
  auto restored = store_->restore("collection", {"items", store::Scope::user("u1"), "ref-1"});
  ASSERT_TRUE(restored.is_ok()) << restored.status().to_string();
  EXPECT_EQ(restored->keys, (std::vector<std::string>{"a"}));
  EXPECT_EQ(the("find")["filter"].dump(),
            ojson::parse(R"({"ns": "collection", "collection": "items", "owner": "u1",
                            "ref": "ref-1", "state": {"$ne": "active"}})")
                .dump());
  EXPECT_EQ(the("update")["updates"][0]["u"].dump(),
            ojson::parse(R"({"$set": {"state": "active"}, "$unset": {"ref": "", "state_ms": ""}})")
                .dump());

  auto purged = store_->purge("collection", {store::State::kDeleted, 1000});
  ASSERT_TRUE(purged.is_ok()) << purged.status().to_string();
  EXPECT_EQ(*purged, 4);
  EXPECT_EQ(the("delete")["deletes"][0]["q"].dump(),
            ojson::parse(R"({"ns": "collection", "state": "deleted",
                            "state_ms": {"$lt": {"$numberLong": "1000"}}})")
                .dump());

  auto exists = store_->collection_exists("collection", "items");
  ASSERT_TRUE(exists.is_ok()) << exists.status().to_string();
  EXPECT_TRUE(*exists);
  ojson aggregate = the("aggregate");
  EXPECT_EQ(aggregate["aggregate"], "collections");
  EXPECT_EQ(aggregate["pipeline"][0]["$match"], (ojson{{"_id", "collection/items"}}));

  EXPECT_TRUE(store_->ping().is_ok());
  EXPECT_EQ(the("ping")["$db"], "admin");
}

TEST_F(MongoWire, CollectionsAreReadFromTheMarkersOfTheNamespaceByName) {
  start({{"find",
          {cursor(json::array(
              {{{"_id", "collection/alpha"}, {"ns", "collection"}, {"name", "alpha"}},
               {{"_id", "collection/zeta"}, {"ns", "collection"}, {"name", "zeta"}}}))}}});
  if (!store_) return;
  auto names = store_->collections("collection");
  ASSERT_TRUE(names.is_ok()) << names.status().to_string();
  EXPECT_EQ(*names, (std::vector<std::string>{"alpha", "zeta"}));
  ojson find = the("find");
  EXPECT_EQ(find["find"], "collections");
  EXPECT_EQ(find["filter"], (ojson{{"ns", "collection"}}));
  EXPECT_EQ(find["sort"], (ojson{{"_id", {{"$numberInt", "1"}}}}));
}

TEST_F(MongoWire, ServerErrorsAreInternalErrors) {
  start({{"find", {{{"ok", 0}, {"errmsg", "boom"}, {"code", 2}}}},
         {"aggregate", {{{"ok", 0}, {"errmsg", "count failed"}, {"code", 2}}}}});
  if (!store_) return;
  auto found = store_->find_documents(
      "collection",
      {"items", store::Scope::user("u1"), store::State::kActive, {}, {}, 0, 100, false});
  EXPECT_EQ(found.status().code(), "INTERNAL_ERROR");
  EXPECT_NE(found.status().message().find("boom"), std::string::npos) << found.status().message();
  auto n =
      store_->count("collection", {"items", store::Scope::user("u1"), store::State::kActive, {}});
  EXPECT_EQ(n.status().code(), "INTERNAL_ERROR");
}

// ---- a real server: the one named, or FerretDB ---------------------------------------------

void drop_database(const char* uri, const std::string& name) {
  mongoc_client_t* client = mongoc_client_new(uri);
  if (client == nullptr) return;
  mongoc_database_t* database = mongoc_client_get_database(client, name.c_str());
  EXPECT_TRUE(mongoc_database_drop(database, nullptr));
  mongoc_database_destroy(database);
  mongoc_client_destroy(client);
}

TEST(MongoServer, RoundTrip) {
  const test::MongoTestServer& server = test::mongo_test_server();
  ASSERT_EQ(server.problem, "") << "no MongoDB-compatible server to test against";
  const char* uri = server.uri.c_str();
  std::random_device random;
  const std::string prefix = "opbase_test_" + std::to_string(random() % 1000000) + "_";
  MongoDriver driver(MongoOptions{uri, prefix, {{"collection", "items", path("price")}}, {}});
  auto opened = driver.open("p");
  ASSERT_TRUE(opened.is_ok()) << opened.status().to_string();
  auto store = *opened;
  ASSERT_TRUE(store->ping().is_ok());
  ASSERT_TRUE(store->insert("collection", {"items", {kLamp}}).is_ok());
  EXPECT_EQ(store->insert("collection", {"items", {{{"_key", "z"}}, kLamp}}).code(),
            store::kDuplicateKey);
  auto found = store->find_documents(
      "collection",
      {"items", store::Scope::user("u1"), store::State::kActive, {}, {}, 0, 100, false});
  ASSERT_TRUE(found.is_ok()) << found.status().to_string();
  ASSERT_EQ(found->documents.size(), 1u);  // "z" was removed again
  EXPECT_EQ(found->documents[0], kLamp);
  EXPECT_TRUE(*store->collection_exists("collection", "items"));
  auto purged = store->change_state("collection", {"items",
                                                   store::Scope::everyone(),
                                                   {},
                                                   store::State::kActive,
                                                   store::State::kDeleted,
                                                   "r",
                                                   1});
  ASSERT_TRUE(purged.is_ok());
  EXPECT_EQ(*store->purge("collection", {store::State::kDeleted, 2}), 1);
  drop_database(uri, prefix + "p");
}

// The first inserts into a new collection, racing, each mark the collection with an upsert of
// one _id: the losers' duplicate key is tried again, never answered.
TEST(MongoServer, RacingFirstInsertsIntoANewCollectionAllSucceed) {
  const test::MongoTestServer& server = test::mongo_test_server();
  ASSERT_EQ(server.problem, "") << "no MongoDB-compatible server to test against";
  const char* uri = server.uri.c_str();
  std::random_device random;
  const std::string prefix = "opbase_test_" + std::to_string(random() % 1000000) + "_";
  MongoDriver driver(MongoOptions{uri, prefix, {}, {}});
  auto opened = driver.open("p");
  ASSERT_TRUE(opened.is_ok()) << opened.status().to_string();
  auto store = *opened;
  constexpr int kCollections = 5;
  constexpr int kWriters = 8;
  std::vector<std::string> failures(kWriters);
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      for (int c = 0; c < kCollections; ++c) {
        const Status s = store->insert(
            "collection", {"race_" + std::to_string(c),
                           {{{"_key", "k" + std::to_string(w) + "_" + std::to_string(c)},
                             {"_userkey", "u1"},
                             {"_created_at", "2024-01-01T00:00:00Z"}}}});
        if (!s && failures[w].empty()) failures[w] = s.to_string();
      }
    });
  }
  for (auto& writer : writers) writer.join();
  for (int w = 0; w < kWriters; ++w) EXPECT_EQ(failures[w], "") << "writer " << w;
  auto names = store->collections("collection");
  ASSERT_TRUE(names.is_ok()) << names.status().to_string();
  EXPECT_EQ(names->size(), static_cast<size_t>(kCollections));
  drop_database(uri, prefix + "p");
}

}  // namespace
