// The S3 backend (plugins/file/backends/s3_backend.hpp) and its S3Client against a real
// S3-compatible store: s3rver (tests/support/s3_server.js, npm @20minutes/s3rver), which checks
// Signature Version 4 as S3 does. The client side of each upload and download is the SDK's HTTP
// client here (opbase/http_client.hpp), sending exactly what a ticket says, as an app would.
// Everything stays on 127.0.0.1; every request of the test's own client is bounded by a 20 s
// time-out, the backend's by its own.
#include "backends/s3_backend.hpp"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "opbase/base64.hpp"
#include "opbase/crypto.hpp"
#include "opbase/http_client.hpp"
#include "s3/s3_client.hpp"
#include "s3/sigv4.hpp"
#include "s3_test_server.hpp"

namespace {

using namespace opbase;
using namespace opbase::file;

constexpr const char* kBucket = test::S3TestServer::kBucket;
constexpr const char* kAccessKey = test::S3TestServer::kAccessKey;
constexpr const char* kSecretKey = test::S3TestServer::kSecretKey;

// ---- The test's own HTTP client: what an app would send --------------------------------------

struct Reply {
  long status = 0;                             // 0: no answer
  std::map<std::string, std::string> headers;  // names lowercase
  std::string body;
  std::string error;  // the client's words when there was no answer
};

// `method` to `url` with exactly `headers` ("Name: value") and, for PUT, `body` (the client adds
// its length as Content-Length and no Content-Type of its own).
Reply http(const std::string& method, const std::string& url,
           const std::vector<std::string>& headers, const std::string& body = "") {
  HttpRequest request;
  request.method = method;
  request.url = url;
  for (const std::string& line : headers) {
    const size_t colon = line.find(':');
    const size_t value = line.find_first_not_of(' ', colon + 1);
    request.headers.push_back(
        {line.substr(0, colon), value == std::string::npos ? "" : line.substr(value)});
  }
  request.body = body;
  request.timeout = std::chrono::seconds(20);
  request.max_response_bytes = size_t{16} << 20;
  const HttpResult answer = http_send(request);
  Reply reply;
  if (!answer) {
    reply.error = answer.error().message;
    return reply;
  }
  reply.status = answer.response().status;
  for (const HttpHeader& h : answer.response().headers) reply.headers[h.name] = h.value;
  reply.body = answer.response().body;
  return reply;
}

// The ticket's header fields as lines.
std::vector<std::string> header_lines(const UploadTicket& ticket) {
  std::vector<std::string> lines;
  for (const auto& [name, value] : ticket.headers.items()) {
    lines.push_back(name + ": " + value.get<std::string>());
  }
  return lines;
}

// `lines` with the field `name` given `value` instead (or left out, when value is empty).
std::vector<std::string> with_header(std::vector<std::string> lines, const std::string& name,
                                     const std::string& value) {
  std::erase_if(lines, [&](const std::string& line) { return line.starts_with(name + ":"); });
  if (!value.empty()) lines.push_back(name + ": " + value);
  return lines;
}

// ---- The store ---------------------------------------------------------------------------------

int64_t now_s() { return system_unix_s(); }

// A port on 127.0.0.1 that nothing listens on: bound, read, closed. 0 when none could be had.
int closed_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  const bool bound = bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
                     getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0;
  close(fd);
  return bound ? ntohs(address.sin_port) : 0;
}

// One s3rver for the whole suite (node takes most of a second to start), on a fresh folder.
class S3BackendTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = std::make_unique<test::S3TestServer>(); }

  static void TearDownTestSuite() { server_.reset(); }

  void SetUp() override {
    ASSERT_EQ(server_->problem(), "") << "no S3 store to test the backend against";
  }

  static std::string endpoint() { return server_->endpoint(); }

  static S3Settings settings(std::string secret_key = kSecretKey) {
    S3Settings s;
    s.endpoint = endpoint();
    s.bucket = kBucket;
    s.access_key = kAccessKey;
    s.secret_key = std::move(secret_key);
    s.prefix = "opbase/";
    return s;
  }

  static FileRef file(const std::string& key, const std::string& content_type, int64_t size) {
    FileRef f;
    f.project = "p1";
    f.key = key;
    f.name = "report.txt";
    f.content_type = content_type;
    f.size = size;
    return f;
  }

  // Uploads `bytes` as `f` through a fresh ticket; the store's status.
  long upload(const S3Backend& backend, const FileRef& f, const std::string& bytes) {
    Result<UploadTicket> ticket = backend.upload_ticket(f, "nonce", now_s(), now_s() + 300);
    EXPECT_TRUE(ticket.is_ok()) << ticket.status().to_string();
    if (!ticket) return 0;
    return http("PUT", ticket->url, header_lines(*ticket), bytes).status;
  }

  static std::optional<StoredBytes> stored_or_fail(const S3Backend& backend, const FileRef& f) {
    Result<std::optional<StoredBytes>> stored = backend.stored(f);
    EXPECT_TRUE(stored.is_ok()) << stored.status().to_string();
    return stored.is_ok() ? *stored : std::nullopt;
  }

  static inline std::unique_ptr<test::S3TestServer> server_;
};

