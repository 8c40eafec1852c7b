// S3Client (s3_client.hpp): a request signed, sent with a fresh curl handle, and its answer read
// into the little each caller needs.
#include "s3/s3_client.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <map>
#include <mutex>
#include <utility>

#include "opbase/base64.hpp"
#include "opbase/hex.hpp"

namespace opbase::file {
namespace {

constexpr long kConnectTimeoutMs = 5'000;
constexpr long kTotalTimeoutMs = 30'000;
// An error answer's body is XML of a few hundred bytes; more is neither needed nor kept.
constexpr size_t kMaxBodyBytes = size_t{64} * 1024;
// AWS answers a HEAD with the object's checksum only when asked to.
constexpr std::string_view kChecksumModeHeader = "x-amz-checksum-mode";
constexpr std::string_view kChecksumSha256Header = "x-amz-checksum-sha256";

void init_curl_once() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct CurlHandle {
  CURL* curl = curl_easy_init();
  ~CurlHandle() {
    if (curl != nullptr) curl_easy_cleanup(curl);
  }
};

struct CurlList {
  curl_slist* list = nullptr;
  ~CurlList() { curl_slist_free_all(list); }
  void add(const std::string& item) { list = curl_slist_append(list, item.c_str()); }
};

std::string ascii_lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](char c) {
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  });
  return out;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r' ||
                           text.back() == '\n')) {
    text.remove_suffix(1);
  }
  return text;
}

// What the store answered: its status, its header fields (names lowercase) and the start of its
// body.
struct Answer {
  int status = 0;
  std::map<std::string, std::string> headers;
  std::string body;
};

size_t keep_body(char* data, size_t size, size_t count, void* user) {
  auto* answer = static_cast<Answer*>(user);
  const size_t bytes = size * count;
  const size_t room = kMaxBodyBytes - std::min(kMaxBodyBytes, answer->body.size());
  answer->body.append(data, std::min(bytes, room));
  return bytes;  // the rest is read and dropped, so the connection ends cleanly
}

// One header line. A status line starts the fields over: only the last response's count (a
// "100 Continue" comes before the real one).
size_t keep_header(char* data, size_t size, size_t count, void* user) {
  auto* answer = static_cast<Answer*>(user);
  const std::string_view line(data, size * count);
  if (line.starts_with("HTTP/")) {
    answer->headers.clear();
  } else if (const size_t colon = line.find(':'); colon != std::string_view::npos) {
    answer->headers[ascii_lower(trim(line.substr(0, colon)))] =
        std::string(trim(line.substr(colon + 1)));
  }
  return size * count;
}

// "HEAD http://127.0.0.1:9000/bucket/key": how a failure names its request. The signed URL of
// these requests holds no credential, only the endpoint, bucket, key and query.
std::string describe(std::string_view method, std::string_view url) {
  return "S3 " + std::string(method) + " " + std::string(url);
}

void set_options(CURL* curl, std::string_view method, const SignedRequest& request,
                 curl_slist* headers, Answer* answer, char* error) {
  curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
  if (method == "HEAD") {
    curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
  } else if (method != "GET") {
    // curl copies the text, so a temporary will do.
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, std::string(method).c_str());
  }
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, kConnectTimeoutMs);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, kTotalTimeoutMs);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_USERAGENT, "opbase-file/1");
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &keep_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, answer);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, &keep_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, answer);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
}

// Sends `request` with `method` and no body. An answer of any status is a value; no answer
// (refused, timed out, dropped) is INTERNAL_ERROR.
Result<Answer> send(std::string_view method, const SignedRequest& request) {
  init_curl_once();
  const CurlHandle handle;
  if (handle.curl == nullptr) {
    return Status::internal(describe(method, request.url) + ": no HTTP client (curl_easy_init)");
  }
  CurlList headers;
  for (const auto& [name, value] : request.headers) headers.add(name + ": " + value);
  Answer answer;
  char error[CURL_ERROR_SIZE] = {0};
  set_options(handle.curl, method, request, headers.list, &answer, error);
  const CURLcode rc = curl_easy_perform(handle.curl);
  if (rc != CURLE_OK) {
    return Status::internal(describe(method, request.url) + " got no answer: " +
                            (error[0] != '\0' ? error : curl_easy_strerror(rc)));
  }
  long status = 0;
  curl_easy_getinfo(handle.curl, CURLINFO_RESPONSE_CODE, &status);
  answer.status = static_cast<int>(status);
  return answer;
}

