// backup_test: `opbase backup --to FILE` and `opbase restore --from FILE`
// (docs/operations.md#data-and-backups), run as an operator runs them: the built binary with the
// helper's --config and --set options (DaemonProcess::spawn) and storage.path set to a daemon's
// folder. A backup taken while clients insert holds every insert acknowledged before it began,
// and a daemon started on the restored files serves them, to the same users; a restore refuses a
// storage.path that is in use or holds project files (unless --force, which keeps them aside),
// and a damaged backup, changing nothing; bad usage exits 2.
// Thread-safety: each test runs on the one gtest thread; the writers of the first only call the
// daemon.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>
#include <thread>

#include "daemon_process.hpp"
#include "file_text.hpp"
#include "temp_dir.hpp"

namespace opbase::test {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr int kWriters = 4;
constexpr int kBatch = 10;
constexpr int kMaxRequestsPerWriter = 3000;  // bounds each writer if the backup hangs
constexpr int kBatchesBeforeBackup = 150;
constexpr const char* kEmail = "ann@example.com";
constexpr const char* kPassword = "Backup-Pass-1";

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

// Every file in `dir` by name, with its content.
std::map<std::string, std::string> files_in(const std::string& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    files[entry.path().filename().string()] =
        entry.is_regular_file() ? file_text(entry.path().string()) : "<not a file>";
  }
  return files;
}

struct CommandRun {
  std::optional<int> status;
  std::string out;
  std::string err;
};

// Runs `opbase --config ... --set ... --set storage.path=<storage> <args>` and waits for it.
CommandRun run_opbase(const std::string& storage, const std::vector<std::string>& args,
                      DaemonOptions options = {}) {
  options.config["storage.path"] = storage;
  options.extra_args = args;
  auto process = DaemonProcess::spawn(options);
  CommandRun run{process->wait_exit(120s), process->output(), process->log()};
  EXPECT_TRUE(run.status.has_value()) << "opbase did not exit; stderr:\n" << run.err;
  EXPECT_FALSE(contains(run.out, "listening on")) << "it served HTTP:\n" << run.out;
  return run;
}

// The signed-in session's data ({"id_token", "user_profile", ...}), or null when sign-in failed.
json sign_in(const DaemonProcess& daemon) {
  const HttpResponse in = daemon.call({{"op", "auth.signin"},
                                       {"grant_type", "password"},
                                       {"email", kEmail},
                                       {"password", kPassword}});
  return in.status == 200 ? in.json()["data"] : json();
}

Headers bearer(const json& session) {
  return {{"Authorization", "Bearer " + session["id_token"].get<std::string>()}};
}

// What the clients were told: the acknowledged documents by _key.
struct Ledger {
  std::mutex mutex;
  std::map<std::string, json> acknowledged;
  int batches = 0;
};

// One client: inserts batches of kBatch documents until told to stop.
void write_until_stopped(const DaemonProcess& daemon, const Headers& user, int writer,
                         const std::atomic<bool>& stop, Ledger& ledger) {
  for (int request = 0; request < kMaxRequestsPerWriter && !stop; ++request) {
    const std::string batch = "w" + std::to_string(writer) + "-" + std::to_string(request);
    json data = json::array();
    for (int i = 0; i < kBatch; ++i) {
      data.push_back({{"batch", batch}, {"i", i}, {"text", "ünïcødé " + batch}});
    }
    const HttpResponse r =
        daemon.call({{"op", "collection.insert"}, {"collection", "load"}, {"data", data}}, user);
    ASSERT_EQ(r.status, 200) << r.describe();
    const json answer = r.json();
    ASSERT_TRUE(answer.contains("data") && answer["data"].is_array()) << r.describe();
    std::lock_guard lock(ledger.mutex);
    ++ledger.batches;
    for (json doc : answer["data"]) {
      doc.erase("_updated_at");  // returned by insert, not stored
      ledger.acknowledged[doc["_key"].get<std::string>()] = doc;
    }
  }
}

