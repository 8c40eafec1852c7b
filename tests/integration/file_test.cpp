// file_test: the file area in the real daemon over HTTP, on the local backend
// (docs/api.md#files): the whole flow as a client runs it (presign, PUT the bytes to the URL,
// finalize, get, download whole and in ranges, update, delete), every refusal of the ops and of
// the /files/ route, two users and a reader, quotas, failures reported, kill -9 in the middle of
// an upload (no half file is ever served, the pending upload is purged later) and a restart
// keeping ready files, and a 1 GiB upload and download with the daemon's memory flat.
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/sha.h>

#include <set>
#include <string>
#include <thread>

#include "daemon_process.hpp"
#include "http_client.hpp"
#include "webhook_receiver.hpp"

namespace opbase::test {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

std::string hex_of(const unsigned char (&digest)[SHA256_DIGEST_LENGTH]) {
  static const char* kHex = "0123456789abcdef";
  std::string hex;
  for (unsigned char byte : digest) {
    hex += kHex[byte >> 4];
    hex += kHex[byte & 15];
  }
  return hex;
}

std::string sha256_of(std::string_view bytes) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), digest);
  return hex_of(digest);
}

// The path and query of an absolute URL the daemon handed out.
std::string path_of(const std::string& url) {
  const size_t scheme = url.find("://");
  return url.substr(url.find('/', scheme + 3));
}

std::string bytes_of(size_t size, char seed) {
  std::string bytes(size, '\0');
  for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>(seed + i * 31 + (i >> 8));
  return bytes;
}

DaemonOptions file_daemon(std::map<std::string, std::string> config = {}) {
  DaemonOptions options;
  options.plugins = {"auth", "file"};
  options.config = {{"auth.rate.signup_per_address", "off"}};
  for (auto& [key, value] : config) options.config[key] = value;
  return options;
}

class Files : public ::testing::Test {
 protected:
  void start(std::map<std::string, std::string> config = {}) {
    daemon_ = DaemonProcess::start(file_daemon(std::move(config)));
    ASSERT_NE(daemon_, nullptr);
  }

  json call(const std::string& user, json body) {
    return daemon_->call(body, user.empty() ? Headers{} : daemon_->user(user).bearer()).json();
  }

  // presign_upload of `bytes` as `user`: the answer's data.
  json presign(const std::string& user, const std::string& bytes, json extra = json::object()) {
    json body = {{"op", "file.presign_upload"},
                 {"name", "notes.txt"},
                 {"content_type", "text/plain"},
                 {"size", bytes.size()}};
    body.update(extra);
    json answer = call(user, body);
    EXPECT_TRUE(answer.contains("data")) << answer.dump();
    return answer.value("data", json::object());
  }

  HttpResponse put(const json& ticket, const std::string& bytes, Headers headers = {}) {
    Headers sent;
    for (const auto& [name, value] : ticket["headers"].items()) sent.emplace_back(name, value);
    for (auto& header : headers) sent.push_back(header);
    return daemon_->request("PUT", path_of(ticket["upload_url"]), bytes, sent);
  }

  // A ready file of `bytes` owned by `user`: its record as file.finalize_upload answers it.
  json uploaded(const std::string& user, const std::string& bytes, json extra = json::object()) {
    const json ticket = presign(user, bytes, extra);
    const HttpResponse sent = put(ticket, bytes);
    EXPECT_EQ(sent.status, 200) << sent.describe();
    return call(user, {{"op", "file.finalize_upload"}, {"_key", ticket["_key"]}})["data"];
  }

  std::unique_ptr<DaemonProcess> daemon_;
};

// details.reason of an error answer; "" for anything else.
std::string reason_of(const json& answer) {
  const json error = answer.value("error", json::object());
  const json details = error.is_object() ? error.value("details", json::object()) : json();
  return details.is_object() ? details.value("reason", "") : "";
}

// The JSON body of a raw reply; null when it has none.
json body_json(const RawReply& reply) {
  const size_t end = reply.bytes.find("\r\n\r\n");
  if (end == std::string::npos) return json();
  return json::parse(reply.bytes.substr(end + 4), nullptr, /*allow_exceptions=*/false);
}

