// The webhooks outbox on the reference store (memory driver) with events journaled as the daemon
// journals them: fan-out makes one message per endpoint and event, at most once however often it
// runs; a due message is claimed by one owner only; attempts move it to delivered, to its next try
// after the configured delay, or to failed after the last. Also the retry schedule and config.
#include "outbox/outbox.hpp"

#include <gtest/gtest.h>

#include <set>

#include "delivery/retry_schedule.hpp"
#include "endpoints/endpoints.hpp"
#include "outbox/derived_id.hpp"
#include "settings.hpp"
#include "store_backed_host.hpp"

namespace opbase::webhooks {
namespace {

using nlohmann::json;

class Outboxes : public ::testing::Test {
 protected:
  Outboxes() { env_.keep_events_durably("document.*"); }

  // A write that raises document.created for each document, as the collection plugin's do.
  void insert_documents(int n) {
    store::InsertRequest insert{"orders", {}, {"document.created", "", "orders", ""}};
    for (int i = 0; i < n; ++i) {
      insert.documents.push_back({{"_key", "o" + std::to_string(next_++)}, {"_userkey", nullptr}});
    }
    ASSERT_TRUE(store_.insert("p", insert));
  }

  // n documents inserted and their events fanned out: n pending messages for endpoint "a".
  void queue_messages(int n) {
    insert_documents(n);
    auto done = outbox_.fan_out("p", source({endpoint("a", {"document.created"})}), env_.now_ms());
    ASSERT_TRUE(done) << done.status().to_string();
    ASSERT_EQ(done->messages, n);
  }

  Endpoint endpoint(std::string id, std::vector<std::string> events) {
    Endpoint e;
    e.id = std::move(id);
    e.url = "http://127.0.0.1:9/hook";
    e.secret = new_secret_for_test();
    e.events = std::move(events);
    return e;
  }
  // The endpoints fan_out asks for, counting the asks.
  Outbox::EndpointSource source(std::vector<Endpoint> endpoints) {
    return [this, endpoints = std::move(endpoints)]() -> Result<std::vector<Endpoint>> {
      ++endpoint_reads_;
      return endpoints;
    };
  }
  static std::string new_secret_for_test() { return "whsec_" + std::string(43, 'A') + "="; }

  // Every message, active (pending) or archived (ended).
  std::vector<json> messages() {
    std::vector<json> all = env_.documents("p", kMessagesCollection);
    for (json& m : env_.documents("p", kMessagesCollection, store::State::kArchived)) {
      all.push_back(std::move(m));
    }
    return all;
  }

  test::StoreBackedHost env_{"webhooks"};
  DocumentStore store_{env_.host()};
  Outbox outbox_{store_, {300, 600, 900}};
  int next_ = 0;
  int endpoint_reads_ = 0;
};

TEST_F(Outboxes, FanOutMakesOneMessagePerEndpointThatTakesTheType) {
  insert_documents(3);
  const std::vector<Endpoint> endpoints = {endpoint("a", {"document.created"}),
                                           endpoint("b", {"document.deleted"}),
                                           endpoint("c", {"document.created", "user.signedup"})};
  auto made = outbox_.fan_out("p", source(endpoints), env_.now_ms());
  ASSERT_TRUE(made) << made.status().to_string();
  EXPECT_EQ(made->messages, 6);
  EXPECT_EQ(made->bundled, 0) << "no endpoint is behind";
  EXPECT_EQ(made->events, 3);
  const std::vector<json> all = messages();
  ASSERT_EQ(all.size(), 6u);
  for (const json& m : all) {
    EXPECT_NE(m["endpoint"], "b");
    EXPECT_EQ(m["state"], "pending");
    const json body = Outbox::payload_of(m);
    EXPECT_EQ(body["type"], "document.created");
    EXPECT_EQ(body["data"]["collection"], "orders");
    EXPECT_EQ(m["_key"],
              message_id(m["event_id"].get<std::string>(), m["endpoint"].get<std::string>(),
                         m["event_ms"].get<int64_t>()));
  }
  EXPECT_TRUE(env_.documents("p", store::kEventsCollection).empty()) << "handled events go";
  // Again: nothing new.
  EXPECT_EQ(outbox_.fan_out("p", source(endpoints), env_.now_ms())->messages, 0);
  EXPECT_EQ(messages().size(), 6u);
}

// Messages are printed straight from the events' text: a document key that needs escaping comes
// through both into the stored message and into the body that is sent.
TEST_F(Outboxes, AKeyThatNeedsEscapingComesThroughIntoTheMessageAndItsBody) {
  const std::string key = "o\"\\\u00e9\n/\u65e5";
  store::InsertRequest insert{"orders", {{{"_key", key}}}, {"document.created", "", "orders", ""}};
  ASSERT_TRUE(store_.insert("p", insert));
  auto made = outbox_.fan_out("p", source({endpoint("a", {"document.created"})}), env_.now_ms());
  ASSERT_TRUE(made) << made.status().to_string();
  ASSERT_EQ(made->messages, 1);
  const std::vector<json> all = messages();
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0]["data"], (json{{"_key", key}, {"collection", "orders"}}));
  EXPECT_EQ(all[0]["_userkey"], "webhooks-outbox/a");
  EXPECT_EQ(all[0]["attempts_made"], 0);
  const json body = json::parse(Message::from_document(all[0]).body);
  EXPECT_EQ(body["data"]["_key"], key);
}

