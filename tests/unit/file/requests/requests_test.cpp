// The request bodies of the file ops against their contract, docs/api.md "## Files": the body of
// file.presign_upload (requests/upload_request.hpp), the `data` of file.update
// (requests/file_changes.hpp) and the fields they share (requests/file_fields.hpp: read_metadata,
// read_public, read_readers, read_file_key). The accepted forms: the required fields alone with
// the documented defaults, every optional one given, null counted as absent, `op` beside them;
// each refusal's code, details.field and details.reason (missing, unknown, type, length,
// separator, control, malformed, range, too_large, too_many, empty; PAYLOAD_TOO_LARGE with
// max_size); readers deduplicated in the order given; metadata accepted at exactly 16 KiB as JSON
// and refused a byte past it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "opbase/error_code.hpp"
#include "requests/file_changes.hpp"
#include "requests/file_fields.hpp"
#include "requests/upload_request.hpp"

namespace opbase::file {
namespace {

// `count` distinct user keys: u0, u1, ...
nlohmann::json distinct_keys(int count) {
  nlohmann::json keys = nlohmann::json::array();
  for (int i = 0; i < count; ++i) keys.push_back("u" + std::to_string(i));
  return keys;
}

using nlohmann::json;

constexpr int64_t kMaxSize = 1000;
constexpr size_t kSixteenKiB = 16 * 1024;

// A refusal as the contract names it.
struct Refusal {
  std::string code;
  std::string field;
  std::string reason;
  bool operator==(const Refusal& other) const {
    return code == other.code && field == other.field && reason == other.reason;
  }
};
std::ostream& operator<<(std::ostream& out, const Refusal& refusal) {
  return out << refusal.code << " field=" << refusal.field << " reason=" << refusal.reason;
}
Refusal invalid(std::string field, std::string reason) {
  return {std::string(code::kValidationError), std::move(field), std::move(reason)};
}

template <typename T>
Refusal refusal_of(const Result<T>& read) {
  if (read.is_ok()) return {"OK", "", ""};
  const Status status = read.status();  // a copy: details() refers into it
  return {status.code(), status.details().value("field", ""), status.details().value("reason", "")};
}

// An object whose JSON text (as dump() prints it) is exactly `bytes` long.
json metadata_of_size(size_t bytes) {
  const size_t frame = json{{"k", ""}}.dump().size();  // {"k":""}
  return json{{"k", std::string(bytes - frame, 'm')}};
}

// The smallest body file.presign_upload takes, as the gateway passes it on.
json upload() {
  return {{"op", "file.presign_upload"},
          {"name", "notes.txt"},
          {"content_type", "text/plain"},
          {"size", 12}};
}
json upload_with(const std::string& field, const json& value) {
  json body = upload();
  body[field] = value;
  return body;
}
json upload_without(const std::string& field) {
  json body = upload();
  body.erase(field);
  return body;
}

json update_of(const json& data) { return {{"op", "file.update"}, {"_key", "k1"}, {"data", data}}; }

// --- file.presign_upload

TEST(UploadRequest, TheRequiredFieldsAloneGiveTheDocumentedDefaults) {
  auto file = read_upload_request(upload(), kMaxSize);
  ASSERT_TRUE(file.is_ok()) << file.status().to_string();
  EXPECT_EQ(file->name, "notes.txt");
  EXPECT_EQ(file->content_type, "text/plain");
  EXPECT_EQ(file->size, 12);
  EXPECT_FALSE(file->sha256.has_value());
  EXPECT_EQ(file->metadata, json::object());
  EXPECT_FALSE(file->is_public);
}

TEST(UploadRequest, EveryOptionalFieldIsReadAndKeptAsDocumented) {
  json body = upload();
  body["content_type"] = "Text/Plain; Charset=UTF-8";
  body["sha256"] = std::string(32, 'A') + std::string(32, '0');
  body["metadata"] = {{"album", "summer"}, {"tags", {"a", "b"}}};
  body["public"] = true;
  auto file = read_upload_request(body, kMaxSize);
  ASSERT_TRUE(file.is_ok()) << file.status().to_string();
  EXPECT_EQ(file->content_type, "text/plain; charset=UTF-8");
  EXPECT_EQ(file->sha256, std::string(32, 'a') + std::string(32, '0'));
  EXPECT_EQ(file->metadata, body["metadata"]);
  EXPECT_TRUE(file->is_public);
}

TEST(UploadRequest, NullOptionalFieldsAreAbsent) {
  json body = upload();
  body["sha256"] = nullptr;
  body["metadata"] = nullptr;
  body["public"] = nullptr;
  auto file = read_upload_request(body, kMaxSize);
  ASSERT_TRUE(file.is_ok()) << file.status().to_string();
  EXPECT_FALSE(file->sha256.has_value());
  EXPECT_EQ(file->metadata, json::object());
  EXPECT_FALSE(file->is_public);
}

TEST(UploadRequest, SizesFromZeroToTheMaximumAreTaken) {
  EXPECT_EQ(read_upload_request(upload_with("size", 0), kMaxSize)->size, 0);
  EXPECT_EQ(read_upload_request(upload_with("size", kMaxSize), kMaxSize)->size, kMaxSize);
}

TEST(UploadRequest, ARequiredFieldMissingOrNullIsRefusedAsMissing) {
  for (const char* field : {"name", "content_type", "size"}) {
    EXPECT_EQ(refusal_of(read_upload_request(upload_without(field), kMaxSize)),
              invalid(field, "missing"))
        << field;
    EXPECT_EQ(refusal_of(read_upload_request(upload_with(field, nullptr), kMaxSize)),
              invalid(field, "missing"))
        << field;
  }
  EXPECT_EQ(refusal_of(read_upload_request(json::object(), kMaxSize)).reason, "missing");
}

TEST(UploadRequest, AnyOtherFieldIsRefusedAsUnknownNamingIt) {
  for (const char* field : {"readers", "_key", "_userkey", "state", "Name", "metadata_", "data"}) {
    EXPECT_EQ(refusal_of(read_upload_request(upload_with(field, "x"), kMaxSize)),
              invalid(field, "unknown"))
        << field;
  }
  // Even null: the field is not one of an upload's.
  EXPECT_EQ(refusal_of(read_upload_request(upload_with("readers", nullptr), kMaxSize)),
            invalid("readers", "unknown"));
}

TEST(UploadRequest, EachFieldsRefusalNamesTheFieldAndItsReason) {
  const struct {
    const char* field;
    json value;
    const char* reason;
  } cases[] = {
      {"name", 42, "type"},
      {"name", json::array({"a"}), "type"},
      {"name", "", "length"},
      {"name", std::string(256, 'n'), "length"},
      {"name", "a/b.txt", "separator"},
      {"name", "a\\b.txt", "separator"},
      {"name", "a\tb.txt", "control"},
      {"name", "a\x7f", "control"},
      {"name", "a\xc2\x9f", "control"},
      {"content_type", 7, "type"},
      {"content_type", "text", "malformed"},
      {"content_type", "text/plain; charset", "malformed"},
      {"content_type", "text/" + std::string(251, 'p'), "malformed"},
      {"size", "12", "type"},
      {"size", 12.5, "type"},
      {"size", true, "type"},
      {"size", -1, "range"},
      {"sha256", 1, "type"},
      {"sha256", std::string(63, 'a'), "malformed"},
      {"sha256", std::string(64, 'z'), "malformed"},
      {"metadata", json::array(), "type"},
      {"metadata", "{}", "type"},
      {"metadata", metadata_of_size(kSixteenKiB + 1), "too_large"},
      {"public", "true", "type"},
      {"public", 1, "type"},
  };
  for (const auto& refused : cases) {
    EXPECT_EQ(refusal_of(read_upload_request(upload_with(refused.field, refused.value), kMaxSize)),
              invalid(refused.field, refused.reason))
        << refused.field << " = " << refused.value.dump().substr(0, 40);
  }
}

TEST(UploadRequest, ASizeOverTheMaximumIsPayloadTooLargeWithTheMaximum) {
  for (const json& size : {json(kMaxSize + 1), json(UINT64_MAX)}) {
    auto refused = read_upload_request(upload_with("size", size), kMaxSize);
    ASSERT_FALSE(refused.is_ok());
    EXPECT_EQ(refused.status().code(), code::kPayloadTooLarge);
    EXPECT_EQ(refused.status().details()["field"], "size");
    EXPECT_EQ(refused.status().details()["max_size"], kMaxSize);
  }
}

TEST(UploadRequest, MetadataOfExactlySixteenKiBIsTakenAndOneByteMoreIsNot) {
  const json largest = metadata_of_size(kSixteenKiB);
  ASSERT_EQ(largest.dump().size(), kSixteenKiB);
  auto file = read_upload_request(upload_with("metadata", largest), kMaxSize);
  ASSERT_TRUE(file.is_ok()) << file.status().to_string();
  EXPECT_EQ(file->metadata, largest);
  EXPECT_EQ(refusal_of(read_upload_request(
                upload_with("metadata", metadata_of_size(kSixteenKiB + 1)), kMaxSize)),
            invalid("metadata", "too_large"));
}

// An unknown field's name is cut to at most 64 bytes for details.field, between two UTF-8
// characters: a cut inside one would make details.field invalid UTF-8, which the SDK cannot
// print, and the client would get INTERNAL_ERROR instead of VALIDATION_ERROR `unknown`.
TEST(UploadRequest, ALongUnknownFieldIsNamedByItsStartInWholeCharacters) {
  const std::string name = std::string(63, 'a') + "\xc3\xa9tude";  // 'é' across byte 64
  auto refused = read_upload_request(upload_with(name, 1), kMaxSize);
  ASSERT_FALSE(refused.is_ok());
  EXPECT_EQ(refused.status().details()["reason"], "unknown");
  const std::string field = refused.status().details().value("field", "");
  EXPECT_LE(field.size(), 64u);
  EXPECT_EQ(name.compare(0, field.size(), field), 0) << "not the name's start";
  EXPECT_NO_THROW((void)refused.status().details().dump()) << "details.field is not UTF-8";
}

// --- file.update

TEST(FileChanges, EachChangeableFieldIsReadIntoTheFieldsToSet) {
  auto changes = read_file_changes(update_of({{"name", "renamed.txt"},
                                              {"metadata", {{"a", 1}}},
                                              {"public", false},
                                              {"readers", {"bob", "cy", "bob"}}}));
  ASSERT_TRUE(changes.is_ok()) << changes.status().to_string();
  EXPECT_EQ(*changes, (json{{"name", "renamed.txt"},
                            {"metadata", {{"a", 1}}},
                            {"public", false},
                            {"readers", {"bob", "cy"}}}));
}

TEST(FileChanges, OneFieldAloneIsEnough) {
  auto changes = read_file_changes(update_of({{"readers", json::array()}}));
  ASSERT_TRUE(changes.is_ok()) << changes.status().to_string();
  EXPECT_EQ(*changes, (json{{"readers", json::array()}}));  // an empty list clears the readers
}

TEST(FileChanges, DataMissingNotAnObjectOrEmptyIsRefusedNamingData) {
  EXPECT_EQ(refusal_of(read_file_changes({{"op", "file.update"}, {"_key", "k1"}})),
            invalid("data", "missing"));
  EXPECT_EQ(refusal_of(read_file_changes(update_of(nullptr))), invalid("data", "missing"));
  EXPECT_EQ(refusal_of(read_file_changes(update_of(json::array({"name"})))),
            invalid("data", "type"));
  EXPECT_EQ(refusal_of(read_file_changes(update_of("name"))), invalid("data", "type"));
  EXPECT_EQ(refusal_of(read_file_changes(update_of(json::object()))), invalid("data", "empty"));
}

TEST(FileChanges, TheBytesTheirTypeAndTheOwnerCannotChange) {
  for (const char* field :
       {"content_type", "size", "sha256", "_userkey", "_key", "state", "_created_at", "owner"}) {
    EXPECT_EQ(refusal_of(read_file_changes(update_of({{"name", "ok.txt"}, {field, "x"}}))),
              invalid(field, "unknown"))
        << field;
  }
}

// The same for file.update's `data`.
TEST(FileChanges, ALongUnknownFieldIsNamedByItsStartInWholeCharacters) {
  const std::string name = std::string(63, 'a') + "\xc3\xa9tude";
  auto refused = read_file_changes(update_of({{name, 1}}));
  ASSERT_FALSE(refused.is_ok());
  EXPECT_EQ(refused.status().details()["reason"], "unknown");
  const std::string field = refused.status().details().value("field", "");
  EXPECT_LE(field.size(), 64u);
  EXPECT_EQ(name.compare(0, field.size(), field), 0) << "not the name's start";
  EXPECT_NO_THROW((void)refused.status().details().dump()) << "details.field is not UTF-8";
}

TEST(FileChanges, EachFieldsRefusalNamesTheFieldAndItsReason) {
  const struct {
    const char* field;
    json value;
    const char* reason;
  } cases[] = {
      {"name", 42, "type"},
      {"name", "", "length"},
      {"name", "dir/file", "separator"},
      {"name", "bell\x07", "control"},
      {"metadata", json::array(), "type"},
      {"metadata", metadata_of_size(kSixteenKiB + 1), "too_large"},
      {"public", "false", "type"},
      {"readers", "bob", "type"},
      {"readers", json::array({1}), "malformed"},
      {"readers", distinct_keys(101), "too_many"},
  };
  for (const auto& refused : cases) {
    EXPECT_EQ(refusal_of(read_file_changes(update_of({{refused.field, refused.value}}))),
              invalid(refused.field, refused.reason))
        << refused.field << " = " << refused.value.dump().substr(0, 40);
  }
}

TEST(FileChanges, MetadataOfExactlySixteenKiBIsTaken) {
  auto changes = read_file_changes(update_of({{"metadata", metadata_of_size(kSixteenKiB)}}));
  ASSERT_TRUE(changes.is_ok()) << changes.status().to_string();
  EXPECT_EQ((*changes)["metadata"].dump().size(), kSixteenKiB);
}

// --- the shared fields

TEST(FileFieldHelpers, MetadataIsAnObjectOfAtMostSixteenKiBAsJson) {
  EXPECT_EQ(*read_metadata(json::object()), json::object());
  const json nested = {{"a", {{"b", {1, 2, nullptr}}}}, {"é", "ü"}};
  EXPECT_EQ(*read_metadata(nested), nested);
  EXPECT_TRUE(read_metadata(metadata_of_size(kSixteenKiB)).is_ok());
  EXPECT_EQ(refusal_of(read_metadata(metadata_of_size(kSixteenKiB + 1))),
            invalid("metadata", "too_large"));
  // Counted in bytes of UTF-8 as they stand (not as \u escapes): with {"k":""} around them,
  // 5,458 three-byte characters are 16,382 bytes, 5,459 are 16,385.
  const auto euros = [](int count) {
    std::string text;
    for (int i = 0; i < count; ++i) text += "\xe2\x82\xac";  // U+20AC
    return json{{"k", text}};
  };
  EXPECT_TRUE(read_metadata(euros(5458)).is_ok());
  EXPECT_EQ(refusal_of(read_metadata(euros(5459))), invalid("metadata", "too_large"));
  for (const json& value : {json(), json(1), json("{}"), json::array()}) {
    EXPECT_EQ(refusal_of(read_metadata(value)), invalid("metadata", "type")) << value.dump();
  }
}

TEST(FileFieldHelpers, PublicIsTrueOrFalse) {
  EXPECT_TRUE(*read_public(true));
  EXPECT_FALSE(*read_public(false));
  for (const json& value : {json(), json(0), json("true"), json::object()}) {
    EXPECT_EQ(refusal_of(read_public(value)), invalid("public", "type")) << value.dump();
  }
}

TEST(FileFieldHelpers, ReadersAreUserKeysWithRepeatsDroppedInTheOrderGiven) {
  EXPECT_EQ(*read_readers(json::array()), json::array());
  EXPECT_EQ(*read_readers({"cy", "ada", "cy", "bob", "ada", "Ada"}),
            (json{"cy", "ada", "bob", "Ada"}));
  const std::string longest(64, 'k');
  EXPECT_EQ(*read_readers({longest, "a_b-9"}), (json{longest, "a_b-9"}));
  std::vector<std::string> hundred;
  for (int i = 0; i < 100; ++i) hundred.push_back("u" + std::to_string(i));
  EXPECT_EQ(read_readers(hundred)->size(), 100u);
  hundred.push_back("u100");
  EXPECT_EQ(refusal_of(read_readers(hundred)), invalid("readers", "too_many"));
  // The limit counts distinct keys: repeats past it are dropped, not refused.
  EXPECT_EQ(*read_readers(json(std::vector<std::string>(500, "bob"))), (json{"bob"}));
  for (const json& value : {json(), json("ada"), json{{"ada", true}}}) {
    EXPECT_EQ(refusal_of(read_readers(value)), invalid("readers", "type")) << value.dump();
  }
  for (const json& reader : {json(""), json(std::string(65, 'k')), json("a b"), json("a/b"),
                             json("a.b"), json("é"), json(7), json(), json::array({"ada"})}) {
    EXPECT_EQ(refusal_of(read_readers({"ada", reader})), invalid("readers", "malformed"))
        << reader.dump();
  }
}

TEST(FileFieldHelpers, AFileKeyIsOneToSixtyFourLettersDigitsUnderscoresOrDashes) {
  EXPECT_EQ(*read_file_key({{"_key", "01a223ef6ba6f883f29338a74e2bf34b"}}),
            "01a223ef6ba6f883f29338a74e2bf34b");
  EXPECT_EQ(*read_file_key({{"_key", std::string(64, 'K')}}), std::string(64, 'K'));
  EXPECT_EQ(*read_file_key({{"_key", "a_B-1"}}), "a_B-1");
  EXPECT_EQ(refusal_of(read_file_key({{"op", "file.get"}})), invalid("_key", "missing"));
  EXPECT_EQ(refusal_of(read_file_key({{"_key", nullptr}})), invalid("_key", "missing"));
  for (const json& key : {json(""), json(std::string(65, 'k')), json("a/b"), json("a.b"),
                          json("a b"), json("ü"), json(42), json::array({"k"})}) {
    EXPECT_EQ(refusal_of(read_file_key({{"_key", key}})), invalid("_key", "type")) << key.dump();
  }
}

}  // namespace
}  // namespace opbase::file