// ---- Uploads -----------------------------------------------------------------------------------

TEST_F(S3BackendTest, TicketListsExactlyTheSignedFields) {
  const S3Backend backend(settings());
  Result<UploadTicket> ticket =
      backend.upload_ticket(file("k-fields", "text/plain", 11), "nonce", now_s(), now_s() + 300);
  ASSERT_TRUE(ticket.is_ok()) << ticket.status().to_string();
  EXPECT_EQ(ticket->headers,
            (nlohmann::json{{"Content-Type", "text/plain"}, {"Content-Length", "11"}}));
  EXPECT_TRUE(ticket->url.starts_with(endpoint() + "/test-bucket/opbase/p1/k-fields?"))
      << ticket->url;
  EXPECT_NE(ticket->url.find("X-Amz-SignedHeaders=content-length%3Bcontent-type%3Bhost"),
            std::string::npos)
      << ticket->url;
  EXPECT_NE(ticket->url.find("X-Amz-Expires=300"), std::string::npos) << ticket->url;
}

TEST_F(S3BackendTest, UploadThroughTheTicketIsStoredWithItsSize) {
  const S3Backend backend(settings());
  const FileRef f = file("k-upload", "text/plain", 11);
  ASSERT_EQ(upload(backend, f, "hello world"), 200);
  const std::optional<StoredBytes> stored = stored_or_fail(backend, f);
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(stored->size, 11);
  EXPECT_FALSE(stored->sha256.has_value()) << "s3rver keeps no checksum";
}

TEST_F(S3BackendTest, AnotherContentTypeIsRefusedAndNothingIsStored) {
  const S3Backend backend(settings());
  const FileRef f = file("k-type", "text/plain", 11);
  Result<UploadTicket> ticket = backend.upload_ticket(f, "nonce", now_s(), now_s() + 300);
  ASSERT_TRUE(ticket.is_ok()) << ticket.status().to_string();
  const Reply html =
      http("PUT", ticket->url, with_header(header_lines(*ticket), "Content-Type", "text/html"),
           "hello world");
  EXPECT_EQ(html.status, 403) << html.body;
  EXPECT_NE(html.body.find("SignatureDoesNotMatch"), std::string::npos) << html.body;
  const Reply none = http("PUT", ticket->url,
                          with_header(header_lines(*ticket), "Content-Type", ""), "hello world");
  EXPECT_EQ(none.status, 403) << none.body;
  EXPECT_FALSE(stored_or_fail(backend, f).has_value());
}

TEST_F(S3BackendTest, AnotherLengthIsRefusedAndNothingIsStored) {
  const S3Backend backend(settings());
  const FileRef f = file("k-length", "text/plain", 11);
  Result<UploadTicket> ticket = backend.upload_ticket(f, "nonce", now_s(), now_s() + 300);
  ASSERT_TRUE(ticket.is_ok()) << ticket.status().to_string();
  // The client sends the body's own length, as browsers do: 12, not the 11 declared and signed.
  const Reply longer = http(
      "PUT", ticket->url, with_header(header_lines(*ticket), "Content-Length", ""), "hello world!");
  EXPECT_EQ(longer.status, 403) << longer.body;
  const Reply shorter =
      http("PUT", ticket->url, with_header(header_lines(*ticket), "Content-Length", ""), "hello");
  EXPECT_EQ(shorter.status, 403) << shorter.body;
  EXPECT_FALSE(stored_or_fail(backend, f).has_value());
}

