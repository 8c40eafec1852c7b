// The local backend's signed URLs (urls/signed_url.hpp): a URL made for a grant reads back as
// that grant and its signature holds; changing any part of it (purpose, project, key, expiry,
// nonce, signature) or the secret breaks the signature; malformed targets are refused with
// their reason; the public path reads without a grant, and an upload needs one.
#include "urls/signed_url.hpp"

#include <gtest/gtest.h>

#include <string>

namespace opbase::file {
namespace {

const std::string kSecret = "0123456789abcdef0123456789abcdef";

UrlGrant upload_grant() {
  return {UrlPurpose::kUpload, "shop", "0190aa55bbccddeeff001122", 1'800'000'000, "n0nce-A_1"};
}

std::string reason_of(const Result<FileTarget>& read) {
  return read.status().details().value("reason", "");
}

TEST(FileSignedUrl, AUrlReadsBackAsItsGrantAndHolds) {
  const UrlGrant grant = upload_grant();
  const std::string target = signed_target(grant, kSecret);
  EXPECT_TRUE(target.starts_with("/files/shop/0190aa55bbccddeeff001122?expires=1800000000&"));
  const auto read = read_file_target("PUT", target);
  ASSERT_TRUE(read.is_ok()) << read.status().to_string();
  ASSERT_TRUE(read->claimed.has_value());
  EXPECT_EQ(read->project, "shop");
  EXPECT_EQ(read->key, grant.key);
  EXPECT_EQ(read->claimed->expires_s, grant.expires_s);
  EXPECT_EQ(read->claimed->nonce, grant.nonce);
  EXPECT_TRUE(signature_holds(*read, kSecret));
  EXPECT_FALSE(signature_holds(*read, kSecret + "x"));
  EXPECT_FALSE(signature_holds(*read, ""));
}

TEST(FileSignedUrl, ADownloadUrlCannotUploadNorTheOtherWayRound) {
  UrlGrant download = upload_grant();
  download.purpose = UrlPurpose::kDownload;
  download.nonce = "";
  const std::string target = signed_target(download, kSecret);
  const auto as_get = read_file_target("GET", target);
  ASSERT_TRUE(as_get.is_ok());
  EXPECT_TRUE(signature_holds(*as_get, kSecret));
  EXPECT_EQ(reason_of(read_file_target("PUT", target)), "bad_nonce");  // no nonce: not an upload
  const auto upload_as_get = read_file_target("GET", signed_target(upload_grant(), kSecret));
  ASSERT_TRUE(upload_as_get.is_ok());
  EXPECT_FALSE(signature_holds(*upload_as_get, kSecret));
  const auto head = read_file_target("HEAD", target);
  ASSERT_TRUE(head.is_ok());
  EXPECT_TRUE(signature_holds(*head, kSecret));
}

TEST(FileSignedUrl, ChangingAnyPartBreaksTheSignature) {
  const std::string target = signed_target(upload_grant(), kSecret);
  const auto tampered = [&](const std::string& from, const std::string& to) {
    std::string changed = target;
    const size_t at = changed.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    changed.replace(at, from.size(), to);
    const auto read = read_file_target("PUT", changed);
    return read.is_ok() && signature_holds(*read, kSecret);
  };
  EXPECT_FALSE(tampered("/shop/", "/shoq/"));
  EXPECT_FALSE(tampered("0190aa55", "0190aa56"));
  EXPECT_FALSE(tampered("expires=1800000000", "expires=1800000001"));
  EXPECT_FALSE(tampered("nonce=n0nce-A_1", "nonce=n0nce-A_2"));
  const size_t signature = target.find("signature=") + 10;
  std::string flipped = target;
  flipped[signature] = flipped[signature] == 'A' ? 'B' : 'A';
  const auto read = read_file_target("PUT", flipped);
  ASSERT_TRUE(read.is_ok());
  EXPECT_FALSE(signature_holds(*read, kSecret));
}

TEST(FileSignedUrl, ThePublicPathReadsWithoutAGrant) {
  EXPECT_EQ(public_target("shop", "k1"), "/files/shop/k1");
  const auto read = read_file_target("GET", "/files/shop/k1");
  ASSERT_TRUE(read.is_ok());
  EXPECT_FALSE(read->claimed.has_value());
  EXPECT_FALSE(signature_holds(*read, kSecret));
  EXPECT_EQ(reason_of(read_file_target("PUT", "/files/shop/k1")), "unsigned_upload");
}

TEST(FileSignedUrl, MalformedTargetsAreRefusedWithTheirReason) {
  const std::string good = signed_target(upload_grant(), kSecret);
  const std::string query = good.substr(good.find('?'));
  EXPECT_EQ(reason_of(read_file_target("POST", good)), "method");
  EXPECT_EQ(reason_of(read_file_target("PUT", "/api" + query)), "path");
  EXPECT_EQ(reason_of(read_file_target("PUT", "/files/shop" + query)), "path");
  EXPECT_EQ(reason_of(read_file_target("PUT", "/files/sh%6Fp/k" + query)), "path");
  EXPECT_EQ(reason_of(read_file_target("PUT", "/files/shop/k/extra" + query)), "path");
  EXPECT_EQ(reason_of(read_file_target("PUT", "/files//k" + query)), "path");
  EXPECT_EQ(reason_of(read_file_target("PUT", "/files/shop/" + std::string(65, 'k') + query)),
            "path");
  EXPECT_EQ(reason_of(read_file_target("PUT", good + "&expires=1")), "bad_expires");
  EXPECT_EQ(reason_of(read_file_target("PUT", good + "&x=1")), "unknown_parameter");
  EXPECT_EQ(reason_of(read_file_target("PUT", good + "&novalue")), "malformed");
  EXPECT_EQ(reason_of(read_file_target("PUT", "/files/shop/k?expires=1&nonce=n")), "incomplete");
  EXPECT_EQ(reason_of(read_file_target("PUT", "/files/shop/k?expires=-1&nonce=n&signature=x")),
            "bad_expires");
  EXPECT_EQ(reason_of(read_file_target("PUT", "/files/shop/k?expires=99999999999999&nonce=n")),
            "bad_expires");
  EXPECT_EQ(reason_of(read_file_target("PUT", "/files/shop/k?expires=1&nonce=a b&signature=x")),
            "bad_nonce");
  EXPECT_EQ(reason_of(read_file_target("PUT", "/files/shop/k?expires=1&nonce=n&signature=short")),
            "bad_signature");
}

}  // namespace
}  // namespace opbase::file
