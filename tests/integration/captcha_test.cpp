// captcha_test: anonymous inserts with the captcha plugin (docs/api.md#captcha) in the real
// daemon. A page with only the API key gets an ALTCHA challenge, solves it (here by a solver of
// the test's own, on OpenSSL's SHA-256), and inserts into a collection of
// datastore.anonymous_insert without a token; the document belongs to nobody and only an
// administrator sees it and can give it to a user; npm altcha-lib solves the daemon's challenges as
// well. Every refusal says why: no captcha, not a solution, another algorithm, a forged signature,
// a wrong number, expired, replayed; and the per-address limit answers RATE_LIMIT_EXCEEDED. The
// project's signing key outlives a restart.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <regex>
#include <string>
#include <thread>

#include "altcha_lib.hpp"
#include "base64_text.hpp"
#include "daemon_process.hpp"
#include "file_text.hpp"
#include "http_client.hpp"
#include "sha256_hex.hpp"

namespace opbase::test {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr int64_t kMaxNumber = 20'000;

// The number whose hash with the salt is the challenge, tried in turn as a client does.
int64_t solve(const json& challenge) {
  const std::string salt = challenge["salt"];
  for (int64_t n = 0; n <= challenge["maxnumber"].get<int64_t>(); ++n) {
    if (sha256_hex(salt + std::to_string(n)) == challenge["challenge"]) return n;
  }
  ADD_FAILURE() << "no number solves " << challenge.dump();
  return -1;
}

// The widget's form value for `challenge` answered with `number`.
std::string payload(const json& challenge, int64_t number,
                    const std::string& algorithm = "SHA-256") {
  return base64_text(json{
      {"algorithm", algorithm},
      {"challenge", challenge["challenge"]},
      {"number", number},
      {"salt", challenge["salt"]},
      {"signature", challenge["signature"]},
      {"took", 120}}.dump());
}

DaemonOptions captcha_options(std::map<std::string, std::string> extra = {}) {
  DaemonOptions options;
  options.plugins = {"auth", "collection", "captcha"};
  options.with_admin = true;
  options.config = {{"datastore.anonymous_insert", "guestbook"},
                    {"captcha.maxnumber", std::to_string(kMaxNumber)}};
  for (auto& [key, value] : extra) options.config[key] = value;
  return options;
}

class Captcha : public ::testing::Test {
 protected:
  void SetUp() override { daemon_ = DaemonProcess::start(captcha_options()); }

  json challenge() const {
    return daemon_->call_expecting(200, {{"op", "captcha.challenge"}})["data"];
  }
  std::string solved() const {
    const json c = challenge();
    return payload(c, solve(c));
  }
  HttpResponse anonymous_insert(const std::string& captcha, const std::string& text) const {
    return daemon_->call({{"op", "collection.insert"},
                          {"collection", "guestbook"},
                          {"data", {{"text", text}}},
                          {"captcha", captcha}});
  }
  // The error's details.reason of a refused anonymous insert, after checking its code.
  std::string refusal(const std::string& captcha) const {
    const HttpResponse r = anonymous_insert(captcha, "refused");
    EXPECT_EQ(r.status, 401) << r.describe();
    const json body = r.json();
    EXPECT_EQ(body["error"]["code"], "AUTHENTICATION_FAILED") << r.describe();
    EXPECT_EQ(body["error"]["details"]["field"], "captcha") << r.describe();
    return body["error"]["details"].value("reason", "");
  }
  // The guestbook's documents, 0 while nothing made the collection.
  int64_t guestbook_count() const {
    const HttpResponse r = daemon_->call(
        {{"op", "collection.admin.count"}, {"collection", "guestbook"}, {"match", json::object()}},
        daemon_->admin().bearer());
    if (r.status == 404 && r.json()["error"]["code"] == "COLLECTION_NOT_FOUND") return 0;
    EXPECT_EQ(r.status, 200) << r.describe();
    return r.json()["data"].value("count", -1);
  }

