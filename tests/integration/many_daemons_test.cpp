// many_daemons_test: three daemons on one store, a real MongoDB-compatible server (FerretDB over
// PostgreSQL, tests/support/ferretdb_server.hpp), with the requests spread over them as a load
// balancer would, checked for what the docs promise of daemons that share a store
// (docs/operations.md#running-several-daemons): limits and quotas counted once for all, one-use
// captchas and codes used once, a refresh token rotated once, each webhook message delivered by
// one daemon, an automatic index made once, settings and vector records seen by every daemon
// within their bounds, a live query whose stream one daemon holds fed by writes through the
// others, and a daemon killed with SIGKILL under write load losing no acknowledged write while
// the others go on.
//
// OPBASE_TEST_MONGODB_URI names another server to share instead (MongoDB itself). FerretDB 1.x
// does not apply concurrent updates of one document atomically (docs/operations.md,
// "MongoDB-compatible servers"), so on it the requests that would race on one stored counter are
// sent one after another, still spread over the daemons: that shows the state is one for all
// daemons, while the racing form, which needs a server keeping MongoDB's per-document atomicity,
// runs against such a server only.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "base64_text.hpp"
#include "daemon_process.hpp"
#include "event_stream.hpp"
#include "ferretdb_server.hpp"
#include "sha256_hex.hpp"
#include "smtp_sink.hpp"
#include "webhook_receiver.hpp"

namespace opbase::test {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;
using std::chrono::steady_clock;

constexpr int kDaemons = 3;
constexpr const char* kPassword = "Plum-Orchard-42";
const std::string kAdminKey = "sak_many_daemons_0123456789abcdef0123456";
const std::string kSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwMfKQ9r8GKYo=";
constexpr int kSigninLimit = 5;    // auth.rate.signin_per_email_address
constexpr int kAiCallsPerDay = 6;  // ai.quota.calls_per_day
constexpr int kSettingsReloadS = 2;
constexpr int kCaptchaMaxNumber = 5000;

struct Answer {
  int status = 0;
  json body;
  const json& data() const { return body["data"]; }
  std::string code() const {
    if (status == 200) return "OK";
    return body.contains("error") ? body["error"].value("code", "?") : "HTTP " + body.dump();
  }
};

std::string fresh_email(const std::string& stem) {
  static std::atomic<int> counter{0};
  return stem + std::to_string(++counter) + "@example.com";
}

// The widget's form value for a challenge, solved as a client does.
std::string solved(const json& challenge) {
  const std::string salt = challenge["salt"];
  for (int64_t n = 0; n <= challenge["maxnumber"].get<int64_t>(); ++n) {
    if (sha256_hex(salt + std::to_string(n)) != challenge["challenge"]) continue;
    return base64_text(json{
        {"algorithm", "SHA-256"},
        {"challenge", challenge["challenge"]},
        {"number", n},
        {"salt", salt},
        {"signature", challenge["signature"]},
        {"took", 100}}.dump());
  }
  ADD_FAILURE() << "no number solves " << challenge.dump();
  return "";
}

class ManyDaemons : public ::testing::Test {
 protected:
  static DaemonOptions options() {
    DaemonOptions o;
    o.plugins = {"auth", "collection", "captcha", "webhooks", "ai", "vdb", "realtime"};
    o.with_admin = true;
    o.endpoint_key = kEndpointKey;
    o.api_key = kApiKey;
    o.config = {
        {"storage.driver", "mongodb"},
        {"storage.mongodb.uri", uri_},
        {"storage.mongodb.database_prefix", "many_"},
        {"storage.settings_reload_s", std::to_string(kSettingsReloadS)},
        {"server.admin_key", kAdminKey},
        {"mail.transport", "smtp"},
        {"mail.smtp.port", std::to_string(sink_->port())},
        {"mail.smtp.starttls", "off"},
        {"mail.from", "Shop <no-reply@shop.test>"},
        {"auth.rate.signin_per_email_address", std::to_string(kSigninLimit) + "/3600"},
        {"auth.rate.signin_failures_per_address", "off"},
        {"ai.quota.calls_per_day", std::to_string(kAiCallsPerDay)},
        {"ai.rate_limit", "off"},
        {"vdb.embed_rate_limit", "off"},
        {"datastore.anonymous_insert", "guestbook"},
        {"captcha.maxnumber", std::to_string(kCaptchaMaxNumber)},
        {"datastore.auto_indexes.after_queries", "1"},
        {"datastore.auto_indexes.costly_rows", "20"},
        {"webhooks.url", receiver_->url("/hook")},
        {"webhooks.secret", kSecret},
        {"webhooks.events", "document.created"},
        {"webhooks.allow_private_targets", "true"},
        {"webhooks.retry_delays", "300ms,600ms,900ms"},
        {"webhooks.timeout", "2s"},
        {"webhooks.lease", "5s"},
        {"webhooks.poll", "100ms"},
    };
    return o;
  }