TEST_F(S3BackendTest, TamperedUrlIsRefused) {
  const S3Backend backend(settings());
  const FileRef f = file("k-tamper", "text/plain", 11);
  Result<UploadTicket> ticket = backend.upload_ticket(f, "nonce", now_s(), now_s() + 300);
  ASSERT_TRUE(ticket.is_ok()) << ticket.status().to_string();
  // One hex digit of the signature changed.
  std::string bad_signature = ticket->url;
  char& last = bad_signature.back();
  last = last == '0' ? '1' : '0';
  EXPECT_EQ(http("PUT", bad_signature, header_lines(*ticket), "hello world").status, 403);
  // The URL made to last longer.
  std::string longer = ticket->url;
  longer.replace(longer.find("X-Amz-Expires=300"), 17, "X-Amz-Expires=900");
  EXPECT_EQ(http("PUT", longer, header_lines(*ticket), "hello world").status, 403);
  // Another object's key.
  std::string other = ticket->url;
  other.replace(other.find("/k-tamper?"), 10, "/k-other?");
  EXPECT_EQ(http("PUT", other, header_lines(*ticket), "hello world").status, 403);
  EXPECT_FALSE(stored_or_fail(backend, f).has_value());
  EXPECT_FALSE(stored_or_fail(backend, file("k-other", "text/plain", 11)).has_value());
}

TEST_F(S3BackendTest, ExpiredUrlIsRefused) {
  const S3Backend backend(settings());
  const FileRef f = file("k-expired", "text/plain", 11);
  const int64_t an_hour_ago = now_s() - 3600;
  Result<UploadTicket> ticket = backend.upload_ticket(f, "nonce", an_hour_ago, an_hour_ago + 900);
  ASSERT_TRUE(ticket.is_ok()) << ticket.status().to_string();
  const Reply reply = http("PUT", ticket->url, header_lines(*ticket), "hello world");
  EXPECT_EQ(reply.status, 403) << reply.body;
  EXPECT_NE(reply.body.find("Request has expired"), std::string::npos) << reply.body;
  EXPECT_FALSE(stored_or_fail(backend, f).has_value());
}

TEST_F(S3BackendTest, DeclaredSha256IsSignedAsAChecksumTheClientMustSend) {
  const S3Backend backend(settings());
  FileRef f = file("k-sha", "application/octet-stream", 11);
  f.sha256 = sha256_hex("hello world");
  Result<UploadTicket> ticket = backend.upload_ticket(f, "nonce", now_s(), now_s() + 300);
  ASSERT_TRUE(ticket.is_ok()) << ticket.status().to_string();
  // base64 of the digest's 32 bytes, as S3 takes it.
  EXPECT_EQ(ticket->headers.value("x-amz-checksum-sha256", ""),
            "uU0nuZNNPgilLlLX2n2r+sSE7+N6U4DukIj3rOLvzek=");
  EXPECT_EQ(ticket->headers.size(), 3u);
  EXPECT_NE(ticket->url.find("X-Amz-SignedHeaders=content-length%3Bcontent-type%3Bhost%3Bx-amz-"
                             "checksum-sha256"),
            std::string::npos)
      << ticket->url;

  // Without the field, or with another digest, the signature does not hold.
  const std::vector<std::string> lines = header_lines(*ticket);
  EXPECT_EQ(http("PUT", ticket->url, with_header(lines, "x-amz-checksum-sha256", ""), "hello world")
                .status,
            403);
  EXPECT_EQ(http("PUT", ticket->url,
                 with_header(lines, "x-amz-checksum-sha256", base64_encode(std::string(32, 'x'))),
                 "hello world")
                .status,
            403);
  EXPECT_FALSE(stored_or_fail(backend, f).has_value());

  // With it, the upload goes through. (s3rver does not check the bytes against it: S3 and
  // MinIO would refuse other bytes with 400 BadDigest; here finalize's own check is what holds.)
  EXPECT_EQ(http("PUT", ticket->url, lines, "hello world").status, 200);
  const std::optional<StoredBytes> stored = stored_or_fail(backend, f);
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(stored->size, 11);
}

// ---- Downloads ---------------------------------------------------------------------------------