  std::unique_ptr<DaemonProcess> daemon_;
};

TEST_F(Captcha, AChallengeIsSignedExpiresAndNeedsOnlyTheApiKey) {
  const json c = challenge();
  EXPECT_EQ(c["algorithm"], "SHA-256");
  EXPECT_EQ(c["maxnumber"], kMaxNumber);
  EXPECT_TRUE(std::regex_match(c["challenge"].get<std::string>(), std::regex("[0-9a-f]{64}")));
  EXPECT_TRUE(std::regex_match(c["signature"].get<std::string>(), std::regex("[0-9a-f]{64}")));
  std::smatch expiry;
  const std::string salt = c["salt"];
  ASSERT_TRUE(std::regex_match(salt, expiry, std::regex("[0-9a-f]{24}\\?expires=([0-9]+)&")))
      << salt;
  const int64_t now_s = std::chrono::duration_cast<std::chrono::seconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
  EXPECT_NEAR(std::stoll(expiry[1]), now_s + 600, 5);
  EXPECT_NE(challenge()["salt"], c["salt"]);
  EXPECT_EQ(daemon_->call({{"op", "captcha.challenge"}}, {{"X-API-KEY", "wrong"}}).status, 401);
}

TEST_F(Captcha, ASolvedCaptchaInsertsADocumentThatBelongsToNobody) {
  const HttpResponse r = anonymous_insert(solved(), "hello from a visitor");
  ASSERT_EQ(r.status, 200) << r.describe();
  const json doc = r.json()["data"][0];
  EXPECT_EQ(doc["text"], "hello from a visitor");
  EXPECT_TRUE(doc["_userkey"].is_null());
  // No user sees it; an administrator does, among the anonymous inserts.
  const json mine = daemon_->call_expecting(
      200, {{"op", "collection.find"}, {"collection", "guestbook"}, {"match", json::object()}},
      daemon_->user("ada").bearer());
  EXPECT_TRUE(mine["data"].empty()) << mine.dump();
  const json all = daemon_->call_expecting(200,
                                           {{"op", "collection.admin.find"},
                                            {"collection", "guestbook"},
                                            {"match", {{"_userkey", nullptr}}}},
                                           daemon_->admin().bearer());
  ASSERT_EQ(all["data"].size(), 1u) << all.dump();
  EXPECT_EQ(all["data"][0]["_key"], doc["_key"]);

  // An administrator gives it to a user, who then owns it; a claim moves nobody else's.
  const json claim = {{"op", "collection.admin.claim"},
                      {"collection", "guestbook"},
                      {"match", {{"_key", doc["_key"]}}},
                      {"user", daemon_->user("ada").key}};
  EXPECT_EQ(daemon_->call(claim, daemon_->user("ada").bearer()).status, 403);
  for (const json& bad_user : {json("no-such-user"), json(""), json(42), json(nullptr)}) {
    json nobody = claim;
    nobody["user"] = bad_user;
    const HttpResponse refused = daemon_->call(nobody, daemon_->admin().bearer());
    EXPECT_EQ(refused.status, 400) << refused.describe();
    EXPECT_EQ(refused.json()["error"]["details"]["field"], "user") << refused.describe();
  }
  json no_match = claim;
  no_match.erase("match");
  EXPECT_EQ(daemon_->call(no_match, daemon_->admin().bearer()).status, 400);
  EXPECT_EQ(daemon_->call_expecting(200, claim, daemon_->admin().bearer())["data"]["claimed"], 1);
  const json hers = daemon_->call_expecting(
      200, {{"op", "collection.find"}, {"collection", "guestbook"}, {"match", json::object()}},
      daemon_->user("ada").bearer());
  ASSERT_EQ(hers["data"].size(), 1u) << hers.dump();
  EXPECT_EQ(hers["data"][0]["_userkey"], daemon_->user("ada").key);
  json to_bob = claim;
  to_bob["user"] = daemon_->user("bob").key;
  EXPECT_EQ(daemon_->call_expecting(200, to_bob, daemon_->admin().bearer())["data"]["claimed"], 0);
}

// The daemon's challenge solved by npm altcha-lib, not by the test's own solver.
TEST_F(Captcha, AltchaLibSolvesTheDaemonsChallenge) {
  int exit_code = -1;
  const std::string answer = altcha_lib({"solve", challenge().dump()}, &exit_code);
  ASSERT_EQ(exit_code, 0) << answer;
  const HttpResponse r = anonymous_insert(answer, "solved by altcha-lib");
  EXPECT_EQ(r.status, 200) << r.describe();
}

TEST_F(Captcha, EveryBadCaptchaIsRefusedWithItsReasonAndStoresNothing) {
  const json c = challenge();
  const int64_t number = solve(c);
  json forged = c;  // a challenge of the client's own making, with the signature it saw
  forged["challenge"] = sha256_hex(c["salt"].get<std::string>() + "7");
  EXPECT_EQ(refusal("not a solution"), "malformed");
  EXPECT_EQ(refusal(payload(c, number, "SHA-1")), "algorithm");
  EXPECT_EQ(refusal(payload(forged, 7)), "signature");
  EXPECT_EQ(refusal(payload(c, number == 0 ? 1 : number - 1)), "wrong");
  const HttpResponse missing = daemon_->call(
      {{"op", "collection.insert"}, {"collection", "guestbook"}, {"data", {{"text", "x"}}}});
  EXPECT_EQ(missing.status, 401);
  const HttpResponse wrong_type = daemon_->call({{"op", "collection.insert"},
                                                 {"collection", "guestbook"},
                                                 {"data", {{"text", "x"}}},
                                                 {"captcha", 42}});
  EXPECT_EQ(wrong_type.status, 401);
  // A solution is not a pass into collections outside datastore.anonymous_insert.
  const HttpResponse elsewhere = daemon_->call({{"op", "collection.insert"},
                                                {"collection", "notes"},
                                                {"data", {{"text", "x"}}},
                                                {"captcha", payload(c, number)}});
  EXPECT_EQ(elsewhere.status, 401);
  EXPECT_EQ(guestbook_count(), 0);
  // The genuine answer still works after all of that, once.
  EXPECT_EQ(anonymous_insert(payload(c, number), "first").status, 200);
  EXPECT_EQ(refusal(payload(c, number)), "replayed");
  EXPECT_EQ(guestbook_count(), 1);
}

TEST_F(Captcha, TheSigningKeyOutlivesARestart) {
  const std::string answer = solved();
  const std::string dir = daemon_->dir();
  DaemonOptions options = captcha_options({{"storage.path", dir + "/kept"}});
  options.endpoint_key = daemon_->endpoint_key();
  options.api_key = daemon_->api_key();
  auto first = DaemonProcess::start(options);
  const json c = first->call_expecting(200, {{"op", "captcha.challenge"}})["data"];
  first.reset();
  auto second = DaemonProcess::start(options);
  const HttpResponse r = second->call({{"op", "collection.insert"},
                                       {"collection", "guestbook"},
                                       {"data", {{"text", "after a restart"}}},
                                       {"captcha", payload(c, solve(c))}});
  EXPECT_EQ(r.status, 200) << r.describe();
  // Another store's key did not sign the first daemon's challenges.
  const HttpResponse other = second->call({{"op", "collection.insert"},
                                           {"collection", "guestbook"},
                                           {"data", {{"text", "x"}}},
                                           {"captcha", answer}});
  EXPECT_EQ(other.status, 401);
}

TEST(CaptchaLimits, AnExpiredChallengeIsRefused) {
  auto daemon = DaemonProcess::start(captcha_options({{"captcha.expires_s", "1"}}));
  const json c = daemon->call_expecting(200, {{"op", "captcha.challenge"}})["data"];
  const std::string answer = payload(c, solve(c));
  std::this_thread::sleep_for(2100ms);
  const HttpResponse r = daemon->call({{"op", "collection.insert"},
                                       {"collection", "guestbook"},
                                       {"data", {{"text", "late"}}},
                                       {"captcha", answer}});
  EXPECT_EQ(r.status, 401);
  EXPECT_EQ(r.json()["error"]["details"]["reason"], "expired") << r.describe();
}

TEST(CaptchaLimits, OneAddressPresentsAtMostItsLimit) {
  auto daemon =
      DaemonProcess::start(captcha_options({{"captcha.rate.verify_per_address", "3/600"}}));
  auto insert = [&](const std::string& captcha) {
    return daemon->call({{"op", "collection.insert"},
                         {"collection", "guestbook"},
                         {"data", {{"text", "x"}}},
                         {"captcha", captcha}});
  };
  // Refused solutions count too: guessing is what the limit is for.
  EXPECT_EQ(insert("guess").status, 401);
  for (int i = 0; i < 2; ++i) {
    const json c = daemon->call_expecting(200, {{"op", "captcha.challenge"}})["data"];
    EXPECT_EQ(insert(payload(c, solve(c))).status, 200);
  }
  const json c = daemon->call_expecting(200, {{"op", "captcha.challenge"}})["data"];
  const HttpResponse limited = insert(payload(c, solve(c)));
  EXPECT_EQ(limited.status, 429) << limited.describe();
  EXPECT_EQ(limited.json()["error"]["code"], "RATE_LIMIT_EXCEEDED");
  EXPECT_GE(limited.json()["error"]["details"]["retry_after"].get<int64_t>(), 1);
}

TEST(CaptchaLimits, BadSettingsKeepThePluginOut) {
  for (const auto& [key, value] :
       std::map<std::string, std::string>{{"captcha.maxnumber", "9"},
                                          {"captcha.expires_s", "0"},
                                          {"captcha.rate.verify_per_address", "many"}}) {
    auto daemon = DaemonProcess::start(captcha_options({{key, value}}));
    EXPECT_EQ(daemon->call({{"op", "captcha.challenge"}}).status, 404) << key;
    EXPECT_NE(daemon->log().find("init failed: VALIDATION_ERROR: " + key), std::string::npos)
        << daemon->log();
  }
}

// The documented page (docs/examples/captcha-guestbook.html) with the npm altcha widget, in
// chromium (tests/browser/captcha_test.mjs): a visitor ticks the widget, which solves a challenge
// of the default difficulty, and signs; the message is stored as an anonymous insert.
TEST(CaptchaPage, AVisitorSignsTheGuestbookFromChromium) {
  DaemonOptions options = captcha_options({{"server.cors_origins", "*"}});
  options.config.erase("captcha.maxnumber");
  auto daemon = DaemonProcess::start(options);
  ::setenv("OPBASE_URL", daemon->base_url().c_str(), 1);
  ::setenv("OPBASE_ENDPOINT_KEY", daemon->endpoint_key().c_str(), 1);
  ::setenv("OPBASE_API_KEY", daemon->api_key().c_str(), 1);
  ::setenv("OPBASE_SCREENSHOTS",
           (std::string(OPBASE_TEST_BINARY_DIR) + "/captcha-screenshots").c_str(), 1);
  const std::string output = daemon->dir() + "/browser.out";
  const int rc =
      run_to_file({"node", std::string(OPBASE_TEST_SOURCE_DIR) + "/tests/browser/captcha_test.mjs"},
                  output, 180s);
  const std::string printed = file_text(output);
  ASSERT_EQ(rc, 0) << printed;
  std::printf("%s", printed.c_str());
  std::smatch saved;
  ASSERT_TRUE(std::regex_search(printed, saved, std::regex("saved ([0-9a-f]+)"))) << printed;
  const json found = daemon->call_expecting(200,
                                            {{"op", "collection.admin.find"},
                                             {"collection", "guestbook"},
                                             {"match", {{"_key", saved[1].str()}}}},
                                            daemon->admin().bearer());
  ASSERT_EQ(found["data"].size(), 1u) << found.dump();
  EXPECT_TRUE(found["data"][0]["_userkey"].is_null());
  EXPECT_EQ(found["data"][0]["text"], "Lovely site, from a visitor without an account");
}

}  // namespace
}  // namespace opbase::test