  static void SetUpTestSuite() {
    const char* named = std::getenv("OPBASE_TEST_MONGODB_URI");
    if (named != nullptr && *named != '\0') {
      uri_ = named;
      atomic_updates_ = true;
    } else {
      server_ = new FerretDbServer(FerretDbServer::Backend::kPostgreSql);
      uri_ = server_->uri();
      problem_ = server_->problem();
    }
    sink_ = new SmtpSink({});
    receiver_ = new WebhookReceiver(ReceiverOptions{});
    if (!problem_.empty() || sink_->port() <= 0 || receiver_->port() <= 0) return;
    for (int i = 0; i < kDaemons; ++i) daemons_[i] = DaemonProcess::start(options()).release();
  }
  static void TearDownTestSuite() {
    for (DaemonProcess*& daemon : daemons_) {
      delete daemon;
      daemon = nullptr;
    }
    delete receiver_;
    delete sink_;
    delete server_;
  }
  void SetUp() override {
    ASSERT_EQ(problem_, "");
    ASSERT_GT(sink_->port(), 0) << "the SMTP sink (python3-aiosmtpd) did not start";
    ASSERT_GT(receiver_->port(), 0) << "the webhook receiver did not start";
  }

  // The daemon a load balancer sends request `n` to.
  static DaemonProcess& daemon(int n) { return *daemons_[n % kDaemons]; }

  static Answer call(int n, const json& body, const Headers& headers = {}) {
    const HttpResponse r = daemon(n).call(body, headers);
    return {r.status, r.json()};
  }
  static Headers bearer(const std::string& token) { return {{"Authorization", "Bearer " + token}}; }
  static Headers admin_key() { return {{"X-Admin-Key", kAdminKey}}; }

  static Answer signup(int n, const std::string& email) {
    return call(n, {{"op", "auth.signup"},
                    {"email", email},
                    {"password", kPassword},
                    {"display_name", "Ann Example"}});
  }
  static Answer signin(int n, const std::string& email, const std::string& password = kPassword) {
    return call(n, {{"op", "auth.signin"},
                    {"grant_type", "password"},
                    {"email", email},
                    {"password", password}});
  }
  // A new account signed in through daemon `n`: its token set.
  static json new_user(int n, const std::string& email) {
    const Answer up = signup(n, email);
    EXPECT_EQ(up.code(), "OK") << up.body.dump();
    const Answer in = signin(n, email);
    if (in.code() != "OK") throw std::runtime_error("sign-in of " + email + ": " + in.body.dump());
    return in.data();
  }

  // Runs `request(i)` for i in [0, count) on `count` threads released together.
  template <typename Request>
  static std::vector<Answer> at_once(int count, Request request) {
    std::vector<Answer> answers(count);
    std::atomic<int> ready{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < count; ++i) {
      threads.emplace_back([&, i] {
        ready.fetch_add(1);
        while (ready.load() < count) std::this_thread::yield();
        answers[i] = request(i);
      });
    }
    for (auto& thread : threads) thread.join();
    return answers;
  }
  // Requests that race on one stored count: at once where the server applies concurrent updates
  // of a document atomically, else one after another (see the top of this file).
  template <typename Request>
  static std::vector<Answer> racing(int count, Request request) {
    if (atomic_updates_) return at_once(count, request);
    std::vector<Answer> answers;
    for (int i = 0; i < count; ++i) answers.push_back(request(i));
    return answers;
  }
  static int count_of(const std::vector<Answer>& answers, const std::string& code) {
    return static_cast<int>(std::count_if(answers.begin(), answers.end(),
                                          [&](const Answer& a) { return a.code() == code; }));
  }

