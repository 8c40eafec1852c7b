// Registry: the op and service names plugins register. Name rules ("<area>.<verb>", lowercase
// letters, digits and '_', bounded lengths), the area rule (own area plus the alias area the
// host grants), the automatic aliases the API defines (db.* for collection.*, baseai.* for ai.*),
// duplicates refused naming the owner, routes (their prefix rules, overlaps, the longest match
// found), and remove_plugin (the loader's rollback).
#include "plugin_host/registry.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "plugin_host/host_context.hpp"

namespace opbase::host {
namespace {

opbase_rc op_ok(void*, const opbase_request*, opbase_response*) { return OPBASE_RC_OK; }
opbase_rc op_other(void*, const opbase_request*, opbase_response*) { return OPBASE_RC_ERROR; }
opbase_rc service_ok(void*, opbase_str, opbase_str, opbase_response*) { return OPBASE_RC_OK; }
opbase_rc service_other(void*, opbase_str, opbase_str, opbase_response*) { return OPBASE_RC_ERROR; }
void route_ok(void*, const opbase_route_request*, opbase_stream*) {}

int g_state_a;
int g_state_b;

::testing::AssertionResult Contains(const std::string& text, std::string_view part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << part << "' is not in:\n  " << text;
}

Status add(Registry& r, std::string_view plugin, std::string_view name) {
  return r.add_op(plugin, name, OPBASE_ACCESS_API_KEY, &op_ok, &g_state_a);
}

// The message a malformed op name is refused with.
std::string malformed(std::string_view kind, std::string_view name) {
  return std::string(kind) + " name '" + std::string(name) +
         "' is not <area>.<verb> or <area>.<group>.<verb> in lowercase letters, digits and '_'";
}

// ---- name rules -------------------------------------------------------------------------------

TEST(RegistryNames, AcceptsAreaDotVerbInLowercaseLettersDigitsAndUnderscore) {
  Registry r;
  EXPECT_TRUE(add(r, "echo", "echo.ping").is_ok());
  EXPECT_TRUE(add(r, "echo", "echo.get_all").is_ok());
  EXPECT_TRUE(add(r, "echo", "echo.v2").is_ok());
  EXPECT_TRUE(add(r, "echo", "echo.2fa").is_ok());  // a verb may start with a digit
  EXPECT_TRUE(add(r, "e2e", "e2e.run").is_ok());
  EXPECT_TRUE(add(r, "my_area", "my_area.x").is_ok());
  EXPECT_TRUE(add(r, "echo", "echo.thing.create").is_ok());  // a group and a verb
  EXPECT_EQ(r.op_count(), 7u);
  EXPECT_NE(r.find_op("my_area.x"), nullptr);
}

TEST(RegistryNames, RefusesMalformedNamesAndKeepsNothing) {
  Registry r;
  const std::vector<std::string> bad = {
      "",
      "echo",
      "echo.",
      ".ping",
      "echo..ping",
      "echo.ping.x.y",
      "echo.ping.",
      "echo..ping.x",
      "echo.Ping.x",
      "Echo.ping",
      "echo.Ping",
      "ECHO.PING",
      "echo.pi-ng",
      "echo.pi ng",
      " echo.ping",
      "echo.ping ",
      "echo.p\xc3\xafng" /* ï */,
      "echo/ping",
      "echo:ping",
      "echo.ping\n",
      std::string("echo.pi\0ng", 10),
  };
  for (const std::string& name : bad) {
    Status s = add(r, "echo", name);
    EXPECT_FALSE(s.is_ok()) << "accepted '" << name << "'";
    EXPECT_EQ(s.code(), "VALIDATION_ERROR") << name;
    EXPECT_EQ(s.message(), malformed("op", name));
  }
  EXPECT_EQ(r.op_count(), 0u);
}

TEST(RegistryNames, AreaStartsWithALetter) {
  Registry r;
  EXPECT_EQ(add(r, "2fa", "2fa.check").message(), malformed("op", "2fa.check"));
  EXPECT_EQ(add(r, "_x", "_x.check").message(), malformed("op", "_x.check"));
  EXPECT_EQ(r.op_count(), 0u);
}

TEST(RegistryNames, AreaIsAtMost32AndVerbAtMost64Characters) {
  Registry r;
  const std::string area32(32, 'a'), area33(33, 'a');
  const std::string verb64(64, 'v'), verb65(65, 'v');
  EXPECT_TRUE(add(r, area32, area32 + ".x").is_ok());
  EXPECT_EQ(add(r, area33, area33 + ".x").message(), malformed("op", area33 + ".x"));
  EXPECT_TRUE(add(r, "echo", "echo." + verb64).is_ok());
  EXPECT_EQ(add(r, "echo", "echo." + verb65).message(), malformed("op", "echo." + verb65));
  EXPECT_EQ(r.op_count(), 2u);
}

TEST(RegistryNames, ValidAreaName) {
  for (std::string_view ok : {"a", "a1", "a_b", "collection", "baseai"}) {
    EXPECT_TRUE(Registry::valid_area_name(ok)) << ok;
  }
  EXPECT_TRUE(Registry::valid_area_name(std::string(32, 'z')));
  for (std::string_view bad : {"", "A", "Echo", "1a", "_a", "a-b", "a.b", "a b", "a*"}) {
    EXPECT_FALSE(Registry::valid_area_name(bad)) << bad;
  }
  EXPECT_FALSE(Registry::valid_area_name(std::string(33, 'z')));
}

// ---- what an op needs -------------------------------------------------------------------------

TEST(RegistryOps, KeepsHandlerStateAndAccess) {
  Registry r;
  ASSERT_TRUE(r.add_op("echo", "echo.admin", OPBASE_ACCESS_ADMIN, &op_other, &g_state_b).is_ok());
  const OpEntry* e = r.find_op("echo.admin");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->name, "echo.admin");
  EXPECT_EQ(e->plugin, "echo");
  EXPECT_EQ(e->access, OPBASE_ACCESS_ADMIN);
  EXPECT_EQ(e->fn, &op_other);
  EXPECT_EQ(e->state, &g_state_b);
  EXPECT_EQ(r.find_op("echo.other"), nullptr);
  EXPECT_EQ(r.find_op(""), nullptr);
}

TEST(RegistryOps, RefusesAnOpWithoutHandler) {
  Registry r;
  Status s = r.add_op("echo", "echo.ping", OPBASE_ACCESS_API_KEY, nullptr, nullptr);
  EXPECT_EQ(s.code(), "VALIDATION_ERROR");
  EXPECT_EQ(s.message(), "op 'echo.ping' has no handler");
  EXPECT_EQ(r.find_op("echo.ping"), nullptr);
}

TEST(RegistryOps, RefusesAnUnknownAccessLevel) {
  Registry r;
  // What a C plugin passing a stray integer looks like to the host.
  const auto access = static_cast<opbase_access>(OPBASE_ACCESS_USER_OPTIONAL + 1);
  Status s = r.add_op("echo", "echo.ping", access, &op_ok, nullptr);
  EXPECT_EQ(s.message(), "op 'echo.ping' has an unknown access level 4");
  EXPECT_EQ(r.find_op("echo.ping"), nullptr);
}

// ---- areas ------------------------------------------------------------------------------------

TEST(RegistryAreas, APluginRegistersOnlyUnderItsOwnArea) {
  Registry r;
  EXPECT_EQ(add(r, "echo", "hello.ping").message(),
            "op 'hello.ping' is outside the area of plugin 'echo' (allowed: echo.*)");
  // Prefixes of the area, or the area as a prefix, are other areas.
  EXPECT_TRUE(Contains(add(r, "echo", "echoes.ping").message(), "is outside the area"));
  EXPECT_TRUE(Contains(add(r, "echo", "ech.ping").message(), "is outside the area"));
  // Alias areas belong to their owners only.
  EXPECT_TRUE(Contains(add(r, "echo", "db.find").message(), "is outside the area"));
  EXPECT_TRUE(Contains(add(r, "echo", "baseai.create").message(), "is outside the area"));
  EXPECT_EQ(add(r, "collection", "ai.generate").message(),
            "op 'ai.generate' is outside the area of plugin 'collection' (allowed: collection.*, "
            "db.*)");
  EXPECT_EQ(add(r, "ai", "db.find").message(),
            "op 'db.find' is outside the area of plugin 'ai' (allowed: ai.*, baseai.*)");
  EXPECT_TRUE(Contains(add(r, "db", "collection.find").message(), "is outside the area"));
  EXPECT_TRUE(Contains(add(r, "baseai", "ai.generate").message(), "is outside the area"));
  EXPECT_EQ(r.op_count(), 0u);
}

TEST(RegistryAreas, TheOwnerOfAnAliasAreaMayRegisterInItDirectly) {
  Registry r;
  ASSERT_TRUE(add(r, "collection", "db.extra").is_ok());
  ASSERT_TRUE(add(r, "ai", "baseai.extra").is_ok());
  const OpEntry* db = r.find_op("db.extra");
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(db->plugin, "collection");
  EXPECT_EQ(db->name, "db.extra");
  // A name registered in the alias area gets no reverse alias.
  EXPECT_EQ(r.find_op("collection.extra"), nullptr);
  EXPECT_EQ(r.find_op("ai.extra"), nullptr);
  EXPECT_EQ(r.op_count(), 2u);
}

// ---- automatic aliases ------------------------------------------------------------------------

TEST(RegistryAliases, EveryCollectionOpIsAlsoADbOp) {
  Registry r;
  for (const char* verb : {"find", "insert", "update", "count"}) {
    ASSERT_TRUE(add(r, "collection", std::string("collection.") + verb).is_ok()) << verb;
  }
  for (const char* verb : {"find", "insert", "update", "count"}) {
    const OpEntry* canonical = r.find_op(std::string("collection.") + verb);
    const OpEntry* alias = r.find_op(std::string("db.") + verb);
    ASSERT_NE(canonical, nullptr) << verb;
    EXPECT_EQ(alias, canonical) << verb << ": the alias reaches another entry";
    EXPECT_EQ(canonical->name, std::string("collection.") + verb);
  }
  // Both names count as op names; ops_of lists the canonical ones only.
  EXPECT_EQ(r.op_count(), 8u);
  EXPECT_EQ(r.ops_of("collection"),
            (std::vector<std::string>{"collection.count", "collection.find", "collection.insert",
                                      "collection.update"}));
}

TEST(RegistryAliases, AiOpsAreAlsoBaseaiOpsSomeUnderAnotherVerb) {
  Registry r;
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"ai.generate", "baseai.create"},
      {"ai.classify", "baseai.categorize"},
      {"ai.sentiment", "baseai.analyze_sentiment"},
      {"ai.extract", "baseai.extract_entities"},
      {"ai.summarize", "baseai.summarize"},
      {"ai.translate", "baseai.translate"},
      {"ai.vectorize", "baseai.vectorize"},
  };
  for (const auto& [canonical, alias] : expected) ASSERT_TRUE(add(r, "ai", canonical).is_ok());
  for (const auto& [canonical, alias] : expected) {
    const OpEntry* entry = r.find_op(canonical);
    ASSERT_NE(entry, nullptr) << canonical;
    EXPECT_EQ(r.find_op(alias), entry) << alias << " does not reach " << canonical;
    EXPECT_EQ(entry->name, canonical);
    EXPECT_EQ(entry->plugin, "ai");
  }
  // A renamed verb is reachable only under its new name.
  for (const char* not_an_alias :
       {"baseai.generate", "baseai.classify", "baseai.sentiment", "baseai.extract"}) {
    EXPECT_EQ(r.find_op(not_an_alias), nullptr) << not_an_alias;
  }
  EXPECT_EQ(r.op_count(), 14u);
  EXPECT_EQ(r.ops_of("ai").size(), 7u);
}

