// The webhooks plugin over HTTP, against a real receiver (tests/support/webhook_receiver.py): the
// configured endpoint gets every selected event of document and user ops, signed so that the
// official Standard Webhooks library (npm standardwebhooks) verifies it; failed attempts are
// retried with the same Webhook-Id at growing delays until the last, then the message fails;
// messages pending at a kill -9 are delivered after the restart. Retry delays are short here.
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <thread>

#include "daemon_process.hpp"
#include "webhook_receiver.hpp"

namespace opbase::test {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

// 32 key bytes; any whsec_ secret works, a fixed one lets the verifier check it.
const std::string kSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwMfKQ9r8GKYo=";

constexpr const char* kAdminEmail = "root@example.com";
const std::string kAdminKey = "sak_webhooks_test_0123456789abcdef0123";  // server.admin_key
constexpr const char* kAdminPassword = "Admin-Pass-1";

DaemonOptions webhook_options(const WebhookReceiver& receiver, const std::string& storage = "") {
  DaemonOptions o;
  o.plugins = {"auth", "collection", "webhooks"};
  o.config = {{"auth.rate.signup_per_address", "off"},
              {"webhooks.url", receiver.url("/hook")},
              {"webhooks.secret", kSecret},
              {"webhooks.events",
               "document.created,document.updated,document.deleted,user.signedup,"
               "user.signedin,user.signedout"},
              {"webhooks.allow_private_targets", "true"},
              {"webhooks.retry_delays", "300ms,600ms,900ms,1200ms,1500ms"},
              {"webhooks.timeout", "2s"},
              {"webhooks.lease", "5s"},
              {"webhooks.poll", "100ms"}};
  if (!storage.empty()) o.config["storage.path"] = storage;
  return o;
}

json body_of(const Delivery& d) { return json::parse(d.body); }

TEST(Webhooks, EverySelectedEventArrivesSignedForTheOfficialLibrary) {
  WebhookReceiver receiver(ReceiverOptions{});
  ASSERT_GT(receiver.port(), 0);
  auto daemon = DaemonProcess::start(webhook_options(receiver));
  const auto& alice = daemon->user("alice");  // user.signedup, user.signedin
  const Headers bearer = alice.bearer();
  HttpResponse inserted = daemon->call(
      {{"op", "collection.insert"}, {"collection", "orders"}, {"data", {{"total", 5}}}}, bearer);
  ASSERT_EQ(inserted.status, 200) << inserted.describe();
  const std::string key = inserted.json()["data"][0]["_key"];
  daemon->call({{"op", "collection.update"},
                {"collection", "orders"},
                {"data", {{"_key", key}, {"total", 6}}}},
               bearer);
  daemon->call({{"op", "collection.delete"}, {"collection", "orders"}, {"match", {{"_key", key}}}},
               bearer);

  const std::vector<Delivery> got = receiver.wait_for(5, 20s);
  ASSERT_EQ(got.size(), 5u);
  std::map<std::string, json> by_type;
  std::set<std::string> ids;
  for (const Delivery& d : got) {
    EXPECT_EQ(d.method, "POST");
    EXPECT_EQ(d.path, "/hook");
    EXPECT_EQ(d.header("content-type"), "application/json");
    EXPECT_TRUE(d.id.starts_with("msg_")) << d.id;
    ids.insert(d.id);
    EXPECT_FALSE(d.timestamp.empty());
    EXPECT_TRUE(std::all_of(d.timestamp.begin(), d.timestamp.end(), ::isdigit)) << d.timestamp;
    EXPECT_NEAR(std::stoll(d.timestamp), d.received_ms / 1000, 5);
    EXPECT_TRUE(d.signature.starts_with("v1,")) << d.signature;
    by_type[body_of(d)["type"]] = body_of(d);
  }
  EXPECT_EQ(ids.size(), got.size()) << "one Webhook-Id per message";
  ASSERT_EQ(by_type.size(), 5u);
  EXPECT_EQ(by_type["user.signedup"]["data"], json({{"_key", alice.key}}));
  EXPECT_EQ(by_type["user.signedin"]["data"], json({{"_key", alice.key}}));
  for (const char* type : {"document.created", "document.updated", "document.deleted"}) {
    EXPECT_EQ(by_type[type]["data"], json({{"_key", key}, {"collection", "orders"}})) << type;
    // The event's time, ISO 8601 UTC with milliseconds (docs/api.md#deliveries).
    const std::string ts = by_type[type]["timestamp"];
    EXPECT_EQ(ts.size(), 24u) << ts;
    EXPECT_EQ(ts.back(), 'Z') << ts;
  }

  const VerifierResult verified = verify_signatures(kSecret, got);
  EXPECT_EQ(verified.exit_code, 0) << verified.output;
  EXPECT_EQ(verified.lines.size(), got.size());
  // A wrong secret fails there: the check is real.
  EXPECT_EQ(verify_signatures("whsec_" + std::string(43, 'A') + "=", {got[0]}).exit_code, 1);
}

TEST(Webhooks, FailedAttemptsAreRetriedWithTheSameIdThenTheMessageFails) {
  WebhookReceiver receiver(ReceiverOptions{ReceiverBehaviour{.fail_first = 2}});
  auto daemon = DaemonProcess::start(webhook_options(receiver));
  const Headers bearer = daemon->user("bob").bearer();  // two events, each failed twice first
  const std::vector<Delivery> first = receiver.wait_for(6, 20s);
  ASSERT_EQ(first.size(), 6u);
  std::map<std::string, std::vector<Delivery>> by_id;
  for (const Delivery& d : first) by_id[d.id].push_back(d);
  ASSERT_EQ(by_id.size(), 2u);
  for (const auto& [id, attempts] : by_id) {
    ASSERT_EQ(attempts.size(), 3u);
    EXPECT_EQ(attempts[0].status, 500);
    EXPECT_EQ(attempts[1].status, 500);
    EXPECT_EQ(attempts[2].status, 200);
    EXPECT_EQ(attempts[0].body, attempts[2].body) << "every attempt sends the same bytes";
    // 300 ms then 600 ms, each +-20 %, plus the poll interval at most.
    const int64_t wait1 = attempts[1].received_ms - attempts[0].received_ms;
    const int64_t wait2 = attempts[2].received_ms - attempts[1].received_ms;
    EXPECT_GE(wait1, 240) << id;
    EXPECT_GE(wait2, 480) << id;
    EXPECT_GT(wait2, wait1) << id;
  }

  // A receiver that always fails: 1 attempt + 5 retries, then nothing more.
  receiver.set_behaviour(ReceiverBehaviour{.status = 503});
  receiver.reset();
  daemon->call({{"op", "collection.insert"}, {"collection", "c"}, {"data", {{"a", 1}}}}, bearer);
  const std::vector<Delivery> failing = receiver.wait_for(6, 20s);
  ASSERT_EQ(failing.size(), 6u);
  std::this_thread::sleep_for(2500ms);  // longer than the last delay: a 7th would have come
  EXPECT_EQ(receiver.deliveries().size(), 6u);
  EXPECT_EQ(daemon->metric("opbase_webhooks_failed_total"), 1);
  EXPECT_EQ(daemon->metric("opbase_webhooks_retried_total"), 4 + 5);  // 2 + 2, then 5
}

// The `_key`s of the document.created events `receiver` responded 200 to, once there are `count`
// (or after 20 s).
std::set<std::string> delivered_document_keys(const WebhookReceiver& receiver, size_t count) {
  std::set<std::string> delivered;
  for (int round = 0; round < 200 && delivered.size() < count; ++round) {
    delivered.clear();
    for (const Delivery& d : receiver.deliveries()) {
      const json body = body_of(d);
      if (d.status == 200 && body["type"] == "document.created") {
        delivered.insert(body["data"]["_key"].get<std::string>());
      }
    }
    std::this_thread::sleep_for(100ms);
  }
  return delivered;
}

// 20 inserts as `first` returns, the daemon stopped by `stop_signal`, then a restart with the
// receiver healthy: every acknowledged insert's event is delivered. `before_stop` runs on the
// first daemon after the inserts.
void pending_messages_survive(int stop_signal, ReceiverBehaviour first,
                              std::map<std::string, std::string> settings = {},
                              const std::function<void(DaemonProcess&)>& before_stop = {}) {
  char pattern[] = "/tmp/opbase-webhooks-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  const std::string storage = pattern;
  WebhookReceiver receiver(ReceiverOptions{first});
  DaemonOptions options = webhook_options(receiver, storage);
  for (auto& [key, value] : settings) options.config[key] = value;
  std::set<std::string> keys;
  {
    auto daemon = DaemonProcess::start(options);
    const Headers bearer = daemon->user("carol").bearer();
    for (int i = 0; i < 20; ++i) {
      HttpResponse r = daemon->call(
          {{"op", "collection.insert"}, {"collection", "c"}, {"data", {{"i", i}}}}, bearer);
      ASSERT_EQ(r.status, 200);
      keys.insert(r.json()["data"][0]["_key"].get<std::string>());
    }
    if (before_stop) before_stop(*daemon);
    daemon->send_signal(stop_signal);
    ASSERT_TRUE(daemon->wait_exit(10s).has_value());
  }
  receiver.set_behaviour(ReceiverBehaviour{});
  auto restarted = DaemonProcess::start(options);
  EXPECT_EQ(delivered_document_keys(receiver, keys.size()), keys)
      << "every acknowledged insert's event, after the restart";
  std::error_code ignored;
  std::filesystem::remove_all(storage, ignored);
}

void pending_messages_survive(int stop_signal) {
  pending_messages_survive(stop_signal, ReceiverBehaviour{.status = 500});
}

TEST(Webhooks, PendingMessagesSurviveKill9AndAreDeliveredAfterTheRestart) {
  pending_messages_survive(SIGKILL);
}

TEST(Webhooks, PendingMessagesSurviveACleanStopAndAreDeliveredAfterTheRestart) {
  pending_messages_survive(SIGTERM);
}

// With one delivery thread per endpoint, held by a receiver that takes 3 s, the endpoint is
// behind: the messages of the 20 inserts are stored in bundles, and those survive `kill -9` too.
TEST(Webhooks, BundledMessagesSurviveKill9AndAreDeliveredAfterTheRestart) {
  const auto all_bundled = [](DaemonProcess& daemon) {
    double bundled = 0;
    for (int tries = 0; tries < 50 && bundled < 20; ++tries) {
      bundled = daemon.metric("opbase_webhooks_bundled_total").value_or(0);
      if (bundled < 20) std::this_thread::sleep_for(100ms);
    }
    EXPECT_GE(bundled, 20) << "the inserts' messages were not all bundled before the kill";
  };
  pending_messages_survive(
      SIGKILL, ReceiverBehaviour{.sleep_ms = 3000},
      {{"webhooks.workers", "2"}, {"webhooks.timeout", "5s"}, {"webhooks.lease", "6s"}},
      all_bundled);
}

TEST(Webhooks, BadSettingsRefuseThePluginNamingTheKey) {
  WebhookReceiver receiver(ReceiverOptions{});
  for (const auto& [key, value] :
       std::vector<std::pair<std::string, std::string>>{{"webhooks.url", "ftp://example.com/"},
                                                        {"webhooks.secret", "not-a-secret"},
                                                        {"webhooks.retry_delays", "5s,soon"},
                                                        {"webhooks.timeout", "1h"},
                                                        {"webhooks.signature_content", "body"},
                                                        {"webhooks.workers", "0"}}) {
    DaemonOptions options = webhook_options(receiver);
    options.config[key] = value;
    auto daemon = DaemonProcess::start(options);
    const HttpResponse ready = daemon->request("GET", "/readyz");
    EXPECT_EQ(ready.status, 503) << key;
    EXPECT_EQ(ready.json()["checks"]["plugins"]["webhooks"], "refused") << key;
    EXPECT_NE(daemon->log().find(key), std::string::npos) << key << ": " << daemon->log();
  }
  // A gateway setting stops the start itself.
  DaemonOptions options = webhook_options(receiver);
  options.config["server.admin_key"] = "too-short";
  auto daemon = DaemonProcess::spawn(options);
  EXPECT_EQ(daemon->wait_exit(20s), 78);
  EXPECT_NE(daemon->log().find("server.admin_key"), std::string::npos) << daemon->log();
}

// The admin's bearer header (auth.admin_* makes the admin on the project's first use).
Headers admin_of(const DaemonProcess& daemon) {
  return daemon.signin(kAdminEmail, kAdminPassword).bearer();
}

TEST(Webhooks, AdminsManageEndpointsAndSeeEveryAttempt) {
  WebhookReceiver configured(ReceiverOptions{});
  WebhookReceiver second(ReceiverOptions{ReceiverBehaviour{.fail_first = 1}});
  DaemonOptions options = webhook_options(configured);
  options.config["auth.admin_email"] = kAdminEmail;
  options.config["auth.admin_password"] = kAdminPassword;
  options.config["server.admin_key"] = kAdminKey;
  auto daemon = DaemonProcess::start(options);
  const Headers admin = admin_of(*daemon);
  const Headers user = daemon->user("dave").bearer();

  // Only admins manage webhooks.
  HttpResponse refused = daemon->call({{"op", "webhooks.endpoint.list"}}, user);
  EXPECT_EQ(refused.status, 403) << refused.describe();
  // The server admin key stands in for an admin's token; a wrong one is refused.
  EXPECT_EQ(daemon->call({{"op", "webhooks.endpoint.list"}}, {{"X-Admin-Key", kAdminKey}}).status,
            200);
  EXPECT_EQ(
      daemon->call({{"op", "webhooks.endpoint.list"}}, {{"X-Admin-Key", kAdminKey + "x"}}).status,
      401);

  HttpResponse created = daemon->call({{"op", "webhooks.endpoint.create"},
                                       {"url", second.url("/second")},
                                       {"events", {"document.created"}},
                                       {"description", "orders feed"}},
                                      admin);
  ASSERT_EQ(created.status, 200) << created.describe();
  const json endpoint = created.json()["data"];
  const std::string id = endpoint["id"];
  const std::string secret = endpoint["secret"];
  EXPECT_TRUE(secret.starts_with("whsec_"));
  EXPECT_EQ(endpoint["events"], json({"document.created"}));

  HttpResponse listed = daemon->call({{"op", "webhooks.endpoint.list"}}, admin);
  ASSERT_EQ(listed.status, 200);
  ASSERT_EQ(listed.json()["data"].size(), 2u);  // the configured one and the new one
  for (const json& e : listed.json()["data"]) EXPECT_FALSE(e.contains("secret")) << e.dump();

  // Bad parameters name their field.
  for (const auto& [body, field] : std::vector<std::pair<json, std::string>>{
           {{{"op", "webhooks.endpoint.create"}}, "url"},
           {{{"op", "webhooks.endpoint.create"}, {"url", "ftp://x.example/"}}, "url"},
           {{{"op", "webhooks.endpoint.create"}, {"url", second.url()}, {"events", {"nope"}}},
            "events"},
           {{{"op", "webhooks.endpoint.update"}, {"id", "whep_missing"}, {"enabled", false}}, "id"},
           {{{"op", "webhooks.message.list"}, {"limit", 0}}, "limit"},
           {{{"op", "webhooks.message.list"}, {"state", "lost"}}, "state"},
           {{{"op", "webhooks.message.list"}, {"offset", -1}}, "offset"},
           {{{"op", "webhooks.message.resend"}, {"id", 7}}, "id"},
           {{{"op", "webhooks.message.resend"}, {"id", "msg_missing"}}, "id"},
           {{{"op", "webhooks.endpoint.create"}, {"url", second.url()}, {"enabled", "yes"}},
            "enabled"},
           {{{"op", "webhooks.endpoint.create"}, {"url", second.url()}, {"secret", "whsec_x"}},
            "secret"},
           {{{"op", "webhooks.endpoint.create"},
             {"url", second.url()},
             {"signature_content", "body"}},
            "signature_content"},
           {{{"op", "webhooks.endpoint.update"}, {"id", id}, {"secret", secret}}, "secret"},
           {{{"op", "webhooks.endpoint.rotate_secret"}, {"id", id}, {"grace_s", -1}}, "grace_s"},
           {{{"op", "webhooks.endpoint.delete"}}, "id"}}) {
    HttpResponse r = daemon->call(body, admin);
    EXPECT_EQ(r.status, 400) << body.dump() << " " << r.describe();
    EXPECT_EQ(r.json()["error"]["code"], "VALIDATION_ERROR");
    EXPECT_EQ(r.json()["error"]["details"]["field"], field) << body.dump();
  }

  daemon->call({{"op", "collection.insert"}, {"collection", "orders"}, {"data", {{"n", 1}}}}, user);
  const std::vector<Delivery> at_second = second.wait_for(2, 20s);  // failed once, then delivered
  ASSERT_EQ(at_second.size(), 2u);
  EXPECT_EQ(at_second[0].id, at_second[1].id);
  EXPECT_EQ(verify_signatures(secret, {at_second[1]}).exit_code, 0);

  // The daemon records the delivery once the receiver answered: a moment after the receiver has
  // it, longer on a MongoDB server.
  HttpResponse messages;
  for (int tries = 0; tries < 100; ++tries) {
    messages = daemon->call(
        {{"op", "webhooks.message.list"}, {"endpoint", id}, {"state", "delivered"}}, admin);
    if (messages.status != 200 || messages.json()["meta"]["total"] == 1) break;
    std::this_thread::sleep_for(50ms);
  }
  ASSERT_EQ(messages.status, 200) << messages.describe();
  ASSERT_EQ(messages.json()["meta"]["total"], 1);
  const json message = messages.json()["data"][0];
  EXPECT_EQ(message["id"], at_second[0].id);
  EXPECT_EQ(message["payload"]["type"], "document.created");
  ASSERT_EQ(message["attempts"].size(), 2u);
  EXPECT_EQ(message["attempts"][0]["status"], 500);
  EXPECT_FALSE(message["attempts"][0]["error"].get<std::string>().empty());
  EXPECT_EQ(message["attempts"][1]["status"], 200);
  EXPECT_GE(message["attempts"][1]["latency_ms"], 0);

  // A resend delivers the same message again, with the same Webhook-Id.
  HttpResponse resent =
      daemon->call({{"op", "webhooks.message.resend"}, {"id", message["id"]}}, admin);
  ASSERT_EQ(resent.status, 200) << resent.describe();
  const std::vector<Delivery> again = second.wait_for(3, 20s);
  ASSERT_EQ(again.size(), 3u);
  EXPECT_EQ(again[2].id, at_second[0].id);
  EXPECT_EQ(again[2].status, 200);

  // Rotation: the new secret verifies the next delivery, and so does the old one for a while.
  HttpResponse rotated =
      daemon->call({{"op", "webhooks.endpoint.rotate_secret"}, {"id", id}}, admin);
  ASSERT_EQ(rotated.status, 200) << rotated.describe();
  const std::string new_secret = rotated.json()["data"]["secret"];
  EXPECT_NE(new_secret, secret);
  daemon->call({{"op", "collection.insert"}, {"collection", "orders"}, {"data", {{"n", 2}}}}, user);
  const std::vector<Delivery> after = second.wait_for(5, 20s);  // failed once, then delivered
  ASSERT_EQ(after.size(), 5u);
  EXPECT_EQ(after[4].status, 200);
  EXPECT_EQ(verify_signatures(new_secret, {after[4]}).exit_code, 0);
  EXPECT_EQ(verify_signatures(secret, {after[4]}).exit_code, 0);

  // Switched off, then deleted: nothing more arrives there.
  ASSERT_EQ(
      daemon->call({{"op", "webhooks.endpoint.update"}, {"id", id}, {"enabled", false}}, admin)
          .status,
      200);
  ASSERT_EQ(daemon->call({{"op", "webhooks.endpoint.delete"}, {"id", id}}, admin).status, 200);
  EXPECT_EQ(daemon->call({{"op", "webhooks.endpoint.list"}}, admin).json()["data"].size(), 1u);
  daemon->call({{"op", "collection.insert"}, {"collection", "orders"}, {"data", {{"n", 3}}}}, user);
  // The configured endpoint still gets it (the admin's and dave's sign-ups and sign-ins, three
  // inserts); once it has, the switched-off endpoint would have had it too.
  EXPECT_EQ(configured.wait_for(7, 20s).size(), 7u);
  EXPECT_EQ(second.deliveries().size(), 5u);
}

// A second endpoint, for document.created, made with the server admin key; returns its id.
std::string create_endpoint(const DaemonProcess& daemon, const std::string& url) {
  HttpResponse created = daemon.call(
      {{"op", "webhooks.endpoint.create"}, {"url", url}, {"events", {"document.created"}}},
      {{"X-Admin-Key", kAdminKey}});
  EXPECT_EQ(created.status, 200) << created.describe();
  return created.json()["data"].value("id", "");
}

// Each endpoint has its own queue and holds at most half of the delivery threads: with two
// threads, one endpoint whose receiver takes 1.5 s per call leaves the other thread to the other
// endpoint, whose messages arrive while the slow one has had one or two.
TEST(Webhooks, ASlowEndpointDoesNotHoldBackAnother) {
  WebhookReceiver slow(ReceiverOptions{ReceiverBehaviour{.sleep_ms = 1500}});
  WebhookReceiver fast(ReceiverOptions{});
  DaemonOptions options = webhook_options(slow);
  options.config["server.admin_key"] = kAdminKey;
  options.config["webhooks.workers"] = "2";
  options.config["webhooks.timeout"] = "5s";
  options.config["webhooks.lease"] = "20s";
  auto daemon = DaemonProcess::start(options);
  create_endpoint(*daemon, fast.url("/fast"));
  const Headers user = daemon->user("erin").bearer();  // two events for the slow one first
  for (int n = 0; n < 6; ++n) {
    ASSERT_EQ(
        daemon->call({{"op", "collection.insert"}, {"collection", "c"}, {"data", {{"n", n}}}}, user)
            .status,
        200);
  }
  EXPECT_EQ(fast.wait_for(6, 20s).size(), 6u);
  EXPECT_LE(slow.deliveries().size(), 2u) << "the fast endpoint waited for the slow one";
  // Its thread busy, the slow endpoint's messages wait in bundles: listed as messages all the same.
  EXPECT_GE(daemon->metric("opbase_webhooks_bundled_total").value_or(0), 1);
  HttpResponse listed = daemon->call({{"op", "webhooks.message.list"}, {"endpoint", "whep_config"}},
                                     {{"X-Admin-Key", kAdminKey}});
  ASSERT_EQ(listed.status, 200) << listed.describe();
  const json page = listed.json();
  EXPECT_EQ(page["meta"]["total"], 8) << listed.describe();
  std::set<std::string> listed_ids;
  for (const json& m : page["data"]) {
    EXPECT_NE(m["state"], "bundled");
    listed_ids.insert(m.value("id", ""));
  }
  EXPECT_EQ(listed_ids.size(), 8u);
  const std::vector<Delivery> got = slow.wait_for(8, 30s);
  EXPECT_EQ(got.size(), 8u) << "and the slow one gets all its messages";
  std::set<std::string> delivered_ids;
  for (const Delivery& d : got) delivered_ids.insert(d.id);
  EXPECT_EQ(delivered_ids, listed_ids) << "once each, under the ids listed";
}

// A deleted endpoint's queued messages end at their next claim, failed, with that reason.
TEST(Webhooks, MessagesOfADeletedEndpointFailAtTheirNextTurn) {
  WebhookReceiver configured(ReceiverOptions{});
  WebhookReceiver failing(ReceiverOptions{ReceiverBehaviour{.status = 503}});
  DaemonOptions options = webhook_options(configured);
  options.config["server.admin_key"] = kAdminKey;
  options.config["webhooks.retry_delays"] = "700ms,700ms,700ms,700ms,700ms";
  auto daemon = DaemonProcess::start(options);
  const Headers admin = {{"X-Admin-Key", kAdminKey}};
  const std::string id = create_endpoint(*daemon, failing.url("/failing"));
  const Headers user = daemon->user("fay").bearer();
  daemon->call({{"op", "collection.insert"}, {"collection", "c"}, {"data", {{"n", 1}}}}, user);
  ASSERT_EQ(failing.wait_for(1, 20s).size(), 1u);
  ASSERT_EQ(daemon->call({{"op", "webhooks.endpoint.delete"}, {"id", id}}, admin).status, 200);

  json failed;
  for (int tries = 0; tries < 100 && failed.is_null(); ++tries) {
    HttpResponse listed = daemon->call(
        {{"op", "webhooks.message.list"}, {"endpoint", id}, {"state", "failed"}}, admin);
    ASSERT_EQ(listed.status, 200) << listed.describe();
    if (!listed.json()["data"].empty()) failed = listed.json()["data"][0];
    if (failed.is_null()) std::this_thread::sleep_for(100ms);
  }
  ASSERT_FALSE(failed.is_null()) << "the message of the deleted endpoint never ended";
  const json attempts = failed["attempts"];
  ASSERT_GE(attempts.size(), 2u);
  EXPECT_LT(attempts.size(), 6u) << "it ended before its retries ran out";
  EXPECT_EQ(attempts.back()["error"], "the endpoint was deleted");
  EXPECT_EQ(failing.deliveries().size(), attempts.size() - 1) << "nothing posted after the delete";
}

}  // namespace
}  // namespace opbase::test
