// The store services as the host runs them for a plugin (call_store_service): JSON text in,
// JSON text out. A request that is not a JSON object is refused alike by every service, inserts
// take the text path (insert_text.hpp) with their events, and the other services answer as the
// parsed ones do.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <vector>

#include "reference_store/memory_driver.hpp"
#include "store/store_service.hpp"

namespace opbase::host {
namespace {

using nlohmann::json;

class StoreServiceText : public ::testing::Test {
 protected:
  StoreServiceText() {
    auto opened = driver_.open("p");
    EXPECT_TRUE(opened) << opened.status().to_string();
    store_ = *opened;
    durable_.add("hooks", {"document.*"});
  }

  Result<std::string> call(std::string_view service, std::string_view input) {
    const StoreEventSink sink{"p", &durable_,
                              [this](const BusEvent& e) { published_.push_back(e); }, 1000};
    return call_store_service(*store_, "app", service, input, &sink);
  }

  MemoryDriver driver_;
  std::shared_ptr<ProjectStore> store_;
  DurableSubscriptions durable_;
  std::vector<BusEvent> published_;
};

TEST_F(StoreServiceText, ARequestThatIsNotAJsonObjectIsRefusedByEveryService) {
  for (const std::string_view service :
       {"store.insert", "store.find", "store.count", "store.update", "store.purge"}) {
    for (const std::string_view input :
         {"", "not json", "[1]", R"("text")", R"({"a":1)", "{\"collection\":\"c\"}\x01"}) {
      auto answer = call(service, input);
      ASSERT_FALSE(answer) << service << " " << input;
      EXPECT_EQ(answer.status().code(), "VALIDATION_ERROR");
      EXPECT_EQ(answer.status().message(), "store request is not a JSON object");
    }
  }
}

TEST_F(StoreServiceText, AnInsertOfTextIsStoredJournaledAndPublished) {
  auto inserted =
      call("store.insert", R"({"collection":"c","events":{"on_insert":"document.created",)"
                           R"("collection":"c"},"documents":[{"_key":"k1","_userkey":"u1","n":1},)"
                           R"({"_key":"k2","n":[2]}]})");
  ASSERT_TRUE(inserted) << inserted.status().to_string();
  EXPECT_EQ(json::parse(*inserted), (json{{"inserted", 2}}));
  ASSERT_EQ(published_.size(), 2u);
  EXPECT_EQ(published_[0].type, "document.created");
  auto found = call("store.find", R"({"collection":"c","owner":"u1","state":"active","match":{},)"
                                  R"("sort":"_key asc","offset":0,"limit":10,"with_total":true})");
  ASSERT_TRUE(found) << found.status().to_string();
  const json page = json::parse(*found);
  EXPECT_EQ(page["total"], 1);
  EXPECT_EQ(page["documents"], (json::array({{{"_key", "k1"}, {"_userkey", "u1"}, {"n", 1}}})));
  // Journaled for the durable subscriber, in its own namespace.
  auto journal = store_->count(
      "hooks",
      {std::string(store::kEventsCollection), store::Scope::everyone(), store::State::kActive, {}});
  ASSERT_TRUE(journal) << journal.status().to_string();
  EXPECT_EQ(*journal, 2);
}

TEST_F(StoreServiceText, AnInsertRefusedOnTheTextPathChangesNothing) {
  auto refused = call("store.insert", R"({"collection":"c","documents":[{"_key":"a"},{"n":1}]})");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.status().message(),
            "store request: 'documents' must hold objects with a non-empty string _key");
  EXPECT_TRUE(published_.empty());
  auto counted =
      call("store.count", R"({"collection":"c","owner":null,"every_owner":true,"match":{}})");
  ASSERT_TRUE(counted) << counted.status().to_string();
  EXPECT_EQ(json::parse(*counted)["count"], 0);
}

}  // namespace
}  // namespace opbase::host