TEST(RegistryAliases, OtherAreasGetNoAlias) {
  Registry r;
  ASSERT_TRUE(add(r, "echo", "echo.ping").is_ok());
  ASSERT_TRUE(add(r, "vdb", "vdb.create").is_ok());  // "create" is only renamed under ai
  EXPECT_EQ(r.op_count(), 2u);
  EXPECT_EQ(r.find_op("baseai.create"), nullptr);
}

// ---- duplicates -------------------------------------------------------------------------------

TEST(RegistryDuplicates, SameNameTwiceIsRefusedNamingTheOwnerAndKeepsTheFirst) {
  Registry r;
  ASSERT_TRUE(r.add_op("echo", "echo.ping", OPBASE_ACCESS_API_KEY, &op_ok, &g_state_a).is_ok());
  Status s = r.add_op("echo", "echo.ping", OPBASE_ACCESS_ADMIN, &op_other, &g_state_b);
  EXPECT_EQ(s.code(), "VALIDATION_ERROR");
  EXPECT_EQ(s.message(), "op 'echo.ping' is already registered by plugin 'echo'");
  const OpEntry* e = r.find_op("echo.ping");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->fn, &op_ok);
  EXPECT_EQ(e->state, &g_state_a);
  EXPECT_EQ(e->access, OPBASE_ACCESS_API_KEY);
  EXPECT_EQ(r.op_count(), 1u);
}