// The store answers the record's type and the Content-Disposition the local route sends
// (downloads/content_disposition.hpp): inline for a type browsers only show, else attachment.
TEST_F(S3BackendTest, DownloadUrlGivesTheBytesUnderTheRecordsNameAndType) {
  const S3Backend backend(settings());
  FileRef f = file("k-download", "application/pdf", 9);
  f.name = "été 1 (final)'s \"100%\".pdf";
  ASSERT_EQ(upload(backend, f, "%PDF-1.7\n"), 200);
  Result<std::string> url = backend.download_url(f, now_s(), now_s() + 300);
  ASSERT_TRUE(url.is_ok()) << url.status().to_string();
  Reply reply = http("GET", *url, {});
  ASSERT_EQ(reply.status, 200) << reply.body;
  EXPECT_EQ(reply.body, "%PDF-1.7\n");
  EXPECT_EQ(reply.headers["content-type"], "application/pdf");
  EXPECT_EQ(reply.headers["content-disposition"],
            "inline; filename=\"_t_ 1 (final)'s _100__.pdf\"; "
            "filename*=UTF-8''%C3%A9t%C3%A9%201%20%28final%29%27s%20%22100%25%22.pdf");

  // Stored as HTML, the same bytes only ever download as a file.
  f.content_type = "text/html; charset=utf-8";
  url = backend.download_url(f, now_s(), now_s() + 300);
  ASSERT_TRUE(url.is_ok()) << url.status().to_string();
  reply = http("GET", *url, {});
  ASSERT_EQ(reply.status, 200) << reply.body;
  EXPECT_EQ(reply.headers["content-type"], "text/html; charset=utf-8");
  EXPECT_TRUE(reply.headers["content-disposition"].starts_with("attachment; filename="))
      << reply.headers["content-disposition"];
}

TEST_F(S3BackendTest, DownloadUrlIsRefusedOnceExpiredOrTampered) {
  const S3Backend backend(settings());
  FileRef f = file("k-download-old", "text/plain", 11);
  ASSERT_EQ(upload(backend, f, "hello world"), 200);
  const int64_t an_hour_ago = now_s() - 3600;
  Result<std::string> expired = backend.download_url(f, an_hour_ago, an_hour_ago + 900);
  ASSERT_TRUE(expired.is_ok()) << expired.status().to_string();
  EXPECT_EQ(http("GET", *expired, {}).status, 403);

  Result<std::string> url = backend.download_url(f, now_s(), now_s() + 300);
  ASSERT_TRUE(url.is_ok()) << url.status().to_string();
  // A text/plain file shows inline; made to download instead, the URL no longer holds.
  std::string changed_url = *url;
  const size_t at = changed_url.find("response-content-disposition=inline");
  ASSERT_NE(at, std::string::npos) << changed_url;
  changed_url.replace(at, 35, "response-content-disposition=attachment");
  EXPECT_EQ(http("GET", changed_url, {}).status, 403);
  EXPECT_EQ(http("GET", *url, {}).status, 200);
}

// ---- What is stored, and removing it -----------------------------------------------------------

TEST_F(S3BackendTest, StoredOfAMissingObjectIsNothing) {
  const S3Backend backend(settings());
  Result<std::optional<StoredBytes>> stored = backend.stored(file("k-never", "text/plain", 1));
  ASSERT_TRUE(stored.is_ok()) << stored.status().to_string();
  EXPECT_FALSE(stored->has_value());
}

TEST_F(S3BackendTest, RemoveTakesTheBytesAwayAndRemovingNothingIsOk) {
  const S3Backend backend(settings());
  const FileRef f = file("k-remove", "text/plain", 11);
  ASSERT_EQ(upload(backend, f, "hello world"), 200);
  ASSERT_TRUE(stored_or_fail(backend, f).has_value());
  const Status removed = backend.remove(f);
  EXPECT_TRUE(removed.is_ok()) << removed.to_string();
  EXPECT_FALSE(stored_or_fail(backend, f).has_value());
  const Status again = backend.remove(f);
  EXPECT_TRUE(again.is_ok()) << again.to_string();
  const Status never = backend.remove(file("k-never-there", "text/plain", 1));
  EXPECT_TRUE(never.is_ok()) << never.to_string();
}