TEST_F(Files, TheWholeFlowAsAClientRunsIt) {
  start();
  const std::string bytes = bytes_of(300'000, 'a');
  const json ticket =
      presign("ada", bytes, {{"sha256", sha256_of(bytes)}, {"metadata", {{"k", 1}}}});
  EXPECT_EQ(ticket["method"], "PUT");
  EXPECT_EQ(ticket["headers"]["Content-Type"], "text/plain");
  EXPECT_TRUE(ticket["upload_url"].get<std::string>().starts_with(daemon_->base_url() + "/files/"));
  EXPECT_TRUE(ticket["expires_at"].get<std::string>().ends_with("Z"));
  const std::string key = ticket["_key"];

  const json pending = call("ada", {{"op", "file.get"}, {"_key", key}})["data"];
  EXPECT_EQ(pending["state"], "pending");
  EXPECT_FALSE(pending.contains("download_url"));
  const json early = call("ada", {{"op", "file.finalize_upload"}, {"_key", key}});
  EXPECT_EQ(reason_of(early), "missing") << early.dump();

  const HttpResponse sent = put(ticket, bytes);
  ASSERT_EQ(sent.status, 200) << sent.describe();
  EXPECT_EQ(sent.json()["data"]["sha256"], sha256_of(bytes));
  const json ready = call("ada", {{"op", "file.finalize_upload"}, {"_key", key}})["data"];
  EXPECT_EQ(ready["state"], "ready");
  EXPECT_EQ(ready["size"], bytes.size());
  EXPECT_EQ(ready["sha256"], sha256_of(bytes));
  EXPECT_EQ(ready["metadata"], json({{"k", 1}}));
  EXPECT_EQ(ready["_userkey"], daemon_->user("ada").key);
  for (const char* hidden : {"upload_nonce", "stored", "failure_reason"}) {
    EXPECT_FALSE(ready.contains(hidden)) << hidden;
  }

  const json got = call("ada", {{"op", "file.get"}, {"_key", key}})["data"];
  const std::string download = path_of(got["download_url"]);
  const HttpResponse whole = daemon_->request("GET", download);
  ASSERT_EQ(whole.status, 200);
  EXPECT_EQ(whole.body, bytes);
  EXPECT_EQ(whole.header("Content-Type"), "text/plain");
  EXPECT_EQ(whole.header("X-Content-Type-Options"), "nosniff");
  EXPECT_EQ(whole.header("ETag"), "\"" + sha256_of(bytes) + "\"");
  EXPECT_NE(whole.header("Content-Disposition").find("filename=\"notes.txt\""), std::string::npos);

  const HttpResponse part = daemon_->request("GET", download, "", {{"Range", "bytes=100-199"}});
  EXPECT_EQ(part.status, 206);
  EXPECT_EQ(part.body, bytes.substr(100, 100));
  EXPECT_EQ(part.header("Content-Range"), "bytes 100-199/300000");
  const HttpResponse tail = daemon_->request("GET", download, "", {{"Range", "bytes=-10"}});
  EXPECT_EQ(tail.body, bytes.substr(bytes.size() - 10));
  const HttpResponse beyond = daemon_->request("GET", download, "", {{"Range", "bytes=300000-"}});
  EXPECT_EQ(beyond.status, 416);
  EXPECT_EQ(beyond.header("Content-Range"), "bytes */300000");
  const HttpResponse same =
      daemon_->request("GET", download, "", {{"If-None-Match", whole.header("ETag")}});
  EXPECT_EQ(same.status, 304);
  EXPECT_TRUE(same.body.empty());
  const HttpResponse head = daemon_->request("HEAD", download);
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.header("Content-Length"), "300000");

  // Not public: the stable path serves nothing until the owner makes the file public.
  const std::string stable = "/files/test/" + key;
  EXPECT_EQ(daemon_->request("GET", stable).status, 404);
  const json shared = call("ada", {{"op", "file.update"},
                                   {"_key", key},
                                   {"data", {{"public", true}, {"name", "n2.txt"}}}})["data"];
  EXPECT_EQ(shared["public"], true);
  EXPECT_EQ(shared["name"], "n2.txt");
  EXPECT_EQ(path_of(shared["public_url"]), stable);
  const HttpResponse open = daemon_->request("GET", stable);
  EXPECT_EQ(open.status, 200);
  EXPECT_EQ(open.body, bytes);
  EXPECT_NE(open.header("Content-Disposition").find("n2.txt"), std::string::npos);

  EXPECT_EQ(call("ada", {{"op", "file.delete"}, {"_key", key}})["data"], json({{"deleted", true}}));
  EXPECT_EQ(daemon_->request("GET", download).status, 404);
  EXPECT_EQ(daemon_->request("GET", stable).status, 404);
  EXPECT_EQ(reason_of(call("ada", {{"op", "file.get"}, {"_key", key}})), "not_found");
  EXPECT_EQ(reason_of(call("ada", {{"op", "file.delete"}, {"_key", key}})), "not_found");
}

