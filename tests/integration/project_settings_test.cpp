// project_settings_test: the settings administrators change while the daemon runs
// (docs/api.md#project-settings), over HTTP: only admins reach auth/file/ai.settings.get and
// .update; unchanged settings follow the configuration; a change takes effect at once (a
// stricter password policy refuses a weak sign-up, sign-up switched off, shorter token
// lifetimes, a smaller largest file and file quota, another AI provider) and survives a restart;
// null goes back to the configuration; bad input stores nothing; every change is in the audit log.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <string>

#include "daemon_process.hpp"
#include "http_client.hpp"

namespace opbase::test {
namespace {

using nlohmann::json;

DaemonOptions options_of(const std::string& storage = "") {
  DaemonOptions options;
  options.plugins = {"auth", "collection", "file", "ai", test_plugin_path("probe")};
  options.with_admin = true;
  options.config = {{"auth.password_policy", "LOW"},
                    // The configuration sends AI ops to a model server that is not there.
                    {"ai.provider", "openai"},
                    {"ai.openai.base_url", "http://127.0.0.1:9/v1"},
                    {"ai.openai.max_retries", "0"}};
  if (!storage.empty()) options.config["storage.path"] = storage;
  return options;
}

class ProjectSettings : public ::testing::Test {
 protected:
  void SetUp() override { start(options_of()); }
  void start(const DaemonOptions& options) {
    daemon_ = DaemonProcess::start(options);
    ASSERT_NE(daemon_, nullptr);
    admin_ = daemon_->admin().bearer();
  }
  HttpResponse as_admin(json body) const { return daemon_->call(body, admin_); }
  json change(const std::string& area, json data) const {
    const HttpResponse r = as_admin({{"op", area + ".settings.update"}, {"data", std::move(data)}});
    EXPECT_EQ(r.status, 200) << r.describe();
    return r.status == 200 ? r.json()["data"] : json();
  }
  HttpResponse signup(const std::string& name, const std::string& password) const {
    return daemon_->call({{"op", "auth.signup"},
                          {"email", name + "@example.com"},
                          {"password", password},
                          {"display_name", name}});
  }
  std::string code_of(const HttpResponse& r) const {
    const json body = r.json();
    return body.contains("error") ? body["error"].value("code", "") : "";
  }