// Every document of the collection "load", by _key.
std::map<std::string, json> stored_documents(const DaemonProcess& daemon, const Headers& user) {
  std::map<std::string, json> stored;
  for (int offset = 0; offset < 1'000'000; offset += 1000) {
    const HttpResponse r = daemon.call({{"op", "collection.find"},
                                        {"collection", "load"},
                                        {"match", json::object()},
                                        {"sort", "_key asc"},
                                        {"limit", 1000},
                                        {"offset", offset}},
                                       user);
    EXPECT_EQ(r.status, 200) << r.describe();
    if (r.status != 200) break;
    const json page = r.json()["data"];
    for (const json& doc : page) stored[doc["_key"].get<std::string>()] = doc;
    if (page.size() < 1000) break;
  }
  return stored;
}

DaemonOptions with_documents() {
  DaemonOptions options;
  options.plugins = {"collection", "auth"};
  options.config = {{"auth.rate.signup_per_address", "off"}};
  return options;
}

TEST(Backup, TakenUnderWritesRestoresEveryInsertAcknowledgedBeforeIt) {
  const TempDir backups("opbase-backups");
  const TempDir restored("opbase-restored");
  ASSERT_FALSE(backups.path().empty());
  ASSERT_FALSE(restored.path().empty());
  const std::string file = backups.path() + "/opbase.tar.zst";
  DaemonOptions options = with_documents();

  Ledger ledger;
  std::map<std::string, json> before;  // acknowledged before the backup began
  size_t acknowledged_during = 0;      // ... before it ended
  std::string user_key;
  CommandRun backup;
  std::chrono::duration<double> backup_took{};
  {
    auto daemon = DaemonProcess::start(options);
    options.endpoint_key = daemon->endpoint_key();
    options.api_key = daemon->api_key();
    const HttpResponse up = daemon->call({{"op", "auth.signup"},
                                          {"email", kEmail},
                                          {"password", kPassword},
                                          {"display_name", "Ann"}});
    ASSERT_EQ(up.status, 200) << up.describe();
    const json session = sign_in(*daemon);
    ASSERT_TRUE(session.is_object());
    user_key = session["user_profile"]["_userkey"];
    const Headers ann = bearer(session);

    std::atomic<bool> stop{false};
    std::vector<std::thread> writers;
    for (int w = 0; w < kWriters; ++w) {
      writers.emplace_back([&, w] { write_until_stopped(*daemon, ann, w, stop, ledger); });
    }
    for (int waited = 0; waited < 2000; ++waited) {
      std::this_thread::sleep_for(10ms);
      std::lock_guard lock(ledger.mutex);
      if (ledger.batches >= kBatchesBeforeBackup) break;
    }
    {
      std::lock_guard lock(ledger.mutex);
      before = ledger.acknowledged;
    }
    const auto started = std::chrono::steady_clock::now();
    backup = run_opbase(daemon->dir(), {"backup", "--to", file});
    backup_took = std::chrono::steady_clock::now() - started;
    {
      std::lock_guard lock(ledger.mutex);
      acknowledged_during = ledger.acknowledged.size();
    }
    stop = true;
    for (auto& t : writers) t.join();
  }
  ASSERT_EQ(backup.status, 0) << backup.err;
  EXPECT_TRUE(std::regex_match(
      backup.out, std::regex("backed up 1 project\\(s\\) \\(test\\) to " + file +
                             ": [0-9]+ bytes of data, [0-9]+ bytes written, [0-9.]+ s\n")))
      << backup.out;
  ASSERT_GT(before.size(), 0u);
  EXPECT_GT(acknowledged_during, before.size()) << "no insert was acknowledged during the backup";
  // Nothing was left beside the backup.
  EXPECT_EQ(files_in(backups.path()).size(), 1u);

  const CommandRun restore = run_opbase(restored.path(), {"restore", "--from", file});
  ASSERT_EQ(restore.status, 0) << restore.err;
  EXPECT_TRUE(std::regex_match(
      restore.out,
      std::regex("restored 1 project\\(s\\) \\(test\\) into " + restored.path() + " from " + file +
                 " \\(backup of [-0-9T:.]+Z by opbase [^)]+\\): [0-9]+ bytes, "
                 "[0-9.]+ s\n")))
      << restore.out;

  options.config["storage.path"] = restored.path();
  auto daemon = DaemonProcess::start(options);
  const json session = sign_in(*daemon);
  ASSERT_TRUE(session.is_object()) << "the user cannot sign in on the restored daemon";
  EXPECT_EQ(session["user_profile"]["_userkey"], user_key);
  const std::map<std::string, json> stored = stored_documents(*daemon, bearer(session));

  size_t missing = 0, changed = 0, unacknowledged = 0;
  for (const auto& [key, doc] : before) {
    const auto it = stored.find(key);
    if (it == stored.end()) {
      ++missing;
    } else if (it->second != doc) {
      ++changed;
    }
  }
  std::map<std::string, int> per_batch;
  for (const auto& [key, doc] : stored) {
    if (!ledger.acknowledged.count(key)) ++unacknowledged;
    ++per_batch[doc["batch"].get<std::string>()];
  }
  EXPECT_EQ(missing, 0u) << "of " << before.size() << " acknowledged before the backup";
  EXPECT_EQ(changed, 0u);
  EXPECT_EQ(unacknowledged, 0u);
  EXPECT_GE(stored.size(), before.size());
  EXPECT_LE(stored.size(), ledger.acknowledged.size());
  for (const auto& [batch, count] : per_batch) {
    EXPECT_EQ(count, kBatch) << "batch " << batch << " is partly in the backup";
  }
  std::cout << "documents: " << before.size() << " acknowledged before the backup, "
            << acknowledged_during << " before it ended, " << ledger.acknowledged.size()
            << " in all; restored " << stored.size() << "; the backup took " << backup_took.count()
            << " s (the command included) and is " << std::filesystem::file_size(file) << " bytes\n"
            << backup.out << restore.out;
}