TEST(RegistryDuplicates, AnAliasTakenIsADuplicateToo) {
  Registry r;
  ASSERT_TRUE(add(r, "collection", "collection.find").is_ok());
  // The owner itself cannot register the alias name a second time ...
  EXPECT_EQ(add(r, "collection", "db.find").message(),
            "op 'db.find' is already registered by plugin 'collection'");
  // ... nor can a plugin whose own area is "db".
  EXPECT_EQ(add(r, "db", "db.find").message(),
            "op 'db.find' is already registered by plugin 'collection'");
  EXPECT_EQ(r.find_op("db.find")->plugin, "collection");
  EXPECT_EQ(r.op_count(), 2u);
}

TEST(RegistryDuplicates, ACanonicalNameWhoseAliasIsTakenIsRefusedWhole) {
  Registry r;
  ASSERT_TRUE(add(r, "ai", "baseai.create").is_ok());
  EXPECT_EQ(add(r, "ai", "ai.generate").message(),
            "op 'baseai.create' is already registered by plugin 'ai'");
  EXPECT_EQ(r.find_op("ai.generate"), nullptr) << "half of a refused op was kept";
  EXPECT_EQ(r.op_count(), 1u);

  ASSERT_TRUE(add(r, "collection", "db.count").is_ok());
  EXPECT_EQ(add(r, "collection", "collection.count").message(),
            "op 'db.count' is already registered by plugin 'collection'");
  EXPECT_EQ(r.find_op("collection.count"), nullptr);
}