TEST_F(Outboxes, AFullBatchSaysMoreMayWaitAndLeavesTheNewestForTheNextCall) {
  insert_documents(3);
  env_.fake().advance_ms(5);
  insert_documents(2);
  const auto endpoints = source({endpoint("a", {"document.created"})});
  auto first = outbox_.fan_out("p", endpoints, env_.now_ms(), 3);
  ASSERT_TRUE(first) << first.status().to_string();
  EXPECT_EQ(first->events, 3);
  EXPECT_EQ(first->messages, 3);
  std::set<std::string> left;
  for (const json& event : env_.documents("p", store::kEventsCollection)) {
    left.insert(event["data"]["_key"].get<std::string>());
  }
  EXPECT_EQ(left, (std::set<std::string>{"o3", "o4"})) << "the oldest go first";
  auto rest = outbox_.fan_out("p", endpoints, env_.now_ms(), 3);
  EXPECT_EQ(rest->events, 2);
  EXPECT_EQ(messages().size(), 5u);
}

TEST_F(Outboxes, EndpointsAreReadOnlyOnceEventsWereReadSoANewEndpointMissesNone) {
  const auto endpoints = source({endpoint("a", {"document.created"})});
  EXPECT_EQ(outbox_.fan_out("p", endpoints, env_.now_ms())->events, 0);
  EXPECT_EQ(endpoint_reads_, 0) << "no events: no read of the endpoints";
  insert_documents(2);
  EXPECT_EQ(outbox_.fan_out("p", endpoints, env_.now_ms())->messages, 2);
  EXPECT_EQ(endpoint_reads_, 1);
}

TEST_F(Outboxes, EventsNoEndpointTakesAreRemovedWithoutMessages) {
  insert_documents(4);
  auto done = outbox_.fan_out("p", source({endpoint("a", {"user.signedup"})}), env_.now_ms());
  EXPECT_EQ(done->events, 4);
  EXPECT_EQ(done->messages, 0);
  EXPECT_TRUE(env_.documents("p", store::kEventsCollection).empty());
  EXPECT_TRUE(messages().empty());
}

TEST_F(Outboxes, MessageIdsStartWithTheEventTimeSoTheyAreAppendedInTimeOrder) {
  const std::string a = message_id("evt_1", "whep_a", 1'700'000'000'000);
  EXPECT_EQ(a.size(), 4u + 32u);
  EXPECT_EQ(a.substr(0, 16), "msg_018bcfe56800");  // 1.7e12 ms in 12 hex digits
  EXPECT_NE(a, message_id("evt_1", "whep_b", 1'700'000'000'000));
  EXPECT_NE(a, message_id("evt_2", "whep_a", 1'700'000'000'000));
  EXPECT_EQ(a, message_id("evt_1", "whep_a", 1'700'000'000'000));
  EXPECT_LT(a, message_id("evt_0", "whep_a", 1'700'000'000'001));
}

TEST_F(Outboxes, AnEventFannedOutTwiceMakesNoSecondMessage) {
  insert_documents(1);
  const std::vector<json> kept = env_.documents("p", store::kEventsCollection);
  ASSERT_EQ(kept.size(), 1u);
  const std::vector<Endpoint> endpoints = {endpoint("a", {"document.created"})};
  ASSERT_EQ(outbox_.fan_out("p", source(endpoints), env_.now_ms())->messages, 1);
  // As if a crash had come between making the message and removing the event.
  ASSERT_TRUE(store_.insert("p", {std::string(store::kEventsCollection), {kept[0]}}));
  EXPECT_EQ(outbox_.fan_out("p", source(endpoints), env_.now_ms())->messages, 0);
  EXPECT_EQ(messages().size(), 1u);
}

