// KeptEvent: an event record of the journal read from its text, members taken without a parse:
// strings decoded (escapes too), the data kept as its raw text, a record without its members
// read with them empty, and no record at all without a `_key`.
#include "outbox/kept_event.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace opbase::webhooks {
namespace {

TEST(KeptEvent, ReadsTheMembersAMessageIsMadeFrom) {
  const std::string text = R"({"_created_at":1700000000123,"_key":"ev1.webhooks","_userkey":null,)"
                           R"("data":{"_key":"o1","collection":"orders"},"id":"ev1","project":"p",)"
                           R"("time_ms":1700000000123,"type":"document.created"})";
  const auto event = KeptEvent::read(text);
  ASSERT_TRUE(event);
  EXPECT_EQ(event->key, "ev1.webhooks");
  EXPECT_EQ(event->id, "ev1");
  EXPECT_EQ(event->type, "document.created");
  EXPECT_EQ(event->time_ms, 1700000000123);
  EXPECT_EQ(event->data, R"({"_key":"o1","collection":"orders"})");
  EXPECT_TRUE(event->complete());
}

TEST(KeptEvent, DecodesEscapedStringsAndKeepsTheDataAsItIs) {
  const nlohmann::json record = {{"_key", "k\"\\\u00e9"},
                                 {"id", "e/1"},
                                 {"type", "document.created"},
                                 {"time_ms", 5},
                                 {"data", {{"_key", "a\"b\n"}}}};
  const std::string text = record.dump();
  const auto event = KeptEvent::read(text);
  ASSERT_TRUE(event);
  EXPECT_EQ(event->key, record["_key"]);
  EXPECT_EQ(nlohmann::json::parse(event->data), record["data"]);
  EXPECT_EQ(event->data, record["data"].dump());
}

TEST(KeptEvent, AMissingOrMistypedMemberReadsEmptyAndMakesNoMessage) {
  const auto no_type = KeptEvent::read(R"({"_key":"k","id":"e","time_ms":1,"data":{}})");
  ASSERT_TRUE(no_type);
  EXPECT_EQ(no_type->key, "k");
  EXPECT_FALSE(no_type->complete());
  const auto odd = KeptEvent::read(R"({"_key":"k","id":7,"type":"t","time_ms":"1","data":[1]})");
  ASSERT_TRUE(odd);
  EXPECT_TRUE(odd->id.empty());
  EXPECT_EQ(odd->time_ms, 0);
  EXPECT_EQ(odd->data, "{}");
  EXPECT_FALSE(odd->complete());
  EXPECT_EQ(KeptEvent::read(R"({"_key":"k","id":"e","type":"t","time_ms":1.5})")->time_ms, 0);
}

TEST(KeptEvent, NoKeyOrNoObjectIsNoRecord) {
  EXPECT_FALSE(KeptEvent::read(R"({"id":"e","type":"t"})"));
  EXPECT_FALSE(KeptEvent::read(R"({"_key":"","id":"e"})"));
  EXPECT_FALSE(KeptEvent::read(R"({"_key":1})"));
  EXPECT_FALSE(KeptEvent::read(R"(["_key","k"])"));
  EXPECT_FALSE(KeptEvent::read(R"({"_key":"k")"));
  EXPECT_FALSE(KeptEvent::read(""));
}

}  // namespace
}  // namespace opbase::webhooks