// ---- services ---------------------------------------------------------------------------------

TEST(RegistryServices, ProvideAndFind) {
  Registry r;
  ASSERT_TRUE(r.add_service("auth", "auth.verify_token", &service_ok, &g_state_a).is_ok());
  const ServiceEntry* e = r.find_service("auth.verify_token");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->name, "auth.verify_token");
  EXPECT_EQ(e->plugin, "auth");
  EXPECT_EQ(e->fn, &service_ok);
  EXPECT_EQ(e->state, &g_state_a);
  EXPECT_EQ(r.find_service("auth.other"), nullptr);
  // Services and ops are separate name spaces.
  EXPECT_EQ(r.find_op("auth.verify_token"), nullptr);
  EXPECT_TRUE(add(r, "auth", "auth.verify_token").is_ok());
}

TEST(RegistryServices, FollowTheSameNameAndAreaRules) {
  Registry r;
  EXPECT_EQ(r.add_service("ai", "ai.Embed", &service_ok, nullptr).message(),
            malformed("service", "ai.Embed"));
  EXPECT_EQ(r.add_service("ai", "embed", &service_ok, nullptr).message(),
            malformed("service", "embed"));
  EXPECT_EQ(r.add_service("vdb", "ai.embed", &service_ok, nullptr).message(),
            "service 'ai.embed' is outside the area of plugin 'vdb' (allowed: vdb.*)");
  EXPECT_EQ(r.add_service("ai", "ai.embed", nullptr, nullptr).message(),
            "service 'ai.embed' has no function");
  EXPECT_EQ(r.find_service("ai.embed"), nullptr);
  // The alias area is granted for services as well, but services get no automatic alias.
  EXPECT_TRUE(r.add_service("ai", "baseai.embed2", &service_ok, nullptr).is_ok());
  EXPECT_TRUE(r.add_service("ai", "ai.embed", &service_ok, nullptr).is_ok());
  EXPECT_EQ(r.find_service("baseai.embed"), nullptr);
}

