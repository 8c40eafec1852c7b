// S3 Signature Version 4 (plugins/file/s3): AWS's published examples reproduced to the byte (the
// presigned GET URL and the four Authorization-header examples, with their canonical requests
// and string-to-sign hashes); then what no published vector covers, checked as properties: URI
// encoding of awkward keys and query values, query order, hosts with ports, path-style against
// virtual-hosted URLs, every signed input moving the signature, and the inputs refused.
#include "s3/sigv4.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "opbase/crypto.hpp"
#include "s3/uri_encoding.hpp"

namespace opbase::file {
namespace {

// ---- AWS's published examples -----------------------------------------------------------------
// Every example uses the same key pair, bucket, region and time: "Fri, 24 May 2013 00:00:00 GMT".

constexpr std::string_view kExampleAccessKey = "AKIAIOSFODNN7EXAMPLE";
constexpr std::string_view kExampleSecretKey = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
constexpr int64_t kExampleTime = 1'369'353'600;  // 2013-05-24T00:00:00Z
constexpr std::string_view kExampleScopeLines =
    "AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n";

S3Credentials example_credentials() {
  return {std::string(kExampleAccessKey), std::string(kExampleSecretKey), "us-east-1"};
}

// examplebucket.s3.amazonaws.com: virtual-hosted on the global endpoint.
S3Location example_location() { return {"https://s3.amazonaws.com", "examplebucket", false}; }

// "Example: Presigned URL" in "Authenticating Requests: Using Query Parameters (AWS Signature
// Version 4)", https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html: a GET
// of test.txt valid for 24 hours. The page gives the canonical request, its hash (the last line
// of the string to sign, 3bfa2928...) and the signature aeeed9bb...; the values here were read
// from the page's text as quoted, alike, by several independent SigV4 implementations' tests.
TEST(S3SigV4, ReproducesThePublishedPresignedUrl) {
  Result<PresignedUrl> presigned = presign_url(
      example_credentials(), example_location(),
      {.method = "GET", .key = "test.txt", .now_unix_s = kExampleTime, .expires_s = 86400});
  ASSERT_TRUE(presigned.is_ok()) << presigned.status().to_string();
  EXPECT_EQ(presigned->canonical_request,
            "GET\n/test.txt\n"
            "X-Amz-Algorithm=AWS4-HMAC-SHA256"
            "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request"
            "&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host\n"
            "host:examplebucket.s3.amazonaws.com\n\nhost\nUNSIGNED-PAYLOAD");
  EXPECT_EQ(presigned->string_to_sign,
            std::string(kExampleScopeLines) +
                "3bfa292879f6447bbcda7001decf97f4a54dc650c8942174ae0a9121cf58ad04");
  EXPECT_EQ(presigned->url,
            "https://examplebucket.s3.amazonaws.com/test.txt"
            "?X-Amz-Algorithm=AWS4-HMAC-SHA256"
            "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request"
            "&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host"
            "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404");
}

// The four examples of "Signature Calculations for the Authorization Header: Transferring
// Payload in a Single Chunk (AWS Signature Version 4)", section "Examples: Signature
// Calculations", https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html
// (its text, canonical requests and hashes included, is also copied in
// github.com/ForeverPyrite/r2client, aws_sigv4/examples.md, where these values were read).
struct HeaderExample {
  std::string name;
  RequestToSign request;
  std::string url;
  std::string canonical_request_sha256;  // the last line of the documented StringToSign
  std::string signed_headers;
  std::string signature;
};

// SHA-256 of "Welcome to Amazon S3.", the PUT example's body, as the page gives it.
constexpr std::string_view kPutBodySha256 =
    "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072";

std::vector<HeaderExample> header_examples() {
  return {
      {"GET Object, the first 10 bytes",
       {.method = "GET",
        .key = "test.txt",
        .headers = {{"Range", "bytes=0-9"}},
        .now_unix_s = kExampleTime},
       "https://examplebucket.s3.amazonaws.com/test.txt",
       "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972",
       "host;range;x-amz-content-sha256;x-amz-date",
       "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"},
      {"PUT Object test$file.text",
       {.method = "PUT",
        .key = "test$file.text",
        .headers = {{"Date", "Fri, 24 May 2013 00:00:00 GMT"},
                    {"x-amz-storage-class", "REDUCED_REDUNDANCY"}},
        .payload_sha256 = std::string(kPutBodySha256),
        .now_unix_s = kExampleTime},
       "https://examplebucket.s3.amazonaws.com/test%24file.text",
       "9e0e90d9c76de8fa5b200d8c849cd5b8dc7a3be3951ddb7f6a76b4158342019d",
       "date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class",
       "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd"},
      {"GET Bucket Lifecycle",
       {.method = "GET", .query = {{"lifecycle", ""}}, .now_unix_s = kExampleTime},
       "https://examplebucket.s3.amazonaws.com/?lifecycle=",
       "9766c798316ff2757b517bc739a67f6213b4ab36dd5da2f94eaebf79c77395ca",
       "host;x-amz-content-sha256;x-amz-date",
       "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543"},
      {"Get Bucket (List Objects)",
       {.method = "GET", .query = {{"prefix", "J"}, {"max-keys", "2"}}, .now_unix_s = kExampleTime},
       "https://examplebucket.s3.amazonaws.com/?max-keys=2&prefix=J",
       "df57d21db20da04d7fa30298dd4488ba3a2b47ca3a489c74750e0f1e7df1b9b7",
       "host;x-amz-content-sha256;x-amz-date",
       "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7"},
  };
}

std::string header_value(const SignedRequest& request, std::string_view name) {
  for (const auto& [field, value] : request.headers) {
    if (field == name) return value;
  }
  return "<absent>";
}

TEST(S3SigV4, ReproducesThePublishedAuthorizationHeaders) {
  for (const HeaderExample& example : header_examples()) {
    SCOPED_TRACE(example.name);
    Result<SignedRequest> signed_request =
        sign_request(example_credentials(), example_location(), example.request);
    ASSERT_TRUE(signed_request.is_ok()) << signed_request.status().to_string();
    EXPECT_EQ(signed_request->url, example.url);
    EXPECT_EQ(sha256_hex(signed_request->canonical_request), example.canonical_request_sha256);
    EXPECT_EQ(signed_request->string_to_sign,
              std::string(kExampleScopeLines) + example.canonical_request_sha256);
    EXPECT_EQ(header_value(*signed_request, "authorization"),
              "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/"
              "aws4_request,SignedHeaders=" +
                  example.signed_headers + ",Signature=" + example.signature);
    EXPECT_EQ(header_value(*signed_request, "x-amz-date"), "20130524T000000Z");
    EXPECT_EQ(header_value(*signed_request, "x-amz-content-sha256"),
              example.request.payload_sha256);
    EXPECT_EQ(header_value(*signed_request, "host"), "examplebucket.s3.amazonaws.com");
  }
}

// The page prints two canonical requests whole; a difference here says which line is wrong.
TEST(S3SigV4, BuildsThePublishedCanonicalRequests) {
  const std::vector<HeaderExample> examples = header_examples();
  Result<SignedRequest> get =
      sign_request(example_credentials(), example_location(), examples[0].request);
  Result<SignedRequest> put =
      sign_request(example_credentials(), example_location(), examples[1].request);
  ASSERT_TRUE(get.is_ok() && put.is_ok());
  EXPECT_EQ(get->canonical_request,
            "GET\n/test.txt\n\n"
            "host:examplebucket.s3.amazonaws.com\n"
            "range:bytes=0-9\n"
            "x-amz-content-sha256:"
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n"
            "x-amz-date:20130524T000000Z\n\n"
            "host;range;x-amz-content-sha256;x-amz-date\n"
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(put->canonical_request,
            "PUT\n/test%24file.text\n\n"
            "date:Fri, 24 May 2013 00:00:00 GMT\n"
            "host:examplebucket.s3.amazonaws.com\n"
            "x-amz-content-sha256:"
            "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072\n"
            "x-amz-date:20130524T000000Z\n"
            "x-amz-storage-class:REDUCED_REDUNDANCY\n\n"
            "date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class\n"
            "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
}

TEST(S3SigV4, HashesBodiesAsThePagesDo) {
  EXPECT_EQ(sha256_hex("Welcome to Amazon S3."), kPutBodySha256);
  EXPECT_EQ(sha256_hex(""), kEmptyPayloadSha256);
}

// ---- URI encoding -----------------------------------------------------------------------------

TEST(S3UriEncoding, KeepsOnlyUnreservedCharactersAndSlashesInPaths) {
  EXPECT_EQ(uri_encode("AZaz09-_.~", Slash::kEncode), "AZaz09-_.~");
  EXPECT_EQ(uri_encode("a b+c", Slash::kKeep), "a%20b%2Bc");  // never '+' for a space
  EXPECT_EQ(uri_encode("dir/sub/file", Slash::kKeep), "dir/sub/file");
  EXPECT_EQ(uri_encode("dir/sub/file", Slash::kEncode), "dir%2Fsub%2Ffile");
  EXPECT_EQ(uri_encode("test$file.text", Slash::kKeep), "test%24file.text");  // the PUT example
  EXPECT_EQ(uri_encode("100%*?#&=;:@!'()[],", Slash::kKeep),
            "100%25%2A%3F%23%26%3D%3B%3A%40%21%27%28%29%5B%5D%2C");
  // UTF-8 bytes one by one, uppercase hex digits: "é" is C3 A9, "日" is E6 97 A5.
  EXPECT_EQ(uri_encode("\xC3\xA9\xE6\x97\xA5", Slash::kKeep), "%C3%A9%E6%97%A5");
  EXPECT_EQ(uri_encode(std::string_view("a\0b\x7F\xFF", 5), Slash::kKeep), "a%00b%7F%FF");
}

TEST(S3UriEncoding, SortsQueryParametersByEncodedName) {
  // The List Objects example's order, whatever the order given.
  EXPECT_EQ(canonical_query({{"prefix", "J"}, {"max-keys", "2"}}), "max-keys=2&prefix=J");
  // "x|" sorts after "xa" as written and before it encoded ("x%7C"): the encoded name decides.
  EXPECT_EQ(canonical_query({{"xa", "1"}, {"x|", "2"}}), "x%7C=2&xa=1");
  // Uppercase before lowercase (bytes), so X-Amz-* comes before response-*.
  EXPECT_EQ(canonical_query({{"response-content-type", "a"}, {"X-Amz-Date", "b"}}),
            "X-Amz-Date=b&response-content-type=a");
  // A name given twice: by value. A parameter without a value: "name=". '/' in a value: %2F.
  EXPECT_EQ(canonical_query({{"a", "2"}, {"a", "1"}}), "a=1&a=2");
  EXPECT_EQ(canonical_query({{"lifecycle", ""}}), "lifecycle=");
  EXPECT_EQ(canonical_query({{"response-content-type", "text/plain"}}),
            "response-content-type=text%2Fplain");
  EXPECT_EQ(canonical_query({}), "");
}

// ---- Addressing, keys and hosts ---------------------------------------------------------------

S3Credentials test_credentials() { return {"minioadmin", "minio-secret-key", "us-east-1"}; }

constexpr int64_t kTestTime = 1'767'225'600;  // 2026-01-01T00:00:00Z

UrlToPresign download_of(std::string key) {
  return {.method = "GET", .key = std::move(key), .now_unix_s = kTestTime, .expires_s = 900};
}

// The presigned URL of `request`, or the refusal's message when there is none.
std::string presigned(const S3Location& location, const UrlToPresign& request,
                      const S3Credentials& credentials = test_credentials()) {
  Result<PresignedUrl> url = presign_url(credentials, location, request);
  return url.is_ok() ? url->url : "refused: " + url.status().message();
}

std::string signature_of(std::string_view url) {
  const size_t at = url.find("X-Amz-Signature=");
  return at == std::string_view::npos ? "<none>" : std::string(url.substr(at + 16));
}

TEST(S3SigV4, EncodesAwkwardKeysSegmentBySegment) {
  const S3Location minio{"http://127.0.0.1:9000", "uploads", true};
  const std::string url =
      presigned(minio, download_of("photos/\xC3\xA9t\xC3\xA9 2024/na\xC3\xAFve+plan~1 (2).jpg"));
  EXPECT_EQ(url.substr(0, url.find('?')),
            "http://127.0.0.1:9000/uploads/photos/%C3%A9t%C3%A9%202024/"
            "na%C3%AFve%2Bplan~1%20%282%29.jpg");
  // The signed path is the one in the URL.
  Result<PresignedUrl> signed_url =
      presign_url(test_credentials(), minio,
                  download_of("photos/\xC3\xA9t\xC3\xA9 2024/na\xC3\xAFve+plan~1 (2).jpg"));
  ASSERT_TRUE(signed_url.is_ok());
  EXPECT_NE(signed_url->canonical_request.find(
                "\n/uploads/photos/%C3%A9t%C3%A9%202024/na%C3%AFve%2Bplan~1%20%282%29.jpg\n"),
            std::string::npos);
  // Empty segments stay: S3 keys "a//b" and "a/b" differ.
  EXPECT_NE(presigned(minio, download_of("a//b")).find("/uploads/a//b?"), std::string::npos);
}

TEST(S3SigV4, PathStyleAndVirtualHostedAddressTheSameObjectDifferently) {
  const std::string path_style =
      presigned({"https://s3.eu-west-1.amazonaws.com", "my-bucket", true}, download_of("k/v.txt"));
  const std::string virtual_hosted =
      presigned({"https://s3.eu-west-1.amazonaws.com", "my-bucket", false}, download_of("k/v.txt"));
  EXPECT_EQ(path_style.rfind("https://s3.eu-west-1.amazonaws.com/my-bucket/k/v.txt?", 0), 0u)
      << path_style;
  EXPECT_EQ(virtual_hosted.rfind("https://my-bucket.s3.eu-west-1.amazonaws.com/k/v.txt?", 0), 0u)
      << virtual_hosted;
  EXPECT_NE(signature_of(path_style), signature_of(virtual_hosted));
}

TEST(S3SigV4, SignsTheHostWithItsPortUnlessTheSchemeDefault) {
  const S3Credentials credentials = test_credentials();
  const RequestToSign head{.method = "HEAD", .key = "a.bin", .now_unix_s = kTestTime};
  struct Case {
    std::string endpoint;
    std::string host;
    std::string url;
  };
  for (const Case& c : std::vector<Case>{
           {"http://127.0.0.1:9000", "127.0.0.1:9000", "http://127.0.0.1:9000/files/a.bin"},
           {"http://[::1]:9000/", "[::1]:9000", "http://[::1]:9000/files/a.bin"},
           {"HTTPS://Minio.Example.com:8443", "minio.example.com:8443",
            "https://minio.example.com:8443/files/a.bin"},
           {"https://minio.example.com:443", "minio.example.com",
            "https://minio.example.com/files/a.bin"},
           {"http://localhost:80", "localhost", "http://localhost/files/a.bin"},
           {"http://localhost:443", "localhost:443", "http://localhost:443/files/a.bin"},
       }) {
    SCOPED_TRACE(c.endpoint);
    Result<SignedRequest> signed_request = sign_request(credentials, {c.endpoint, "files"}, head);
    ASSERT_TRUE(signed_request.is_ok()) << signed_request.status().to_string();
    EXPECT_EQ(signed_request->url, c.url);
    EXPECT_EQ(header_value(*signed_request, "host"), c.host);
    EXPECT_NE(signed_request->canonical_request.find("\nhost:" + c.host + "\n"), std::string::npos);
  }
}

TEST(S3SigV4, SignsARequestOnTheBucketItself) {
  Result<SignedRequest> path_style =
      sign_request(test_credentials(), {"http://127.0.0.1:9000", "files", true},
                   {.method = "GET", .query = {{"list-type", "2"}}, .now_unix_s = kTestTime});
  ASSERT_TRUE(path_style.is_ok());
  EXPECT_EQ(path_style->url, "http://127.0.0.1:9000/files?list-type=2");
}

// ---- What the signature covers ----------------------------------------------------------------

UrlToPresign upload_of(std::string key) {
  return {.method = "PUT",
          .key = std::move(key),
          .now_unix_s = kTestTime,
          .expires_s = 900,
          .headers = {{"Content-Type", "image/png"}, {"Content-Length", "5120"}}};
}

TEST(S3SigV4, AnUploadUrlSignsItsContentTypeAndLength) {
  Result<PresignedUrl> upload =
      presign_url(test_credentials(), {"http://127.0.0.1:9000", "files"}, upload_of("a.png"));
  ASSERT_TRUE(upload.is_ok()) << upload.status().to_string();
  EXPECT_NE(upload->url.find("&X-Amz-SignedHeaders=content-length%3Bcontent-type%3Bhost&"),
            std::string::npos)
      << upload->url;
  EXPECT_NE(upload->canonical_request.find("\ncontent-length:5120\ncontent-type:image/png\n"
                                           "host:127.0.0.1:9000\n\n"
                                           "content-length;content-type;host\nUNSIGNED-PAYLOAD"),
            std::string::npos)
      << upload->canonical_request;
  EXPECT_NE(upload->url.find("X-Amz-Credential=minioadmin%2F20260101%2Fus-east-1%2Fs3%2F"
                             "aws4_request&X-Amz-Date=20260101T000000Z&X-Amz-Expires=900&"),
            std::string::npos)
      << upload->url;
  // The secret is in no part of what is returned.
  EXPECT_EQ(upload->url.find("minio-secret-key"), std::string::npos);
  EXPECT_EQ(upload->canonical_request.find("minio-secret-key"), std::string::npos);
  EXPECT_EQ(upload->string_to_sign.find("minio-secret-key"), std::string::npos);
}

TEST(S3SigV4, ADownloadUrlSignsTheResponseOverrides) {
  UrlToPresign download = download_of("reports/q1.pdf");
  download.query = {
      {"response-content-type", "application/pdf"},
      {"response-content-disposition", "attachment; filename=\"Q1 r\xC3\xA9sum\xC3\xA9.pdf\""}};
  const std::string url = presigned({"https://s3.example.com", "files"}, download);
  // Sorted after the X-Amz-* parameters (uppercase first), before the signature, '/' encoded.
  EXPECT_NE(url.find("&X-Amz-SignedHeaders=host&response-content-disposition=attachment%3B%20"
                     "filename%3D%22Q1%20r%C3%A9sum%C3%A9.pdf%22&response-content-type="
                     "application%2Fpdf&X-Amz-Signature="),
            std::string::npos)
      << url;
  UrlToPresign renamed = download;
  renamed.query[1].second = "attachment; filename=\"other.pdf\"";
  EXPECT_NE(signature_of(presigned({"https://s3.example.com", "files"}, renamed)),
            signature_of(url));
}

TEST(S3SigV4, EverySignedInputMovesTheSignature) {
  const S3Location location{"http://127.0.0.1:9000", "files"};
  const std::string base = signature_of(presigned(location, upload_of("a.png")));
  ASSERT_EQ(base.size(), 64u);

  UrlToPresign other_method = upload_of("a.png");
  other_method.method = "GET";
  UrlToPresign other_key = upload_of("b.png");
  UrlToPresign other_expiry = upload_of("a.png");
  other_expiry.expires_s = 901;
  UrlToPresign other_type = upload_of("a.png");
  other_type.headers[0].second = "image/jpeg";
  UrlToPresign other_length = upload_of("a.png");
  other_length.headers[1].second = "5121";
  UrlToPresign other_time = upload_of("a.png");
  other_time.now_unix_s += 1;
  for (const UrlToPresign& changed :
       {other_method, other_key, other_expiry, other_type, other_length, other_time}) {
    EXPECT_NE(signature_of(presigned(location, changed)), base);
  }
  S3Credentials other_secret = test_credentials();
  other_secret.secret_key += "x";
  S3Credentials other_region = test_credentials();
  other_region.region = "eu-west-1";
  for (const S3Credentials& changed : {other_secret, other_region}) {
    EXPECT_NE(signature_of(presigned(location, upload_of("a.png"), changed)), base);
  }
  EXPECT_NE(signature_of(presigned({"http://127.0.0.1:9001", "files"}, upload_of("a.png"))), base);
  EXPECT_NE(signature_of(presigned({"http://127.0.0.1:9000", "other"}, upload_of("a.png"))), base);
  // And the same inputs give the same signature.
  EXPECT_EQ(signature_of(presigned(location, upload_of("a.png"))), base);
}

TEST(S3SigV4, SendsHeaderValuesInTheFormTheyAreSigned) {
  Result<SignedRequest> signed_request =
      sign_request(test_credentials(), {"http://127.0.0.1:9000", "files"},
                   {.method = "PUT",
                    .key = "a.txt",
                    .headers = {{"Content-Type", "  text/plain;   charset=utf-8 "}},
                    .payload_sha256 = sha256_hex("hi"),
                    .now_unix_s = kTestTime});
  ASSERT_TRUE(signed_request.is_ok());
  EXPECT_EQ(header_value(*signed_request, "content-type"), "text/plain; charset=utf-8");
  EXPECT_NE(signed_request->canonical_request.find("\ncontent-type:text/plain; charset=utf-8\n"),
            std::string::npos);
  // Sorted by name, authorization last.
  std::vector<std::string> names;
  for (const auto& field : signed_request->headers) names.push_back(field.first);
  EXPECT_EQ(names, (std::vector<std::string>{"content-type", "host", "x-amz-content-sha256",
                                             "x-amz-date", "authorization"}));
}

// ---- Refusals ---------------------------------------------------------------------------------

// The field a refusal names, or "accepted".
std::string refused_field(const S3Location& location, const UrlToPresign& request,
                          const S3Credentials& credentials = test_credentials()) {
  Result<PresignedUrl> url = presign_url(credentials, location, request);
  if (url.is_ok()) return "accepted";
  EXPECT_EQ(url.status().code(), "VALIDATION_ERROR");
  if (!credentials.secret_key.empty()) {
    EXPECT_EQ(url.status().message().find(credentials.secret_key), std::string::npos);
  }
  return url.status().details().value("field", "");
}

TEST(S3SigV4, PresignsForOneSecondToSevenDays) {
  const S3Location location{"http://127.0.0.1:9000", "files"};
  for (const int64_t expires : {int64_t{1}, int64_t{604800}}) {
    UrlToPresign request = download_of("a");
    request.expires_s = expires;
    EXPECT_EQ(refused_field(location, request), "accepted") << expires;
  }
  for (const int64_t expires : {int64_t{0}, int64_t{-1}, int64_t{604801}}) {
    UrlToPresign request = download_of("a");
    request.expires_s = expires;
    EXPECT_EQ(refused_field(location, request), "expires_s") << expires;
  }
}

TEST(S3SigV4, RefusesEndpointsThatAreNotSchemeHostAndPort) {
  for (const std::string endpoint :
       {"127.0.0.1:9000", "ftp://host", "http://", "http://host/path", "http://user@host",
        "http://host?x", "http://host:", "http://host:0", "http://host:65536", "http://host:9x",
        "http://[::1", "http://[::1]x", "http://ho st"}) {
    EXPECT_EQ(refused_field({endpoint, "files"}, download_of("a")), "endpoint") << endpoint;
  }
  // Virtual-hosted addressing puts the bucket in front of a DNS name; an address has none.
  EXPECT_EQ(refused_field({"http://127.0.0.1:9000", "files", false}, download_of("a")),
            "path_style");
  EXPECT_EQ(refused_field({"http://[::1]:9000", "files", false}, download_of("a")), "path_style");
}

TEST(S3SigV4, RefusesBucketsKeysAndInputsThatCannotBeSigned) {
  const S3Location location{"http://127.0.0.1:9000", "files"};
  for (const std::string& bucket : std::vector<std::string>{"", "ab", "Files", "files_1", "-files",
                                                            "files-", std::string(64, 'a')}) {
    EXPECT_EQ(refused_field({location.endpoint, bucket}, download_of("a")), "bucket") << bucket;
  }
  EXPECT_EQ(refused_field({location.endpoint, std::string(63, 'a')}, download_of("a")), "accepted");
  for (const std::string key : {"", ".", "..", "a/../b", "a/./b", "a/.."}) {
    EXPECT_EQ(refused_field(location, download_of(key)), "key") << key;
  }
  EXPECT_EQ(refused_field(location, download_of("a/.../b..")), "accepted");
  EXPECT_EQ(refused_field(location, download_of(std::string(kMaxKeyBytes, 'k'))), "accepted");
  EXPECT_EQ(refused_field(location, download_of(std::string(kMaxKeyBytes + 1, 'k'))), "key");

  UrlToPresign lowercase_method = download_of("a");
  lowercase_method.method = "get";
  EXPECT_EQ(refused_field(location, lowercase_method), "method");
  UrlToPresign before_1970 = download_of("a");
  before_1970.now_unix_s = -1;
  EXPECT_EQ(refused_field(location, before_1970), "now");
  S3Credentials no_secret = test_credentials();
  no_secret.secret_key.clear();
  EXPECT_EQ(refused_field(location, download_of("a"), no_secret), "secret_key");
  S3Credentials slashed_region = test_credentials();
  slashed_region.region = "us/east";
  EXPECT_EQ(refused_field(location, download_of("a"), slashed_region), "region");
  S3Credentials no_access_key = test_credentials();
  no_access_key.access_key.clear();
  EXPECT_EQ(refused_field(location, download_of("a"), no_access_key), "access_key");
}

TEST(S3SigV4, RefusesHeadersAndQueryParametersItCannotSignSafely) {
  const S3Location location{"http://127.0.0.1:9000", "files"};
  for (const NameValues& headers :
       std::vector<NameValues>{{{"Host", "evil.example"}},
                               {{"content-type", "a"}, {"Content-Type", "b"}},
                               {{"content-type", "text/plain\r\nx-injected: 1"}},
                               {{"bad name", "a"}},
                               {{"", "a"}}}) {
    UrlToPresign request = upload_of("a");
    request.headers = headers;
    EXPECT_EQ(refused_field(location, request), "headers") << headers[0].first;
  }
  for (const std::string name : {"X-Amz-Signature", "x-amz-expires", "X-Amz-Credential", ""}) {
    UrlToPresign request = download_of("a");
    request.query = {{name, "1"}};
    EXPECT_EQ(refused_field(location, request), "query") << name;
  }
  // A request the daemon signs may not bring the fields the signer sets, nor a bad payload hash.
  for (const std::string name : {"x-amz-date", "X-Amz-Content-Sha256", "Authorization", "host"}) {
    Result<SignedRequest> signed_request =
        sign_request(test_credentials(), location,
                     {.method = "GET", .key = "a", .headers = {{name, "1"}}, .now_unix_s = 1});
    ASSERT_FALSE(signed_request.is_ok()) << name;
    EXPECT_EQ(signed_request.status().details().value("field", ""), "headers");
  }
  for (const std::string hash :
       {"", "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855", "abc",
        "STREAMING-AWS4-HMAC-SHA256-PAYLOAD"}) {
    Result<SignedRequest> signed_request =
        sign_request(test_credentials(), location,
                     {.method = "PUT", .key = "a", .payload_sha256 = hash, .now_unix_s = 1});
    ASSERT_FALSE(signed_request.is_ok()) << hash;
    EXPECT_EQ(signed_request.status().details().value("field", ""), "payload_sha256");
  }
  EXPECT_TRUE(sign_request(test_credentials(), location,
                           {.method = "PUT",
                            .key = "a",
                            .payload_sha256 = std::string(kUnsignedPayload),
                            .now_unix_s = 1})
                  .is_ok());
}

}  // namespace
}  // namespace opbase::file