TEST(Backup, RestoreRefusesAStoragePathInUseOrWithProjectFilesAndForceKeepsThemAside) {
  const TempDir backups("opbase-backups");
  ASSERT_FALSE(backups.path().empty());
  const std::string file = backups.path() + "/keys.tar.zst";
  DaemonOptions options;
  options.use_default_project = true;  // its keys are generated into storage.path

  auto original = DaemonProcess::start(options);
  const CommandRun backup = run_opbase(original->dir(), {"backup", "--to", file});
  ASSERT_EQ(backup.status, 0) << backup.err;
  EXPECT_TRUE(contains(backup.out, "backed up 1 project(s) (default) to ")) << backup.out;
  const std::string original_keys = file_text(original->dir() + "/default-project.properties");

  auto other = DaemonProcess::start(options);
  ASSERT_NE(other->endpoint_key(), original->endpoint_key());
  const CommandRun running = run_opbase(other->dir(), {"restore", "--from", file, "--force"});
  EXPECT_EQ(running.status, 1) << running.err;
  EXPECT_TRUE(contains(running.err, "error: opbase is running on storage.path " + other->dir()))
      << running.err;
  EXPECT_TRUE(contains(running.err, "stop it before the restore")) << running.err;

  other->send_signal(SIGTERM);
  ASSERT_EQ(other->wait_exit(10s), 0);
  const auto stopped = files_in(other->dir());
  const std::string other_keys = stopped.at("default-project.properties");
  const std::string other_db = stopped.at("default.db");
  const CommandRun refused = run_opbase(other->dir(), {"restore", "--from", file});
  EXPECT_EQ(refused.status, 1) << refused.err;
  EXPECT_TRUE(contains(refused.err,
                       "already holds project files (default-project.properties, "
                       "default.db): restore into an empty storage.path, or add "
                       "--force"))
      << refused.err;
  EXPECT_EQ(files_in(other->dir()), stopped);

  const CommandRun forced = run_opbase(other->dir(), {"restore", "--from", file, "--force"});
  ASSERT_EQ(forced.status, 0) << forced.err;
  std::smatch kept;
  ASSERT_TRUE(std::regex_search(
      forced.out, kept,
      std::regex(
          "kept the 2 file\\(s\\) it replaced as <name>(\\.before-restore-[0-9]{8}T[0-9]{6}Z)\n")))
      << forced.out;
  const auto after = files_in(other->dir());
  EXPECT_EQ(after.at("default-project.properties"), original_keys);
  EXPECT_EQ(after.at("default-project.properties" + kept[1].str()), other_keys);
  EXPECT_EQ(after.at("default.db" + kept[1].str()), other_db);
  for (const auto& [name, content] : after) {
    EXPECT_FALSE(name.starts_with(".restore-")) << "a work folder was left: " << name;
  }

  DaemonOptions again = options;
  again.config["storage.path"] = other->dir();
  auto restored = DaemonProcess::start(again);
  EXPECT_EQ(restored->endpoint_key(), original->endpoint_key());
  EXPECT_EQ(restored->api_key(), original->api_key());
  const HttpResponse ping = restored->call({{"op", "echo.ping"}});
  EXPECT_EQ(ping.status, 200) << ping.describe();
}