TEST_F(Files, ScriptsAndStylesAreServedAsPlainText) {
  start();
  for (const char* type : {"application/javascript", "text/css"}) {
    const json file = uploaded("ada", "alert(document.domain)",
                               {{"content_type", type}, {"name", "a.js"}, {"public", true}});
    EXPECT_EQ(file["content_type"], type);  // the record keeps the type as uploaded
    for (const std::string& url : {path_of(file["download_url"]), path_of(file["public_url"])}) {
      const HttpResponse served = daemon_->request("GET", url);
      ASSERT_EQ(served.status, 200) << type;
      EXPECT_EQ(served.body, "alert(document.domain)");
      EXPECT_EQ(served.header("Content-Type"), "text/plain; charset=utf-8") << type;
      EXPECT_EQ(served.header("X-Content-Type-Options"), "nosniff");
      EXPECT_TRUE(served.header("Content-Disposition").starts_with("attachment;"));
    }
  }
  const json page = uploaded("ada", "<svg/>", {{"content_type", "image/svg+xml"}});
  EXPECT_EQ(daemon_->request("GET", path_of(page["download_url"])).header("Content-Type"),
            "image/svg+xml");
}

TEST_F(Files, BadRequestsAreRefusedWithTheFieldAndReason) {
  start({{"files.max_size", "1000"}});
  const json base = {{"op", "file.presign_upload"},
                     {"name", "a.txt"},
                     {"content_type", "text/plain"},
                     {"size", 10}};
  struct Case {
    json change;
    std::string code, field, reason;
  };
  const Case cases[] = {
      {{{"name", "a/b"}}, "VALIDATION_ERROR", "name", "separator"},
      {{{"name", ""}}, "VALIDATION_ERROR", "name", "length"},
      {{{"name", "a\nb"}}, "VALIDATION_ERROR", "name", "control"},
      {{{"name", nullptr}}, "VALIDATION_ERROR", "name", "missing"},
      {{{"content_type", "text"}}, "VALIDATION_ERROR", "content_type", "malformed"},
      {{{"size", -1}}, "VALIDATION_ERROR", "size", "range"},
      {{{"size", "10"}}, "VALIDATION_ERROR", "size", "type"},
      {{{"size", 1001}}, "PAYLOAD_TOO_LARGE", "", ""},
      {{{"sha256", "abc"}}, "VALIDATION_ERROR", "sha256", "malformed"},
      {{{"metadata", 3}}, "VALIDATION_ERROR", "metadata", "type"},
      {{{"public", "yes"}}, "VALIDATION_ERROR", "public", "type"},
      {{{"colour", "red"}}, "VALIDATION_ERROR", "colour", "unknown"},
  };
  for (const Case& c : cases) {
    json body = base;
    body.update(c.change);
    const HttpResponse answer = daemon_->call(body, daemon_->user("ada").bearer());
    const json error = answer.json()["error"];
    EXPECT_EQ(error["code"], c.code) << c.change.dump();
    if (!c.field.empty()) {
      EXPECT_EQ(error["details"]["field"], c.field) << c.change.dump();
      EXPECT_EQ(error["details"]["reason"], c.reason) << c.change.dump();
    }
  }
  EXPECT_EQ(daemon_->call(base).json()["error"]["code"], "AUTHENTICATION_FAILED");
  for (const char* op : {"file.get", "file.finalize_upload", "file.delete", "file.update"}) {
    const json missing = call("ada", {{"op", op}});
    EXPECT_EQ(missing["error"]["details"]["field"], "_key") << op;
    EXPECT_EQ(reason_of(missing), "missing") << op;
  }
  const json key = presign("ada", "0123456789");
  const json empty =
      call("ada", {{"op", "file.update"}, {"_key", key["_key"]}, {"data", json::object()}});
  EXPECT_EQ(reason_of(empty), "empty");
  const json owner =
      call("ada", {{"op", "file.update"}, {"_key", key["_key"]}, {"data", {{"_userkey", "x"}}}});
  EXPECT_EQ(reason_of(owner), "unknown");
  const json readers =
      call("ada", {{"op", "file.update"}, {"_key", key["_key"]}, {"data", {{"readers", {1}}}}});
  EXPECT_EQ(reason_of(readers), "malformed");
}

