// file_s3_test: the file area in the real daemon over HTTP on files.backend = s3, against a real
// S3-compatible store (s3rver through S3TestServer, which checks Signature Version 4 as S3 does;
// docs/api.md#files). The test is the client: it sends the bytes to the presigned URLs the ops
// answer, with exactly the ticket's header fields, and reads them back from the store. Covered:
// the whole flow (presign, PUT, finalize, get, download, public redirect, delete), the store's
// refusals of a PUT that is not what was presigned, a reported failure, the purge of a stale
// pending upload with its object, and the daemon's own /files/ route refusing uploads.
// Everything stays on 127.0.0.1; every request is bounded by the HTTP client's time-out and
// every wait by a deadline.
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/sha.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <thread>

#include "daemon_process.hpp"
#include "http_client.hpp"
#include "s3_test_server.hpp"

namespace opbase::test {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* kPrefix = "opbase/";

// The SHA-256 of `bytes`, its 32 bytes.
std::string sha256_raw(std::string_view bytes) {
  std::string digest(SHA256_DIGEST_LENGTH, '\0');
  SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(),
         reinterpret_cast<unsigned char*>(digest.data()));
  return digest;
}

// The SHA-256 of `bytes` in hex, as file.presign_upload takes it.
std::string sha256_of(std::string_view bytes) {
  static const char* kHex = "0123456789abcdef";
  std::string hex;
  for (const char c : sha256_raw(bytes)) {
    const auto byte = static_cast<unsigned char>(c);
    hex += kHex[byte >> 4];
    hex += kHex[byte & 15];
  }
  return hex;
}

std::string base64_of(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3), '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(bytes.data()),
                                static_cast<int>(bytes.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

// The SHA-256 of `bytes` as S3's x-amz-checksum-sha256 takes it: base64 of the 32 bytes.
std::string checksum_of(std::string_view bytes) { return base64_of(sha256_raw(bytes)); }

// The path and query of an absolute URL.
std::string path_of(const std::string& url) {
  const size_t scheme = url.find("://");
  return url.substr(url.find('/', scheme + 3));
}

std::string bytes_of(size_t size, char seed) {
  std::string bytes(size, '\0');
  for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>(seed + i * 31 + (i >> 8));
  return bytes;
}

// details.reason of an error answer; "" for anything else.
std::string reason_of(const json& answer) {
  const json error = answer.value("error", json::object());
  const json details = error.is_object() ? error.value("details", json::object()) : json();
  return details.is_object() ? details.value("reason", "") : "";
}

// The ticket's header fields, as sent with its PUT.
Headers ticket_headers(const json& ticket) {
  Headers sent;
  for (const auto& [name, value] : ticket["headers"].items()) sent.emplace_back(name, value);
  return sent;
}

// `headers` without the field `name` (any case).
Headers without(Headers headers, std::string_view name) {
  std::erase_if(headers, [&](const auto& header) {
    return header.first.size() == name.size() &&
           std::equal(name.begin(), name.end(), header.first.begin(), [](char a, char b) {
             return std::tolower(static_cast<unsigned char>(a)) ==
                    std::tolower(static_cast<unsigned char>(b));
           });
  });
  return headers;
}

// One s3rver for the whole suite (node takes most of a second to start); each test starts its own
// daemon on it, and files get fresh random keys, so tests never share an object.
class FilesOnS3 : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { store_ = std::make_unique<S3TestServer>(); }
  static void TearDownTestSuite() { store_.reset(); }

  void SetUp() override { ASSERT_EQ(store_->problem(), "") << "no S3 store to run the daemon on"; }

  void start(const std::map<std::string, std::string>& config = {}) {
    DaemonOptions options;
    options.plugins = {"auth", "file"};
    options.config = {{"auth.rate.signup_per_address", "off"},
                      {"files.backend", "s3"},
                      {"files.s3.endpoint", store_->endpoint()},
                      {"files.s3.region", S3TestServer::kRegion},
                      {"files.s3.bucket", S3TestServer::kBucket},
                      {"files.s3.access_key", S3TestServer::kAccessKey},
                      {"files.s3.secret_key", S3TestServer::kSecretKey},
                      {"files.s3.path_style", "true"},
                      {"files.s3.prefix", kPrefix}};
    for (const auto& [key, value] : config) options.config[key] = value;
    daemon_ = DaemonProcess::start(options);
    ASSERT_NE(daemon_, nullptr);
  }

  json call(const std::string& user, json body) {
    return daemon_->call(body, daemon_->user(user).bearer()).json();
  }

  // presign_upload of `bytes` as `user` (notes.txt, text/plain): the answer's data.
  json presign(const std::string& user, const std::string& bytes, json extra = json::object()) {
    json body = {{"op", "file.presign_upload"},
                 {"name", "notes.txt"},
                 {"content_type", "text/plain"},
                 {"size", bytes.size()}};
    body.update(extra);
    const json answer = call(user, body);
    EXPECT_TRUE(answer.contains("data")) << answer.dump();
    return answer.value("data", json::object());
  }

  // Where the store keeps file `key` of the project "test".
  static std::string object_key(const std::string& key) { return kPrefix + ("test/" + key); }

  // The start of every URL of the store for file `key`: path-style, the prefix, the project.
  static std::string object_url(const std::string& key) {
    return store_->endpoint() + "/" + S3TestServer::kBucket + "/" + object_key(key) + "?";
  }

  // `method` of a URL of the store (absolute, http://127.0.0.1:<store port>/...). A URL
  // elsewhere fails the test and is not sent.
  static HttpResponse to_store(const std::string& method, const std::string& url,
                               const std::string& body = "", const Headers& headers = {}) {
    if (!url.starts_with(store_->endpoint() + "/")) {
      ADD_FAILURE() << "not a URL of the store at " << store_->endpoint() << ": " << url;
      return {};
    }
    return http_request(store_->port(), method, path_of(url), body, headers);
  }

  // The ticket's PUT with `headers` (the ticket's own unless given) and `bytes`.
  static HttpResponse put(const json& ticket, const std::string& bytes) {
    return to_store("PUT", ticket["upload_url"], bytes, ticket_headers(ticket));
  }
  static HttpResponse put(const json& ticket, const std::string& bytes, const Headers& headers) {
    return to_store("PUT", ticket["upload_url"], bytes, headers);
  }

  json finalize(const std::string& user, const json& key) {
    return call(user, {{"op", "file.finalize_upload"}, {"_key", key}});
  }

  static inline std::unique_ptr<S3TestServer> store_;
  std::unique_ptr<DaemonProcess> daemon_;
};

