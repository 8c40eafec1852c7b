// storage_admin_test: the administrators' lists of files and vector collections
// (docs/api.md#files-for-administrators, docs/api.md#vector-collections-for-administrators) in the
// real daemon: only admins reach file.admin.list, file.usage.list and vdb.admin.list; each pages
// every user's entries with meta.total, and picks one user's (and a file state); usage is
// largest first; bad input is refused with the field.
#include <gtest/gtest.h>

#include <string>

#include "daemon_process.hpp"
#include "http_client.hpp"

namespace opbase::test {
namespace {

using nlohmann::json;

class StorageAdmin : public ::testing::Test {
 protected:
  void SetUp() override {
    DaemonOptions options;
    options.plugins = {"auth", "file", "ai", "vdb"};
    options.with_admin = true;
    daemon_ = DaemonProcess::start(options);
    ASSERT_NE(daemon_, nullptr);
    admin_ = daemon_->admin().bearer();
  }
  void presign(const std::string& user, int64_t size) {
    const HttpResponse r = daemon_->call({{"op", "file.presign_upload"},
                                          {"name", "f.bin"},
                                          {"content_type", "application/octet-stream"},
                                          {"size", size}},
                                         daemon_->user(user).bearer());
    ASSERT_EQ(r.status, 200) << r.describe();
  }
  void insert_vectors(const std::string& user, const std::string& collection, int n) {
    json data = json::array();
    for (int i = 0; i < n; ++i) data.push_back({{"vector", {1.0, 0.5 * i, 0.25}}});
    const HttpResponse r =
        daemon_->call({{"op", "vdb.insert"}, {"collection", collection}, {"data", data}},
                      daemon_->user(user).bearer());
    ASSERT_EQ(r.status, 200) << r.describe();
  }
  json as_admin(const json& body, int status = 200) const {
    return daemon_->call_expecting(status, body, admin_);
  }

  std::unique_ptr<DaemonProcess> daemon_;
  Headers admin_;
};

TEST_F(StorageAdmin, OnlyAdminsReachTheLists) {
  const Headers user = daemon_->user("ada").bearer();
  for (const char* op : {"file.admin.list", "file.usage.list", "vdb.admin.list"}) {
    EXPECT_EQ(daemon_->call({{"op", op}}, user).status, 403) << op;
    EXPECT_EQ(daemon_->call({{"op", op}}).status, 401) << op;
  }
}

TEST_F(StorageAdmin, FilesAreListedAcrossUsersAndUsageLargestFirst) {
  presign("ada", 100);
  presign("ada", 50);
  presign("bob", 1000);
  const json all = as_admin({{"op", "file.admin.list"}, {"limit", 2}});
  EXPECT_EQ(all["meta"]["total"], 3);
  ASSERT_EQ(all["data"].size(), 2u);
  EXPECT_EQ(all["data"][0]["size"], 1000);  // newest first
  EXPECT_EQ(all["data"][0]["state"], "pending");
  EXPECT_FALSE(all["data"][0].contains("upload_nonce"));
  const std::string ada = daemon_->user("ada").key;
  const json adas = as_admin({{"op", "file.admin.list"}, {"_userkey", ada}, {"state", "pending"}});
  EXPECT_EQ(adas["meta"]["total"], 2);
  EXPECT_EQ(as_admin({{"op", "file.admin.list"}, {"state", "ready"}})["meta"]["total"], 0);

  const json usage = as_admin({{"op", "file.usage.list"}});
  EXPECT_EQ(usage["meta"]["total"], 2);
  ASSERT_EQ(usage["data"].size(), 2u);
  EXPECT_EQ(usage["data"][0],
            json({{"_userkey", daemon_->user("bob").key}, {"bytes", 1000}, {"files", 1}}));
  EXPECT_EQ(usage["data"][1], json({{"_userkey", ada}, {"bytes", 150}, {"files", 2}}));
}

TEST_F(StorageAdmin, VectorCollectionsAreListedAcrossUsersWithTheirRecords) {
  insert_vectors("ada", "notes", 3);
  insert_vectors("bob", "notes", 1);
  insert_vectors("bob", "pics", 2);
  const json all = as_admin({{"op", "vdb.admin.list"}});
  EXPECT_EQ(all["meta"]["total"], 3);
  const std::string bob = daemon_->user("bob").key;
  const json bobs = as_admin({{"op", "vdb.admin.list"}, {"_userkey", bob}});
  ASSERT_EQ(bobs["data"].size(), 2u);
  EXPECT_EQ(bobs["data"][0]["name"], "pics");  // newest first
  EXPECT_EQ(bobs["data"][0]["records"], 2);
  EXPECT_EQ(bobs["data"][0]["dimensions"], 3);
  EXPECT_EQ(bobs["data"][0]["model_version"], nullptr);  // vectors given as they are
  EXPECT_EQ(bobs["data"][1]["records"], 1);
}

TEST_F(StorageAdmin, BadInputIsRefusedWithTheField) {
  const struct {
    json body;
    const char* field;
  } cases[] = {
      {{{"op", "file.admin.list"}, {"limit", 0}}, "limit"},
      {{{"op", "file.admin.list"}, {"offset", -1}}, "offset"},
      {{{"op", "file.admin.list"}, {"state", "gone"}}, "state"},
      {{{"op", "file.admin.list"}, {"_userkey", 5}}, "_userkey"},
      {{{"op", "file.usage.list"}, {"limit", 501}}, "limit"},
      {{{"op", "vdb.admin.list"}, {"_userkey", ""}}, "_userkey"},
      {{{"op", "vdb.admin.list"}, {"limit", "ten"}}, "limit"},
  };
  for (const auto& c : cases) {
    const json answer = as_admin(c.body, 400);
    EXPECT_EQ(answer["error"]["code"], "VALIDATION_ERROR") << c.body;
    EXPECT_EQ(answer["error"]["details"]["field"], c.field) << c.body;
  }
}

}  // namespace
}  // namespace opbase::test
