// user_admin_test: the administrators' ops on users (docs/api.md#user-administration) in the real
// daemon: only admins (a token with the admin role, or the server admin key) reach them; the
// list pages and searches by e-mail prefix, role and disabled; a disabled user cannot sign in
// and loses its sessions at once; a user who loses a role is signed out; an admin cannot lock
// themselves out; auth.user.signout ends every session of a user; bad input is refused with the
// field and the reason.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "daemon_process.hpp"
#include "http_client.hpp"

namespace opbase::test {
namespace {

using nlohmann::json;

const std::string kAdminKey = "sak_user_admin_test_0123456789abcdef01";  // server.admin_key

class UserAdmin : public ::testing::Test {
 protected:
  void SetUp() override {
    DaemonOptions options;
    options.plugins = {"auth", "collection"};
    options.with_admin = true;
    options.config = {{"server.admin_key", kAdminKey},
                      // Tokens of ended sessions stop working at once on this one daemon.
                      {"auth.session_recheck_ms", "0"}};
    daemon_ = DaemonProcess::start(options);
    ASSERT_NE(daemon_, nullptr);
    const DaemonProcess::User admin = daemon_->admin();
    admin_ = admin.bearer();
    admin_key_ = admin.key;
  }

  HttpResponse as_admin(json body) const { return daemon_->call(body, admin_); }
  std::string reason_of(const HttpResponse& r) const {
    const json body = r.json();
    return body.contains("error") ? body["error"]["details"].value("reason", "") : "";
  }
  HttpResponse signin(const std::string& name) const {
    return daemon_->call({{"op", "auth.signin"},
                          {"grant_type", "password"},
                          {"email", name + "@example.com"},
                          {"password", "User-Pass-1"}});
  }