  // Polls `seen()` until true or `bound` passes; how long it took, or nullopt.
  template <typename Seen>
  static std::optional<std::chrono::milliseconds> within(std::chrono::milliseconds bound,
                                                         Seen seen) {
    const auto start = steady_clock::now();
    while (steady_clock::now() - start <= bound) {
      if (seen()) {
        return std::chrono::duration_cast<std::chrono::milliseconds>(steady_clock::now() - start);
      }
      std::this_thread::sleep_for(50ms);
    }
    return std::nullopt;
  }

  static constexpr const char* kEndpointKey = "ep_many_daemons_0123456789abcdef";
  static constexpr const char* kApiKey = "ak_many_daemons_0123456789abcdef0123456789abcdef01";
  static FerretDbServer* server_;  // none when OPBASE_TEST_MONGODB_URI names the server
  static std::string uri_;
  static std::string problem_;  // why there is no server
  static bool atomic_updates_;  // false on FerretDB
  static SmtpSink* sink_;
  static WebhookReceiver* receiver_;
  static DaemonProcess* daemons_[kDaemons];
};

FerretDbServer* ManyDaemons::server_ = nullptr;
std::string ManyDaemons::uri_;
std::string ManyDaemons::problem_;
bool ManyDaemons::atomic_updates_ = false;
SmtpSink* ManyDaemons::sink_ = nullptr;
WebhookReceiver* ManyDaemons::receiver_ = nullptr;
DaemonProcess* ManyDaemons::daemons_[kDaemons] = {};

// Every daemon serves the one project: an account made through one signs in through the others,
// and an id token one daemon issued is accepted by every other (the signing key is in the store).
TEST_F(ManyDaemons, AnAccountAndItsTokensWorkThroughEveryDaemon) {
  const json tokens = new_user(0, fresh_email("everywhere"));
  for (int n = 0; n < kDaemons; ++n) {
    const Answer inserted =
        call(n, {{"op", "collection.insert"}, {"collection", "notes"}, {"data", {{"from", n}}}},
             bearer(tokens["id_token"]));
    EXPECT_EQ(inserted.code(), "OK") << n << " " << inserted.body.dump();
  }
  for (int n = 0; n < kDaemons; ++n) {
    const Answer found =
        call(n, {{"op", "collection.find"}, {"collection", "notes"}, {"match", json::object()}},
             bearer(tokens["id_token"]));
    ASSERT_EQ(found.code(), "OK") << found.body.dump();
    EXPECT_EQ(found.data().size(), static_cast<size_t>(kDaemons)) << n;
  }
}

// Wrong guesses at one account from one address, spread over the daemons (and racing): exactly
// the limit is checked, whichever daemon each reached.
TEST_F(ManyDaemons, TheSigninLimitIsSharedExactly) {
  const std::string email = fresh_email("victim");
  ASSERT_EQ(signup(0, email).code(), "OK");
  constexpr int kGuesses = 4 * kSigninLimit;
  const auto answers = racing(kGuesses, [&](int i) { return signin(i, email, "Wrong-pass-1"); });
  EXPECT_EQ(count_of(answers, "INVALID_CREDENTIALS"), kSigninLimit);
  EXPECT_EQ(count_of(answers, "RATE_LIMIT_EXCEEDED"), kGuesses - kSigninLimit);
  for (int n = 0; n < kDaemons; ++n) {
    EXPECT_EQ(signin(n, email).code(), "RATE_LIMIT_EXCEEDED") << "the right one too, now";
  }
}

// One user's AI calls spread over the daemons (and racing): exactly the daily quota passes.
TEST_F(ManyDaemons, TheAiQuotaIsSharedExactly) {
  const json tokens = new_user(1, fresh_email("writer"));
  constexpr int kCalls = 3 * kAiCallsPerDay;
  const auto answers = racing(kCalls, [&](int i) {
    return call(i, {{"op", "ai.sentiment"}, {"content", "A fine day."}},
                bearer(tokens["id_token"]));
  });
  EXPECT_EQ(count_of(answers, "OK"), kAiCallsPerDay);
  EXPECT_EQ(count_of(answers, "QUOTA_EXCEEDED"), kCalls - kAiCallsPerDay);
}

// A solved captcha sent to every daemon at once makes one insert; the others are replays. (A
// spent challenge is an insert of its own key, which even FerretDB keeps unique under races.)
TEST_F(ManyDaemons, ACaptchaSolutionIsAcceptedOnce) {
  const Answer challenge = call(0, {{"op", "captcha.challenge"}});
  ASSERT_EQ(challenge.code(), "OK") << challenge.body.dump();
  const std::string solution = solved(challenge.data());
  const auto answers = at_once(2 * kDaemons, [&](int i) {
    return call(i, {{"op", "collection.insert"},
                    {"collection", "guestbook"},
                    {"data", {{"text", "hello"}}},
                    {"captcha", solution}});
  });
  EXPECT_EQ(count_of(answers, "OK"), 1);
  int replays = 0;
  for (const Answer& a : answers) {
    if (a.status == 401 && a.body["error"]["details"].value("reason", "") == "replayed") ++replays;
  }
  EXPECT_EQ(replays, 2 * kDaemons - 1);
}

// The code mailed through one daemon, tried through every daemon (racing): one sign-in.
TEST_F(ManyDaemons, AMailedCodeIsAcceptedOnce) {
  const std::string email = fresh_email("coded");
  ASSERT_EQ(signup(2, email).code(), "OK");
  const size_t before = sink_->messages().size();
  ASSERT_EQ(call(2, {{"op", "auth.send_otp"}, {"email", email}, {"intent", "signin"}}).code(),
            "OK");
  std::string code;
  within(10s, [&] {
    const std::vector<json> mails = sink_->messages();
    for (size_t i = before; i < mails.size(); ++i) {
      if (mails[i].value("rcpt_tos", json::array()).dump().find(email) == std::string::npos) {
        continue;
      }
      std::smatch match;
      const std::string text = mails[i].value("text", "");
      if (std::regex_search(text, match, std::regex(R"(\b(\d{6})\b)"))) code = match[1];
    }
    return !code.empty();
  });
  ASSERT_EQ(code.size(), 6u) << "no code was mailed";
  const auto answers = racing(2 * kDaemons, [&](int i) {
    return call(i, {{"op", "auth.signin"}, {"grant_type", "otp"}, {"email", email}, {"otp", code}});
  });
  EXPECT_EQ(count_of(answers, "OK"), 1);
  EXPECT_EQ(count_of(answers, "OTP_INVALID"), 2 * kDaemons - 1);
}

// Tabs refreshing one session through different daemons (racing) all get the one new pair, and
// the session goes on.
TEST_F(ManyDaemons, ARefreshTokenIsRotatedOnceUnderRacingRefreshes) {
  const json tokens = new_user(0, fresh_email("tabs"));
  const json refresh = {{"op", "auth.refresh_token"},
                        {"refresh_token", tokens["refresh_token"]},
                        {"id_token", tokens["id_token"]}};
  const auto answers = racing(2 * kDaemons, [&](int i) { return call(i, refresh); });
  std::set<std::string> pairs;
  for (const Answer& a : answers) {
    ASSERT_EQ(a.code(), "OK") << a.body.dump();
    pairs.insert(a.data()["refresh_token"].get<std::string>() + " " +
                 a.data()["id_token"].get<std::string>());
  }
  EXPECT_EQ(pairs.size(), 1u) << "one rotation, whichever daemon answered";
  const json next = answers[0].data();
  EXPECT_NE(next["refresh_token"], tokens["refresh_token"]);
  for (int n = 0; n < kDaemons; ++n) {
    EXPECT_EQ(call(n, {{"op", "collection.insert"}, {"collection", "notes"}, {"data", {{"n", n}}}},
                   bearer(next["id_token"]))
                  .code(),
              "OK");
  }
  const Answer again = call(1, {{"op", "auth.refresh_token"},
                                {"refresh_token", next["refresh_token"]},
                                {"id_token", next["id_token"]}});
  EXPECT_EQ(again.code(), "OK") << again.body.dump();
}

// Documents inserted through every daemon: each one's message is delivered once, by one
// daemon (the claim in the store). On FerretDB two daemons' claims can race and both win, so
// there a message may come twice, always with its one Webhook-Id for the receiver to drop the
// second.
TEST_F(ManyDaemons, EachWebhookMessageIsDeliveredOnce) {
  const json tokens = new_user(0, fresh_email("hooked"));
  const std::string collection = "hooked_orders";
  constexpr int kDocuments = 30;
  std::set<std::string> inserted;
  for (int i = 0; i < kDocuments; ++i) {
    const Answer a =
        call(i, {{"op", "collection.insert"}, {"collection", collection}, {"data", {{"i", i}}}},
             bearer(tokens["id_token"]));
    ASSERT_EQ(a.code(), "OK") << a.body.dump();
    inserted.insert(a.data()[0]["_key"].get<std::string>());
  }
  std::map<std::string, int> deliveries;  // document key -> deliveries
  std::set<std::string> ids;
  const auto delivered = [&] {
    deliveries.clear();
    ids.clear();
    for (const Delivery& d : receiver_->deliveries()) {
      const json body = json::parse(d.body, nullptr, false);
      if (!body.is_object() || body["data"].value("collection", "") != collection) continue;
      ++deliveries[body["data"].value("_key", "")];
      ids.insert(d.id);
    }
    return deliveries.size() >= inserted.size();
  };
  ASSERT_TRUE(within(30s, delivered)) << deliveries.size() << " of " << kDocuments;
  std::this_thread::sleep_for(2s);  // time for a second delivery, were there one
  delivered();
  EXPECT_EQ(deliveries.size(), inserted.size());
  int repeated = 0;
  for (const auto& [key, times] : deliveries) {
    EXPECT_TRUE(inserted.contains(key)) << key;
    if (times > 1) ++repeated;
  }
  if (atomic_updates_) EXPECT_EQ(repeated, 0);
  EXPECT_EQ(ids.size(), inserted.size()) << "one Webhook-Id per message, however often sent";
}

// Costly queries on one field through every daemon at once: one automatic index, listed the
// same by every daemon.
TEST_F(ManyDaemons, AnAutomaticIndexIsMadeOnce) {
  const json tokens = new_user(1, fresh_email("indexed"));
  const std::string collection = "auto_indexed";
  json batch = json::array();
  for (int i = 0; i < 40; ++i) batch.push_back({{"colour", i % 4}, {"i", i}});
  ASSERT_EQ(call(0, {{"op", "collection.insert"}, {"collection", collection}, {"data", batch}},
                 bearer(tokens["id_token"]))
                .code(),
            "OK");
  const auto answers = at_once(2 * kDaemons, [&](int i) {
    return call(
        i, {{"op", "collection.find"}, {"collection", collection}, {"match", {{"colour", i % 4}}}},
        bearer(tokens["id_token"]));
  });
  for (const Answer& a : answers) EXPECT_EQ(a.code(), "OK") << a.body.dump();
  const auto autos = [&](int n) {
    const Answer list =
        call(n, {{"op", "collection.index.list"}, {"collection", collection}}, admin_key());
    EXPECT_EQ(list.code(), "OK") << list.body.dump();
    json made = json::array();
    for (const json& index : list.data()["indexes"]) {
      if (index["origin"] == "auto") made.push_back(index["field"]);
    }
    return made;
  };
  ASSERT_TRUE(within(20s, [&] { return autos(0).size() == 1; })) << autos(0);
  std::this_thread::sleep_for(1s);  // a second creation, were there one, would be listed now
  for (int n = 0; n < kDaemons; ++n) EXPECT_EQ(autos(n), json({"colour"})) << n;
}

// A settings change made through one daemon is in force on the others within
// storage.settings_reload_s.
TEST_F(ManyDaemons, ASettingsChangeIsSeenByEveryDaemonWithinItsBound) {
  const auto admin = daemon(0).admin();
  const auto policy = [](int n) {
    const Answer shown = call(n, {{"op", "auth.settings"}});
    return shown.data()["email_settings"].value("password_policy_name", "");
  };
  for (int n = 0; n < kDaemons; ++n) policy(n);  // each has read the settings now
  const Answer changed = call(
      0, {{"op", "auth.settings.update"}, {"data", {{"password_policy", "HIGH"}}}}, admin.bearer());
  ASSERT_EQ(changed.code(), "OK") << changed.body.dump();
  EXPECT_EQ(policy(0), "HIGH") << "at once on the daemon that made it";
  for (int n = 1; n < kDaemons; ++n) {
    const auto took = within(std::chrono::seconds(kSettingsReloadS) + 1500ms,
                             [&] { return policy(n) == "HIGH"; });
    EXPECT_TRUE(took.has_value()) << "daemon " << n;
  }
  ASSERT_EQ(call(1, {{"op", "auth.settings.update"}, {"data", {{"password_policy", nullptr}}}},
                 admin.bearer())
                .code(),
            "OK");
}

// A vector record inserted through one daemon is found through every other within the feed's
// bound (vdb.refresh_ms + vdb.refresh_settle_ms: about 3 s), and its deletion too.
TEST_F(ManyDaemons, AVectorRecordIsFoundThroughEveryDaemonWithinTheFeedsBound) {
  const json tokens = new_user(2, fresh_email("vectors"));
  const std::string text = "Lighthouses guide ships along the rocky northern coast.";
  const Answer inserted =
      call(2, {{"op", "vdb.insert"}, {"collection", "shared_notes"}, {"data", {{"content", text}}}},
           bearer(tokens["id_token"]));
  ASSERT_EQ(inserted.code(), "OK") << inserted.body.dump();
  const std::string key = inserted.data()[0]["_key"];
  const auto finds = [&](int n) {
    const Answer found =
        call(n, {{"op", "vdb.search"}, {"collection", "shared_notes"}, {"query", text}},
             bearer(tokens["id_token"]));
    return found.code() == "OK" && !found.data().empty() && found.data()[0]["_key"] == key;
  };
  EXPECT_TRUE(finds(2)) << "at once through the daemon that inserted it";
  for (int n = 0; n < 2; ++n) {
    EXPECT_TRUE(within(6s, [&] { return finds(n); }).has_value()) << "daemon " << n;
  }
  ASSERT_EQ(
      call(0, {{"op", "vdb.delete"}, {"collection", "shared_notes"}, {"match", {{"_key", key}}}},
           bearer(tokens["id_token"]))
          .code(),
      "OK");
  for (int n = 0; n < kDaemons; ++n) {
    EXPECT_TRUE(within(6s, [&] { return !finds(n); }).has_value()) << "daemon " << n;
  }
}

// A stream held by daemon 0, its subscription made through daemon 1 and the writes made through
// daemons 1 and 2: each write reaches it through the shared store, in order, without a broker.
TEST_F(ManyDaemons, AWriteThroughOneDaemonReachesALiveQueryOfAnother) {
  const json tokens = new_user(1, fresh_email("live"));
  EventStream stream(daemon(0));
  const std::string client = stream.expect("connect").data.value("client_id", "");
  const std::string feed = "live_feed";
  const Answer subscribed = call(1,
                                 {{"op", "realtime.subscribe"},
                                  {"client_id", client},
                                  {"collection", feed},
                                  {"match", json::object()}},
                                 bearer(tokens["id_token"]));
  ASSERT_EQ(subscribed.code(), "OK") << subscribed.body.dump();
  // Another user's write through daemon 1 is the stream's owner's business only if theirs.
  const Answer other = call(1,
                            {{"op", "realtime.subscribe"},
                             {"client_id", client},
                             {"collection", feed},
                             {"match", json::object()}},
                            bearer(new_user(1, fresh_email("other"))["id_token"]));
  EXPECT_EQ(other.code(), "FORBIDDEN") << "the stream is its first subscriber's, on every daemon";
  std::this_thread::sleep_for(10ms);  // the writes come after the subscription, by the clock too
  std::vector<double> waits_ms;
  for (int n = 0; n < 6; ++n) {
    const Answer inserted =
        call(1 + n % 2, {{"op", "collection.insert"}, {"collection", feed}, {"data", {{"n", n}}}},
             bearer(tokens["id_token"]));
    ASSERT_EQ(inserted.code(), "OK") << inserted.body.dump();
    const auto written = std::chrono::steady_clock::now();
    const Event created = stream.expect("created", 10s);
    waits_ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - written)
            .count());
    EXPECT_EQ(created.data["document"]["n"], n) << "in order, through daemon " << 1 + n % 2;
  }
  std::sort(waits_ms.begin(), waits_ms.end());
  std::printf("live query through the store: %.0f to %.0f ms from a write to its event\n",
              waits_ms.front(), waits_ms.back());
}

