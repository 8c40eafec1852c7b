// What the vdb plugin asks a MongoDB store for when it loads its records at start and when it
// reads what other daemons sharing the database wrote (store_feed/store_feed.hpp), down to the
// BSON filter and sort: every owner's records of the plugin's namespace in one state, after the
// last key read, in a changed_ms window, in _key order (the unique _id index).
#include <gtest/gtest.h>

#include <string>

#include "records/record_store.hpp"
#include "store/mongo/record.hpp"

namespace opbase::vdb {
namespace {

std::string text(Result<host::mongo::BsonDoc> doc) {
  EXPECT_TRUE(doc.is_ok()) << doc.status().to_string();
  return doc.is_ok() ? doc->to_canonical_json() : "<error>";
}

std::string filter_of(const store::FindRequest& find) {
  return text(
      host::mongo::selection_filter("vdb", find.collection, find.scope, find.state, find.match));
}

TEST(VdbMongoFeed, TheLoadReadsEveryActiveRecordInKeyOrder) {
  RecordStore::Page first;
  const store::FindRequest find = RecordStore::page_request(first);
  EXPECT_EQ(filter_of(find), R"({ "ns" : "vdb", "collection" : "records", "state" : "active" })");
  EXPECT_EQ(text(host::mongo::record_sort(find.sort)), R"({ "_id" : { "$numberInt" : "1" } })");
  EXPECT_EQ(find.limit, 256);

  RecordStore::Page next;
  next.after_key = "01a2";
  EXPECT_EQ(filter_of(RecordStore::page_request(next)),
            R"({ "ns" : "vdb", "collection" : "records", "state" : "active", )"
            R"("_id" : { "$gt" : "01a2" }, "doc._key" : { "$gt" : "01a2" } })");
}

TEST(VdbMongoFeed, ARefreshReadsAWindowOfWritesAndOfDeletes) {
  RecordStore::Page window;
  window.from_ms = 1000;
  window.upto_ms = 5000;
  window.state = store::State::kDeleted;
  EXPECT_EQ(filter_of(RecordStore::page_request(window)),
            R"({ "ns" : "vdb", "collection" : "records", "state" : "deleted", )"
            R"("doc.changed_ms" : { "$gte" : { "$numberLong" : "1000" }, )"
            R"("$lt" : { "$numberLong" : "5000" } } })");
}

}  // namespace
}  // namespace opbase::vdb