TEST_F(FilesOnS3, TheWholeFlowThroughTheStore) {
  start();
  const std::string bytes = bytes_of(200'000, 'a');
  const json ticket =
      presign("ada", bytes, {{"sha256", sha256_of(bytes)}, {"metadata", {{"k", 1}}}});
  ASSERT_TRUE(ticket.contains("_key")) << ticket.dump();
  const std::string key = ticket["_key"];
  const std::string upload_url = ticket.value("upload_url", "");
  EXPECT_TRUE(upload_url.starts_with(object_url(key))) << upload_url;
  EXPECT_NE(upload_url.find("X-Amz-Algorithm=AWS4-HMAC-SHA256"), std::string::npos) << upload_url;
  EXPECT_NE(upload_url.find("X-Amz-Expires=900"), std::string::npos) << upload_url;
  EXPECT_NE(upload_url.find("X-Amz-SignedHeaders=content-length%3Bcontent-type%3Bhost%3Bx-amz-"
                            "checksum-sha256"),
            std::string::npos)
      << upload_url;
  EXPECT_EQ(ticket["method"], "PUT");
  EXPECT_EQ(ticket["headers"], (json{{"Content-Type", "text/plain"},
                                     {"Content-Length", std::to_string(bytes.size())},
                                     {"x-amz-checksum-sha256", checksum_of(bytes)}}));
  EXPECT_TRUE(ticket.value("expires_at", "").ends_with("Z")) << ticket.dump();

  const json pending = call("ada", {{"op", "file.get"}, {"_key", key}})["data"];
  EXPECT_EQ(pending["state"], "pending");
  EXPECT_FALSE(pending.contains("download_url"));
  EXPECT_EQ(reason_of(finalize("ada", key)), "missing");
  EXPECT_FALSE(store_->has_object(object_key(key)));

  const HttpResponse sent = put(ticket, bytes);
  ASSERT_EQ(sent.status, 200) << sent.describe();
  EXPECT_TRUE(store_->has_object(object_key(key)));
  const json ready = finalize("ada", key)["data"];
  EXPECT_EQ(ready["state"], "ready");
  EXPECT_EQ(ready["size"], bytes.size());
  EXPECT_EQ(ready["sha256"], sha256_of(bytes));
  EXPECT_EQ(ready["metadata"], json({{"k", 1}}));
  EXPECT_EQ(ready["_userkey"], daemon_->user("ada").key);
  for (const char* hidden : {"upload_nonce", "stored", "failure_reason"}) {
    EXPECT_FALSE(ready.contains(hidden)) << hidden;
  }

  const json got = call("ada", {{"op", "file.get"}, {"_key", key}})["data"];
  const std::string download_url = got.value("download_url", "");
  ASSERT_TRUE(download_url.starts_with(object_url(key))) << got.dump();
  const HttpResponse whole = to_store("GET", download_url);
  ASSERT_EQ(whole.status, 200) << whole.describe();
  EXPECT_EQ(whole.body, bytes);
  EXPECT_EQ(whole.header("Content-Type"), "text/plain");
  EXPECT_NE(whole.header("Content-Disposition").find("filename=\"notes.txt\""), std::string::npos)
      << whole.header("Content-Disposition");

  // Not public: the stable path serves nothing until the owner makes the file public.
  const std::string stable = "/files/test/" + key;
  EXPECT_EQ(daemon_->request("GET", stable).status, 404);
  const json shared = call("ada", {{"op", "file.update"},
                                   {"_key", key},
                                   {"data", {{"public", true}, {"name", "n2.txt"}}}})["data"];
  EXPECT_EQ(shared["public"], true);
  EXPECT_EQ(shared["name"], "n2.txt");
  EXPECT_EQ(shared.value("public_url", ""), daemon_->base_url() + stable);
  // The stable URL redirects to a fresh presigned URL of the store, which serves the bytes under
  // the new name.
  const HttpResponse redirect = daemon_->request("GET", stable);
  ASSERT_EQ(redirect.status, 302) << redirect.describe();
  EXPECT_EQ(redirect.header("Cache-Control"), "no-store");
  const std::string location = redirect.header("Location");
  ASSERT_TRUE(location.starts_with(object_url(key))) << location;
  const HttpResponse open = to_store("GET", location);
  ASSERT_EQ(open.status, 200) << open.describe();
  EXPECT_EQ(open.body, bytes);
  EXPECT_EQ(open.header("Content-Type"), "text/plain");
  EXPECT_NE(open.header("Content-Disposition").find("n2.txt"), std::string::npos)
      << open.header("Content-Disposition");

  EXPECT_EQ(call("ada", {{"op", "file.delete"}, {"_key", key}})["data"], json({{"deleted", true}}));
  EXPECT_FALSE(store_->has_object(object_key(key)));
  // The URLs handed out before still hold their signatures; the object behind them is gone.
  const HttpResponse after = to_store("GET", download_url);
  EXPECT_EQ(after.status, 404) << after.describe();
  EXPECT_NE(after.body.find("NoSuchKey"), std::string::npos) << after.describe();
  EXPECT_EQ(to_store("GET", location).status, 404);
  EXPECT_EQ(daemon_->request("GET", stable).status, 404);
  const json gone = call("ada", {{"op", "file.get"}, {"_key", key}});
  EXPECT_EQ(gone["error"]["code"], "VALIDATION_ERROR") << gone.dump();
  EXPECT_EQ(reason_of(gone), "not_found") << gone.dump();
  EXPECT_EQ(reason_of(call("ada", {{"op", "file.delete"}, {"_key", key}})), "not_found");
}

// A PUT that is not what was presigned breaks the URL's signature: the store refuses it (403) and
// keeps nothing, so finalize finds nothing; the ticket's own PUT then goes through.
TEST_F(FilesOnS3, TheStoreRefusesAnotherTypeOrLength) {
  start();
  const std::string bytes = "hello world";
  const json ticket = presign("ada", bytes);
  ASSERT_TRUE(ticket.contains("_key")) << ticket.dump();
  const std::string key = ticket["_key"];
  EXPECT_EQ(ticket["headers"], (json{{"Content-Type", "text/plain"}, {"Content-Length", "11"}}));

  Headers html = ticket_headers(ticket);
  html.emplace_back("Content-Type", "text/html");
  struct Case {
    const char* what;
    std::string body;
    Headers headers;
  };
  const Case cases[] = {
      {"another Content-Type", bytes, html},
      {"no Content-Type", bytes, without(ticket_headers(ticket), "Content-Type")},
      // The body's own length as Content-Length, not the 11 presigned and signed.
      {"a longer body", bytes + "!", without(ticket_headers(ticket), "Content-Length")},
      {"a shorter body", "hello", without(ticket_headers(ticket), "Content-Length")},
  };
  for (const Case& c : cases) {
    const HttpResponse refused = put(ticket, c.body, c.headers);
    EXPECT_EQ(refused.status, 403) << c.what << ": " << refused.describe();
    EXPECT_NE(refused.body.find("SignatureDoesNotMatch"), std::string::npos)
        << c.what << ": " << refused.describe();
  }
  EXPECT_FALSE(store_->has_object(object_key(key)));
  const json missing = finalize("ada", key);
  EXPECT_EQ(missing["error"]["code"], "VALIDATION_ERROR") << missing.dump();
  EXPECT_EQ(reason_of(missing), "missing") << missing.dump();
  EXPECT_EQ(call("ada", {{"op", "file.get"}, {"_key", key}})["data"]["state"], "pending");

  const HttpResponse sent = put(ticket, bytes);
  ASSERT_EQ(sent.status, 200) << sent.describe();
  const json ready = finalize("ada", key);
  EXPECT_EQ(ready["data"]["state"], "ready") << ready.dump();
  EXPECT_EQ(ready["data"]["size"], 11) << ready.dump();
  EXPECT_EQ(to_store("GET", ready["data"].value("download_url", "")).body, bytes);
}

// A declared SHA-256 is signed into the upload URL as x-amz-checksum-sha256: a PUT without it, or
// with another digest, is refused by the store. (s3rver does not compare the bytes with the
// digest, as S3 and MinIO do: that part is s3_backend.hpp's to say, not this test's.)
TEST_F(FilesOnS3, ADeclaredSha256MustBeSentAsTheChecksum) {
  start();
  const std::string bytes = bytes_of(5000, 's');
  const json ticket = presign("ada", bytes, {{"sha256", sha256_of(bytes)}});
  ASSERT_TRUE(ticket.contains("_key")) << ticket.dump();
  const std::string key = ticket["_key"];
  EXPECT_EQ(ticket["headers"].value("x-amz-checksum-sha256", ""), checksum_of(bytes));

  const HttpResponse bare =
      put(ticket, bytes, without(ticket_headers(ticket), "x-amz-checksum-sha256"));
  EXPECT_EQ(bare.status, 403) << bare.describe();
  Headers other = ticket_headers(ticket);
  other.emplace_back("x-amz-checksum-sha256", checksum_of("other bytes"));
  const HttpResponse wrong = put(ticket, bytes, other);
  EXPECT_EQ(wrong.status, 403) << wrong.describe();
  EXPECT_FALSE(store_->has_object(object_key(key)));
  EXPECT_EQ(reason_of(finalize("ada", key)), "missing");

  const HttpResponse sent = put(ticket, bytes);
  ASSERT_EQ(sent.status, 200) << sent.describe();
  const json ready = finalize("ada", key)["data"];
  EXPECT_EQ(ready["state"], "ready") << ready.dump();
  EXPECT_EQ(ready["size"], bytes.size());
  EXPECT_EQ(ready["sha256"], sha256_of(bytes));
}

// A pending upload reported failed loses its object in the store, whether bytes came or not.
TEST_F(FilesOnS3, AReportedFailureRemovesTheObject) {
  start();
  const std::string bytes = bytes_of(3000, 'f');
  const json ticket = presign("ada", bytes);
  ASSERT_TRUE(ticket.contains("_key")) << ticket.dump();
  const std::string key = ticket["_key"];
  ASSERT_EQ(put(ticket, bytes).status, 200);
  ASSERT_TRUE(store_->has_object(object_key(key)));

  const json failed = call(
      "ada", {{"op", "file.report_upload_failure"}, {"_key", key}, {"reason", "network lost"}});
  EXPECT_EQ(failed["data"]["state"], "failed") << failed.dump();
  EXPECT_FALSE(failed["data"].contains("download_url")) << failed.dump();
  EXPECT_FALSE(store_->has_object(object_key(key)));
  EXPECT_EQ(reason_of(finalize("ada", key)), "failed");
  EXPECT_EQ(call("ada", {{"op", "file.get"}, {"_key", key}})["data"]["state"], "failed");

  // Reported before any byte arrived: nothing to remove, and the same answer.
  const json early = presign("ada", bytes);
  ASSERT_TRUE(early.contains("_key")) << early.dump();
  const json nothing =
      call("ada",
           {{"op", "file.report_upload_failure"}, {"_key", early["_key"]}, {"reason", "gave up"}});
  EXPECT_EQ(nothing["data"]["state"], "failed") << nothing.dump();
  EXPECT_FALSE(store_->has_object(object_key(early["_key"])));
}

// With pending_ttl_s = 1, a pending upload whose bytes reached the store but which was never
// finalized goes within a few purge rounds, and its object with it; a ready file stays, bytes and
// all.
TEST_F(FilesOnS3, AStalePendingUploadIsPurgedWithItsObject) {
  start({{"files.pending_ttl_s", "1"}, {"files.purge_interval_s", "1"}});
  // Finalized within the second it may stay pending; on a machine slow enough to miss that, the
  // purge takes it first and another try is made.
  const std::string kept_bytes = "these bytes stay";
  json kept = json::object();
  for (int attempt = 0; attempt < 3 && kept.value("state", "") != "ready"; ++attempt) {
    const json ticket = presign("ada", kept_bytes);
    ASSERT_TRUE(ticket.contains("_key")) << ticket.dump();
    ASSERT_EQ(put(ticket, kept_bytes).status, 200);
    kept = finalize("ada", ticket["_key"]).value("data", json::object());
  }
  ASSERT_EQ(kept.value("state", ""), "ready") << kept.dump();
  const std::string kept_key = kept["_key"];

  const std::string bytes = bytes_of(4000, 'p');
  const json stale = presign("ada", bytes);
  ASSERT_TRUE(stale.contains("_key")) << stale.dump();
  const std::string key = stale["_key"];
  ASSERT_EQ(put(stale, bytes).status, 200);
  ASSERT_TRUE(store_->has_object(object_key(key)));

  json gone;
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (std::chrono::steady_clock::now() < deadline) {
    gone = call("ada", {{"op", "file.get"}, {"_key", key}});
    if (reason_of(gone) == "not_found" && !store_->has_object(object_key(key))) break;
    std::this_thread::sleep_for(200ms);
  }
  EXPECT_EQ(reason_of(gone), "not_found") << gone.dump();
  EXPECT_FALSE(store_->has_object(object_key(key))) << "the stale upload's object is still stored";

  const json still = call("ada", {{"op", "file.get"}, {"_key", kept_key}})["data"];
  EXPECT_EQ(still["state"], "ready") << still.dump();
  EXPECT_TRUE(store_->has_object(object_key(kept_key)));
  EXPECT_EQ(to_store("GET", still.value("download_url", "")).body, kept_bytes);
}

// On s3 the bytes never pass through the daemon, and its /files/ route takes no upload. A PUT to
// the bare path is refused before anything is looked up: an upload needs a signed URL
// (read_file_target: VALIDATION_ERROR "unsigned_upload", 400). A PUT with a signed-looking query
// is refused by its signature (401 "signature"): the s3 daemon never hands out a local upload URL,
// so the route's 405 "backend" answer, behind that check, is out of any client's reach. Neither
// lets a byte in.
TEST_F(FilesOnS3, TheDaemonsFilesRouteTakesNoUpload) {
  start();
  const std::string bytes = "not through the daemon";
  const json ticket = presign("ada", bytes);
  ASSERT_TRUE(ticket.contains("_key")) << ticket.dump();
  const std::string key = ticket["_key"];
  const std::string path = "/files/test/" + key;
  const Headers type = {{"Content-Type", "text/plain"}};

  const HttpResponse bare = daemon_->request("PUT", path, bytes, type);
  EXPECT_EQ(bare.status, 400) << bare.describe();
  EXPECT_EQ(bare.json()["error"]["code"], "VALIDATION_ERROR");
  EXPECT_EQ(reason_of(bare.json()), "unsigned_upload") << bare.describe();

  const int64_t expires = std::chrono::duration_cast<std::chrono::seconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count() +
                          600;
  const HttpResponse forged = daemon_->request(
      "PUT",
      path + "?expires=" + std::to_string(expires) +
          "&nonce=0123456789abcdef0123456789abcdef&signature=" + std::string(43, 'A'),
      bytes, type);
  EXPECT_EQ(forged.status, 401) << forged.describe();
  EXPECT_EQ(forged.json()["error"]["code"], "AUTHENTICATION_FAILED");
  EXPECT_EQ(reason_of(forged.json()), "signature") << forged.describe();

  const HttpResponse deleted = daemon_->request("DELETE", path);
  EXPECT_EQ(deleted.status, 405);
  EXPECT_EQ(deleted.header("Allow"), "GET, HEAD") << "no upload reaches the daemon on s3";
  EXPECT_EQ(daemon_->request("GET", path).status, 404) << "a pending file is served by no URL";
  EXPECT_FALSE(store_->has_object(object_key(key)));
  EXPECT_EQ(reason_of(finalize("ada", key)), "missing");
  // The ticket's own URL, on the store, still works.
  ASSERT_EQ(put(ticket, bytes).status, 200);
  EXPECT_EQ(finalize("ada", key)["data"]["state"], "ready");
}

}  // namespace
}  // namespace opbase::test