TEST(RegistryServices, DuplicateIsRefusedNamingTheProvider) {
  Registry r;
  ASSERT_TRUE(r.add_service("ai", "ai.embed", &service_ok, &g_state_a).is_ok());
  Status s = r.add_service("ai", "ai.embed", &service_other, &g_state_b);
  EXPECT_EQ(s.code(), "VALIDATION_ERROR");
  EXPECT_EQ(s.message(), "service 'ai.embed' is already provided by plugin 'ai'");
  EXPECT_EQ(r.find_service("ai.embed")->fn, &service_ok);
}

TEST(RegistryServices, AHostServiceIsFoundLikeAPluginsAndItsNameIsTakenForEveryPlugin) {
  Registry r;
  ASSERT_TRUE(r.add_host_service("store.find", [](const opbase_plugin&, std::string_view project,
                                                  std::string_view input) {
                 return Result<std::string>(std::string(project) + ":" + std::string(input));
               }).is_ok());
  const ServiceEntry* e = r.find_service("store.find");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->plugin, kHostProvider);
  EXPECT_EQ(e->fn, nullptr);
  ASSERT_TRUE(e->host_fn);
  EXPECT_EQ(*e->host_fn(opbase_plugin{}, "p", "{}"), "p:{}");
  // A plugin named after the area cannot take the name, nor does its rollback remove it.
  EXPECT_EQ(r.add_service("store", "store.find", &service_ok, nullptr).message(),
            "service 'store.find' is already provided by plugin '(host)'");
  r.remove_plugin("store");
  EXPECT_NE(r.find_service("store.find"), nullptr);
  EXPECT_FALSE(r.add_host_service("store.find", e->host_fn).is_ok());
}

// ---- rollback ---------------------------------------------------------------------------------

TEST(RegistryRemove, RemovesEveryNameOfThePluginAliasesAndServicesIncluded) {
  Registry r;
  ASSERT_TRUE(add(r, "collection", "collection.find").is_ok());
  ASSERT_TRUE(add(r, "collection", "db.extra").is_ok());
  ASSERT_TRUE(r.add_service("collection", "collection.count", &service_ok, nullptr).is_ok());
  ASSERT_TRUE(add(r, "ai", "ai.generate").is_ok());
  ASSERT_TRUE(r.add_service("ai", "ai.embed", &service_ok, nullptr).is_ok());
  ASSERT_EQ(r.op_count(), 5u);

  r.remove_plugin("collection");
  EXPECT_EQ(r.find_op("collection.find"), nullptr);
  EXPECT_EQ(r.find_op("db.find"), nullptr) << "the alias outlived its op";
  EXPECT_EQ(r.find_op("db.extra"), nullptr);
  EXPECT_EQ(r.find_service("collection.count"), nullptr);
  EXPECT_TRUE(r.ops_of("collection").empty());
  // Another plugin's names stay.
  EXPECT_NE(r.find_op("ai.generate"), nullptr);
  EXPECT_NE(r.find_op("baseai.create"), nullptr);
  EXPECT_NE(r.find_service("ai.embed"), nullptr);
  EXPECT_EQ(r.op_count(), 2u);

  // The names are free again.
  EXPECT_TRUE(add(r, "collection", "collection.find").is_ok());
  EXPECT_TRUE(r.add_service("collection", "collection.count", &service_ok, nullptr).is_ok());
  EXPECT_NE(r.find_op("db.find"), nullptr);
}

