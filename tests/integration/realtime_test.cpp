// realtime_test: live queries over one event stream per client (docs/api.md#realtime), in the
// real daemon with the auth, collection and realtime plugins, the stream read over a raw socket
// as a browser's EventSource reads it: the connect event, every kind of event (created, updated,
// archived, restored, deleted, enter, leave), project and keys only, the collection rules and
// sharing (another user's documents never arrive, until they are shared), resume with `since`
// after a reconnect and `reset` past the retention, the stream's owner, a slow reader cut off
// while another keeps its events, the limits, and bad input on both ops.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "daemon_process.hpp"
#include "event_stream.hpp"
#include "http_client.hpp"
#include "temp_dir.hpp"

namespace opbase::test {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

DaemonOptions realtime_options() {
  DaemonOptions options;
  options.plugins = {"auth", "collection", "realtime"};
  options.with_admin = true;
  options.config = {{"auth.rate.signup_per_address", "off"},
                    {"realtime.max_clients_per_address", "8"},
                    {"realtime.max_queued_bytes", "16384"},
                    {"realtime.heartbeat_s", "1"}};
  return options;
}

class Realtime : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { daemon_ = DaemonProcess::start(realtime_options()).release(); }
  static void TearDownTestSuite() {
    delete daemon_;
    daemon_ = nullptr;
  }

  static Headers token(const std::string& user) {
    return user.empty() ? Headers{} : daemon_->user(user).bearer();
  }
  static HttpResponse as(const std::string& user, const json& body) {
    return daemon_->call(body, token(user));
  }
  static std::string fresh(const std::string& stem) {
    static int counter = 0;
    return stem + std::to_string(++counter);
  }
  // A stream and its client id.
  static std::pair<std::unique_ptr<EventStream>, std::string> open() {
    auto stream = std::make_unique<EventStream>(*daemon_);
    const Event connect = stream->expect("connect");
    return {std::move(stream), connect.data.value("client_id", "")};
  }
  static std::string subscribe(const std::string& user, const std::string& client,
                               const json& fields) {
    json body = {{"op", "realtime.subscribe"}, {"client_id", client}};
    body.update(fields);
    const HttpResponse a = as(user, body);
    EXPECT_EQ(a.status, 200) << body.dump() << " -> " << a.describe();
    return a.status == 200 ? a.json()["data"].value("subscription_id", "") : "";
  }
  static json insert(const std::string& user, const std::string& collection, const json& data) {
    const HttpResponse a =
        as(user, {{"op", "collection.insert"}, {"collection", collection}, {"data", data}});
    EXPECT_EQ(a.status, 200) << a.describe();
    return a.status == 200 ? a.json()["data"][0] : json();
  }
  static json write(const std::string& user, const std::string& op, const std::string& collection,
                    const json& match, const json& data = nullptr) {
    json body = {{"op", op}, {"collection", collection}, {"match", match}};
    if (!data.is_null()) body["data"] = data;
    const HttpResponse a = as(user, body);
    EXPECT_EQ(a.status, 200) << body.dump() << " -> " << a.describe();
    return a.status == 200 ? a.json()["data"] : json();
  }

  static DaemonProcess* daemon_;
};
DaemonProcess* Realtime::daemon_ = nullptr;

TEST_F(Realtime, TheStreamIsServerSentEventsWhoseFirstEventNamesTheClient) {
  EventStream stream(*daemon_);
  EXPECT_TRUE(stream.head().starts_with("HTTP/1.1 200")) << stream.head();
  EXPECT_NE(stream.head().find("Content-Type: text/event-stream"), std::string::npos);
  EXPECT_NE(stream.head().find("Cache-Control: no-store"), std::string::npos);
  const Event connect = stream.expect("connect");
  EXPECT_TRUE(connect.data.value("client_id", "").starts_with("rtc_")) << connect.data.dump();
  // Without the project's API key there is no stream.
  const HttpResponse refused = daemon_->request("GET", daemon_->api_path() + "/realtime");
  EXPECT_EQ(refused.status, 401);
  EXPECT_EQ(refused.json()["error"]["code"], "AUTHENTICATION_FAILED");
}