TEST_F(Files, TheUploadRouteRefusesWhatWasNotPresigned) {
  start({{"files.upload_url_ttl_s", "2"}});
  const std::string bytes = bytes_of(5000, 'q');
  const json ticket = presign("ada", bytes, {{"sha256", sha256_of(bytes)}});
  const std::string url = path_of(ticket["upload_url"]);

  const HttpResponse wrong_type = put(ticket, bytes, {{"Content-Type", "text/html"}});
  EXPECT_EQ(wrong_type.status, 400);
  EXPECT_EQ(reason_of(wrong_type.json()), "content_type_mismatch");
  const HttpResponse wrong_size = put(ticket, bytes.substr(1));
  EXPECT_EQ(reason_of(wrong_size.json()), "size_mismatch");
  std::string other = bytes;
  other[7] ^= 1;
  const HttpResponse wrong_bytes = put(ticket, other);
  EXPECT_EQ(reason_of(wrong_bytes.json()), "sha256_mismatch");

  std::string tampered = url;
  tampered[tampered.size() - 3] = tampered[tampered.size() - 3] == 'A' ? 'B' : 'A';
  const HttpResponse forged =
      daemon_->request("PUT", tampered, bytes, {{"Content-Type", "text/plain"}});
  EXPECT_EQ(forged.status, 401);
  EXPECT_EQ(reason_of(forged.json()), "signature");
  const std::string as_download = std::string(url).replace(url.find("nonce=") + 6, 32, "");
  EXPECT_EQ(daemon_->request("GET", as_download).status, 401);
  const HttpResponse deleted = daemon_->request("DELETE", url);
  EXPECT_EQ(deleted.status, 405);
  EXPECT_EQ(deleted.header("Allow"), "GET, HEAD, PUT");
  EXPECT_EQ(reason_of(deleted.json()), "method");
  EXPECT_FALSE(deleted.header("X-Request-Id").empty());
  const HttpResponse chunked = http_request(
      daemon_->port(), "PUT", url, bytes, {{"Content-Type", "text/plain"}}, BodyEncoding::kChunked);
  EXPECT_EQ(chunked.status, 411);

  // A body cut short keeps nothing and leaves the URL usable.
  {
    RawConnection cut(daemon_->port());
    ASSERT_TRUE(cut.send(
        "PUT " + url +
        " HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 5000\r\n\r\n" +
        bytes.substr(0, 2000)));
    cut.close();
  }
  std::this_thread::sleep_for(200ms);
  EXPECT_EQ(reason_of(call("ada", {{"op", "file.finalize_upload"}, {"_key", ticket["_key"]}})),
            "missing");
  // Cut short by a half-close (raw_exchange shuts its sending side down after the bytes): the
  // client still listens and hears why.
  const RawReply half = raw_exchange(
      daemon_->port(),
      "PUT " + url +
          " HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 5000\r\n\r\n" +
          bytes.substr(0, 2000));
  EXPECT_EQ(half.status(), 400) << half.bytes;
  EXPECT_EQ(reason_of(body_json(half)), "short") << half.bytes;
  // Two types: checked against one, stored as the other by whoever reads it next. Refused.
  const RawReply two_types = raw_exchange(
      daemon_->port(), "PUT " + url +
                           " HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Type: "
                           "text/html\r\nContent-Length: 5000\r\n\r\n" +
                           bytes);
  EXPECT_EQ(two_types.status(), 400) << two_types.bytes;
  const json refused = body_json(two_types);
  EXPECT_EQ(reason_of(refused), "duplicate_header") << two_types.bytes;
  EXPECT_EQ(refused["error"]["details"]["header"], "Content-Type");
  EXPECT_EQ(reason_of(call("ada", {{"op", "file.finalize_upload"}, {"_key", ticket["_key"]}})),
            "missing");

  ASSERT_EQ(put(ticket, bytes).status, 200);
  const HttpResponse replay = put(ticket, bytes);
  EXPECT_EQ(replay.status, 401);
  EXPECT_EQ(reason_of(replay.json()), "used");

  const json late = presign("ada", bytes);
  std::this_thread::sleep_for(2100ms);
  const HttpResponse expired = put(late, bytes);
  EXPECT_EQ(expired.status, 401);
  EXPECT_EQ(reason_of(expired.json()), "expired");
}