TEST(Backup, ADaemonDoesNotStartDuringARestore) {
  const TempDir storage("opbase-storage");
  ASSERT_FALSE(storage.path().empty());
  // What a restore holds while it runs (app/storage_lock.hpp).
  const int fd =
      ::open((storage.path() + "/opbase.lock").c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  DaemonOptions options;
  options.config["storage.path"] = storage.path();
  auto daemon = DaemonProcess::spawn(options);
  EXPECT_EQ(daemon->wait_exit(20s), 78) << daemon->log();
  EXPECT_TRUE(contains(daemon->log(), "storage.path " + storage.path() + " is being restored"))
      << daemon->log();
  ::close(fd);
  EXPECT_TRUE(files_in(storage.path()).count("opbase.lock"));
  EXPECT_EQ(files_in(storage.path()).size(), 1u) << "the refused daemon made files";
}

TEST(Backup, RestoreRefusesADamagedBackupAndChangesNothing) {
  const TempDir backups("opbase-backups");
  const TempDir full("opbase-full");
  ASSERT_FALSE(backups.path().empty());
  ASSERT_FALSE(full.path().empty());
  const std::string good = backups.path() + "/good.tar.zst";
  {
    DaemonOptions options = with_documents();
    auto daemon = DaemonProcess::start(options);
    daemon->call({{"op", "auth.signup"}, {"email", kEmail}, {"password", kPassword}});
    const CommandRun backup = run_opbase(daemon->dir(), {"backup", "--to", good});
    ASSERT_EQ(backup.status, 0) << backup.err;
  }
  ASSERT_EQ(run_opbase(full.path(), {"restore", "--from", good}).status, 0);
  const auto full_before = files_in(full.path());

  const std::string bytes = file_text(good);
  ASSERT_GT(bytes.size(), 1000u);
  std::string flipped = bytes;
  flipped[flipped.size() / 2] = static_cast<char>(flipped[flipped.size() / 2] ^ 0x5a);
  const std::map<std::string, std::string> damaged = {
      {"truncated", bytes.substr(0, bytes.size() / 2)},
      {"cut-at-the-end", bytes.substr(0, bytes.size() - 100)},
      {"flipped", flipped},
      {"not-an-archive", "this is not a backup\n"},
      {"empty", ""},
  };
  for (const auto& [name, content] : damaged) {
    SCOPED_TRACE(name);
    const std::string path = backups.path() + "/" + name + ".tar.zst";
    write_file(path, content);

    const TempDir empty("opbase-empty");
    const CommandRun into_empty = run_opbase(empty.path(), {"restore", "--from", path});
    EXPECT_EQ(into_empty.status, 1) << into_empty.err;
    EXPECT_TRUE(contains(into_empty.err, "error: " + path + " is not a whole opbase backup: "))
        << into_empty.err;
    for (const auto& [left, ignored] : files_in(empty.path())) {
      EXPECT_EQ(left, "opbase.lock") << "the refused restore left " << left;
    }

    const CommandRun into_full = run_opbase(full.path(), {"restore", "--from", path, "--force"});
    EXPECT_EQ(into_full.status, 1) << into_full.err;
    EXPECT_TRUE(contains(into_full.err, "is not a whole opbase backup")) << into_full.err;
    EXPECT_EQ(files_in(full.path()), full_before);
  }
}

TEST(Backup, BadUsageExitsTwoWithAUsageLine) {
  const TempDir storage("opbase-storage");
  ASSERT_FALSE(storage.path().empty());
  const std::string file = storage.path() + "/b.tar.zst";
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"backup"}, "--to FILE is required"},
      {{"backup", "--to", ""}, "--to FILE is required"},
      {{"backup", "--to", file, "now"}, "unexpected argument 'now'"},
      {{"backup", "--to", file, "--force"}, "backup takes only --to"},
      {{"backup", "--to", file, "--from", file}, "backup takes only --to"},
      {{"backup", "--to", file, "--email", "ann@example.com"}, "backup takes only --to"},
      {{"restore"}, "--from FILE is required"},
      {{"restore", "--from", file, "again"}, "unexpected argument 'again'"},
      {{"restore", "--from", file, "--to", file}, "restore takes only --from and --force"},
      {{"admin", "create", "--email", "ann@example.com", "--password", kPassword, "--to", file},
       "--to, --from and --force belong to 'backup' and 'restore'"},
  };
  for (const auto& [args, why] : cases) {
    SCOPED_TRACE(args.front() + " ... " + args.back());
    const CommandRun run = run_opbase(storage.path(), args);
    EXPECT_EQ(run.status, 2) << run.err;
    EXPECT_TRUE(contains(run.err, "error: " + why)) << run.err;
    EXPECT_TRUE(contains(run.err, "usage: ")) << run.err;
    EXPECT_EQ(run.out, "");
  }
  // The server itself takes none of them.
  DaemonOptions options;
  options.extra_args = {"--to", file};
  auto server = DaemonProcess::spawn(options);
  EXPECT_EQ(server->wait_exit(20s), 64) << server->log();
  EXPECT_TRUE(contains(server->log(), "belong to 'backup' and 'restore'")) << server->log();
  EXPECT_FALSE(std::filesystem::exists(file));
}