// The <Code> of an S3 error body ("SignatureDoesNotMatch", "AccessDenied"), or empty.
std::string error_code_of(std::string_view body) {
  const size_t open = body.find("<Code>");
  if (open == std::string_view::npos) return "";
  const size_t start = open + 6;
  const size_t close = body.find("</Code>", start);
  if (close == std::string_view::npos || close - start > 64) return "";
  return std::string(body.substr(start, close - start));
}

Status refused(std::string_view method, std::string_view url, const Answer& answer) {
  std::string message = describe(method, url) + " answered HTTP " + std::to_string(answer.status);
  if (const std::string code = error_code_of(answer.body); !code.empty()) {
    message += " " + code;
  }
  if (answer.status == 403) {
    message +=
        " (check files.s3.access_key, files.s3.secret_key, files.s3.region and the "
        "credentials' permissions on the bucket)";
  }
  return Status::internal(std::move(message));
}

std::optional<int64_t> whole_number(std::string_view text) {
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

// x-amz-checksum-sha256 is base64 of the 32-byte digest for an object uploaded whole. An object
// uploaded in parts has a checksum of its parts' checksums ("...=-3"), which is not the digest of
// its bytes and so is not taken.
std::optional<std::string> sha256_of_checksum(std::string_view checksum) {
  const std::optional<std::string> digest = base64_decode(checksum);
  if (!digest || digest->size() != 32) return std::nullopt;
  return hex_encode(*digest);
}

std::string unquoted(std::string_view etag) {
  if (etag.size() >= 2 && etag.front() == '"' && etag.back() == '"') {
    etag = etag.substr(1, etag.size() - 2);
  }
  return std::string(etag);
}

Result<ObjectHead> head_of(std::string_view url, const Answer& answer) {
  const auto length = answer.headers.find("content-length");
  const std::optional<int64_t> size =
      length == answer.headers.end() ? std::nullopt : whole_number(length->second);
  if (!size) {
    return Status::internal(describe("HEAD", url) + " answered without a valid Content-Length");
  }
  ObjectHead head;
  head.size = *size;
  if (const auto etag = answer.headers.find("etag"); etag != answer.headers.end()) {
    head.etag = unquoted(etag->second);
  }
  if (const auto checksum = answer.headers.find(std::string(kChecksumSha256Header));
      checksum != answer.headers.end()) {
    head.sha256 = sha256_of_checksum(checksum->second);
  }
  return head;
}

}  // namespace

int64_t system_unix_s() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

S3Client::S3Client(S3Credentials credentials, S3Location location, UnixClock now_s)
    : credentials_(std::move(credentials)),
      location_(std::move(location)),
      now_s_(std::move(now_s)) {}

Result<std::optional<ObjectHead>> S3Client::head_object(std::string_view key) const {
  RequestToSign request;
  request.method = "HEAD";
  request.key = std::string(key);
  request.headers = {{std::string(kChecksumModeHeader), "ENABLED"}};
  request.now_unix_s = now_s_();
  Result<SignedRequest> signed_request = sign_request(credentials_, location_, request);
  if (!signed_request) {
    return Status::internal("S3 HEAD of '" + request.key +
                            "' could not be signed: " + signed_request.status().message());
  }
  Result<Answer> answer = send("HEAD", *signed_request);
  if (!answer) return answer.status();
  if (answer->status == 404) return std::optional<ObjectHead>();
  if (answer->status != 200) return refused("HEAD", signed_request->url, *answer);
  Result<ObjectHead> head = head_of(signed_request->url, *answer);
  if (!head) return head.status();
  return std::optional<ObjectHead>(std::move(*head));
}

Status S3Client::delete_object(std::string_view key) const {
  RequestToSign request;
  request.method = "DELETE";
  request.key = std::string(key);
  request.now_unix_s = now_s_();
  Result<SignedRequest> signed_request = sign_request(credentials_, location_, request);
  if (!signed_request) {
    return Status::internal("S3 DELETE of '" + request.key +
                            "' could not be signed: " + signed_request.status().message());
  }
  Result<Answer> answer = send("DELETE", *signed_request);
  if (!answer) return answer.status();
  const int status = answer->status;
  if (status == 204 || status == 200 || status == 404) return Status::ok();
  return refused("DELETE", signed_request->url, *answer);
}

}  // namespace opbase::file
