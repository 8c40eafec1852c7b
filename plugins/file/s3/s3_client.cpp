// S3Client (s3_client.hpp): a request signed, sent with the SDK's HTTP client, and its answer
// read into the little each caller needs.
#include "s3/s3_client.hpp"

#include <charconv>
#include <chrono>
#include <utility>

#include "opbase/base64.hpp"
#include "opbase/hex.hpp"
#include "opbase/http_client.hpp"

namespace opbase::file {
namespace {

constexpr std::chrono::milliseconds kConnectTimeout{5'000};
constexpr std::chrono::milliseconds kTotalTimeout{30'000};
// An error answer's body is XML of a few hundred bytes; more is neither needed nor kept.
constexpr size_t kMaxBodyBytes = size_t{64} * 1024;
// AWS answers a HEAD with the object's checksum only when asked to.
constexpr std::string_view kChecksumModeHeader = "x-amz-checksum-mode";
constexpr std::string_view kChecksumSha256Header = "x-amz-checksum-sha256";

// "HEAD http://127.0.0.1:9000/bucket/key": how a failure names its request. The signed URL of
// these requests holds no credential, only the endpoint, bucket, key and query.
std::string describe(std::string_view method, std::string_view url) {
  return "S3 " + std::string(method) + " " + std::string(url);
}

// Sends `request` with `method` and no body. An answer of any status is a value; no answer
// (refused, timed out, dropped) is INTERNAL_ERROR.
Result<HttpResponse> send(std::string_view method, const SignedRequest& signed_request) {
  HttpRequest request;
  request.method = std::string(method);
  request.url = signed_request.url;
  for (const auto& [name, value] : signed_request.headers) request.headers.push_back({name, value});
  request.connect_timeout = kConnectTimeout;
  request.timeout = kTotalTimeout;
  request.max_response_bytes = kMaxBodyBytes;
  request.over_limit = HttpBodyLimit::kKeepFirst;
  request.user_agent = "opbase-file/1";
  HttpResult answer = http_send(request);
  if (!answer) {
    return Status::internal(describe(method, request.url) +
                            " got no answer: " + answer.error().message);
  }
  return std::move(answer.response());
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

Status refused(std::string_view method, std::string_view url, const HttpResponse& answer) {
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

Result<ObjectHead> head_of(std::string_view url, const HttpResponse& answer) {
  const std::optional<std::string_view> length = answer.header("content-length");
  const std::optional<int64_t> size = length ? whole_number(*length) : std::nullopt;
  if (!size) {
    return Status::internal(describe("HEAD", url) + " answered without a valid Content-Length");
  }
  ObjectHead head;
  head.size = *size;
  if (const auto etag = answer.header("etag")) head.etag = unquoted(*etag);
  if (const auto checksum = answer.header(kChecksumSha256Header)) {
    head.sha256 = sha256_of_checksum(*checksum);
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
  Result<HttpResponse> answer = send("HEAD", *signed_request);
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
  Result<HttpResponse> answer = send("DELETE", *signed_request);
  if (!answer) return answer.status();
  const int status = answer->status;
  if (status == 204 || status == 200 || status == 404) return Status::ok();
  return refused("DELETE", signed_request->url, *answer);
}

}  // namespace opbase::file