TEST(RegistryRemove, UnknownPluginIsANoOp) {
  Registry r;
  ASSERT_TRUE(add(r, "echo", "echo.ping").is_ok());
  r.remove_plugin("other");
  r.remove_plugin("");
  EXPECT_NE(r.find_op("echo.ping"), nullptr);
  EXPECT_EQ(r.op_count(), 1u);
}

TEST(RegistryOpsOf, ListsCanonicalNamesSorted) {
  Registry r;
  for (const char* name : {"echo.zeta", "echo.alpha", "echo.mid"}) {
    ASSERT_TRUE(add(r, "echo", name).is_ok());
  }
  ASSERT_TRUE(add(r, "other", "other.x").is_ok());
  EXPECT_EQ(r.ops_of("echo"), (std::vector<std::string>{"echo.alpha", "echo.mid", "echo.zeta"}));
  EXPECT_TRUE(r.ops_of("nobody").empty());
}

}  // namespace
}  // namespace opbase::host

namespace opbase::host {
namespace {

TEST(RegistryLanes, LaneOpsShareTheirPluginsLaneAndPlainOpsHaveNone) {
  Registry r;
  ASSERT_TRUE(r.size_lane("slow", LaneSize{3, 7}).is_ok());
  ASSERT_TRUE(r.add_lane_op("slow", "slow.wait", OPBASE_ACCESS_USER, &op_ok, &g_state_a).is_ok());
  ASSERT_TRUE(r.add_lane_op("slow", "slow.think", OPBASE_ACCESS_USER, &op_ok, &g_state_a).is_ok());
  ASSERT_TRUE(add(r, "slow", "slow.quick").is_ok());
  const OpEntry* wait = r.find_op("slow.wait");
  ASSERT_NE(wait, nullptr);
  ASSERT_NE(wait->lane, nullptr);
  EXPECT_EQ(wait->lane, r.find_op("slow.think")->lane);
  EXPECT_EQ(wait->lane->plugin(), "slow");
  EXPECT_EQ(wait->lane->size().threads, 3);
  EXPECT_EQ(wait->lane->size().queue, 7u);
  EXPECT_EQ(r.find_op("slow.quick")->lane, nullptr);
  r.stop_lanes();
}

TEST(RegistryLanes, AliasesOfALaneOpRunOnTheLaneToo) {
  Registry r;
  ASSERT_TRUE(r.add_lane_op("ai", "ai.generate", OPBASE_ACCESS_USER, &op_ok, &g_state_a).is_ok());
  ASSERT_NE(r.find_op("baseai.create"), nullptr);
  EXPECT_NE(r.find_op("baseai.create")->lane, nullptr);
  r.stop_lanes();
}

TEST(RegistryLanes, ALaneIsSizedBeforeItsFirstOpAndWithinBounds) {
  Registry r;
  EXPECT_FALSE(r.size_lane("slow", LaneSize{0, 7}).is_ok());
  EXPECT_FALSE(r.size_lane("slow", LaneSize{3, 0}).is_ok());
  EXPECT_FALSE(r.size_lane("slow", LaneSize{2000, 7}).is_ok());
  ASSERT_TRUE(r.add_lane_op("slow", "slow.wait", OPBASE_ACCESS_USER, &op_ok, &g_state_a).is_ok());
  const Status late = r.size_lane("slow", LaneSize{3, 7});
  EXPECT_FALSE(late.is_ok());
  EXPECT_TRUE(Contains(late.message(), "before its first lane op"));
  r.stop_lanes();
}

TEST(RegistryLanes, ARefusedNameMakesNoLaneAndRollbackRemovesIt) {
  Registry r;
  EXPECT_FALSE(r.add_lane_op("slow", "other.wait", OPBASE_ACCESS_USER, &op_ok, &g_state_a).is_ok());
  // No lane was made: the lane may still be sized.
  EXPECT_TRUE(r.size_lane("slow", LaneSize{2, 2}).is_ok());
  ASSERT_TRUE(r.add_lane_op("slow", "slow.wait", OPBASE_ACCESS_USER, &op_ok, &g_state_a).is_ok());
  r.remove_plugin("slow");
  EXPECT_EQ(r.find_op("slow.wait"), nullptr);
  // The plugin's lane went with it, so a new one may be sized again.
  EXPECT_TRUE(r.size_lane("slow", LaneSize{2, 2}).is_ok());
}

TEST(Lane, RunsJobsAndAnswersQueuedOnesAtOnceWhenStopping) {
  Lane lane("slow", LaneSize{1, 2});
  std::mutex mu;
  std::condition_variable cv;
  bool release = false;
  std::vector<bool> ran_stopping;
  auto record = [&](bool stopping) {
    std::lock_guard lock(mu);
    ran_stopping.push_back(stopping);
  };
  // One job holds the only thread; two wait in the queue; a fourth does not fit.
  bool started = false;
  ASSERT_TRUE(lane.try_run([&](bool stopping) {
    std::unique_lock lock(mu);
    started = true;
    cv.notify_all();
    cv.wait(lock, [&] { return release; });
    ran_stopping.push_back(stopping);
  }));
  {
    std::unique_lock lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(10), [&] { return started; }));
  }
  ASSERT_TRUE(lane.try_run(record));
  ASSERT_TRUE(lane.try_run(record));
  EXPECT_FALSE(lane.try_run(record)) << "a full queue refuses";
  lane.begin_stopping();
  EXPECT_FALSE(lane.try_run(record)) << "a stopping lane refuses";
  {
    std::lock_guard lock(mu);
    release = true;
  }
  cv.notify_all();
  lane.stop();
  ASSERT_EQ(ran_stopping.size(), 3u);
  EXPECT_FALSE(ran_stopping[0]) << "the job under way ran as usual";
  EXPECT_TRUE(ran_stopping[1]);
  EXPECT_TRUE(ran_stopping[2]);
}