TEST_F(Files, OwnersReadersAndOthers) {
  start();
  const json file = uploaded("ada", "shared bytes");
  const std::string key = file["_key"];
  daemon_->user("bob");
  // Bob, a stranger to the file, gets what a missing file gets, whatever he tries.
  for (const char* op : {"file.get", "file.finalize_upload", "file.delete"}) {
    EXPECT_EQ(reason_of(call("bob", {{"op", op}, {"_key", key}})), "not_found") << op;
  }
  EXPECT_EQ(
      reason_of(call("bob", {{"op", "file.update"}, {"_key", key}, {"data", {{"public", true}}}})),
      "not_found");
  EXPECT_EQ(reason_of(call("bob",
                           {{"op", "file.report_upload_failure"}, {"_key", key}, {"reason", "x"}})),
            "not_found");

  const json shared =
      call("ada", {{"op", "file.update"},
                   {"_key", key},
                   {"data", {{"readers", {daemon_->user("bob").key, daemon_->user("bob").key}}}}});
  EXPECT_EQ(shared["data"]["readers"], json::array({daemon_->user("bob").key}));
  const json read = call("bob", {{"op", "file.get"}, {"_key", key}})["data"];
  ASSERT_TRUE(read.contains("download_url")) << read.dump();
  EXPECT_EQ(daemon_->request("GET", path_of(read["download_url"])).body, "shared bytes");
  // A reader reads; only the owner changes.
  EXPECT_EQ(
      reason_of(call("bob", {{"op", "file.update"}, {"_key", key}, {"data", {{"public", true}}}})),
      "not_found");
  EXPECT_EQ(reason_of(call("bob", {{"op", "file.delete"}, {"_key", key}})), "not_found");
  EXPECT_EQ(reason_of(call("carol", {{"op", "file.get"}, {"_key", key}})), "not_found");
  EXPECT_EQ(call("ada", {{"op", "file.get"}, {"_key", key}})["data"]["state"], "ready");
}