// Writers insert through every daemon while one is killed with SIGKILL: every insert that was
// answered OK is there, the other daemons answer throughout, and the daemon started again in
// its place serves every document, those written while it was down included.
TEST_F(ManyDaemons, ADaemonKilledUnderWriteLoadLosesNoAcknowledgedWrite) {
  const json tokens = new_user(0, fresh_email("loaded"));
  const std::string collection = "under_load";
  std::mutex mutex;
  std::set<int> acknowledged;
  std::atomic<bool> stop{false};
  std::atomic<int> failures_on_survivors{0};
  std::string first_failure;
  std::atomic<int> next{0};
  std::vector<std::thread> writers;
  for (int w = 0; w < kDaemons; ++w) {
    writers.emplace_back([&, w] {
      while (!stop.load()) {
        const int i = next.fetch_add(1);
        const HttpResponse r = daemons_[w]->call(
            {{"op", "collection.insert"}, {"collection", collection}, {"data", {{"i", i}}}},
            bearer(tokens["id_token"]));
        if (r.status == 200) {
          const std::lock_guard lock(mutex);
          acknowledged.insert(i);
        } else if (w != kDaemons - 1) {
          if (failures_on_survivors.fetch_add(1) == 0) {
            const std::lock_guard lock(mutex);
            first_failure = r.describe();
          }
        } else {
          std::this_thread::sleep_for(10ms);  // the killed daemon refuses connections
        }
      }
    });
  }
  std::this_thread::sleep_for(1500ms);
  daemons_[kDaemons - 1]->send_signal(SIGKILL);
  EXPECT_TRUE(daemons_[kDaemons - 1]->wait_exit(10s).has_value());
  std::this_thread::sleep_for(1500ms);
  stop = true;
  for (auto& writer : writers) writer.join();
  EXPECT_EQ(failures_on_survivors.load(), 0) << first_failure;

  delete daemons_[kDaemons - 1];
  daemons_[kDaemons - 1] = DaemonProcess::start(options()).release();
  ASSERT_GT(acknowledged.size(), 10u);
  for (int n = 0; n < kDaemons; ++n) {
    std::set<int> found;
    for (int offset = 0;; offset += 1000) {
      const Answer page = call(n,
                               {{"op", "collection.find"},
                                {"collection", collection},
                                {"match", json::object()},
                                {"limit", 1000},
                                {"offset", offset}},
                               bearer(tokens["id_token"]));
      ASSERT_EQ(page.code(), "OK") << page.body.dump();
      for (const json& doc : page.data()) found.insert(doc["i"].get<int>());
      if (page.data().size() < 1000) break;
    }
    for (int i : acknowledged) EXPECT_TRUE(found.contains(i)) << "daemon " << n << " lost " << i;
  }
}

}  // namespace
}  // namespace opbase::test
