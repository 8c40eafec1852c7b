#include "openai/http_post.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <charconv>
#include <mutex>
#include <string_view>

namespace opbase::ai {
namespace {

using std::chrono::milliseconds;

// This thread's handle: made on first use, cleaned up when the thread ends.
class ThreadHandle {
 public:
  ThreadHandle() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
    curl_ = curl_easy_init();
  }
  ~ThreadHandle() {
    if (curl_ != nullptr) curl_easy_cleanup(curl_);
  }
  ThreadHandle(const ThreadHandle&) = delete;
  ThreadHandle& operator=(const ThreadHandle&) = delete;
  CURL* get() const { return curl_; }

 private:
  CURL* curl_;
};

struct CurlList {
  curl_slist* list = nullptr;
  ~CurlList() { curl_slist_free_all(list); }
  void add(const std::string& item) { list = curl_slist_append(list, item.c_str()); }
};

struct Reading {
  HttpAnswer* answer;
  bool too_large = false;
};

size_t take_body(char* data, size_t size, size_t count, void* user) {
  auto* reading = static_cast<Reading*>(user);
  const size_t bytes = size * count;
  if (reading->answer->body.size() + bytes > kMaxAnswerBytes) {
    reading->too_large = true;
    return 0;  // aborts the transfer
  }
  reading->answer->body.append(data, bytes);
  return bytes;
}

bool starts_with_lower(std::string_view line, std::string_view prefix) {
  if (line.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    char c = line[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != prefix[i]) return false;
  }
  return true;
}

std::optional<int64_t> whole_number(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r' ||
                           text.back() == '\n')) {
    text.remove_suffix(1);
  }
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
  return std::min<int64_t>(value, 86'400'000);
}

// Picks Retry-After (seconds; an HTTP date is ignored) and retry-after-ms out of the headers.
// A later response (after a 100 Continue) starts over.
size_t take_header(char* data, size_t size, size_t count, void* user) {
  auto* answer = static_cast<HttpAnswer*>(user);
  const std::string_view line(data, size * count);
  if (line.starts_with("HTTP/")) answer->retry_after.reset();
  if (starts_with_lower(line, "retry-after-ms:")) {
    if (auto ms = whole_number(line.substr(15))) answer->retry_after = milliseconds(*ms);
  } else if (starts_with_lower(line, "retry-after:") && !answer->retry_after) {
    if (auto s = whole_number(line.substr(12))) answer->retry_after = milliseconds(*s * 1000);
  }
  return size * count;
}

TransportFailure failure_of(CURLcode rc) {
  switch (rc) {
    case CURLE_OPERATION_TIMEDOUT:
      return TransportFailure::kTimedOut;
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
      return TransportFailure::kNoConnection;
    case CURLE_GOT_NOTHING:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
      return TransportFailure::kDropped;
    default:
      return TransportFailure::kOther;
  }
}

void set_options(CURL* curl, const HttpPost& post, curl_slist* headers, Reading* reading,
                 char* error) {
  curl_easy_setopt(curl, CURLOPT_URL, post.url.c_str());
  curl_easy_setopt(curl, CURLOPT_POST, 1L);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, post.body.data());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(post.body.size()));
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  // At least 1 ms: curl reads 0 as "no time-out".
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, std::max<long>(1, post.timeout.count()));
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                   std::max<long>(1, std::min(post.connect_timeout, post.timeout).count()));
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_USERAGENT, "opbase-ai/1");
  curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");  // whatever curl can decode
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &take_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, reading);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, &take_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, reading->answer);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
}

}  // namespace

HttpAnswer post_json(const HttpPost& post) {
  HttpAnswer answer;
  thread_local ThreadHandle handle;
  CURL* curl = handle.get();
  if (curl == nullptr) {
    answer.failure = TransportFailure::kOther;
    answer.failure_text = "no HTTP client (curl_easy_init failed)";
    return answer;
  }
  CurlList headers;
  headers.add("Content-Type: application/json");
  headers.add("Accept: application/json");
  headers.add("Expect:");  // no 100-continue round trip for large bodies
  for (const std::string& h : post.headers) headers.add(h);
  Reading reading{&answer};
  char error[CURL_ERROR_SIZE] = {0};
  set_options(curl, post, headers.list, &reading, error);
  const CURLcode rc = curl_easy_perform(curl);
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  curl_easy_reset(curl);  // drops pointers to this call's buffers; keeps the connections
  if (rc == CURLE_OK) {
    answer.status = static_cast<int>(status);
    return answer;
  }
  answer.failure = reading.too_large ? TransportFailure::kTooLarge : failure_of(rc);
  answer.failure_text = error[0] != '\0' ? error : curl_easy_strerror(rc);
  answer.body.clear();
  answer.status = 0;
  return answer;
}

}  // namespace opbase::ai