TEST_F(Files, QuotasCountFilesAndBytesAndGiveThemBack) {
  start({{"files.quota.files_per_user", "2"}, {"files.quota.bytes_per_user", "100"}});
  const json first = uploaded("ada", std::string(60, 'x'));
  const json too_big = call(
      "ada",
      {{"op", "file.presign_upload"}, {"name", "b"}, {"content_type", "text/plain"}, {"size", 41}});
  EXPECT_EQ(too_big["error"]["code"], "QUOTA_EXCEEDED");
  EXPECT_EQ(too_big["error"]["details"]["quota"], "bytes");
  EXPECT_EQ(too_big["error"]["details"]["used"], 60);
  const json second = presign("ada", std::string(40, 'y'));
  const json third = call(
      "ada",
      {{"op", "file.presign_upload"}, {"name", "c"}, {"content_type", "text/plain"}, {"size", 0}});
  EXPECT_EQ(third["error"]["details"]["quota"], "files");
  EXPECT_EQ(third["error"]["details"]["limit"], 2);
  // Another user has a quota of their own.
  EXPECT_TRUE(call("bob", {{"op", "file.presign_upload"},
                           {"name", "c"},
                           {"content_type", "text/plain"},
                           {"size", 100}})
                  .contains("data"));

  // A failed upload gives its bytes back; a deleted file, its place too.
  const json failed =
      call("ada",
           {{"op", "file.report_upload_failure"}, {"_key", second["_key"]}, {"reason", "network"}});
  EXPECT_EQ(failed["data"]["state"], "failed");
  EXPECT_EQ(reason_of(call("ada", {{"op", "file.finalize_upload"}, {"_key", second["_key"]}})),
            "failed");
  EXPECT_EQ(put(second, std::string(40, 'y')).status, 401);
  EXPECT_EQ(call("ada", {{"op", "file.presign_upload"},
                         {"name", "c"},
                         {"content_type", "text/plain"},
                         {"size", 0}})["error"]["details"]["quota"],
            "files");
  ASSERT_TRUE(call("ada", {{"op", "file.delete"}, {"_key", first["_key"]}}).contains("data"));
  EXPECT_TRUE(call("ada", {{"op", "file.presign_upload"},
                           {"name", "d"},
                           {"content_type", "text/plain"},
                           {"size", 100}})
                  .contains("data"));
}

