// Crash safety of the embedded store: inserts under load from several clients, `kill -9`, a
// restart on the same files. Every insert that was acknowledged is there and intact, with its
// durable event (kept in the same transaction), and every batch is there entirely or not at all.
// Run with both storage.sqlite.synchronous settings: both promise to survive the death of the
// daemon (only `full` also promises power loss).
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <thread>

#include "daemon_process.hpp"

namespace opbase::test {
namespace {

using nlohmann::json;

constexpr int kWriters = 4;
constexpr int kBatch = 10;
constexpr int kMaxRequestsPerWriter = 5000;  // bounds each writer if the kill comes late

class TempDir {
 public:
  TempDir() {
    char pattern[] = "/tmp/opbase-crash-XXXXXX";
    if (mkdtemp(pattern) != nullptr) path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// What the clients were told: acknowledged documents by _key, and every batch id they sent.
struct Ledger {
  std::mutex mutex;
  std::map<std::string, json> acknowledged;  // _key → the document as returned
  std::vector<std::string> batches_sent;
  int acknowledged_batches = 0;
};

// One client: inserts batches of kBatch documents (one batch id each) until the daemon dies.
void write_until_killed(const DaemonProcess& daemon, const Headers& alice, int writer,
                        const std::atomic<bool>& killed, Ledger& ledger) {
  for (int request = 0; request < kMaxRequestsPerWriter && !killed; ++request) {
    const std::string batch = "w" + std::to_string(writer) + "-" + std::to_string(request);
    json data = json::array();
    for (int i = 0; i < kBatch; ++i) {
      data.push_back(
          {{"batch", batch}, {"i", i}, {"text", "ünïcødé " + batch}, {"n", request * 1.5}});
    }
    {
      std::lock_guard lock(ledger.mutex);
      ledger.batches_sent.push_back(batch);
    }
    HttpResponse r =
        daemon.call({{"op", "collection.insert"}, {"collection", "load"}, {"data", data}}, alice);
    if (r.status != 200) return;  // the daemon is gone: this answer never arrived
    const json answer = nlohmann::json::parse(r.body, nullptr, false);
    if (answer.is_discarded() || !answer.contains("data")) return;
    std::lock_guard lock(ledger.mutex);
    ++ledger.acknowledged_batches;
    for (json doc : answer["data"]) {
      doc.erase("_updated_at");  // returned by insert, not stored
      ledger.acknowledged[doc["_key"].get<std::string>()] = doc;
    }
  }
}

class CrashSafety : public ::testing::TestWithParam<std::string> {};

TEST_P(CrashSafety, AcknowledgedInsertsSurviveKill9) {
  TempDir storage;
  ASSERT_FALSE(storage.path().empty());
  DaemonOptions options;
  // probe keeps document.* events durably: each must survive exactly when its document does.
  options.plugins = {"collection", "auth", "probe"};
  options.config = {{"storage.path", storage.path()},
                    {"storage.sqlite.synchronous", GetParam()},
                    {"auth.rate.signup_per_address", "off"}};

  Ledger ledger;
  Headers alice;
  {
    auto daemon = DaemonProcess::start(options);
    // A real user; the token stays good after the restart (the keys and the session are stored).
    alice = daemon->user("alice").bearer();
    std::atomic<bool> killed{false};
    std::vector<std::thread> writers;
    for (int w = 0; w < kWriters; ++w) {
      writers.emplace_back([&, w] { write_until_killed(*daemon, alice, w, killed, ledger); });
    }
    // Kill while writes are in flight: after a moment of load, at a point nobody chose.
    for (int waited = 0; waited < 200; ++waited) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      std::lock_guard lock(ledger.mutex);
      if (ledger.acknowledged_batches >= 200) break;
    }
    daemon->send_signal(SIGKILL);
    ASSERT_TRUE(daemon->wait_exit(std::chrono::seconds(10)).has_value());
    killed = true;
    for (auto& t : writers) t.join();
  }
  ASSERT_GT(ledger.acknowledged.size(), 0u);

  auto restarted = DaemonProcess::start(options);
  std::map<std::string, json> stored;
  std::map<std::string, int> per_batch;
  for (int offset = 0;; offset += 1000) {
    HttpResponse r = restarted->call({{"op", "collection.find"},
                                      {"collection", "load"},
                                      {"match", json::object()},
                                      {"sort", "_key asc"},
                                      {"limit", 1000},
                                      {"offset", offset}},
                                     alice);
    ASSERT_EQ(r.status, 200) << r.describe();
    const json page = r.json()["data"];
    for (const json& doc : page) {
      stored[doc["_key"].get<std::string>()] = doc;
      ++per_batch[doc["batch"].get<std::string>()];
    }
    if (page.size() < 1000) break;
  }
  std::size_t missing = 0, changed = 0;
  for (const auto& [key, doc] : ledger.acknowledged) {
    const auto it = stored.find(key);
    if (it == stored.end()) {
      ++missing;
    } else if (it->second != doc) {
      ++changed;
    }
  }
  EXPECT_EQ(missing, 0u) << "of " << ledger.acknowledged.size() << " acknowledged documents";
  EXPECT_EQ(changed, 0u);
  for (const auto& [batch, count] : per_batch) {
    EXPECT_EQ(count, kBatch) << "batch " << batch << " is partly stored";
  }
  // Unacknowledged batches may or may not be there, but nothing else is.
  EXPECT_LE(per_batch.size(), ledger.batches_sent.size());

  // The events were written in the documents' own transactions: one document.created for each
  // stored document, none for a document that is not there.
  std::map<std::string, int> created;
  for (int offset = 0;; offset += 1000) {
    HttpResponse r =
        restarted->call({{"op", "probe.journal"}, {"offset", offset}, {"limit", 1000}});
    ASSERT_EQ(r.status, 200) << r.describe();
    const json page = r.json()["data"];
    for (const json& event : page) {
      if (event["type"] == "document.created" && event["data"]["collection"] == "load") {
        ++created[event["data"]["_key"].get<std::string>()];
      }
    }
    if (page.size() < 1000) break;
  }
  std::size_t without_event = 0, event_twice = 0;
  for (const auto& [key, doc] : stored) {
    const auto it = created.find(key);
    if (it == created.end())
      ++without_event;
    else if (it->second != 1)
      ++event_twice;
  }
  EXPECT_EQ(without_event, 0u) << "stored documents without their document.created event";
  EXPECT_EQ(event_twice, 0u);
  EXPECT_EQ(created.size(), stored.size()) << "events for documents that are not stored";
  std::cout << "acknowledged " << ledger.acknowledged.size() << " documents in "
            << ledger.acknowledged_batches << " batches; stored after restart " << stored.size()
            << "\n";
}

INSTANTIATE_TEST_SUITE_P(Synchronous, CrashSafety, ::testing::Values("full", "normal"));

}  // namespace
}  // namespace opbase::test
