// collection_admin_test: the administrators' ops on every user's documents
// (docs/api.md#collections-across-users) in the real daemon: only admins reach them; the
// collections are listed with their counts per state; find and count see every user's
// documents with the users' match, sort and paging (and `_userkey` to pick one user), while
// users still see only their own; delete and restore by `_ref` across users, both in the audit
// log; bad input is refused as in the users' ops.
#include <gtest/gtest.h>

#include <string>

#include "daemon_process.hpp"
#include "http_client.hpp"

namespace opbase::test {
namespace {

using nlohmann::json;

class CollectionAdmin : public ::testing::Test {
 protected:
  void SetUp() override {
    DaemonOptions options;
    options.plugins = {"auth", "collection", test_plugin_path("probe")};
    options.with_admin = true;
    daemon_ = DaemonProcess::start(options);
    ASSERT_NE(daemon_, nullptr);
    admin_ = daemon_->admin().bearer();
    for (const auto& [user, n] : {std::pair{"ada", 3}, std::pair{"bob", 2}}) {
      json docs = json::array();
      for (int i = 0; i < n; ++i) docs.push_back({{"n", i}, {"by", user}});
      const HttpResponse put =
          daemon_->call({{"op", "collection.insert"}, {"collection", "notes"}, {"data", docs}},
                        daemon_->user(user).bearer());
      ASSERT_EQ(put.status, 200) << put.describe();
    }
    ASSERT_EQ(
        daemon_
            ->call(
                {{"op", "collection.insert"}, {"collection", "tasks"}, {"data", {{"title", "x"}}}},
                daemon_->user("bob").bearer())
            .status,
        200);
  }
  json as_admin(const json& body, int status = 200) const {
    return daemon_->call_expecting(status, body, admin_);
  }

  std::unique_ptr<DaemonProcess> daemon_;
  Headers admin_;
};

TEST_F(CollectionAdmin, OnlyAdminsReachTheOps) {
  const Headers user = daemon_->user("ada").bearer();
  for (const char* op : {"collection.admin.list", "collection.admin.find", "collection.admin.count",
                         "collection.admin.delete", "collection.admin.restore"}) {
    EXPECT_EQ(daemon_->call({{"op", op}, {"collection", "notes"}, {"match", json::object()}}, user)
                  .status,
              403)
        << op;
    EXPECT_EQ(daemon_->call({{"op", op}, {"collection", "notes"}}).status, 401) << op;
  }
}

TEST_F(CollectionAdmin, CollectionsAreListedWithTheirCountsPerState) {
  const json listed = as_admin({{"op", "collection.admin.list"}})["data"];
  EXPECT_EQ(listed, json::parse(R"([{"name":"notes","active":5,"archived":0,"deleted":0},
                                    {"name":"tasks","active":1,"archived":0,"deleted":0}])"));
}

TEST_F(CollectionAdmin, FindAndCountSeeEveryUsersDocumentsAndUsersStillTheirOwn) {
  const json all = as_admin({{"op", "collection.admin.find"},
                             {"collection", "notes"},
                             {"match", json::object()},
                             {"sort", "n desc"},
                             {"limit", 2}});
  EXPECT_EQ(all["meta"]["pagination"]["size"], 5);
  ASSERT_EQ(all["data"].size(), 2u);
  EXPECT_EQ(all["data"][0]["n"], 2);
  const std::string bob = daemon_->user("bob").key;
  const json bobs = as_admin(
      {{"op", "collection.admin.find"}, {"collection", "notes"}, {"match", {{"_userkey", bob}}}});
  ASSERT_EQ(bobs["data"].size(), 2u);
  for (const json& doc : bobs["data"]) EXPECT_EQ(doc["by"], "bob");
  EXPECT_EQ(as_admin({{"op", "collection.admin.count"},
                      {"collection", "notes"},
                      {"match", {{"n:$gte", 1}}}})["data"]["count"],
            3);
  const HttpResponse own = daemon_->call(
      {{"op", "collection.count"}, {"collection", "notes"}, {"match", json::object()}},
      daemon_->user("ada").bearer());
  EXPECT_EQ(own.json()["data"]["count"], 3);
}

TEST_F(CollectionAdmin, DeleteAndRestoreAcrossUsersAreAudited) {
  const json deleted =
      as_admin({{"op", "collection.admin.delete"}, {"collection", "notes"}, {"match", {{"n", 0}}}});
  const std::string ref = deleted["data"]["_ref"];
  ASSERT_FALSE(ref.empty());
  const json counts = as_admin({{"op", "collection.admin.list"}})["data"][0];
  EXPECT_EQ(counts["active"], 3);
  EXPECT_EQ(counts["deleted"], 2);
  const json restored = as_admin(
      {{"op", "collection.admin.restore"}, {"collection", "notes"}, {"match", {{"_ref", ref}}}});
  EXPECT_EQ(restored["data"]["data"], true);
  EXPECT_EQ(as_admin({{"op", "collection.admin.list"}})["data"][0]["active"], 5);

  const json log =
      daemon_->call({{"op", "probe.call"}, {"service", "audit.list"}, {"input", {{"limit", 10}}}})
          .json()["data"]["entries"];
  ASSERT_EQ(log.size(), 2u) << log.dump();  // the list, find and count calls are reads
  EXPECT_EQ(log[0]["op"], "collection.admin.restore");
  EXPECT_EQ(log[1]["op"], "collection.admin.delete");
}

TEST_F(CollectionAdmin, BadInputIsRefusedAsInTheUsersOps) {
  for (const json& body :
       {json{{"op", "collection.admin.find"}, {"collection", "no such!"}},
        json{{"op", "collection.admin.find"}, {"collection", "notes"}, {"match", {{"$bad", 1}}}},
        json{{"op", "collection.admin.find"}, {"collection", "notes"}, {"limit", -1}},
        json{{"op", "collection.admin.count"}, {"collection", "notes"}, {"match", 3}},
        json{{"op", "collection.admin.restore"}, {"collection", "notes"}, {"match", {{"n", 1}}}}}) {
    const json answer = as_admin(body, 400);
    EXPECT_EQ(answer["error"]["code"], "VALIDATION_ERROR") << body;
  }
  const json missing = as_admin(
      {{"op", "collection.admin.find"}, {"collection", "nothing_here"}, {"match", json::object()}},
      404);
  EXPECT_EQ(missing["error"]["code"], "COLLECTION_NOT_FOUND");
}

}  // namespace
}  // namespace opbase::test
