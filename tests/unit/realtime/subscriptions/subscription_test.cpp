// subscriptions/subscription.hpp: what one kept event means to one subscription, from the
// document before and after its write: created / updated / enter / leave / archived / restored /
// deleted, nothing for a document the subscriber can see neither before nor after, the scope of
// the rules and sharing judged on each document, and project and keys_only shaping the data.
#include "subscriptions/subscription.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace opbase::realtime {
namespace {

using nlohmann::json;

Subscription subscription(const json& match, store::Scope scope) {
  Subscription s;
  s.id = "rts_1";
  s.collection = "tasks";
  s.match = *query::parse_match(match);
  s.scope = std::move(scope);
  return s;
}

JournalEvent event(std::string write, json document, json before = nullptr) {
  JournalEvent e;
  e.id = "evt_019ae4c1b2a30000002a7c41f09e2d3b";
  e.type = write == "insert" ? "document.created" : "document.updated";
  e.write = std::move(write);
  e.collection = "tasks";
  e.key = "k1";
  e.document = std::move(document);
  e.before = std::move(before);
  return e;
}

std::string name_of(const std::optional<Delivery>& d) {
  return d ? std::string(d->event) : std::string("nothing");
}

const json kOpenMine = {{"_key", "k1"}, {"_userkey", "ana"}, {"status", "open"}};
const json kClosedMine = {{"_key", "k1"}, {"_userkey", "ana"}, {"status", "closed"}};

TEST(Judge, EachWriteOfAVisibleDocumentIsItsEvent) {
  const Subscription s = subscription(json::object(), store::Scope::user("ana"));
  EXPECT_EQ(name_of(judge(s, event("insert", kOpenMine))), "created");
  EXPECT_EQ(name_of(judge(s, event("update", kClosedMine, kOpenMine))), "updated");
  EXPECT_EQ(name_of(judge(s, event("archive", kOpenMine))), "archived");
  EXPECT_EQ(name_of(judge(s, event("restore", kOpenMine))), "restored");
  EXPECT_EQ(name_of(judge(s, event("delete", kOpenMine))), "deleted");
}

TEST(Judge, StartingAndStoppingToMatchIsEnterAndLeave) {
  const Subscription s = subscription({{"status", "open"}}, store::Scope::user("ana"));
  EXPECT_EQ(name_of(judge(s, event("update", kOpenMine, kClosedMine))), "enter");
  const auto leave = judge(s, event("update", kClosedMine, kOpenMine));
  EXPECT_EQ(name_of(leave), "leave");
  EXPECT_EQ(leave->data["document"]["status"], "open") << "as the subscriber last saw it";
  EXPECT_EQ(name_of(judge(s, event("update", kClosedMine, kClosedMine))), "nothing");
  EXPECT_EQ(name_of(judge(s, event("insert", kClosedMine))), "nothing");
}

TEST(Judge, TheScopeDecidesOnEachDocumentSharingIncluded) {
  const Subscription bea =
      subscription(json::object(), store::Scope::shared("bea", {"bea"}, {"_readers", "_writers"}));
  EXPECT_EQ(name_of(judge(bea, event("insert", kOpenMine))), "nothing") << "ana's, not shared";
  json shared = kOpenMine;
  shared["_readers"] = {"bea"};
  EXPECT_EQ(name_of(judge(bea, event("update", shared, kOpenMine))), "enter");
  EXPECT_EQ(name_of(judge(bea, event("update", kOpenMine, shared))), "leave");
  Subscription nobody = bea;
  nobody.scope.reset();
  EXPECT_EQ(name_of(judge(nobody, event("insert", shared))), "nothing");
}

TEST(Judge, AnotherCollectionIsNothing) {
  const Subscription s = subscription(json::object(), store::Scope::everyone());
  JournalEvent other = event("insert", kOpenMine);
  other.collection = "notes";
  EXPECT_EQ(name_of(judge(s, other)), "nothing");
}

TEST(Judge, ProjectAndKeysOnlyShapeTheData) {
  Subscription s = subscription(json::object(), store::Scope::everyone());
  s.projection = *query::parse_projection({{"status", 1}});
  s.projects = true;
  const auto projected = judge(s, event("insert", kOpenMine));
  ASSERT_TRUE(projected);
  EXPECT_EQ(projected->data["document"], (json{{"_key", "k1"}, {"status", "open"}}));
  EXPECT_EQ(projected->data["subscription_id"], "rts_1");
  EXPECT_EQ(projected->data["collection"], "tasks");
  EXPECT_EQ(projected->data["_key"], "k1");
  s.keys_only = true;
  const auto keys = judge(s, event("insert", kOpenMine));
  ASSERT_TRUE(keys);
  EXPECT_FALSE(keys->data.contains("document"));
}

TEST(SubscriptionRecord, ARecordGivesTheSubscriptionItWasMadeFor) {
  const json record = {{"_key", "rts_9"},
                       {"client_id", "rtc_1"},
                       {"user", "ana"},
                       {"collection", "tasks"},
                       {"match", {{"status", "open"}}},
                       {"filter", {{"n:$gt", 1}}},
                       {"project", {{"status", 1}}},
                       {"keys_only", false},
                       {"since", nullptr},
                       {"scope", store::scope_to_json(store::Scope::user("ana"))},
                       {"access", {{"collection", "tasks"}}}};
  auto s = subscription_from_record(record, 1234);
  ASSERT_TRUE(s) << s.status().to_string();
  EXPECT_EQ(s->id, "rts_9");
  EXPECT_EQ(s->collection, "tasks");
  EXPECT_EQ(s->match.size(), 2u) << "match and filter together";
  EXPECT_TRUE(s->projects);
  EXPECT_EQ(s->scope, store::Scope::user("ana"));
  EXPECT_EQ(s->scope_checked_ms, 1234);
  EXPECT_EQ(s->access_request["collection"], "tasks");
  json open_two = kOpenMine;
  open_two["n"] = 2;
  EXPECT_EQ(name_of(judge(*s, event("insert", open_two))), "created");
  EXPECT_EQ(name_of(judge(*s, event("insert", kOpenMine))), "nothing") << "no n above 1";
}

TEST(SubscriptionRecord, NoScopeIsNothingToRead) {
  auto s = subscription_from_record(
      {{"_key", "rts_1"}, {"collection", "tasks"}, {"match", json::object()}, {"scope", nullptr}},
      0);
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->scope.has_value());
  EXPECT_EQ(name_of(judge(*s, event("insert", kOpenMine))), "nothing");
}

}  // namespace
}  // namespace opbase::realtime