TEST_F(Realtime, EveryKindOfWriteReachesTheSubscriberInOrder) {
  const std::string notes = fresh("notes");
  auto [stream, client] = open();
  const std::string sub =
      subscribe("ana", client, {{"collection", notes}, {"match", json::object()}});
  const json doc = insert("ana", notes, {{"text", "hello"}});
  const std::string key = doc.value("_key", "");
  const Event created = stream->expect("created");
  EXPECT_TRUE(created.id.starts_with("evt_"));
  EXPECT_EQ(created.data["subscription_id"], sub);
  EXPECT_EQ(created.data["collection"], notes);
  EXPECT_EQ(created.data["_key"], key);
  EXPECT_EQ(created.data["document"]["text"], "hello");
  write("ana", "collection.update", notes, {{"_key", key}}, {{"text", "hello again"}});
  const Event updated = stream->expect("updated");
  EXPECT_EQ(updated.data["document"]["text"], "hello again");
  EXPECT_GT(updated.id, created.id);
  const json archived = write("ana", "collection.archive", notes, {{"_key", key}});
  EXPECT_EQ(stream->expect("archived").data["_key"], key);
  write("ana", "collection.restore", notes, {{"_ref", archived.value("_ref", "")}});
  EXPECT_EQ(stream->expect("restored").data["document"]["text"], "hello again");
  write("ana", "collection.delete", notes, {{"_key", key}});
  const Event deleted = stream->expect("deleted");
  EXPECT_EQ(deleted.data["_key"], key);
  EXPECT_TRUE(stream->silent());
}

TEST_F(Realtime, AnUpdateThatMakesADocumentMatchOrNotIsEnterOrLeave) {
  const std::string tasks = fresh("tasks");
  auto [stream, client] = open();
  subscribe("ana", client, {{"collection", tasks}, {"match", {{"status", "open"}}}});
  const std::string key = insert("ana", tasks, {{"status", "closed"}, {"n", 1}}).value("_key", "");
  write("ana", "collection.update", tasks, {{"_key", key}}, {{"n", 2}});
  EXPECT_TRUE(stream->silent()) << "a document it never saw, changed, is nothing to it";
  write("ana", "collection.update", tasks, {{"_key", key}}, {{"status", "open"}});
  EXPECT_EQ(stream->expect("enter").data["document"]["status"], "open");
  write("ana", "collection.update", tasks, {{"_key", key}}, {{"n", 3}});
  EXPECT_EQ(stream->expect("updated").data["document"]["n"], 3);
  write("ana", "collection.update", tasks, {{"_key", key}}, {{"status", "done"}});
  const Event leave = stream->expect("leave");
  EXPECT_EQ(leave.data["_key"], key);
  EXPECT_EQ(leave.data["document"]["status"], "open") << "as the subscriber last saw it";
}

TEST_F(Realtime, ProjectAndKeysOnlyShapeWhatIsSent) {
  const std::string items = fresh("items");
  auto [stream, client] = open();
  subscribe("ana", client,
            {{"collection", items}, {"match", json::object()}, {"project", {{"name", 1}}}});
  subscribe("ana", client, {{"collection", items}, {"match", json::object()}, {"keys_only", true}});
  const std::string key =
      insert("ana", items, {{"name", "chair"}, {"price", 40}}).value("_key", "");
  Event first = stream->expect("created");
  Event second = stream->expect("created");
  if (first.data.contains("document")) std::swap(first, second);
  EXPECT_FALSE(first.data.contains("document")) << first.data.dump();
  EXPECT_EQ(first.data["_key"], key);
  EXPECT_EQ(second.data["document"]["name"], "chair");
  EXPECT_FALSE(second.data["document"].contains("price")) << second.data.dump();
  EXPECT_EQ(first.id, second.id) << "one event, two subscriptions";
}