TEST_F(Outboxes, ADueMessageIsClaimedByOneOwnerUntilTheLeaseEnds) {
  queue_messages(1);
  auto first = outbox_.claim("p", "a", "daemon-1", env_.now_ms(), 10'000, 10);
  ASSERT_TRUE(first);
  ASSERT_EQ(first->size(), 1u);
  EXPECT_TRUE(outbox_.claim("p", "a", "daemon-2", env_.now_ms(), 10'000, 10)->empty());
  env_.fake().advance_ms(10'001);  // daemon-1 died mid-attempt: its lease runs out
  auto second = outbox_.claim("p", "a", "daemon-2", env_.now_ms(), 10'000, 10);
  ASSERT_EQ(second->size(), 1u);
  // daemon-1's late result does not count: daemon-2 holds the message now.
  AttemptResult late{env_.now_ms(), 200, 5, ""};
  EXPECT_EQ(*outbox_.finish("p", (*first)[0], "daemon-1", late, 0.5), "taken over");
  EXPECT_EQ(*outbox_.finish("p", (*second)[0], "daemon-2", late, 0.5), "delivered");
  const json m = messages()[0];
  EXPECT_EQ(m["state"], "delivered");
  EXPECT_EQ(m["attempts_made"], 1);
  EXPECT_EQ(m["attempts"]["1"]["status"], 200);
}

TEST_F(Outboxes, FailuresRetryAfterTheScheduleThenFail) {
  queue_messages(1);
  const std::vector<int64_t> delays = {300, 600, 900};
  for (int attempt = 1; attempt <= 4; ++attempt) {
    auto claimed = outbox_.claim("p", "a", "d", env_.now_ms(), 10'000, 10);
    ASSERT_EQ(claimed->size(), 1u) << "attempt " << attempt;
    AttemptResult failed{env_.now_ms(), 503, 7, "answered HTTP 503"};
    auto state = outbox_.finish("p", (*claimed)[0], "d", failed, 0.5);  // 0.5: the delay itself
    ASSERT_TRUE(state);
    if (attempt <= 3) {
      EXPECT_EQ(*state, "pending");
      const int64_t delay = delays[attempt - 1];
      env_.fake().advance_ms(delay + 7 - 1);
      EXPECT_TRUE(outbox_.claim("p", "a", "d", env_.now_ms(), 10'000, 10)->empty())
          << "not due yet";
      env_.fake().advance_ms(1);
    } else {
      EXPECT_EQ(*state, "failed");
    }
  }
  env_.fake().advance_ms(1'000'000);
  EXPECT_TRUE(outbox_.claim("p", "a", "d", env_.now_ms(), 10'000, 10)->empty())
      << "failed for good";
  const json m = messages()[0];
  EXPECT_EQ(m["attempts_made"], 4);
  EXPECT_EQ(m["attempts"]["4"]["error"], "answered HTTP 503");
}

TEST_F(Outboxes, ClaimsTakeDueMessagesFirstWhateverWaitsForARetryOrALease) {
  queue_messages(1);
  env_.fake().advance_ms(1);
  queue_messages(2);
  auto first = outbox_.claim("p", "a", "d", env_.now_ms(), 10'000, 1);
  ASSERT_EQ(first->size(), 1u);
  ASSERT_EQ(*outbox_.finish("p", (*first)[0], "d", {env_.now_ms(), 503, 7, "HTTP 503"}, 0.5),
            "pending");  // due again in 300 ms: it waits behind the two due ones
  auto held = outbox_.claim("p", "a", "d", env_.now_ms(), 10'000, 1);
  ASSERT_EQ(held->size(), 1u);
  EXPECT_NE((*held)[0].id, (*first)[0].id);
  auto third = outbox_.claim("p", "a", "d", env_.now_ms(), 10'000, 5);
  ASSERT_EQ(third->size(), 1u) << "one due, one leased, one waiting for its retry";
  EXPECT_NE((*third)[0].id, (*first)[0].id);
  env_.fake().advance_ms(400);
  auto retried = outbox_.claim("p", "a", "d", env_.now_ms(), 10'000, 5);
  ASSERT_EQ(retried->size(), 1u) << "the retry is due; the other two are leased";
  EXPECT_EQ((*retried)[0].id, (*first)[0].id);
  env_.fake().advance_ms(10'001);
  EXPECT_EQ(outbox_.claim("p", "a", "d", env_.now_ms(), 10'000, 5)->size(), 3u) << "leases ran out";
}

TEST_F(Outboxes, EndedMessagesGoAfterTheRetention) {
  queue_messages(2);
  auto claimed = outbox_.claim("p", "a", "d", env_.now_ms(), 10'000, 1);
  ASSERT_EQ(claimed->size(), 1u);
  ASSERT_EQ(*outbox_.finish("p", (*claimed)[0], "d", {env_.now_ms(), 200, 3, ""}, 0.5),
            "delivered");
  EXPECT_EQ(*outbox_.expire("p", env_.now_ms() + 1000), 0) << "ended, but not archived yet";
  ASSERT_EQ(outbox_.archive_ended("p", "a", env_.now_ms())->messages, 1);
  const int64_t archived_ms = env_.now_ms();
  EXPECT_EQ(*outbox_.expire("p", archived_ms), 0) << "not older than the cut-off yet";
  env_.fake().advance_ms(10);
  EXPECT_EQ(*outbox_.expire("p", archived_ms + 1), 1);
  const std::vector<json> left = messages();
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0]["state"], "pending") << "pending messages never expire";
}

TEST_F(Outboxes, EndedMessagesAreArchivedOutOfTheClaimsWayAndResendBringsThemBack) {
  queue_messages(3);
  auto claimed = outbox_.claim("p", "a", "d", env_.now_ms(), 10'000, 1);
  ASSERT_EQ(claimed->size(), 1u);
  const std::string id = (*claimed)[0].id;
  ASSERT_EQ(*outbox_.finish("p", (*claimed)[0], "d", {env_.now_ms(), 200, 3, ""}, 0.5),
            "delivered");
  auto moved = outbox_.archive_ended("p", "a", env_.now_ms());
  ASSERT_TRUE(moved) << moved.status().to_string();
  EXPECT_EQ(moved->messages, 1);
  EXPECT_FALSE(moved->full);
  EXPECT_EQ(outbox_.archive_ended("p", "a", env_.now_ms())->messages, 0) << "once";
  EXPECT_EQ(env_.documents("p", kMessagesCollection).size(), 2u) << "the pending two stay active";
  const auto archived = env_.documents("p", kMessagesCollection, store::State::kArchived);
  ASSERT_EQ(archived.size(), 1u);
  EXPECT_EQ(archived[0]["_key"], id);
  EXPECT_EQ(archived[0]["state"], "delivered");

  // Listed after the active ones, and counted.
  auto page = outbox_.list("p", std::nullopt, std::nullopt, 50, 0);
  ASSERT_TRUE(page);
  EXPECT_EQ(page->total, 3);
  ASSERT_EQ(page->messages.size(), 3u);
  EXPECT_EQ(page->messages[2]["_key"], id);
  auto second = outbox_.list("p", std::nullopt, std::nullopt, 2, 2);
  ASSERT_EQ(second->messages.size(), 1u);
  EXPECT_EQ(second->messages[0]["_key"], id) << "a page that starts among the archived";
  auto delivered = outbox_.list("p", std::nullopt, std::string("delivered"), 50, 0);
  EXPECT_EQ(delivered->total, 1);

  EXPECT_EQ(*outbox_.resend("p", id, env_.now_ms()), "resent");
  EXPECT_EQ(env_.documents("p", kMessagesCollection).size(), 3u);
  EXPECT_TRUE(env_.documents("p", kMessagesCollection, store::State::kArchived).empty());
  std::set<std::string> claimable;
  for (int i = 0; i < 3; ++i) {
    auto one = outbox_.claim("p", "a", "d", env_.now_ms(), 10'000, 1);
    ASSERT_TRUE(one);
    for (const Message& m : *one) claimable.insert(m.id);
  }
  EXPECT_TRUE(claimable.contains(id)) << "a resent message is claimed again";
  EXPECT_EQ(*outbox_.resend("p", "msg_missing", env_.now_ms()), "missing");
}

TEST_F(Outboxes, EndedMessagesAreArchivedInBatchesFromTheBackOfTheClaimOrder) {
  queue_messages(5);
  for (int i = 0; i < 3; ++i) {
    auto claimed = outbox_.claim("p", "a", "d", env_.now_ms(), 10'000, 1);
    ASSERT_EQ(claimed->size(), 1u);
    ASSERT_EQ(*outbox_.finish("p", (*claimed)[0], "d", {env_.now_ms(), 200, 1, ""}, 0.5),
              "delivered");
  }
  // Ended messages wait at the back for the archiver; claims never reach them.
  auto due = outbox_.claim("p", "a", "d", env_.now_ms(), 10'000, 5);
  EXPECT_EQ(due->size(), 2u);
  auto first = outbox_.archive_ended("p", "a", env_.now_ms(), 2);
  EXPECT_EQ(first->messages, 2);
  EXPECT_TRUE(first->full) << "a full batch: more may wait";
  auto rest = outbox_.archive_ended("p", "a", env_.now_ms(), 2);
  EXPECT_EQ(rest->messages, 1);
  EXPECT_EQ(env_.documents("p", kMessagesCollection, store::State::kArchived).size(), 3u);
  EXPECT_EQ(env_.documents("p", kMessagesCollection).size(), 2u);
}

TEST_F(Outboxes, EachEndpointHasAQueueOfItsOwnSoABacklogIsNeverInFrontOfAnother) {
  insert_documents(30);  // 30 messages for the slow endpoint, older than the fast one's
  ASSERT_EQ(outbox_.fan_out("p", source({endpoint("slow", {"document.created"})}), env_.now_ms())
                ->messages,
            30);
  env_.fake().advance_ms(5);
  insert_documents(1);
  const auto both =
      source({endpoint("slow", {"document.created"}), endpoint("fast", {"document.created"})});
  ASSERT_EQ(outbox_.fan_out("p", both, env_.now_ms())->messages, 2);
  auto fast = outbox_.claim("p", "fast", "d", env_.now_ms(), 10'000, 5);
  ASSERT_TRUE(fast) << fast.status().to_string();
  ASSERT_EQ(fast->size(), 1u) << "the 30 older messages of the other endpoint are not in its way";
  EXPECT_EQ((*fast)[0].endpoint, "fast");
  auto slow = outbox_.claim("p", "slow", "d", env_.now_ms(), 10'000, 50);
  ASSERT_EQ(slow->size(), 31u);
  for (const Message& m : *slow) EXPECT_EQ(m.endpoint, "slow");
  // Ended messages are archived queue by queue.
  ASSERT_EQ(*outbox_.finish("p", (*fast)[0], "d", {env_.now_ms(), 200, 1, ""}, 0.5), "delivered");
  EXPECT_EQ(outbox_.archive_ended("p", "slow", env_.now_ms())->messages, 0);
  EXPECT_EQ(outbox_.archive_ended("p", "fast", env_.now_ms())->messages, 1);
}

// The messages fan_out makes for an endpoint that is behind go into one bundle; the others' are
// made one by one as ever. Claims unpack the bundle into exactly the messages fan_out would have
// made (ids, payloads, due time), in its place in the queue.
TEST_F(Outboxes, AnEndpointThatIsBehindGetsItsMessagesInOneBundleThatAClaimUnpacks) {
  insert_documents(4);
  const auto both =
      source({endpoint("slow", {"document.created"}), endpoint("fast", {"document.created"})});
  const std::vector<json> events = env_.documents("p", store::kEventsCollection);
  ASSERT_EQ(events.size(), 4u);
  const int64_t fanned_at = env_.now_ms();
  auto done = outbox_.fan_out("p", both, fanned_at, 100,
                              [](const std::string& id) { return id == "slow"; });
  ASSERT_TRUE(done) << done.status().to_string();
  EXPECT_EQ(done->messages, 8) << "bundled messages count as queued";
  EXPECT_EQ(done->bundled, 4);
  EXPECT_TRUE(env_.documents("p", store::kEventsCollection).empty());
  std::vector<json> slow_rows;
  for (const json& doc : env_.documents("p", kMessagesCollection)) {
    if (doc["endpoint"] == "slow") slow_rows.push_back(doc);
  }
  ASSERT_EQ(slow_rows.size(), 1u) << "one bundle, not four messages";
  EXPECT_EQ(slow_rows[0]["state"], "bundled");
  EXPECT_EQ(slow_rows[0]["count"], 4);
  EXPECT_EQ(messages().size(), 5u);

  env_.fake().advance_ms(50);
  auto first = outbox_.claim("p", "slow", "d", env_.now_ms(), 10'000, 1);
  ASSERT_TRUE(first) << first.status().to_string();
  ASSERT_EQ(first->size(), 1u);
  std::set<std::string> expected_ids;
  for (const json& event : events) {
    expected_ids.insert(
        message_id(event["id"].get<std::string>(), "slow", event["time_ms"].get<int64_t>()));
  }
  std::set<std::string> ids;
  for (const json& m : messages()) {
    if (m["endpoint"] != "slow") continue;
    EXPECT_EQ(m["state"], "pending");
    EXPECT_EQ(m["next_ms"], fanned_at) << "due from the bundle's time, as fan_out would have made";
    EXPECT_EQ(m["_userkey"], "webhooks-outbox/slow");
    EXPECT_EQ(Outbox::payload_of(m)["data"]["collection"], "orders");
    ids.insert(m["_key"].get<std::string>());
  }
  EXPECT_EQ(ids, expected_ids);
  EXPECT_TRUE(expected_ids.contains((*first)[0].id));
  auto rest = outbox_.claim("p", "slow", "d", env_.now_ms(), 10'000, 10);
  EXPECT_EQ(rest->size(), 3u);
}

// A crash between a bundle's messages and its removal, or two daemons unpacking it at once, make
// no second message; nor does fanning the same events out again into a bundle.
TEST_F(Outboxes, ABundleUnpackedOrMadeTwiceMakesNoSecondMessage) {
  insert_documents(3);
  const std::vector<json> kept = env_.documents("p", store::kEventsCollection);
  const auto slow = source({endpoint("slow", {"document.created"})});
  const auto behind = [](const std::string&) { return true; };
  ASSERT_EQ(outbox_.fan_out("p", slow, env_.now_ms(), 100, behind)->messages, 3);
  // As if a crash had come between making the bundle and removing the events.
  ASSERT_TRUE(store_.insert("p", {std::string(store::kEventsCollection), kept}));
  auto again = outbox_.fan_out("p", slow, env_.now_ms(), 100, behind);
  EXPECT_EQ(again->messages, 0);
  EXPECT_EQ(again->bundled, 0);
  const std::vector<json> bundles = env_.documents("p", kMessagesCollection);
  ASSERT_EQ(bundles.size(), 1u);

  ASSERT_EQ(outbox_.claim("p", "slow", "d", env_.now_ms(), 10'000, 1)->size(), 1u);
  // As if the unpacking had stopped before the bundle went: it is met, and unpacked, again.
  ASSERT_TRUE(store_.insert("p", {std::string(kMessagesCollection), bundles}));
  auto rest = outbox_.claim("p", "slow", "d", env_.now_ms(), 10'000, 10);
  ASSERT_TRUE(rest) << rest.status().to_string();
  EXPECT_EQ(rest->size(), 2u) << "the two not yet claimed, once each";
  EXPECT_EQ(messages().size(), 3u);
  for (const json& m : messages()) EXPECT_NE(m["state"], "bundled");
}

// The list shows bundled messages as the messages they will become, read where they are: the
// store is the same after it.
TEST_F(Outboxes, TheListShowsAndCountsBundledMessagesWithoutWriting) {
  insert_documents(3);
  const std::vector<json> events = env_.documents("p", store::kEventsCollection);
  const auto endpoints =
      source({endpoint("slow", {"document.created"}), endpoint("other", {"document.created"})});
  const int64_t fanned_at = env_.now_ms();
  ASSERT_EQ(
      outbox_.fan_out("p", endpoints, fanned_at, 100, [](const std::string&) { return true; })
          ->messages,
      6);
  const std::vector<json> before = messages();
  ASSERT_EQ(before.size(), 2u) << "two bundles";
  auto page = outbox_.list("p", std::string("slow"), std::nullopt, 50, 0);
  ASSERT_TRUE(page) << page.status().to_string();
  EXPECT_EQ(page->total, 3);
  ASSERT_EQ(page->messages.size(), 3u);
  std::set<std::string> expected_ids;
  for (const json& event : events) {
    expected_ids.insert(
        message_id(event["id"].get<std::string>(), "slow", event["time_ms"].get<int64_t>()));
  }
  std::set<std::string> ids;
  for (const json& m : page->messages) {
    EXPECT_EQ(m["state"], "pending");
    EXPECT_EQ(m["endpoint"], "slow");
    EXPECT_EQ(m["next_ms"], fanned_at);
    EXPECT_EQ(m["_userkey"], "webhooks-outbox/slow");
    EXPECT_EQ(Outbox::payload_of(m)["data"]["collection"], "orders");
    ids.insert(m["_key"].get<std::string>());
  }
  EXPECT_EQ(ids, expected_ids);
  auto all = outbox_.list("p", std::nullopt, std::nullopt, 50, 0);
  EXPECT_EQ(all->total, 6);
  EXPECT_EQ(all->messages.size(), 6u);
  EXPECT_EQ(outbox_.list("p", std::nullopt, std::string("pending"), 50, 0)->total, 6);
  EXPECT_EQ(outbox_.list("p", std::nullopt, std::string("delivered"), 50, 0)->total, 0);
  EXPECT_EQ(messages(), before) << "a list writes nothing: the bundles are where they were";
  // The delivery side unpacks them: the messages it claims are the ones the list showed.
  auto claimed = outbox_.claim("p", "slow", "d", env_.now_ms(), 10'000, 10);
  ASSERT_TRUE(claimed) << claimed.status().to_string();
  std::set<std::string> claimed_ids;
  for (const Message& m : *claimed) claimed_ids.insert(m.id);
  EXPECT_EQ(claimed_ids, expected_ids);
  // A bundle's key is no message: resend does not take it for one.
  insert_documents(1);
  ASSERT_EQ(outbox_
                .fan_out("p", endpoints, env_.now_ms(), 100,
                         [](const std::string& id) { return id == "slow"; })
                ->messages,
            2);
  std::string bundle_key;
  for (const json& doc : env_.documents("p", kMessagesCollection)) {
    if (doc["state"] == "bundled") bundle_key = doc["_key"];
  }
  ASSERT_FALSE(bundle_key.empty());
  EXPECT_EQ(*outbox_.resend("p", bundle_key, env_.now_ms()), "missing");
}

// Stored and bundled messages of one endpoint are listed in one order, newest first, and the
// pages of that list are its slices, whatever their size.
TEST_F(Outboxes, StoredAndBundledMessagesShareOneOrderAndPagesAreItsSlices) {
  const auto slow = source({endpoint("slow", {"document.created"})});
  for (const bool behind : {false, true, false}) {
    insert_documents(behind ? 3 : 2);
    ASSERT_TRUE(outbox_.fan_out("p", slow, env_.now_ms(), 100,
                                [behind](const std::string&) { return behind; }));
    env_.fake().advance_ms(1000);
  }
  ASSERT_EQ(messages().size(), 5u) << "four messages and one bundle of three";
  auto full = outbox_.list("p", std::string("slow"), std::nullopt, 50, 0);
  ASSERT_TRUE(full) << full.status().to_string();
  ASSERT_EQ(full->total, 7);
  ASSERT_EQ(full->messages.size(), 7u);
  const std::vector<int64_t> due = [&] {
    std::vector<int64_t> out;
    for (const json& m : full->messages) out.push_back(m["next_ms"].get<int64_t>());
    return out;
  }();
  const int64_t t0 = due.back();
  EXPECT_EQ(due,
            (std::vector<int64_t>{t0 + 2000, t0 + 2000, t0 + 1000, t0 + 1000, t0 + 1000, t0, t0}))
      << "newest first: the last two stored, the three bundled, the first two stored";
  for (const int64_t size : {1, 2, 3, 5}) {
    std::vector<json> paged;
    for (int64_t offset = 0; offset < 7; offset += size) {
      auto page = outbox_.list("p", std::string("slow"), std::nullopt, size, offset);
      ASSERT_TRUE(page) << page.status().to_string();
      EXPECT_EQ(page->total, 7);
      for (json& m : page->messages) paged.push_back(std::move(m));
    }
    EXPECT_EQ(paged, full->messages) << "pages of " << size;
  }
}

// A claim unpacks two bundles at most; the next claim goes on.
TEST_F(Outboxes, AClaimUnpacksAFewBundlesAtMostAndTheNextGoesOn) {
  const auto slow = source({endpoint("slow", {"document.created"})});
  const auto behind = [](const std::string&) { return true; };
  for (int i = 0; i < 3; ++i) {
    insert_documents(2);
    ASSERT_EQ(outbox_.fan_out("p", slow, env_.now_ms(), 100, behind)->bundled, 2);
    env_.fake().advance_ms(5);
  }
  EXPECT_TRUE(*outbox_.has_bundles("p", "slow"));
  auto first = outbox_.claim("p", "slow", "d", env_.now_ms(), 10'000, 10);
  ASSERT_TRUE(first) << first.status().to_string();
  EXPECT_EQ(first->size(), 4u) << "the messages of the two oldest bundles";
  EXPECT_TRUE(*outbox_.has_bundles("p", "slow"));
  auto rest = outbox_.claim("p", "slow", "d", env_.now_ms(), 10'000, 10);
  EXPECT_EQ(rest->size(), 2u);
  EXPECT_FALSE(*outbox_.has_bundles("p", "slow"));
  EXPECT_FALSE(*outbox_.has_bundles("p", "other"));
}

// A bundle that does not read is set aside (archived), not left first in line for ever.
TEST_F(Outboxes, ABundleThatDoesNotReadIsSetAsideAndTheNextIsUnpacked) {
  const json unreadable = {{"_key", "bdl_broken"},
                           {"_userkey", "webhooks-bundles/slow"},
                           {"_created_at", "2000-01-01T00:00:00.000Z"},
                           {"endpoint", "slow"},
                           {"state", "bundled"},
                           {"next_ms", 0}};  // no events
  ASSERT_TRUE(store_.insert("p", {std::string(kMessagesCollection), {unreadable}}));
  insert_documents(2);
  ASSERT_EQ(outbox_
                .fan_out("p", source({endpoint("slow", {"document.created"})}), env_.now_ms(), 100,
                         [](const std::string&) { return true; })
                ->bundled,
            2);
  auto claimed = outbox_.claim("p", "slow", "d", env_.now_ms(), 10'000, 10);
  ASSERT_TRUE(claimed) << claimed.status().to_string();
  EXPECT_EQ(claimed->size(), 2u);
  const std::vector<json> aside = env_.documents("p", kMessagesCollection, store::State::kArchived);
  ASSERT_EQ(aside.size(), 1u);
  EXPECT_EQ(aside[0]["_key"], "bdl_broken");
  // The list skips one, lists no message of it, and leaves it for the delivery side.
  json second = unreadable;
  second["_key"] = "bdl_broken_2";
  ASSERT_TRUE(store_.insert("p", {std::string(kMessagesCollection), {second}}));
  auto page = outbox_.list("p", std::string("slow"), std::string("pending"), 50, 0);
  ASSERT_TRUE(page) << page.status().to_string();
  EXPECT_EQ(page->total, 2) << "the two claimed messages, in flight, and nothing of the bundle";
  for (const json& m : page->messages) EXPECT_NE(m["_key"], "bdl_broken_2");
  EXPECT_EQ(env_.documents("p", kMessagesCollection, store::State::kArchived).size(), 1u);
}

// Events bundled, then fanned out again (a crash before they were removed) for an endpoint no
// longer behind: made as messages then, and the bundle, unpacked later, makes none twice.
TEST_F(Outboxes, EventsBundledThenMadeAsMessagesAreNotMadeTwice) {
  insert_documents(3);
  const std::vector<json> kept = env_.documents("p", store::kEventsCollection);
  const auto slow = source({endpoint("slow", {"document.created"})});
  ASSERT_EQ(outbox_.fan_out("p", slow, env_.now_ms(), 100, [](const std::string&) { return true; })
                ->bundled,
            3);
  ASSERT_TRUE(store_.insert("p", {std::string(store::kEventsCollection), kept}));
  auto again = outbox_.fan_out("p", slow, env_.now_ms());
  ASSERT_TRUE(again) << again.status().to_string();
  EXPECT_EQ(again->bundled, 0);
  auto claimed = outbox_.claim("p", "slow", "d", env_.now_ms(), 10'000, 10);
  ASSERT_TRUE(claimed) << claimed.status().to_string();
  EXPECT_EQ(claimed->size(), 3u);
  EXPECT_FALSE(*outbox_.has_bundles("p", "slow"));
  EXPECT_EQ(messages().size(), 3u);
}

TEST_F(Outboxes, AFinalFailureEndsTheMessageWithoutARetry) {
  queue_messages(1);
  auto claimed = outbox_.claim("p", "a", "d", env_.now_ms(), 10'000, 1);
  ASSERT_EQ(claimed->size(), 1u);
  AttemptResult deleted{env_.now_ms(), 0, 0, "the endpoint was deleted"};
  deleted.final = true;
  EXPECT_EQ(*outbox_.finish("p", (*claimed)[0], "d", deleted, 0.5), "failed");
  const json m = messages()[0];
  EXPECT_EQ(m["attempts_made"], 1);
  EXPECT_EQ(m["attempts"]["1"]["error"], "the endpoint was deleted");
}

TEST(WebhookEndpoints, TheConfigurationsEndpointKeepsWhenItWasMadeAcrossStarts) {
  test::StoreBackedHost env{"webhooks"};
  DocumentStore store{env.host()};
  Endpoints endpoints{store};
  WebhooksConfig config;
  config.url = "https://hooks.example.com/in";
  const int64_t made_ms = env.now_ms();
  ASSERT_TRUE(endpoints.bootstrap("p", config, made_ms));
  env.fake().advance_ms(5000);
  ASSERT_TRUE(endpoints.bootstrap("p", config, env.now_ms()));
  auto found = endpoints.get("p", kConfigEndpointId);
  ASSERT_TRUE(found && found->has_value());
  EXPECT_EQ((**found)["created_ms"], made_ms);
  EXPECT_EQ((**found)["modified_ms"], made_ms + 5000);
}

TEST(WebhookEndpoints,
     ADeletedEndpointKeepsItsQueueVisibleUntilTheRetentionAndComesBackIfConfigured) {
  test::StoreBackedHost env{"webhooks"};
  DocumentStore store{env.host()};
  Endpoints endpoints{store};
  WebhooksConfig config;
  config.url = "https://hooks.example.com/in";
  config.events = {"document.created"};
  ASSERT_TRUE(endpoints.bootstrap("p", config, env.now_ms()));
  auto made = endpoints.create(
      "p", {{"url", "https://other.example.com/"}, {"events", json::array()}}, env.now_ms());
  ASSERT_TRUE(made) << made.status().to_string();
  const std::string id = (*made)["_key"];
  ASSERT_TRUE(*endpoints.remove("p", id, env.now_ms()));
  EXPECT_FALSE(*endpoints.remove("p", id, env.now_ms())) << "gone for the ops";
  EXPECT_FALSE(endpoints.get("p", id)->has_value());
  EXPECT_EQ(endpoints.all("p")->size(), 1u);
  auto queues = endpoints.with_queues("p");
  ASSERT_TRUE(queues);
  ASSERT_EQ(queues->size(), 2u);
  EXPECT_EQ((*queues)[1].id, id);
  EXPECT_TRUE((*queues)[1].deleted) << "its messages still have to end";
  EXPECT_FALSE((*queues)[0].deleted);

  // The configuration's endpoint, deleted by an op, is made again by the next start.
  ASSERT_TRUE(*endpoints.remove("p", kConfigEndpointId, env.now_ms()));
  ASSERT_TRUE(endpoints.bootstrap("p", config, env.now_ms()));
  auto back = endpoints.get("p", kConfigEndpointId);
  ASSERT_TRUE(back->has_value());
  EXPECT_EQ((**back)["url"], config.url);

  // The retention purges the deleted one.
  Outbox outbox{store, {300}};
  env.fake().advance_ms(10);
  EXPECT_EQ(*outbox.expire("p", env.now_ms()), 1);
  EXPECT_EQ(endpoints.with_queues("p")->size(), 1u);
}

TEST(RetrySchedule, SpreadsEachDelayByTwentyPercentAndEndsAfterTheLast) {
  const std::vector<int64_t> d = {5'000, 30'000, 120'000, 600'000, 3'600'000};
  EXPECT_EQ(retry_delay_ms(d, 1, 0.5), 5'000);
  EXPECT_EQ(retry_delay_ms(d, 1, 0.0), 4'000);
  EXPECT_EQ(retry_delay_ms(d, 1, 1.0), 6'000);
  EXPECT_EQ(retry_delay_ms(d, 5, 0.5), 3'600'000);
  EXPECT_EQ(retry_delay_ms(d, 6, 0.5), std::nullopt) << "5 retries after the first attempt";
  EXPECT_EQ(retry_delay_ms(d, 0, 0.5), std::nullopt);
}

int64_t ms_of(std::string_view text) {
  auto ms = parse_duration_ms(text);
  return ms ? *ms : -1;
}

TEST(WebhooksConfig, DurationsReadWithTheirUnits) {
  EXPECT_EQ(ms_of("250ms"), 250);
  EXPECT_EQ(ms_of("15s"), 15'000);
  EXPECT_EQ(ms_of("2m"), 120'000);
  EXPECT_EQ(ms_of("1h"), 3'600'000);
  EXPECT_EQ(ms_of("40"), 40);
  for (const char* bad : {"", "s", "-1s", "5 s", "5sec", "1.5s", "99999999999999999999h"}) {
    EXPECT_FALSE(parse_duration_ms(bad)) << bad;
  }
}

}  // namespace
}  // namespace opbase::webhooks
