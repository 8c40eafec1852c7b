// PluginLoader: loads the tiny plugins of tests/plugins/broken (built into OPBASE_TEST_PLUGIN_DIR)
// into a host made of the real Registry, EventBus and Config, without HTTP. Every way a load can
// fail has its own plugin there and its own message here; good plugins loaded beside the broken
// ones keep working, and nothing a refused plugin registered survives it.
//
// The test plugins append "init <name>" / "shutdown <name>" to the file the config key
// tests.lifecycle_log names (tests/plugins/broken/test_plugin.h); that file shows which of init
// and shutdown ran, and in which order.
//
// The last section calls the function table's call_service the way a plugin does, and checks
// where each name goes: mail.send to the host's Mailer, other names to the plugin providing them.
#include "plugin_host/plugin_loader.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "config/config.hpp"
#include "events/event_bus.hpp"
#include "mail/mailer.hpp"
#include "plugin_host/host_context.hpp"
#include "plugin_host/registry.hpp"
#include "plugin_host/response.hpp"

namespace opbase::host {
namespace {

using nlohmann::json;

const std::string kDir = OPBASE_TEST_PLUGIN_DIR;
const std::string kHostAbi =
    std::to_string(OPBASE_ABI_MAJOR) + "." + std::to_string(OPBASE_ABI_MINOR);

std::string file_of(std::string_view plugin) { return kDir + "/" + std::string(plugin) + ".so"; }

opbase_str str(std::string_view s) { return {s.data(), s.size()}; }

::testing::AssertionResult Contains(const std::string& text, std::string_view part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << part << "' is not in:\n  " << text;
}

// What one op call returned.
struct Answer {
  opbase_rc rc = OPBASE_RC_ERROR;
  opbase_response response;
  json data;  // the parsed "data" part, or null
};

// Calls the op a client would reach as `name`, the way the gateway does: through the registry's
// entry, with a host-made response.
Answer call_op(const Registry& registry, std::string_view name, std::string_view body = "{}") {
  Answer answer;
  const OpEntry* op = registry.find_op(name);
  if (op == nullptr) {
    ADD_FAILURE() << "no op " << name << " in the registry";
    return answer;
  }
  opbase_request request{};
  request.struct_size = sizeof request;
  request.op = str(op->name);
  request.called_as = str(name);
  request.body = str(body);
  request.project_id = str("default");
  request.request_id = str("req-1");
  request.client_address = str("127.0.0.1");
  answer.rc = op->fn(op->state, &request, &answer.response);
  if (answer.response.data) answer.data = json::parse(*answer.response.data);
  return answer;
}

// Calls service `name` directly, with a host-made response.
Answer call_service(const Registry& registry, std::string_view name, std::string_view project,
                    std::string_view input) {
  Answer answer;
  const ServiceEntry* service = registry.find_service(name);
  if (service == nullptr) {
    ADD_FAILURE() << "no service " << name << " in the registry";
    return answer;
  }
  answer.rc = service->fn(service->state, str(project), str(input), &answer.response);
  if (answer.response.data) answer.data = json::parse(*answer.response.data);
  return answer;
}

// Waits up to 5 s for `done`.
bool eventually(const std::function<bool()>& done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

std::string unique_log_path() {
  static std::atomic<int> counter{0};
  return (std::filesystem::temp_directory_path() /
          ("opbase_plugin_loader_test_" + std::to_string(::getpid()) + "_" +
           std::to_string(counter++) + ".log"))
      .string();
}

class PluginLoaderTest : public ::testing::Test {
 protected:
  PluginLoaderTest()
      : lifecycle_log_(unique_log_path()),
        config_(Config::defaults_with({{"tests.lifecycle_log", lifecycle_log_}})) {
    std::filesystem::remove(lifecycle_log_);
    context_.registry = &registry_;
    context_.bus = &bus_;
    context_.config = &config_;
    context_.now_ms = [] { return int64_t{1'700'000'000'000}; };
    loader_ = std::make_unique<PluginLoader>(&context_);
  }

  ~PluginLoaderTest() override {
    loader_.reset();
    std::filesystem::remove(lifecycle_log_);
  }

  // The lifecycle log's lines so far.
  std::vector<std::string> lifecycle() const {
    std::vector<std::string> lines;
    std::ifstream in(lifecycle_log_);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  }

  // Loads `plugin` from the test plugin folder and expects it refused with a message that
  // contains `words` and names the plugin, the file, the symbol and the host ABI; and, unless
  // a plugin of that name is already loaded, nothing of it in loaded() or the registry.
  Status expect_refused(const std::string& plugin, std::string_view words,
                        bool name_already_loaded = false) {
    const std::string file = file_of(plugin);
    const size_t refused_before = loader_->refused().size();
    Status s = loader_->load(plugin, file);
    EXPECT_FALSE(s.is_ok()) << plugin << " loaded";
    EXPECT_TRUE(Contains(s.message(), words));
    EXPECT_TRUE(Contains(s.message(), "plugin '" + plugin + "' refused: "));
    EXPECT_TRUE(Contains(s.message(), "file=" + file));
    EXPECT_TRUE(Contains(s.message(), "symbol=opbase_plugin_entry"));
    EXPECT_TRUE(Contains(s.message(), "host_abi=" + kHostAbi));
    EXPECT_EQ(s.message().find('\n'), std::string::npos) << "not one log line: " << s.message();
    // Recorded once in refused(), with the same line; not listed as loaded.
    EXPECT_EQ(loader_->refused().size(), refused_before + 1);
    if (loader_->refused().size() == refused_before + 1) {
      EXPECT_EQ(loader_->refused().back().name, plugin);
      EXPECT_EQ(loader_->refused().back().reason, s.message());
    }
    if (!name_already_loaded) {
      for (const LoadedPluginInfo& info : loader_->loaded()) EXPECT_NE(info.name, plugin);
      EXPECT_TRUE(registry_.ops_of(plugin).empty());
    }
    return s;
  }

  std::set<std::string> subscription_owners() const {
    std::set<std::string> owners;
    for (const SubscriptionStats& s : bus_.stats()) owners.insert(s.owner);
    return owners;
  }

  std::string lifecycle_log_;
  Registry registry_;
  EventBus bus_{64};
  Config config_;
  HostContext context_;
  std::unique_ptr<PluginLoader> loader_;  // last: destroyed first, while the rest still lives
};

// ---- one test per way a load can fail ----------------------------------------------------------

TEST_F(PluginLoaderTest, MissingFileIsRefusedNamingTheFoldersSearched) {
  EXPECT_EQ(loader_->load_all({"ghost"}, {"/nonexistent-opbase-dir", kDir}), 0u);
  ASSERT_EQ(loader_->refused().size(), 1u);
  const RefusedPlugin& r = loader_->refused()[0];
  EXPECT_EQ(r.name, "ghost");
  EXPECT_TRUE(Contains(r.reason,
                       "plugin 'ghost' refused: no file ghost.so in plugins.dir "
                       "(/nonexistent-opbase-dir:" +
                           kDir + ")"));
  EXPECT_TRUE(Contains(r.reason, "symbol=opbase_plugin_entry"));
  EXPECT_TRUE(Contains(r.reason, "host_abi=" + kHostAbi));
  EXPECT_TRUE(loader_->loaded().empty());
}

TEST_F(PluginLoaderTest, MissingFileGivenAsPathIsRefused) {
  ASSERT_FALSE(std::filesystem::exists(file_of("ghost")));
  expect_refused("ghost", "the file does not exist");
}

TEST_F(PluginLoaderTest, NameTheFileSystemRejectsIsRefusedNotThrown) {
  // Longer than NAME_MAX: asking the file system about it fails with ENAMETOOLONG. That is one
  // more plugin that cannot be loaded, refused like the others, never an exception out of the
  // loader (which would stop the daemon's start-up).
  const std::string name(300, 'a');
  size_t count = 1;
  EXPECT_NO_THROW(count = loader_->load_all({name}, {kDir}));
  EXPECT_EQ(count, 0u);
  ASSERT_EQ(loader_->refused().size(), 1u);
  EXPECT_TRUE(Contains(loader_->refused()[0].reason, "plugin '" + name + "' refused: "));

  Status s;
  EXPECT_NO_THROW(s = loader_->load(name, file_of(name)));
  EXPECT_FALSE(s.is_ok());
  EXPECT_TRUE(loader_->loaded().empty());
}

TEST_F(PluginLoaderTest, TextFileIsNotASharedObject) {
  ASSERT_TRUE(std::filesystem::exists(file_of("notso")));
  expect_refused("notso", "not a loadable shared object: ");
}

TEST_F(PluginLoaderTest, SharedObjectWithoutEntrySymbolIsRefused) {
  expect_refused("noentry", "no entry point opbase_plugin_entry in shared library");
  EXPECT_TRUE(lifecycle().empty());
}

TEST_F(PluginLoaderTest, EntryAnsweringNullIsRefused) {
  expect_refused("nulldesc", "the entry point answered no descriptor");
}

TEST_F(PluginLoaderTest, NewerMinorAbiIsRefusedBeforeInitNamingBothVersions) {
  Status s = expect_refused("abi_too_new", "built for ABI 1.999, this host speaks " + kHostAbi);
  EXPECT_TRUE(Contains(s.message(), "plugin_abi=1.999 host_abi=" + kHostAbi));
  EXPECT_TRUE(lifecycle().empty()) << "init ran";
}

TEST_F(PluginLoaderTest, OtherMajorAbiIsRefusedBeforeInitNamingBothVersions) {
  Status s = expect_refused("abi_major2", "built for ABI 2.0, this host speaks " + kHostAbi);
  EXPECT_TRUE(Contains(s.message(), "plugin_abi=2.0 host_abi=" + kHostAbi));
  EXPECT_TRUE(lifecycle().empty()) << "init ran";
}

TEST_F(PluginLoaderTest, DescriptorWithoutInitIsRefused) {
  Status s = expect_refused("incomplete", "the descriptor is incomplete");
  EXPECT_TRUE(Contains(s.message(), "plugin_abi=" + kHostAbi));
}

TEST_F(PluginLoaderTest, DescriptorNameOtherThanTheFileNameIsRefusedBeforeInit) {
  expect_refused("misnamed", "the file's plugin calls itself 'someone_else'");
  EXPECT_TRUE(lifecycle().empty()) << "init ran";
  EXPECT_TRUE(registry_.ops_of("someone_else").empty());
}

TEST_F(PluginLoaderTest, InvalidPluginNameIsRefusedBeforeInit) {
  expect_refused("Bad_Name", "a plugin name is 1-32 lowercase letters, digits and '_'");
  EXPECT_TRUE(lifecycle().empty()) << "init ran";
}

TEST_F(PluginLoaderTest, FailedInitIsRolledBackAndNeverShutDown) {
  Status s = expect_refused("initfail", "init failed (answered 1); nothing it registered was kept");
  EXPECT_TRUE(Contains(s.message(), "plugin_abi=" + kHostAbi));
  // initfail had registered an op, a service and a subscription ("returned 1" says all three
  // were accepted); none survives.
  EXPECT_EQ(registry_.find_op("initfail.first"), nullptr);
  EXPECT_EQ(registry_.find_service("initfail.svc"), nullptr);
  EXPECT_EQ(registry_.op_count(), 0u);
  EXPECT_EQ(subscription_owners().count("initfail"), 0u);
  EXPECT_EQ(lifecycle(), std::vector<std::string>{"init initfail"}) << "shutdown after failed init";
}

TEST_F(PluginLoaderTest, DuplicateOpWithinOnePluginIsRefusedAndRolledBack) {
  // dup is a C++ SDK plugin: the SDK turns the refused registration into init returning ERROR.
  expect_refused("dup",
                 "init failed (answered 1) after: op 'dup.x' is already registered by plugin "
                 "'dup'; nothing it registered was kept");
  EXPECT_EQ(registry_.find_op("dup.x"), nullptr) << "the first dup.x survived the rollback";
  EXPECT_EQ(registry_.op_count(), 0u);
}

TEST_F(PluginLoaderTest, APluginNamedAfterAnAliasAreaIsRefusedBeforeInit) {
  // db.* belongs to the collection plugin: a plugin called "db" could otherwise take db.find
  // and lock collection out when it loads first. It is refused by name, before its init runs,
  // whichever order they load in.
  expect_refused("db",
                 "'db' is the alias area of the collection plugin; no plugin may take that name");
  EXPECT_EQ(registry_.find_op("db.stats"), nullptr);
  EXPECT_TRUE(lifecycle().empty()) << "db's init ran";

  ASSERT_TRUE(loader_->load("collection", file_of("collection")).is_ok());
  const OpEntry* alias = registry_.find_op("db.find");
  ASSERT_NE(alias, nullptr);
  EXPECT_EQ(alias->plugin, "collection");
  EXPECT_EQ(alias->name, "collection.find");
  EXPECT_EQ(alias, registry_.find_op("collection.find"));
  Answer a = call_op(registry_, "db.find");
  EXPECT_EQ(a.rc, OPBASE_RC_OK);
  EXPECT_EQ(a.data, json({{"plugin", "collection"}}));

  expect_refused("db", "'db' is the alias area of the collection plugin");
  ASSERT_EQ(loader_->loaded().size(), 1u);
  EXPECT_EQ(loader_->loaded()[0].name, "collection");
  EXPECT_EQ(loader_->loaded()[0].ops, std::vector<std::string>{"collection.find"});
  EXPECT_EQ(lifecycle(), (std::vector<std::string>{"init collection"}));
}

TEST_F(PluginLoaderTest, OpOutsideThePluginsAreaIsRefusedEvenWhenInitAnswersOk) {
  expect_refused("rogue",
                 "op 'echo.steal' is outside the area of plugin 'rogue' (allowed: rogue.*); "
                 "nothing it registered was kept");
  EXPECT_EQ(registry_.find_op("echo.steal"), nullptr);
  EXPECT_EQ(registry_.find_op("rogue.ok"), nullptr) << "rogue.ok survived the rollback";
  // init returned OK, so the host calls shutdown before giving up on it (abi.h).
  EXPECT_EQ(lifecycle(), (std::vector<std::string>{"init rogue", "shutdown rogue"}));
}

TEST_F(PluginLoaderTest, SecondPluginOfTheSameNameIsRefused) {
  ASSERT_TRUE(loader_->load("good", file_of("good")).is_ok());
  expect_refused("good", "a plugin of that name is already loaded", /*name_already_loaded=*/true);
  ASSERT_EQ(loader_->loaded().size(), 1u);
  EXPECT_EQ(call_op(registry_, "good.ping").data["pong"], true);
  EXPECT_EQ(lifecycle(), std::vector<std::string>{"init good"});
}

TEST_F(PluginLoaderTest, RegistrationAfterInitIsRefused) {
  ASSERT_TRUE(loader_->load("late", file_of("late")).is_ok());
  const json refused_all = {
      {"op", OPBASE_RC_REFUSED}, {"service", OPBASE_RC_REFUSED}, {"subscribe", OPBASE_RC_REFUSED}};
  Answer now = call_op(registry_, "late.register_now");
  EXPECT_EQ(now.rc, OPBASE_RC_OK);
  EXPECT_EQ(now.data, refused_all) << "from the request thread";
  Answer threaded = call_op(registry_, "late.register_from_thread");
  EXPECT_EQ(threaded.rc, OPBASE_RC_OK);
  EXPECT_EQ(threaded.data, refused_all) << "from a thread of the plugin";

  EXPECT_EQ(registry_.find_op("late.sneak"), nullptr);
  EXPECT_EQ(registry_.find_service("late.sneak_svc"), nullptr);
  EXPECT_EQ(subscription_owners().count("late"), 0u);
  // The plugin itself stays loaded with what it registered in init.
  EXPECT_TRUE(loader_->refused().empty());
  ASSERT_EQ(loader_->loaded().size(), 1u);
  EXPECT_EQ(loader_->loaded()[0].ops,
            (std::vector<std::string>{"late.register_from_thread", "late.register_now"}));
}

// ---- all of them together ----------------------------------------------------------------------

// Every broken plugin, with words only its own refusal line carries.
const std::vector<std::pair<std::string, std::string>> kBroken = {
    {"ghost", "no file ghost.so in plugins.dir"},
    {"notso", "not a loadable shared object"},
    {"noentry", "no entry point opbase_plugin_entry"},
    {"nulldesc", "answered no descriptor"},
    {"abi_too_new", "built for ABI 1.999"},
    {"abi_major2", "built for ABI 2.0"},
    {"incomplete", "descriptor is incomplete"},
    {"misnamed", "calls itself 'someone_else'"},
    {"Bad_Name", "a plugin name is 1-32 lowercase"},
    {"initfail", "init failed (answered 1); nothing it registered was kept"},
    {"dup", "op 'dup.x' is already registered by plugin 'dup'"},
    {"db", "'db' is the alias area of the collection plugin"},
    {"rogue", "op 'echo.steal' is outside the area of plugin 'rogue'"},
};

TEST_F(PluginLoaderTest, EachRefusalIsItsOwnLineNamingPluginFileSymbolAndAbi) {
  std::vector<std::string> names{"collection"};  // loaded first, so db.find is taken
  for (const auto& [name, words] : kBroken) names.push_back(name);
  EXPECT_EQ(loader_->load_all(names, {kDir}), 1u);

  const std::vector<RefusedPlugin>& refused = loader_->refused();
  ASSERT_EQ(refused.size(), kBroken.size());
  for (size_t i = 0; i < kBroken.size(); ++i) {
    const auto& [name, words] = kBroken[i];
    SCOPED_TRACE(name);
    EXPECT_EQ(refused[i].name, name);
    const std::string& line = refused[i].reason;
    EXPECT_TRUE(Contains(line, "plugin '" + name + "' refused: "));
    EXPECT_TRUE(Contains(line, name + ".so"));
    EXPECT_TRUE(Contains(line, "symbol=opbase_plugin_entry"));
    EXPECT_TRUE(Contains(line, "host_abi=" + kHostAbi + "]"));
    EXPECT_EQ(line.find('\n'), std::string::npos);
    if (name != "ghost") {
      EXPECT_TRUE(Contains(line, "file=" + file_of(name) + " "));
    }
    // Its own words, and nobody else's.
    for (size_t j = 0; j < kBroken.size(); ++j) {
      if (j == i) {
        EXPECT_TRUE(Contains(line, kBroken[j].second));
      } else {
        EXPECT_EQ(line.find(kBroken[j].second), std::string::npos)
            << "carries the words of " << kBroken[j].first << ": " << line;
      }
    }
  }
  // Only the descriptor's readers can name the plugin's ABI, and those must.
  for (const RefusedPlugin& r : refused) {
    const bool descriptor_read =
        r.name != "ghost" && r.name != "notso" && r.name != "noentry" && r.name != "nulldesc";
    EXPECT_EQ(r.reason.find("plugin_abi=") != std::string::npos, descriptor_read) << r.reason;
  }
}

TEST_F(PluginLoaderTest, GoodPluginsBeforeAndAfterBrokenOnesKeepWorking) {
  std::vector<std::string> names{"good", "collection"};
  for (const auto& [name, words] : kBroken) names.push_back(name);
  names.push_back("good2");
  EXPECT_EQ(loader_->load_all(names, {kDir}), 3u);
  EXPECT_EQ(loader_->refused().size(), kBroken.size());

  // loaded(): each good plugin, in load order, with its version, file and ops.
  const std::vector<LoadedPluginInfo>& loaded = loader_->loaded();
  ASSERT_EQ(loaded.size(), 3u);
  EXPECT_EQ(loaded[0].name, "good");
  EXPECT_EQ(loaded[0].version, "1.2.3");
  EXPECT_EQ(loaded[0].file, file_of("good"));
  EXPECT_EQ(loaded[0].ops, std::vector<std::string>{"good.ping"});
  EXPECT_EQ(loaded[1].name, "collection");
  EXPECT_EQ(loaded[1].ops, std::vector<std::string>{"collection.find"});
  EXPECT_EQ(loaded[2].name, "good2");
  EXPECT_EQ(loaded[2].file, file_of("good2"));
  EXPECT_EQ(loaded[2].ops, std::vector<std::string>{"good2.ping"});

  // Nothing of a refused plugin is left: the registry holds exactly the good plugins' names.
  EXPECT_EQ(registry_.op_count(), 4u);  // good.ping, good2.ping, collection.find, db.find
  for (const auto& [name, words] : kBroken) EXPECT_TRUE(registry_.ops_of(name).empty()) << name;
  EXPECT_EQ(registry_.find_service("initfail.svc"), nullptr);
  EXPECT_EQ(subscription_owners(), (std::set<std::string>{"good", "good2"}));

  // Ops answer through the registry entry with a host-made response.
  for (const std::string plugin : {"good", "good2"}) {
    SCOPED_TRACE(plugin);
    const std::string body = R"({"op":")" + plugin + R"(.ping","n":7})";
    Answer a = call_op(registry_, plugin + ".ping", body);
    EXPECT_EQ(a.rc, OPBASE_RC_OK);
    EXPECT_FALSE(a.response.failed) << a.response.message;
    EXPECT_EQ(a.data, json({{"pong", true},
                            {"plugin", plugin},
                            {"events", 0},
                            {"strays", 0},
                            {"body", json::parse(body)}}));

    // Services too.
    Answer s = call_service(registry_, plugin + ".svc", "p1", R"({"x":[1,2]})");
    EXPECT_EQ(s.rc, OPBASE_RC_OK);
    EXPECT_EQ(s.data, json({{"plugin", plugin}, {"project", "p1"}, {"input", {{"x", {1, 2}}}}}));
  }

  // Subscriptions: both good plugins get the two test.* events; the other type reaches nobody
  // (queued first, it would have been counted before the second test event).
  bus_.publish(BusEvent{"other.thing", "p1", "{}", 1});
  bus_.publish(BusEvent{"test.one", "p1", R"({"n":1})", 2});
  bus_.publish(BusEvent{"test.two", "p1", R"({"n":2})", 3});
  for (const std::string plugin : {"good", "good2"}) {
    SCOPED_TRACE(plugin);
    json last;
    EXPECT_TRUE(eventually([&] {
      last = call_op(registry_, plugin + ".ping").data;
      return last["events"] == 2;
    })) << last.dump();
    EXPECT_EQ(last["strays"], 0);
  }
}

// ---- shutdown -----------------------------------------------------------------------------------

TEST_F(PluginLoaderTest, ShutdownRunsInReverseLoadOrderAndEmptiesTheHost) {
  ASSERT_TRUE(loader_->load("good", file_of("good")).is_ok());
  EXPECT_FALSE(loader_->load("rogue", file_of("rogue")).is_ok());
  ASSERT_TRUE(loader_->load("collection", file_of("collection")).is_ok());
  EXPECT_FALSE(loader_->load("initfail", file_of("initfail")).is_ok());
  ASSERT_TRUE(loader_->load("good2", file_of("good2")).is_ok());
  ASSERT_EQ(loader_->loaded().size(), 3u);

  loader_->shutdown_all();
  // rogue's shutdown ran at its refusal; initfail never gets one; the loaded three stop in
  // reverse load order, each receiving the state its init set (good.c checks).
  EXPECT_EQ(lifecycle(),
            (std::vector<std::string>{"init good", "init rogue", "shutdown rogue",
                                      "init collection", "init initfail", "init good2",
                                      "shutdown good2", "shutdown collection", "shutdown good"}));
  EXPECT_TRUE(loader_->loaded().empty());
  EXPECT_EQ(registry_.op_count(), 0u);
  EXPECT_EQ(registry_.find_service("good.svc"), nullptr);
  EXPECT_TRUE(subscription_owners().empty());

  // A second shutdown_all has nothing left to do.
  loader_->shutdown_all();
  EXPECT_EQ(lifecycle().size(), 9u);
}

TEST_F(PluginLoaderTest, DestroyingTheLoaderShutsDownWhatIsLoaded) {
  ASSERT_TRUE(loader_->load("good", file_of("good")).is_ok());
  ASSERT_TRUE(loader_->load("good2", file_of("good2")).is_ok());
  loader_.reset();
  EXPECT_EQ(lifecycle(), (std::vector<std::string>{"init good", "init good2", "shutdown good2",
                                                   "shutdown good"}));
  EXPECT_EQ(registry_.op_count(), 0u);
}

TEST_F(PluginLoaderTest, PluginCanLoadAgainAfterShutdown) {
  ASSERT_TRUE(loader_->load("good", file_of("good")).is_ok());
  loader_->shutdown_all();
  ASSERT_TRUE(loader_->load("good", file_of("good")).is_ok());
  EXPECT_EQ(call_op(registry_, "good.ping").data["plugin"], "good");
  EXPECT_EQ(lifecycle(), (std::vector<std::string>{"init good", "shutdown good", "init good"}));
}

// ---- finding files ------------------------------------------------------------------------------

TEST_F(PluginLoaderTest, LoadAllSearchesTheFoldersInOrderAndTakesPaths) {
  EXPECT_EQ(loader_->load_all({"good", file_of("good2")}, {"/nonexistent-opbase-dir", kDir}), 2u);
  ASSERT_EQ(loader_->loaded().size(), 2u);
  EXPECT_EQ(loader_->loaded()[0].name, "good");
  EXPECT_EQ(loader_->loaded()[0].file, kDir + "/good.so");
  EXPECT_EQ(loader_->loaded()[1].name, "good2");  // a path's plugin is named after its file
  EXPECT_EQ(loader_->loaded()[1].file, file_of("good2"));
  EXPECT_TRUE(loader_->refused().empty());
}

// ---- call_service: host services and plugin services ----------------------------------------

// What one call_service returned through its callback.
struct ServiceAnswer {
  opbase_rc rc = OPBASE_RC_REFUSED;  // as passed to the callback; REFUSED: never called
  int calls = 0;
  json data;  // parsed, on success
  std::string code;
  std::string message;
  json details;  // parsed, or null
};

void record_service_answer(void* ctx, opbase_rc rc, opbase_str data, opbase_str code,
                           opbase_str message, opbase_str details) {
  auto* answer = static_cast<ServiceAnswer*>(ctx);
  ++answer->calls;
  answer->rc = rc;
  if (rc == OPBASE_RC_OK) answer->data = json::parse(std::string_view(data.ptr, data.len));
  answer->code.assign(code.ptr, code.len);
  answer->message.assign(message.ptr, message.len);
  if (details.len > 0) answer->details = json::parse(std::string_view(details.ptr, details.len));
}

// A Mailer that keeps what it sends (after the checks every transport makes), or returns
// `failure` when that is set.
class RecordingMailer final : public Mailer {
 public:
  Status send(const Mail& mail) override {
    if (Status checked = check_mail(mail); !checked) return checked;
    if (!failure.is_ok()) return failure;
    sent.push_back(mail);
    return Status::ok();
  }
  std::vector<Mail> sent;
  Status failure;
};

class CallServiceTest : public PluginLoaderTest {
 protected:
  CallServiceTest() {
    caller_.name = "caller";
    caller_.file = "caller.so";
    caller_.context = &context_;
  }

  // host->call_service from the plugin "caller", as a plugin calls it.
  ServiceAnswer call(std::string_view name, std::string_view project, std::string_view input) {
    ServiceAnswer answer;
    const opbase_rc rc = host_api()->call_service(&caller_, str(name), str(project), str(input),
                                                  &record_service_answer, &answer);
    EXPECT_EQ(answer.calls, 1) << name << ": the callback must run exactly once";
    EXPECT_EQ(rc, answer.rc) << name << ": the returned rc differs from the callback's";
    return answer;
  }

  opbase_plugin caller_;
  RecordingMailer mailer_;
};

const std::string kMail = R"({"to":"ann@example.com","subject":"Your code","text":"123456"})";

TEST_F(CallServiceTest, MailSendReachesTheHostsMailerFromAnyProject) {
  context_.mailer = &mailer_;
  for (const std::string project : {"p1", "another", ""}) {
    SCOPED_TRACE(project);
    const ServiceAnswer a = call("mail.send", project, kMail);
    ASSERT_EQ(a.rc, OPBASE_RC_OK) << a.code << ": " << a.message;
    EXPECT_EQ(a.data, json({{"sent", true}}));
  }
  ASSERT_EQ(mailer_.sent.size(), 3u);
  EXPECT_EQ(mailer_.sent[0].to, "ann@example.com");
  EXPECT_EQ(mailer_.sent[0].subject, "Your code");
  EXPECT_EQ(mailer_.sent[0].text, "123456");
}

TEST_F(CallServiceTest, MailSendWithoutAMailerIsInternalError) {
  ASSERT_EQ(context_.mailer, nullptr);
  const ServiceAnswer a = call("mail.send", "p1", kMail);
  EXPECT_EQ(a.rc, OPBASE_RC_ERROR);
  EXPECT_EQ(a.code, "INTERNAL_ERROR");
  EXPECT_EQ(a.message, "no mailer is configured");
}

TEST_F(CallServiceTest, MailSendPassesOnWhatTheMailServiceRefuses) {
  context_.mailer = &mailer_;
  const ServiceAnswer missing = call("mail.send", "p1", R"({"subject":"s","text":"t"})");
  EXPECT_EQ(missing.rc, OPBASE_RC_ERROR);
  EXPECT_EQ(missing.code, "VALIDATION_ERROR");
  EXPECT_EQ(missing.details, json({{"field", "to"}}));

  const ServiceAnswer injected =
      call("mail.send", "p1", R"({"to":"a@b.c\r\nBcc: x@y.z","subject":"s","text":"t"})");
  EXPECT_EQ(injected.code, "VALIDATION_ERROR");
  EXPECT_EQ(injected.details, json({{"field", "to"}}));

  for (const std::string input : {"[1]", "not json"}) {
    const ServiceAnswer bad = call("mail.send", "p1", input);
    EXPECT_EQ(bad.code, "VALIDATION_ERROR") << input;
    EXPECT_TRUE(Contains(bad.message, "mail.send: input")) << input;
  }

  mailer_.failure = Status::internal("mail not sent through smtp.example.com:25: 554 no");
  const ServiceAnswer failed = call("mail.send", "p1", kMail);
  EXPECT_EQ(failed.rc, OPBASE_RC_ERROR);
  EXPECT_EQ(failed.code, "INTERNAL_ERROR");
  EXPECT_EQ(failed.message, "mail not sent through smtp.example.com:25: 554 no");
  EXPECT_TRUE(mailer_.sent.empty());
}

TEST_F(CallServiceTest, OtherNamesGoToThePluginThatProvidesThem) {
  context_.mailer = &mailer_;
  ASSERT_TRUE(loader_->load("good", file_of("good")).is_ok());
  const ServiceAnswer a = call("good.svc", "p1", R"({"x":1})");
  ASSERT_EQ(a.rc, OPBASE_RC_OK) << a.code << ": " << a.message;
  EXPECT_EQ(a.data, json({{"plugin", "good"}, {"project", "p1"}, {"input", {{"x", 1}}}}));

  for (const std::string name : {"mail.other", "good.nope"}) {
    const ServiceAnswer missing = call(name, "p1", "{}");
    EXPECT_EQ(missing.rc, OPBASE_RC_NOT_FOUND) << name;
    EXPECT_EQ(missing.message, "no loaded plugin provides the service '" + name + "'");
  }
  EXPECT_TRUE(mailer_.sent.empty());
}

TEST(SplitPluginDirs, SplitsOnColonsAndDropsEmptyParts) {
  EXPECT_EQ(split_plugin_dirs(""), std::vector<std::string>{});
  EXPECT_EQ(split_plugin_dirs("/a"), std::vector<std::string>{"/a"});
  EXPECT_EQ(split_plugin_dirs(":/a::/b c:"), (std::vector<std::string>{"/a", "/b c"}));
}

}  // namespace
}  // namespace opbase::host