TEST_F(Realtime, AnotherUsersDocumentsArriveOnlyOnceTheyAreShared) {
  const std::string notes = fresh("private");
  const HttpResponse rules =
      daemon_->call({{"op", "collection.rules.update"},
                     {"collection", notes},
                     {"rules", {{"read", {"owner", "shared"}}, {"update", {"owner", "shared"}}}}},
                    daemon_->admin().bearer());
  ASSERT_EQ(rules.status, 200) << rules.describe();
  auto [stream, client] = open();
  subscribe("bea", client, {{"collection", notes}, {"match", json::object()}});
  const std::string key = insert("ana", notes, {{"text", "mine"}}).value("_key", "");
  write("ana", "collection.update", notes, {{"_key", key}}, {{"text", "still mine"}});
  EXPECT_TRUE(stream->silent()) << "bea may not read ana's notes";
  write("ana", "collection.update", notes, {{"_key", key}},
        {{"_readers", {daemon_->user("bea").key}}});
  EXPECT_EQ(stream->expect("enter").data["document"]["text"], "still mine");
  write("ana", "collection.update", notes, {{"_key", key}}, {{"_readers", json::array()}});
  EXPECT_EQ(stream->expect("leave").data["_key"], key);
  write("ana", "collection.update", notes, {{"_key", key}}, {{"text", "secret"}});
  EXPECT_TRUE(stream->silent());
}

TEST_F(Realtime, AnAdministratorMayFollowEveryUsersDocuments) {
  const std::string orders = fresh("orders");
  auto [stream, client] = open();
  const DaemonProcess::User admin = daemon_->admin();
  const HttpResponse mine = daemon_->call({{"op", "realtime.subscribe"},
                                           {"client_id", client},
                                           {"collection", orders},
                                           {"match", json::object()},
                                           {"all_users", true},
                                           {"keys_only", true}},
                                          admin.bearer());
  ASSERT_EQ(mine.status, 200) << mine.describe();
  const std::string key = insert("ana", orders, {{"total", 12}}).value("_key", "");
  EXPECT_EQ(stream->expect("created").data["_key"], key) << "ana's order, seen by the admin";
  auto [other, other_client] = open();
  const HttpResponse refused = as("bea", {{"op", "realtime.subscribe"},
                                          {"client_id", other_client},
                                          {"collection", orders},
                                          {"match", json::object()},
                                          {"all_users", true}});
  EXPECT_EQ(refused.status, 403) << refused.describe();
  EXPECT_EQ(refused.json()["error"]["details"]["field"], "all_users");
}

TEST_F(Realtime, AStreamBelongsToTheUserOfItsFirstSubscription) {
  const std::string notes = fresh("owned");
  auto [stream, client] = open();
  subscribe("ana", client, {{"collection", notes}, {"match", json::object()}});
  const HttpResponse other = as("bea", {{"op", "realtime.subscribe"},
                                        {"client_id", client},
                                        {"collection", notes},
                                        {"match", json::object()}});
  EXPECT_EQ(other.status, 403) << other.describe();
  EXPECT_EQ(other.json()["error"]["code"], "FORBIDDEN");
  const HttpResponse anonymous = as("", {{"op", "realtime.subscribe"},
                                         {"client_id", client},
                                         {"collection", notes},
                                         {"match", json::object()}});
  EXPECT_EQ(anonymous.status, 403) << anonymous.describe();
  // On a stream of its own, a caller without a token is refused as collection.find refuses it.
  auto [other_stream, other_client] = open();
  const HttpResponse unsigned_in = as("", {{"op", "realtime.subscribe"},
                                           {"client_id", other_client},
                                           {"collection", notes},
                                           {"match", json::object()}});
  EXPECT_EQ(unsigned_in.status, 401) << unsigned_in.describe();
  EXPECT_EQ(unsigned_in.json()["error"]["code"], "AUTHENTICATION_FAILED");
}

TEST_F(Realtime, AClientThatComesBackWithSinceGetsWhatItMissedOnce) {
  const std::string log = fresh("log");
  std::string last;
  {
    auto [stream, client] = open();
    subscribe("ana", client, {{"collection", log}, {"match", json::object()}});
    insert("ana", log, {{"n", 0}});
    last = stream->expect("created").id;
  }
  for (int n = 1; n <= 3; ++n) insert("ana", log, {{"n", n}});
  auto [stream, client] = open();
  subscribe("ana", client, {{"collection", log}, {"match", json::object()}, {"since", last}});
  for (int n = 1; n <= 3; ++n) {
    const Event missed = stream->expect("created");
    EXPECT_EQ(missed.data["document"]["n"], n);
    EXPECT_GT(missed.id, last);
    last = missed.id;
  }
  insert("ana", log, {{"n", 4}});
  EXPECT_EQ(stream->expect("created").data["document"]["n"], 4);
  EXPECT_TRUE(stream->silent()) << "nothing twice";
}

