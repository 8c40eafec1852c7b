// The `events` field of the store's write requests (store.hpp Events) on the wire: carried by
// every write that raises events, absent otherwise, checked on the way in.
#include <gtest/gtest.h>

#include "opbase/internal/store_codec.hpp"
#include "opbase/store.hpp"

namespace opbase::store {
namespace {

using nlohmann::json;

const Events kDocumentEvents{"document.created", "document.updated", "orders", ""};

TEST(StoreEventsCodec, EveryWriteCarriesItsEventsBothWays) {
  InsertRequest insert{"orders", {{{"_key", "k1"}}}, kDocumentEvents};
  auto decoded_insert = decode_insert_head(json::parse(encode_text(printed(insert))));
  ASSERT_TRUE(decoded_insert) << decoded_insert.status().to_string();
  EXPECT_EQ(decoded_insert->events.on_insert, "document.created");
  EXPECT_EQ(decoded_insert->events.collection, "orders");
  EXPECT_EQ(decoded_insert->events.on_change, "document.updated");

  UpdateRequest update{"orders", Scope::everyone(), {}, {"", "document.updated", "orders", ""}};
  EXPECT_EQ(decode_update(encode(update))->events.on_change, "document.updated");
  UpsertRequest upsert{"orders", Scope::everyone(), {}, {}, {{"_key", "k2"}}, kDocumentEvents};
  EXPECT_EQ(decode_upsert(encode(upsert))->events.on_insert, "document.created");
  StateRequest state{"orders",
                     Scope::everyone(),
                     {},
                     State::kActive,
                     State::kDeleted,
                     "r",
                     1,
                     {"", "document.deleted", "orders", ""}};
  EXPECT_EQ(decode_state(encode(state))->events.on_change, "document.deleted");
  RestoreRequest restore{"orders", Scope::everyone(), "r", {"", "x.y", "", "user-1"}};
  auto decoded_restore = decode_restore(encode(restore));
  ASSERT_TRUE(decoded_restore);
  EXPECT_EQ(decoded_restore->events.key, "user-1");
  EXPECT_TRUE(decoded_restore->events.collection.empty());
}

TEST(StoreEventsCodec, AnInsertOfTextsIsTheWireOfTheSameDocuments) {
  const json first = {{"_key", "k1"}, {"n", 1}, {"s", "a \"q\" \u00e9"}};
  const json second = {{"_key", "k2"}, {"l", {1, {{"x", nullptr}}}}};
  const InsertRequest trees{"orders", {first, second}, kDocumentEvents};
  const InsertTextRequest texts{"orders", {first.dump(), second.dump()}, kDocumentEvents};
  EXPECT_EQ(encode_text(texts), encode_text(printed(trees)));
  const json wire = json::parse(encode_text(texts));
  EXPECT_EQ(wire["documents"], json::array({first, second}));
  auto decoded = decode_insert_head(wire);
  ASSERT_TRUE(decoded) << decoded.status().to_string();
  EXPECT_EQ(decoded->collection, "orders");
  EXPECT_EQ(decoded->events.on_insert, "document.created");
  // Texts as they are: the spacing of a text is kept on the wire.
  const InsertTextRequest spaced{"orders", {R"( {"_key" : "k3"} )"}};
  EXPECT_EQ(encode_text(spaced), R"({"collection":"orders","documents":[ {"_key" : "k3"} ]})");
}

TEST(StoreEventsCodec, WritesWithoutEventsDoNotCarryTheField) {
  InsertRequest insert{"orders", {{{"_key", "k1"}}}};
  const json wire = json::parse(encode_text(printed(insert)));
  EXPECT_FALSE(wire.contains("events"));
  EXPECT_TRUE(decode_insert_head(wire)->events.empty());
  UpdateRequest update{"orders", Scope::everyone(), {}};
  EXPECT_FALSE(encode(update).contains("events"));
}

TEST(StoreEventsCodec, BadEventsAreValidationErrorsNamingTheField) {
  for (const json& events : {json("document.created"), json::array(), json{{"on_insert", 5}},
                             json{{"on_change", "document.*"}}, json{{"on_insert", "*"}},
                             json{{"on_insert", std::string(200, 'a')}}, json{{"key", nullptr}}}) {
    json wire = {{"collection", "orders"}, {"documents", {{{"_key", "k"}}}}, {"events", events}};
    auto decoded = decode_insert_head(wire);
    ASSERT_FALSE(decoded) << events.dump();
    EXPECT_EQ(decoded.status().code(), "VALIDATION_ERROR");
    EXPECT_EQ(decoded.status().details()["field"], "events") << events.dump();
  }
}

}  // namespace
}  // namespace opbase::store
