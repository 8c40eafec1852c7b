// File records (records/file_record.hpp): a new upload's stored document, the view clients get
// (every documented field, none of the upload's internals), and who reaches a record: owner
// and admins change it, readers read it, anyone else and anonymous callers reach nothing.
#include "records/file_record.hpp"

#include <gtest/gtest.h>

namespace opbase::file {
namespace {

using nlohmann::json;

json stored_example() {
  NewFile file;
  file.name = "photo.png";
  file.content_type = "image/png";
  file.size = 1234;
  file.metadata = {{"album", "summer"}};
  return pending_record(file, "0190aa55bb", "u1", "2026-11-28T12:00:00.000Z", "ab12");
}

TEST(FileRecord, ANewUploadIsPendingWithItsNonceDigest) {
  const json stored = stored_example();
  EXPECT_EQ(stored["state"], "pending");
  EXPECT_EQ(stored["_userkey"], "u1");
  EXPECT_EQ(stored["size"], 1234);
  EXPECT_TRUE(stored["sha256"].is_null());
  EXPECT_EQ(stored["readers"], json::array());
  EXPECT_EQ(stored["public"], false);
  EXPECT_EQ(stored["upload_nonce"], "ab12");
  EXPECT_EQ(stored["_created_at"], stored["_modified_at"]);
}

TEST(FileRecord, ClientsSeeDecision46sFieldsAndNothingElse) {
  json stored = stored_example();
  stored["stored"] = {{"size", 1234}, {"sha256", "ff"}};
  const json seen = client_record(stored);
  for (const char* field :
       {"_key", "_userkey", "_created_at", "_modified_at", "name", "content_type", "size", "sha256",
        "metadata", "public", "readers", "state"}) {
    EXPECT_TRUE(seen.contains(field)) << field;
  }
  EXPECT_EQ(seen.size(), 12u);
  EXPECT_FALSE(seen.contains("upload_nonce"));
  EXPECT_FALSE(seen.contains("stored"));
  EXPECT_EQ(seen["metadata"]["album"], "summer");
}

TEST(FileRecord, OwnerAndAdminsChangeReadersReadOthersReachNothing) {
  json stored = stored_example();
  stored["readers"] = {"u2", "u3"};
  EXPECT_EQ(reach_of(stored, "u1", false), Reach::kChange);
  EXPECT_EQ(reach_of(stored, "u9", true), Reach::kChange);
  EXPECT_EQ(reach_of(stored, "", true), Reach::kChange);  // the server admin key: no user
  EXPECT_EQ(reach_of(stored, "u2", false), Reach::kRead);
  EXPECT_EQ(reach_of(stored, "u3", false), Reach::kRead);
  EXPECT_EQ(reach_of(stored, "u4", false), Reach::kNone);
  EXPECT_EQ(reach_of(stored, "", false), Reach::kNone);
  stored["readers"] = "u4";  // not a list: nobody is a reader
  EXPECT_EQ(reach_of(stored, "u4", false), Reach::kNone);
}

}  // namespace
}  // namespace opbase::file