TEST(RegistryRoutes, APrefixIsThePluginsOwnPathAndNeverTheHosts) {
  Registry r;
  EXPECT_TRUE(r.add_route("file", "/files/", &route_ok, nullptr).is_ok());
  EXPECT_TRUE(r.add_route("echo", "/echo/", &route_ok, nullptr).is_ok());
  EXPECT_TRUE(r.add_route("echo", "/echos/deep/", &route_ok, nullptr).is_ok());
  for (const char* bad :
       {"/other/", "files/", "/files", "//", "/Echo/", "/echo//x/", "/echo/%2e/", "/e/"}) {
    EXPECT_FALSE(r.add_route("echo", bad, &route_ok, nullptr).is_ok()) << bad;
  }
  EXPECT_TRUE(Contains(r.add_route("api", "/api/", &route_ok, nullptr).message(), "/api"));
  EXPECT_TRUE(
      Contains(r.add_route("metric", "/metrics/", &route_ok, nullptr).message(), "/metrics"));
  EXPECT_FALSE(r.add_route("echo", "/echo/count/", &route_ok, nullptr).is_ok());  // overlaps
  EXPECT_TRUE(Contains(r.add_route("file", "/file/", nullptr, nullptr).message(), "no handler"));
}

TEST(RegistryRoutes, APathFindsItsRouteAndRemovalTakesItAway) {
  Registry r;
  ASSERT_TRUE(r.add_route("file", "/files/", &route_ok, &g_state_a).is_ok());
  const RouteEntry* found = r.find_route("/files/shop/k1");
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->plugin, "file");
  EXPECT_EQ(found->state, &g_state_a);
  EXPECT_NE(found->lane, nullptr);  // the plugin's lane, made for the route
  EXPECT_EQ(r.find_route("/files"), nullptr);
  EXPECT_EQ(r.find_route("/api/x"), nullptr);
  r.remove_plugin("file");
  EXPECT_EQ(r.find_route("/files/shop/k1"), nullptr);
}

}  // namespace
}  // namespace opbase::host