  std::unique_ptr<DaemonProcess> daemon_;
  Headers admin_;
  std::string admin_key_;
};

TEST_F(UserAdmin, OnlyAdminsReachTheOps) {
  const Headers user = daemon_->user("ada").bearer();
  for (const char* op :
       {"auth.user.list", "auth.user.get", "auth.user.update", "auth.user.signout"}) {
    EXPECT_EQ(daemon_->call({{"op", op}}, user).status, 403) << op;
    EXPECT_EQ(daemon_->call({{"op", op}}).status, 401) << op;
  }
  const HttpResponse by_key =
      daemon_->call({{"op", "auth.user.list"}}, {{"X-Admin-Key", kAdminKey}});
  EXPECT_EQ(by_key.status, 200) << by_key.describe();
}

TEST_F(UserAdmin, TheListPagesAndSearches) {
  for (const char* name : {"ada", "adam", "bob", "carol"}) daemon_->user(name);
  const HttpResponse all = as_admin({{"op", "auth.user.list"}, {"limit", 2}});
  ASSERT_EQ(all.status, 200) << all.describe();
  EXPECT_EQ(all.json()["meta"]["total"], 5);  // the four and the admin
  ASSERT_EQ(all.json()["data"].size(), 2u);
  const HttpResponse rest = as_admin({{"op", "auth.user.list"}, {"limit", 2}, {"offset", 4}});
  EXPECT_EQ(rest.json()["data"].size(), 1u);
  const json first = all.json()["data"][0];
  for (const char* field : {"_userkey", "email", "roles", "disabled", "_created_at"}) {
    EXPECT_TRUE(first.contains(field)) << field;
  }
  EXPECT_FALSE(first.contains("password_hash"));

  const HttpResponse found = as_admin({{"op", "auth.user.list"}, {"search", "ADA"}});
  std::set<std::string> emails;
  const json page = found.json();  // kept: the loop must not walk a temporary's parts
  for (const json& user : page["data"]) emails.insert(user["email"].get<std::string>());
  EXPECT_EQ(emails, (std::set<std::string>{"ada@example.com", "adam@example.com"}))
      << found.describe();
  EXPECT_EQ(found.json()["meta"]["total"], 2);
  const HttpResponse admins = as_admin({{"op", "auth.user.list"}, {"role", "admin"}});
  ASSERT_EQ(admins.json()["data"].size(), 1u);
  EXPECT_EQ(admins.json()["data"][0]["email"], kTestAdminEmail);

  EXPECT_EQ(reason_of(as_admin({{"op", "auth.user.list"}, {"limit", 501}})), "range");
  EXPECT_EQ(reason_of(as_admin({{"op", "auth.user.list"}, {"offset", -1}})), "range");
  EXPECT_EQ(reason_of(as_admin({{"op", "auth.user.list"}, {"role", "Admin!"}})), "type");
  EXPECT_EQ(
      reason_of(as_admin(
          {{"op", "auth.user.update"}, {"_userkey", "nobody"}, {"data", {{"disabled", true}}}})),
      "not_found");
  EXPECT_EQ(reason_of(as_admin({{"op", "auth.user.list"}, {"disabled", "yes"}})), "type");
  EXPECT_EQ(reason_of(as_admin({{"op", "auth.user.get"}, {"_userkey", "nobody"}})), "not_found");
}

TEST_F(UserAdmin, ADisabledUserCannotSignInAndLosesItsSessions) {
  const auto& ada = daemon_->user("ada");
  const HttpResponse before =
      daemon_->call({{"op", "collection.find"}, {"collection", "notes"}, {"match", json::object()}},
                    ada.bearer());
  EXPECT_NE(before.status, 401) << before.describe();

  const HttpResponse disabled =
      as_admin({{"op", "auth.user.update"}, {"_userkey", ada.key}, {"data", {{"disabled", true}}}});
  ASSERT_EQ(disabled.status, 200) << disabled.describe();
  EXPECT_EQ(disabled.json()["data"]["disabled"], true);
  const HttpResponse after =
      daemon_->call({{"op", "collection.find"}, {"collection", "notes"}, {"match", json::object()}},
                    ada.bearer());
  EXPECT_EQ(after.status, 401) << after.describe();
  const HttpResponse refused = signin("ada");
  EXPECT_EQ(refused.status, 403) << refused.describe();
  EXPECT_EQ(reason_of(refused), "disabled");
  // A wrong password says nothing of the account's state.
  const HttpResponse wrong = daemon_->call({{"op", "auth.signin"},
                                            {"grant_type", "password"},
                                            {"email", "ada@example.com"},
                                            {"password", "Not-Her-Pass-9"}});
  EXPECT_EQ(wrong.json()["error"]["code"], "INVALID_CREDENTIALS");
  const HttpResponse listed = as_admin({{"op", "auth.user.list"}, {"disabled", true}});
  ASSERT_EQ(listed.json()["data"].size(), 1u);
  EXPECT_EQ(listed.json()["data"][0]["_userkey"], ada.key);

  ASSERT_EQ(
      as_admin({{"op", "auth.user.update"}, {"_userkey", ada.key}, {"data", {{"disabled", false}}}})
          .status,
      200);
  EXPECT_EQ(signin("ada").status, 200);
}

TEST_F(UserAdmin, RolesChangeAndALostRoleSignsTheUserOut) {
  const auto& bob = daemon_->user("bob");
  const HttpResponse promoted = as_admin({{"op", "auth.user.update"},
                                          {"_userkey", bob.key},
                                          {"data", {{"roles", {"user", "admin", "admin"}}}}});
  ASSERT_EQ(promoted.status, 200) << promoted.describe();
  EXPECT_EQ(promoted.json()["data"]["roles"], json({"user", "admin"}));
  // Gaining a role signs no one out; the next sign-in's token carries it.
  const HttpResponse in = signin("bob");
  ASSERT_EQ(in.status, 200);
  const Headers bob_admin = {
      {"Authorization", "Bearer " + in.json()["data"]["id_token"].get<std::string>()}};
  EXPECT_EQ(daemon_->call({{"op", "auth.user.list"}}, bob_admin).status, 200);

  const HttpResponse demoted = as_admin(
      {{"op", "auth.user.update"}, {"_userkey", bob.key}, {"data", {{"roles", {"user"}}}}});
  ASSERT_EQ(demoted.status, 200) << demoted.describe();
  EXPECT_EQ(daemon_->call({{"op", "auth.user.list"}}, bob_admin).status, 401);

  EXPECT_EQ(
      reason_of(as_admin(
          {{"op", "auth.user.update"}, {"_userkey", bob.key}, {"data", {{"roles", {"admin"}}}}})),
      "user_role");
  EXPECT_EQ(
      reason_of(as_admin(
          {{"op", "auth.user.update"}, {"_userkey", bob.key}, {"data", {{"roles", {"User!"}}}}})),
      "type");
  EXPECT_EQ(
      reason_of(as_admin(
          {{"op", "auth.user.update"}, {"_userkey", bob.key}, {"data", {{"email", "x@y.z"}}}})),
      "unknown");
  // An admin cannot lock themselves out.
  EXPECT_EQ(
      reason_of(as_admin(
          {{"op", "auth.user.update"}, {"_userkey", admin_key_}, {"data", {{"disabled", true}}}})),
      "self");
  EXPECT_EQ(
      reason_of(as_admin(
          {{"op", "auth.user.update"}, {"_userkey", admin_key_}, {"data", {{"roles", {"user"}}}}})),
      "self");
}

TEST_F(UserAdmin, SignOutEndsEverySessionOfTheUser) {
  const auto& carol = daemon_->user("carol");
  const HttpResponse second = signin("carol");
  ASSERT_EQ(second.status, 200);
  const std::string refresh = second.json()["data"]["refresh_token"];
  const std::string id_token = second.json()["data"]["id_token"];
  const HttpResponse out = as_admin({{"op", "auth.user.signout"}, {"_userkey", carol.key}});
  ASSERT_EQ(out.status, 200) << out.describe();
  EXPECT_EQ(out.json()["data"], json({{"signed_out", true}}));
  EXPECT_EQ(daemon_
                ->call({{"op", "collection.find"}, {"collection", "n"}, {"match", json::object()}},
                       carol.bearer())
                .status,
            401);
  const HttpResponse refreshed = daemon_->call(
      {{"op", "auth.refresh_token"}, {"refresh_token", refresh}, {"id_token", id_token}});
  EXPECT_EQ(refreshed.status, 401) << refreshed.describe();
  EXPECT_EQ(signin("carol").status, 200);  // signing in again works
}

}  // namespace
}  // namespace opbase::test