TEST_F(Realtime, ASincePastTheRetentionIsAReset) {
  const std::string log = fresh("old");
  auto [stream, client] = open();
  char time_hex[16];
  std::snprintf(time_hex, sizeof time_hex, "%012llx",
                static_cast<unsigned long long>(now_ms() - 3'600'000));
  const std::string hour_ago = "evt_" + std::string(time_hex) + std::string(20, '0');
  const std::string sub = subscribe(
      "ana", client, {{"collection", log}, {"match", json::object()}, {"since", hour_ago}});
  const Event reset = stream->expect("reset");
  EXPECT_EQ(reset.data["subscription_id"], sub);
  insert("ana", log, {{"n", 1}});
  EXPECT_EQ(stream->expect("created").data["document"]["n"], 1) << "live after the reset";
}

TEST_F(Realtime, BadInputGetsAClearErrorAndChangesNothing) {
  const std::string notes = fresh("bad");
  auto [stream, client] = open();
  const struct {
    json body;
    std::string field;
  } cases[] = {
      {{{"op", "realtime.subscribe"}, {"collection", notes}, {"match", json::object()}},
       "client_id"},
      {{{"op", "realtime.subscribe"},
        {"client_id", "rtc_nobody"},
        {"collection", notes},
        {"match", json::object()}},
       "client_id"},
      {{{"op", "realtime.subscribe"}, {"client_id", client}, {"match", json::object()}},
       "collection"},
      {{{"op", "realtime.subscribe"},
        {"client_id", client},
        {"collection", notes},
        {"match", {{"n:$nope", 1}}}},
       "match"},
      {{{"op", "realtime.subscribe"},
        {"client_id", client},
        {"collection", notes},
        {"match", json::object()},
        {"keys_only", "yes"}},
       "keys_only"},
      {{{"op", "realtime.subscribe"},
        {"client_id", client},
        {"collection", notes},
        {"match", json::object()},
        {"since", "yesterday"}},
       "since"},
      {{{"op", "realtime.subscribe"},
        {"client_id", client},
        {"collection", notes},
        {"match", json::object()},
        {"all_users", "yes"}},
       "all_users"},
      {{{"op", "realtime.unsubscribe"}, {"client_id", client}, {"subscription_id", "rts_nope"}},
       "subscription_id"},
  };
  for (const auto& c : cases) {
    const HttpResponse a = as("ana", c.body);
    EXPECT_EQ(a.status, 400) << c.body.dump() << " -> " << a.describe();
    EXPECT_EQ(a.json()["error"]["code"], "VALIDATION_ERROR") << c.body.dump();
    EXPECT_EQ(a.json()["error"]["details"]["field"], c.field) << a.describe();
  }
  insert("ana", notes, {{"n", 1}});
  EXPECT_TRUE(stream->silent()) << "no refused subscription was kept";
}

TEST_F(Realtime, UnsubscribeStopsTheEvents) {
  const std::string notes = fresh("unsub");
  auto [stream, client] = open();
  const std::string sub =
      subscribe("ana", client, {{"collection", notes}, {"match", json::object()}});
  insert("ana", notes, {{"n", 1}});
  stream->expect("created");
  const HttpResponse gone =
      as("ana", {{"op", "realtime.unsubscribe"}, {"client_id", client}, {"subscription_id", sub}});
  EXPECT_EQ(gone.status, 200) << gone.describe();
  insert("ana", notes, {{"n", 2}});
  EXPECT_TRUE(stream->silent());
}

