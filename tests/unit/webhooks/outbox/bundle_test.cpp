// Bundle: the messages one fan-out makes for an endpoint that is behind, printed as one
// document. It reads back to exactly the events it was made of (escapes and data intact), its key
// is a digest of everything it holds (the same events make the same key, any other event another
// one), and a document that is not a well-formed bundle reads as none.
#include "outbox/bundle.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace opbase::webhooks {
namespace {

using nlohmann::json;

KeptEvent event(std::string id, std::string_view data, int64_t time_ms = 1'700'000'000'000) {
  KeptEvent e;
  e.key = id + ".webhooks";
  e.id = std::move(id);
  e.type = "document.created";
  e.time_ms = time_ms;
  e.data = data;
  return e;
}

std::string bundle_of(const std::vector<KeptEvent>& events) {
  BundleWriter writer;
  for (const KeptEvent& e : events) writer.add(e);
  return writer.document("whep_a", "webhooks-bundles/whep_a", 1'700'000'000'500);
}

TEST(Bundle, ReadsBackTheEventsItWasMadeOf) {
  const std::string odd_data = json{{"_key", "o\"\\\u00e9\n/\u65e5"}, {"collection", "c"}}.dump();
  const std::vector<KeptEvent> events = {event("evt_1", R"({"_key":"o1"})", 1),
                                         event("evt_\"2", odd_data, 2)};
  const json doc = json::parse(bundle_of(events));
  EXPECT_EQ(doc["_userkey"], "webhooks-bundles/whep_a");
  EXPECT_EQ(doc["state"], kBundledState);
  EXPECT_EQ(doc["count"], 2);
  ASSERT_TRUE(Bundle::is_bundle(doc));
  const auto bundle = Bundle::from_document(doc);
  ASSERT_TRUE(bundle);
  EXPECT_EQ(bundle->key, doc["_key"]);
  EXPECT_EQ(bundle->endpoint, "whep_a");
  EXPECT_EQ(bundle->due_ms, 1'700'000'000'500);
  ASSERT_EQ(bundle->events.size(), 2u);
  EXPECT_EQ(bundle->events[1].id, "evt_\"2");
  EXPECT_EQ(bundle->events[1].type, "document.created");
  EXPECT_EQ(bundle->events[1].time_ms, 2);
  EXPECT_EQ(json::parse(bundle->events[1].data), json::parse(odd_data));
  EXPECT_EQ(json::parse(bundle->events[0].data), json::parse(R"({"_key":"o1"})"));
}

TEST(Bundle, TheKeyIsTheSameForTheSameEventsAndAnotherForAnyOther) {
  const auto key_of = [](const std::vector<KeptEvent>& events) {
    return json::parse(bundle_of(events))["_key"].get<std::string>();
  };
  const std::vector<KeptEvent> three = {event("e1", "{}"), event("e2", "{}"), event("e3", "{}")};
  const std::string key = key_of(three);
  EXPECT_EQ(key.substr(0, 16), "bdl_018bcfe56800") << "the first event's time leads";
  EXPECT_EQ(key_of(three), key);
  EXPECT_NE(key_of({event("e1", "{}"), event("x2", "{}"), event("e3", "{}")}), key)
      << "the same first and last events, another between them";
  EXPECT_NE(key_of({event("e1", "{}"), event("e2", R"({"a":1})"), event("e3", "{}")}), key);
  EXPECT_NE(key_of({event("e1", "{}"), event("e2", "{}")}), key);
}

TEST(Bundle, ADocumentThatIsNoWellFormedBundleReadsAsNone) {
  const json good = json::parse(bundle_of({event("e1", "{}")}));
  ASSERT_TRUE(Bundle::from_document(good));
  EXPECT_FALSE(Bundle::is_bundle(json{{"state", "pending"}}));
  EXPECT_FALSE(Bundle::from_document(json{{"state", "pending"}, {"events", json::array()}}));
  json no_events = good;
  no_events.erase("events");
  EXPECT_FALSE(Bundle::from_document(no_events));
  json bad_event = good;
  bad_event["events"][0]["time_ms"] = "soon";
  EXPECT_FALSE(Bundle::from_document(bad_event));
  json no_key = good;
  no_key.erase("_key");
  EXPECT_FALSE(Bundle::from_document(no_key));
}

}  // namespace
}  // namespace opbase::webhooks