// kill -9 while an upload's bytes are arriving: after the restart nothing of it is served, the
// pending record is purged with its quota, and a file made ready before the kill is still whole.
TEST_F(Files, KillNineMidUploadServesNoHalfFileAndKeepsReadyOnes) {
  const std::map<std::string, std::string> config = {{"files.pending_ttl_s", "1"},
                                                     {"files.purge_interval_s", "1"},
                                                     {"files.quota.files_per_user", "2"}};
  DaemonOptions options = file_daemon(config);
  auto first = DaemonProcess::start(options);
  ASSERT_NE(first, nullptr);
  daemon_ = std::move(first);
  const std::string kept_bytes = bytes_of(100'000, 'k');
  const json kept = uploaded("ada", kept_bytes, {{"public", true}});
  const std::string bytes = bytes_of(8 << 20, 'h');
  const json ticket = presign("ada", bytes);
  {
    RawConnection upload(daemon_->port());
    ASSERT_TRUE(upload.send("PUT " + path_of(ticket["upload_url"]) +
                            " HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: " +
                            std::to_string(bytes.size()) + "\r\n\r\n" + bytes.substr(0, 4 << 20)));
    std::this_thread::sleep_for(300ms);
    daemon_->send_signal(SIGKILL);
    ASSERT_TRUE(daemon_->wait_exit(10s).has_value());
  }
  options.endpoint_key = daemon_->endpoint_key();
  options.api_key = daemon_->api_key();
  options.config["storage.path"] = daemon_->dir();
  auto second = DaemonProcess::start(options);
  ASSERT_NE(second, nullptr);
  // The first daemon's folder must outlive it: keep it, and use the second from here on.
  std::unique_ptr<DaemonProcess> old = std::move(daemon_);
  daemon_ = std::move(second);

  EXPECT_EQ(daemon_->request("GET", "/files/test/" + ticket["_key"].get<std::string>()).status,
            404);
  const HttpResponse whole =
      daemon_->request("GET", "/files/test/" + kept["_key"].get<std::string>());
  EXPECT_EQ(whole.status, 200);
  EXPECT_EQ(whole.body, kept_bytes);
  // The cut upload's record goes within a few purge rounds, and its place in the quota with it.
  json gone;
  for (int round = 0; round < 50; ++round) {
    gone = call("ada", {{"op", "file.get"}, {"_key", ticket["_key"]}});
    if (reason_of(gone) == "not_found") break;
    std::this_thread::sleep_for(200ms);
  }
  EXPECT_EQ(reason_of(gone), "not_found") << gone.dump();
  EXPECT_TRUE(presign("ada", "x").contains("_key"));
  EXPECT_EQ(call("ada", {{"op", "file.get"}, {"_key", kept["_key"]}})["data"]["state"], "ready");
  daemon_.reset();  // before `old`, which removes the folder both used
}

TEST_F(Files, AGibibyteGoesUpAndDownWithTheDaemonsMemoryFlat) {
  start();
  constexpr size_t kSize = size_t{1} << 30;
  const std::string piece = bytes_of(size_t{1} << 20, 'g');
  std::string expected_sha;
  {
    EVP_MD_CTX* context = EVP_MD_CTX_new();
    EVP_DigestInit_ex(context, EVP_sha256(), nullptr);
    for (size_t sent = 0; sent < kSize; sent += piece.size()) {
      EVP_DigestUpdate(context, piece.data(), piece.size());
    }
    unsigned char digest[SHA256_DIGEST_LENGTH];
    EVP_DigestFinal_ex(context, digest, nullptr);
    EVP_MD_CTX_free(context);
    expected_sha = hex_of(digest);
  }
  const json ticket = call("ada", {{"op", "file.presign_upload"},
                                   {"name", "big.bin"},
                                   {"content_type", "application/octet-stream"},
                                   {"size", kSize},
                                   {"sha256", expected_sha}})["data"];
  const size_t rss_before = daemon_->rss_bytes();
  RawConnection upload(daemon_->port());
  ASSERT_TRUE(upload.send(
      "PUT " + path_of(ticket["upload_url"]) +
      " HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: " +
      std::to_string(kSize) + "\r\n\r\n"));
  for (size_t sent = 0; sent < kSize; sent += piece.size()) ASSERT_TRUE(upload.send(piece));
  const RawReply stored = upload.read_response(120s);
  ASSERT_EQ(stored.status(), 200) << stored.bytes.substr(0, 400);
  const json ready =
      call("ada", {{"op", "file.finalize_upload"}, {"_key", ticket["_key"]}})["data"];
  ASSERT_EQ(ready["state"], "ready");

  RawConnection download(daemon_->port());
  ASSERT_TRUE(
      download.send("GET " + path_of(ready["download_url"]) + " HTTP/1.1\r\nHost: x\r\n\r\n"));
  const RawReply got = download.read_response(120s);
  ASSERT_EQ(got.status(), 200);
  const size_t body = got.bytes.find("\r\n\r\n") + 4;
  ASSERT_EQ(got.bytes.size() - body, kSize);
  EXPECT_EQ(sha256_of(std::string_view(got.bytes).substr(body)), expected_sha);
  const size_t growth = daemon_->peak_rss_bytes() - rss_before;
  std::printf("peak RSS growth over 1 GiB up and down: %zu KB\n", growth / 1024);
  EXPECT_LT(growth, size_t{32} << 20);
}

TEST_F(Files, UploadsAndDeletesReachWebhooks) {
  WebhookReceiver receiver(ReceiverOptions{});
  ASSERT_GT(receiver.port(), 0);
  DaemonOptions options = file_daemon({{"webhooks.url", receiver.url("/hook")},
                                       {"webhooks.events", "file.uploaded,file.deleted"},
                                       {"webhooks.allow_private_targets", "true"},
                                       {"webhooks.poll", "100ms"}});
  options.plugins.push_back("webhooks");
  daemon_ = DaemonProcess::start(options);
  ASSERT_NE(daemon_, nullptr);
  const json file = uploaded("ada", "an event");
  ASSERT_TRUE(call("ada", {{"op", "file.delete"}, {"_key", file["_key"]}}).contains("data"));
  const std::vector<Delivery> got = receiver.wait_for(2, 20s);
  ASSERT_EQ(got.size(), 2u);
  std::set<std::string> types;
  for (const Delivery& d : got) {
    const json event = json::parse(d.body);
    types.insert(event["type"]);
    EXPECT_EQ(event["data"], json({{"_key", file["_key"]}})) << d.body;
  }
  EXPECT_EQ(types, (std::set<std::string>{"file.uploaded", "file.deleted"}));
}

}  // namespace
}  // namespace opbase::test
