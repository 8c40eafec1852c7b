// journal/journal_event.hpp: a kept event read back from its record (the document, the one
// before an update, what the write did), records that are no document event refused, and the
// time an event id starts with.
#include "journal/journal_event.hpp"

#include <gtest/gtest.h>

namespace opbase::realtime {
namespace {

using nlohmann::json;

TEST(JournalEvent, ARecordGivesItsEvent) {
  const json record = {{"_key", "evt_019ae4c1b2a30000002a7c41f09e2d3b.realtime"},
                       {"id", "evt_019ae4c1b2a30000002a7c41f09e2d3b"},
                       {"type", "document.updated"},
                       {"write", "archive"},
                       {"data", {{"_key", "k1"}, {"collection", "tasks"}}},
                       {"document", {{"_key", "k1"}, {"n", 2}}},
                       {"before", {{"_key", "k1"}, {"n", 1}}},
                       {"time_ms", 1765000000000}};
  const auto e = JournalEvent::from_record(record);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->id, "evt_019ae4c1b2a30000002a7c41f09e2d3b");
  EXPECT_EQ(e->write, "archive");
  EXPECT_EQ(e->collection, "tasks");
  EXPECT_EQ(e->key, "k1");
  EXPECT_EQ(e->document["n"], 2);
  EXPECT_EQ(e->before["n"], 1);
  EXPECT_EQ(e->time_ms, 1765000000000);
}

TEST(JournalEvent, WithoutItsWriteTheTypeSaysIt) {
  json record = {{"id", "evt_1"},
                 {"type", "document.created"},
                 {"data", {{"_key", "k1"}, {"collection", "tasks"}}}};
  EXPECT_EQ(JournalEvent::from_record(record)->write, "insert");
  record["type"] = "document.deleted";
  EXPECT_EQ(JournalEvent::from_record(record)->write, "delete");
  record["type"] = "document.updated";
  EXPECT_EQ(JournalEvent::from_record(record)->write, "update");
}

TEST(JournalEvent, ARecordOfAnotherKindIsNoEvent) {
  EXPECT_FALSE(JournalEvent::from_record(json::array()));
  EXPECT_FALSE(JournalEvent::from_record(
      {{"id", "evt_1"}, {"type", "user.signedout"}, {"data", {{"_key", "u1"}}}}));
  EXPECT_FALSE(JournalEvent::from_record({{"id", "evt_1"}, {"type", "document.created"}}));
  EXPECT_FALSE(JournalEvent::from_record(
      {{"type", "document.created"}, {"data", {{"_key", "k"}, {"collection", "c"}}}}));
}

TEST(JournalEvent, AnIdStartsWithItsTime) {
  EXPECT_EQ(event_id_time_ms("evt_018bcfe5680000000001aabbccddeeff"), 1'700'000'000'000);
  EXPECT_FALSE(event_id_time_ms("evt_xyz"));
  EXPECT_FALSE(event_id_time_ms("rts_018bcfe56800"));
  EXPECT_FALSE(event_id_time_ms(""));
}

}  // namespace
}  // namespace opbase::realtime
