// The checks of a file's own fields (requests/file_fields.hpp; the rules are in
// docs/api.md#file-records-and-fields): names (length, separators, control characters, any
// other UTF-8 kept), media types (normalised, parameters
// kept, malformed ones refused), sizes up to files.max_size (PAYLOAD_TOO_LARGE past it) and
// SHA-256 digests; each refusal names its field and reason.
#include "requests/file_fields.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

namespace opbase::file {
namespace {

using nlohmann::json;

template <typename T>
std::string reason_of(const Result<T>& read) {
  EXPECT_FALSE(read.is_ok());
  return read.status().details().value("reason", "");
}

TEST(FileFields, NamesAreShortWithNoSeparatorOrControl) {
  EXPECT_EQ(*read_file_name("report 2026.pdf"), "report 2026.pdf");
  EXPECT_EQ(*read_file_name("Fotoğraf – été.jpg"), "Fotoğraf – été.jpg");
  EXPECT_EQ(*read_file_name(std::string(255, 'a')), std::string(255, 'a'));
  EXPECT_EQ(reason_of(read_file_name(std::string(256, 'a'))), "length");
  EXPECT_EQ(reason_of(read_file_name("")), "length");
  EXPECT_EQ(reason_of(read_file_name("a/b")), "separator");
  EXPECT_EQ(reason_of(read_file_name("..\\b")), "separator");
  EXPECT_EQ(reason_of(read_file_name("a\nb")), "control");
  EXPECT_EQ(reason_of(read_file_name("a\x7f")), "control");
  EXPECT_EQ(reason_of(read_file_name("a\xc2\x85z")), "control");  // U+0085, next line
  EXPECT_EQ(reason_of(read_file_name(42)), "type");
  EXPECT_EQ(read_file_name(42).status().details()["field"], "name");
}

TEST(FileFields, ContentTypesAreMediaTypes) {
  EXPECT_EQ(*read_content_type("image/png"), "image/png");
  EXPECT_EQ(*read_content_type("Text/HTML; Charset=UTF-8"), "text/html; charset=UTF-8");
  EXPECT_EQ(*read_content_type("multipart/form-data; boundary=\"a b\""),
            "multipart/form-data; boundary=\"a b\"");
  EXPECT_EQ(*read_content_type("application/vnd.api+json"), "application/vnd.api+json");
  for (const char* bad : {"", "image", "image/", "/png", "image/png;", "image/png; x", "image/p ng",
                          "image/png\r\nX-Evil: 1", "image/png; a=\"b\\\"\""}) {
    EXPECT_EQ(reason_of(read_content_type(bad)), "malformed") << bad;
  }
  EXPECT_EQ(reason_of(read_content_type("a/" + std::string(254, 'b'))), "malformed");
  EXPECT_EQ(reason_of(read_content_type(json::array())), "type");
}

TEST(FileFields, SizesUpToTheMaximum) {
  EXPECT_EQ(*read_file_size(0, 100), 0);
  EXPECT_EQ(*read_file_size(100, 100), 100);
  const auto over = read_file_size(101, 100);
  ASSERT_FALSE(over.is_ok());
  EXPECT_EQ(over.status().code(), "PAYLOAD_TOO_LARGE");
  EXPECT_EQ(over.status().details()["max_size"], 100);
  EXPECT_EQ(read_file_size(json(UINT64_MAX), 100).status().code(), "PAYLOAD_TOO_LARGE");
  EXPECT_EQ(reason_of(read_file_size(-1, 100)), "range");
  EXPECT_EQ(reason_of(read_file_size(1.5, 100)), "type");
  EXPECT_EQ(reason_of(read_file_size("10", 100)), "type");
}

TEST(FileFields, Sha256DigestsAreSixtyFourHexDigits) {
  const std::string digest(64, 'A');
  EXPECT_EQ(*read_sha256(digest), std::string(64, 'a'));
  EXPECT_EQ(reason_of(read_sha256(std::string(63, 'a'))), "malformed");
  EXPECT_EQ(reason_of(read_sha256(std::string(64, 'g'))), "malformed");
  EXPECT_EQ(reason_of(read_sha256(7)), "type");
}

}  // namespace
}  // namespace opbase::file