  std::unique_ptr<DaemonProcess> daemon_;
  Headers admin_;
};

TEST_F(ProjectSettings, OnlyAdminsReachTheOps) {
  const Headers user = daemon_->user("ada").bearer();
  for (const char* op : {"auth.settings.get", "auth.settings.update", "file.settings.get",
                         "file.settings.update", "ai.settings.get", "ai.settings.update"}) {
    EXPECT_EQ(daemon_->call({{"op", op}, {"data", json::object()}}, user).status, 403) << op;
    EXPECT_EQ(daemon_->call({{"op", op}, {"data", json::object()}}).status, 401) << op;
  }
}

TEST_F(ProjectSettings, UnchangedSettingsFollowTheConfiguration) {
  const HttpResponse auth = as_admin({{"op", "auth.settings.get"}});
  ASSERT_EQ(auth.status, 200) << auth.describe();
  EXPECT_EQ(auth.json()["data"]["settings"]["password_policy_name"], "LOW");
  EXPECT_EQ(auth.json()["data"]["settings"]["signup_per_address"], "off");
  EXPECT_EQ(auth.json()["data"]["changed"], json::array());
  const json file = as_admin({{"op", "file.settings.get"}}).json()["data"];
  EXPECT_EQ(file["settings"]["max_size"], int64_t{5} << 30);
  const json ai = as_admin({{"op", "ai.settings.get"}}).json()["data"];
  EXPECT_EQ(ai["settings"]["provider"], nullptr);
  EXPECT_EQ(ai["providers"], json({"offline", "openai"}));
}

TEST_F(ProjectSettings, AStricterPolicyRefusesAWeakSignupAtOnceAndNullGoesBack) {
  EXPECT_EQ(signup("weak1", "weakpass").status, 200);
  const json changed = change("auth", {{"password_policy", "HIGH"}});
  EXPECT_EQ(changed["settings"]["password_policy_name"], "HIGH");
  EXPECT_EQ(changed["changed"], json({"password_policy", "password_policy_name"}));
  const HttpResponse weak = signup("weak2", "weakpass");
  EXPECT_EQ(weak.status, 422) << weak.describe();
  EXPECT_EQ(code_of(weak), "WEAK_PASSWORD");
  const json shown = daemon_->call({{"op", "auth.settings"}}).json()["data"];
  EXPECT_EQ(shown["email_settings"]["password_policy_name"], "HIGH");

  const json custom = change("auth", {{"password_policy",
                                       {{"LENGTH", {20, 64}},
                                        {"LOWERCASE", true},
                                        {"NUMBERS", false},
                                        {"SYMBOLS", false},
                                        {"UPPERCASE", false}}}});
  EXPECT_EQ(custom["settings"]["password_policy_name"], "CUSTOM");
  EXPECT_EQ(code_of(signup("weak3", "Strong-But-Short-1")), "WEAK_PASSWORD");

  EXPECT_EQ(change("auth", {{"password_policy", nullptr}})["changed"], json::array());
  EXPECT_EQ(signup("weak4", "weakpass").status, 200);
}

TEST_F(ProjectSettings, SignupSwitchedOffAndTheLimitsChangeAtOnce) {
  change("auth", {{"allow_email_signup", false}});
  const HttpResponse closed = signup("late", "User-Pass-1");
  EXPECT_EQ(closed.status, 403) << closed.describe();
  change("auth", {{"allow_email_signup", true}, {"signup_per_address", "1/3600"}});
  EXPECT_EQ(signup("first", "User-Pass-1").status, 200);
  const HttpResponse limited = signup("second", "User-Pass-1");
  EXPECT_EQ(limited.status, 429) << limited.describe();
}

TEST_F(ProjectSettings, TokenLifetimesShortenAtOnceButNeverPassTheConfiguration) {
  change("auth", {{"id_token_ttl_s", 120}, {"refresh_token_ttl_s", 600}});
  const HttpResponse in = daemon_->call({{"op", "auth.signin"},
                                         {"grant_type", "password"},
                                         {"email", kTestAdminEmail},
                                         {"password", kTestAdminPassword}});
  ASSERT_EQ(in.status, 200) << in.describe();
  const json info = in.json()["data"]["token_info"];
  EXPECT_EQ(info["ttl"], 120);
  EXPECT_EQ(info["exp"].get<int64_t>() - info["iat"].get<int64_t>(), 120);
  const HttpResponse longer =
      as_admin({{"op", "auth.settings.update"}, {"data", {{"id_token_ttl_s", 3601}}}});
  EXPECT_EQ(longer.status, 400) << longer.describe();
  EXPECT_EQ(longer.json()["error"]["details"]["field"], "id_token_ttl_s");
}

TEST_F(ProjectSettings, FileLimitsChangeAtOnce) {
  const Headers ada = daemon_->user("ada").bearer();
  auto presign = [&](int64_t size) {
    return daemon_->call({{"op", "file.presign_upload"},
                          {"name", "a.txt"},
                          {"content_type", "text/plain"},
                          {"size", size}},
                         ada);
  };
  ASSERT_EQ(presign(100).status, 200);
  change("file", {{"max_size", 50}, {"quota_files_per_user", 2}});
  const HttpResponse big = presign(100);
  EXPECT_EQ(big.status, 413) << big.describe();
  EXPECT_EQ(big.json()["error"]["details"]["max_size"], 50);
  EXPECT_EQ(presign(10).status, 200);
  const HttpResponse third = presign(10);
  EXPECT_EQ(code_of(third), "QUOTA_EXCEEDED") << third.describe();
}

TEST_F(ProjectSettings, AnotherAiProviderAnswersAtOnce) {
  const Headers ada = daemon_->user("ada").bearer();
  const json call = {{"op", "ai.sentiment"}, {"content", "I love it"}};
  EXPECT_NE(daemon_->call(call, ada).status, 200);  // the configured model server is not there
  change("ai", {{"provider", "offline"}});
  const HttpResponse answered = daemon_->call(call, ada);
  ASSERT_EQ(answered.status, 200) << answered.describe();
  EXPECT_EQ(answered.json()["meta"]["provider"], "offline");
}

TEST_F(ProjectSettings, BadInputStoresNothing) {
  const struct {
    const char* op;
    json data;
    const char* field;
  } cases[] = {
      {"auth.settings.update", {{"nope", 1}}, "nope"},
      {"auth.settings.update", {{"allow_email_signup", "yes"}}, "allow_email_signup"},
      {"auth.settings.update", {{"authentication_method", "magic"}}, "authentication_method"},
      {"auth.settings.update", {{"password_policy", "MAXIMUM"}}, "password_policy"},
      {"auth.settings.update", {{"password_policy", {{"LENGTH", {8}}}}}, "password_policy"},
      {"auth.settings.update", {{"signup_per_address", "lots"}}, "signup_per_address"},
      {"auth.settings.update", {{"refresh_token_ttl_s", 10}}, "refresh_token_ttl_s"},
      {"auth.settings.update", {{"enabled", false}}, "enabled"},
      {"auth.settings.update", json::array(), "data"},
      {"file.settings.update", {{"max_size", 0}}, "max_size"},
      {"file.settings.update", {{"quota_bytes_per_user", "1GB"}}, "quota_bytes_per_user"},
      {"ai.settings.update", {{"provider", "nope"}}, "provider"},
      {"ai.settings.update", {{"provider", 3}}, "provider"},
  };
  for (const auto& c : cases) {
    const HttpResponse r = as_admin({{"op", c.op}, {"data", c.data}});
    EXPECT_EQ(r.status, 400) << c.op << " " << c.data << " " << r.describe();
    EXPECT_EQ(code_of(r), "VALIDATION_ERROR") << c.data;
    if (r.json().contains("error")) {
      EXPECT_EQ(r.json()["error"]["details"].value("field", ""), c.field) << c.data;
    }
  }
  EXPECT_EQ(code_of(as_admin({{"op", "auth.settings.update"}})), "VALIDATION_ERROR");
  for (const char* area : {"auth", "file", "ai"}) {
    const json view = as_admin({{"op", std::string(area) + ".settings.get"}}).json()["data"];
    EXPECT_EQ(view["changed"], json::array()) << area;
  }
}

TEST_F(ProjectSettings, ChangesSurviveARestartAndAreAudited) {
  change("auth", {{"verify_email_on_signup", true}});
  change("file", {{"quota_bytes_per_user", 1000}});
  DaemonOptions options = options_of(daemon_->dir());
  options.endpoint_key = daemon_->endpoint_key();
  options.api_key = daemon_->api_key();
  // The first daemon's folder must outlive it: keep it, stopped, and use the second.
  std::unique_ptr<DaemonProcess> old = std::move(daemon_);
  old->send_signal(SIGTERM);
  ASSERT_TRUE(old->wait_exit(std::chrono::seconds(10)).has_value());
  start(options);
  const json auth = as_admin({{"op", "auth.settings.get"}}).json()["data"];
  EXPECT_EQ(auth["settings"]["verify_email_on_signup"], true);
  EXPECT_EQ(auth["changed"], json({"verify_email_on_signup"}));
  EXPECT_EQ(
      as_admin({{"op", "file.settings.get"}}).json()["data"]["settings"]["quota_bytes_per_user"],
      1000);
  const HttpResponse log =
      daemon_->call({{"op", "probe.call"}, {"service", "audit.list"}, {"input", {{"limit", 10}}}});
  ASSERT_EQ(log.status, 200) << log.describe();
  const json entries = log.json()["data"]["entries"];
  ASSERT_EQ(entries.size(), 2u) << entries.dump();  // the reads are not written
  EXPECT_EQ(entries[0]["op"], "file.settings.update");
  EXPECT_EQ(entries[0]["params"]["data"], json({{"quota_bytes_per_user", 1000}}));
  EXPECT_EQ(entries[1]["op"], "auth.settings.update");
}

}  // namespace
}  // namespace opbase::test