TEST_F(S3BackendTest, ObjectsLiveUnderPrefixProjectAndKey) {
  const S3Backend backend(settings());
  const FileRef f = file("k-where", "text/plain", 11);
  EXPECT_EQ(backend.object_key(f), "opbase/p1/k-where");
  ASSERT_EQ(upload(backend, f, "hello world"), 200);
  const S3Client client({kAccessKey, kSecretKey, "us-east-1"}, {endpoint(), kBucket, true});
  Result<std::optional<ObjectHead>> head = client.head_object("opbase/p1/k-where");
  ASSERT_TRUE(head.is_ok()) << head.status().to_string();
  ASSERT_TRUE(head->has_value());
  EXPECT_EQ((*head)->size, 11);
  EXPECT_EQ((*head)->etag, "5eb63bbbe01eeed093cb22bb8f5acdc3");  // MD5 of "hello world"
  Result<std::optional<ObjectHead>> unprefixed = client.head_object("p1/k-where");
  ASSERT_TRUE(unprefixed.is_ok()) << unprefixed.status().to_string();
  EXPECT_FALSE(unprefixed->has_value());
}

// ---- Failures ----------------------------------------------------------------------------------

TEST_F(S3BackendTest, AWrongSecretFailsClearlyWithoutShowingIt) {
  const std::string secret = "not-the-secret-9f2c";
  const S3Backend backend(settings(secret));
  const FileRef f = file("k-secret", "text/plain", 1);
  Result<std::optional<StoredBytes>> stored = backend.stored(f);
  ASSERT_FALSE(stored.is_ok());
  const Status head = stored.status();
  EXPECT_EQ(head.code(), "INTERNAL_ERROR");
  EXPECT_NE(head.message().find("HEAD " + endpoint() + "/test-bucket/opbase/p1/k-secret"),
            std::string::npos)
      << head.message();
  EXPECT_NE(head.message().find("HTTP 403"), std::string::npos) << head.message();
  EXPECT_EQ(head.message().find(secret), std::string::npos) << head.message();

  // A DELETE's answer has a body: its error code is named too.
  const Status removed = backend.remove(f);
  EXPECT_EQ(removed.code(), "INTERNAL_ERROR");
  EXPECT_NE(removed.message().find("HTTP 403 SignatureDoesNotMatch"), std::string::npos)
      << removed.message();
  EXPECT_EQ(removed.message().find(secret), std::string::npos) << removed.message();
  EXPECT_EQ(removed.to_string().find(secret), std::string::npos);
}

// Each request asks the clock for the time it is signed with. (s3rver cannot show a wrong clock
// refused: its 15-minute skew check never reads an X-Amz-Date, and passes everything.)
TEST_F(S3BackendTest, EachRequestIsSignedAsOfTheClocksTime) {
  int asked = 0;
  const S3Client client({kAccessKey, kSecretKey, "us-east-1"}, {endpoint(), kBucket, true},
                        [&asked] {
                          ++asked;
                          return now_s();
                        });
  Result<std::optional<ObjectHead>> head = client.head_object("opbase/p1/anything");
  ASSERT_TRUE(head.is_ok()) << head.status().to_string();
  EXPECT_EQ(asked, 1);
  const Status removed = client.delete_object("opbase/p1/anything");
  EXPECT_TRUE(removed.is_ok()) << removed.to_string();
  EXPECT_EQ(asked, 2);
}

TEST_F(S3BackendTest, AStoreThatIsNotThereFailsWithinTheTimeOut) {
  const int port = closed_port();
  ASSERT_GT(port, 0) << "no free port on 127.0.0.1";
  S3Settings s = settings();
  s.endpoint = "http://127.0.0.1:" + std::to_string(port);
  const S3Backend backend(s);
  const auto start = std::chrono::steady_clock::now();
  Result<std::optional<StoredBytes>> stored = backend.stored(file("k-gone", "text/plain", 1));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  ASSERT_FALSE(stored.is_ok());
  EXPECT_EQ(stored.status().code(), "INTERNAL_ERROR");
  EXPECT_NE(stored.status().message().find("got no answer"), std::string::npos)
      << stored.status().message();
  EXPECT_NE(stored.status().message().find(s.endpoint), std::string::npos)
      << stored.status().message();
}

TEST_F(S3BackendTest, AnExpiryOutOfS3sBoundsIsAnError) {
  const S3Backend backend(settings());
  const FileRef f = file("k-bounds", "text/plain", 1);
  const int64_t now = now_s();
  EXPECT_FALSE(backend.upload_ticket(f, "nonce", now, now).is_ok());
  EXPECT_FALSE(backend.download_url(f, now, now + int64_t{8} * 86'400).is_ok());
}

}  // namespace