TEST_F(Realtime, ASlowReaderIsCutOffAndTheOthersKeepTheirEvents) {
  if (daemons_on_ferretdb()) {
    GTEST_SKIP() << "FerretDB reads the whole collection for every query: the 1,500 large "
                    "inserts that fill the sockets take minutes there (docs/operations.md)";
  }
  const std::string feed = fresh("feed");
  EventStream slow(*daemon_);
  const std::string slow_client = slow.expect("connect").data.value("client_id", "");
  subscribe("ana", slow_client, {{"collection", feed}, {"match", json::object()}});
  auto [fast, fast_client] = open();
  subscribe("ana", fast_client, {{"collection", feed}, {"match", json::object()}});
  // The slow one reads nothing; the fast one reads as they come. Each event is about 8 KiB, the
  // bound 16 KiB: the socket buffers fill first, then the bound is passed.
  const std::string text(8 * 1024, 'x');
  for (int n = 0; n < 1500; ++n) {
    insert("ana", feed, {{"n", n}, {"text", text}});
    const Event e = fast->expect("created");
    ASSERT_EQ(e.data["document"]["n"], n);
  }
  EXPECT_TRUE(slow.closed(10s)) << "the slow reader was never cut off";
  EXPECT_NE(slow.raw().find("event: close\ndata: {\"reason\":\"too_slow\"}"), std::string::npos);
  insert("ana", feed, {{"n", -1}});
  EXPECT_EQ(fast->expect("created").data["document"]["n"], -1);
  EXPECT_GE(daemon_->metric("opbase_realtime_clients_too_slow_total").value_or(0), 1);
}

TEST_F(Realtime, IdleStreamsGetHeartbeats) {
  auto [stream, client] = open();
  EXPECT_TRUE(stream->silent(2500ms));
  EXPECT_GE(stream->comments(), 1) << "realtime.heartbeat_s is 1";
}

TEST_F(Realtime, AnAddressHoldsAtMostItsStreams) {
  std::vector<std::unique_ptr<EventStream>> streams;
  int refused = 0;
  for (int i = 0; i < 12; ++i) {
    auto stream = std::make_unique<EventStream>(*daemon_);
    if (stream->head().starts_with("HTTP/1.1 429")) {
      ++refused;
    } else {
      streams.push_back(std::move(stream));
    }
  }
  EXPECT_GT(refused, 0) << "realtime.max_clients_per_address is 8";
  EXPECT_LE(streams.size(), 8u);
}

// The kept events are the store's: a client that was away while the daemon was killed and
// started again gets, with `since`, every event it missed, once.
TEST(RealtimeRestart, SinceReachesBackAcrossAKillAndARestart) {
  TempDir storage;
  DaemonOptions options = realtime_options();
  options.config["storage.path"] = storage.path();
  std::string last;
  Headers ana;
  const std::string log = "restart_log";
  const auto insert = [&](DaemonProcess& daemon, int n) {
    const HttpResponse a =
        daemon.call({{"op", "collection.insert"}, {"collection", log}, {"data", {{"n", n}}}}, ana);
    ASSERT_EQ(a.status, 200) << a.describe();
  };
  const auto subscribe = [&](DaemonProcess& daemon, const std::string& client, const json& since) {
    json body = {{"op", "realtime.subscribe"},
                 {"client_id", client},
                 {"collection", log},
                 {"match", json::object()}};
    if (!since.is_null()) body["since"] = since;
    const HttpResponse a = daemon.call(body, ana);
    ASSERT_EQ(a.status, 200) << a.describe();
  };
  {
    auto daemon = DaemonProcess::start(options);
    ASSERT_NE(daemon, nullptr);
    ana = daemon->user("ana").bearer();
    {
      EventStream stream(*daemon);
      const std::string client = stream.expect("connect").data.value("client_id", "");
      subscribe(*daemon, client, nullptr);
      insert(*daemon, 0);
      last = stream.expect("created").id;
    }
    insert(*daemon, 1);
    insert(*daemon, 2);
    daemon->send_signal(SIGKILL);
    ASSERT_TRUE(daemon->wait_exit(10s).has_value());
  }
  auto daemon = DaemonProcess::start(options);
  ASSERT_NE(daemon, nullptr);
  EventStream stream(*daemon);
  const std::string client = stream.expect("connect").data.value("client_id", "");
  subscribe(*daemon, client, last);
  for (int n = 1; n <= 2; ++n) {
    const Event missed = stream.expect("created");
    EXPECT_EQ(missed.data["document"]["n"], n);
    EXPECT_GT(missed.id, last);
    last = missed.id;
  }
  EXPECT_TRUE(stream.silent()) << "nothing twice";
}

}  // namespace
}  // namespace opbase::test