TEST(Backup, FailuresExitOneAndLeaveNoFile) {
  const TempDir storage("opbase-storage");
  const TempDir backups("opbase-backups");
  ASSERT_FALSE(storage.path().empty());
  ASSERT_FALSE(backups.path().empty());
  const std::string file = backups.path() + "/b.tar.zst";

  const CommandRun nothing = run_opbase(storage.path(), {"backup", "--to", file});
  EXPECT_EQ(nothing.status, 1) << nothing.err;
  EXPECT_TRUE(contains(nothing.err, "error: storage.path " + storage.path() +
                                        " holds no project store (<project>.db)"))
      << nothing.err;
  const CommandRun missing = run_opbase(storage.path() + "/nosuch", {"backup", "--to", file});
  EXPECT_EQ(missing.status, 1) << missing.err;
  EXPECT_TRUE(contains(missing.err, "is not a folder")) << missing.err;

  DaemonOptions mongo;
  mongo.config["storage.driver"] = "mongodb";
  for (const std::string command : {"backup", "restore"}) {
    const CommandRun refused =
        run_opbase(storage.path(), {command, command == "backup" ? "--to" : "--from", file}, mongo);
    EXPECT_EQ(refused.status, 1) << refused.err;
    EXPECT_TRUE(contains(refused.err, "error: storage.driver is mongodb: opbase " + command +
                                          " covers the embedded store only"))
        << refused.err;
    EXPECT_TRUE(contains(refused.err, "MongoDB's own tools")) << refused.err;
  }

  const CommandRun no_backup = run_opbase(storage.path(), {"restore", "--from", file});
  EXPECT_EQ(no_backup.status, 1) << no_backup.err;
  EXPECT_TRUE(contains(no_backup.err, "error: the backup " + file + " is not a readable file"))
      << no_backup.err;
  EXPECT_TRUE(files_in(backups.path()).empty()) << "a failed backup left a file";
}

}  // namespace
}  // namespace opbase::test
