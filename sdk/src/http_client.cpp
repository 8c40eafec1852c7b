// http_send (http_client.hpp): the request's options set on this thread's curl handle, the
// answer read into an HttpResponse, and curl's result code told as an HttpFailure.
#include "opbase/http_client.hpp"

#include <curl/curl.h>

#include <algorithm>

namespace opbase {
namespace {

// curl_global_init is not thread-safe and must come before any handle: once per copy of the
// SDK (each plugin has its own). Never undone: another thread's handle may outlive any moment
// chosen for curl_global_cleanup. Its result, CURLE_OK when libcurl started.
CURLcode init_curl_once() {
  static const CURLcode started = curl_global_init(CURL_GLOBAL_DEFAULT);
  return started;
}

// This thread's handle: made on first use, cleaned up when the thread ends. curl_easy_reset
// between requests drops their options but keeps the live connections and TLS sessions.
class ThreadHandle {
 public:
  ThreadHandle() : curl_(init_curl_once() == CURLE_OK ? curl_easy_init() : nullptr) {}
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
  CurlList() = default;
  CurlList(const CurlList&) = delete;
  CurlList& operator=(const CurlList&) = delete;
  ~CurlList() { curl_slist_free_all(list); }
  void add(const std::string& item) { list = curl_slist_append(list, item.c_str()); }
};

char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

std::string lowercase(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), ascii_lower);
  return out;
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

// One request's reading: the response so far and whether the body limit stopped it.
struct Reading {
  const HttpRequest* request;
  HttpResponse response;
  bool too_large = false;
};

// Takes a piece of the body. Past the limit, kRefuse fails the transfer and kKeepFirst keeps
// what fits and stops reading: either way curl hears an error (fewer bytes than given) and
// ends the transfer, so a huge answer costs no more than the limit.
size_t take_body(char* data, size_t size, size_t count, void* user) {
  auto* reading = static_cast<Reading*>(user);
  const size_t bytes = size * count;
  std::string& body = reading->response.body;
  const size_t limit = reading->request->max_response_bytes;
  if (body.size() + bytes <= limit) {
    body.append(data, bytes);
    return bytes;
  }
  if (reading->request->over_limit == HttpBodyLimit::kKeepFirst) {
    body.append(data, limit - body.size());
    reading->response.body_cut = true;
  } else {
    reading->too_large = true;
  }
  return 0;
}

// One header line. A status line starts the fields over: only the final response's count (a
// "100 Continue" comes before it).
size_t take_header(char* data, size_t size, size_t count, void* user) {
  auto* reading = static_cast<Reading*>(user);
  const std::string_view line(data, size * count);
  if (line.starts_with("HTTP/")) {
    reading->response.headers.clear();
  } else if (const size_t colon = line.find(':'); colon != std::string_view::npos) {
    reading->response.headers.push_back(
        {lowercase(trim(line.substr(0, colon))), std::string(trim(line.substr(colon + 1)))});
  }
  return size * count;
}

// Called by curl during a transfer: a non-zero answer aborts it.
int abort_when_cancelled(void* cancel, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  return static_cast<const std::atomic<bool>*>(cancel)->load() ? 1 : 0;
}

bool has_header(const HttpRequest& request, std::string_view lowercase_name) {
  return std::any_of(request.headers.begin(), request.headers.end(),
                     [&](const HttpHeader& h) { return lowercase(h.name) == lowercase_name; });
}

bool sends_body(const HttpRequest& request) {
  return request.method == "POST" || request.method == "PUT" || !request.body.empty();
}

// The header lines curl sends besides its own Host, User-Agent and Accept.
void add_header_lines(const HttpRequest& request, CurlList* lines) {
  for (const HttpHeader& h : request.headers) lines->add(h.name + ": " + h.value);
  lines->add("Expect:");  // no 100-continue round trip before a body
  // curl would label a body it was not told the type of as a form ("Content-Type:" drops that).
  if (sends_body(request) && !has_header(request, "content-type")) lines->add("Content-Type:");
}

void set_method(CURL* curl, const HttpRequest& request) {
  if (request.method == "HEAD") {
    curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
  } else if (request.method != "GET" && request.method != "POST") {
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  }
  if (sends_body(request)) {
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
                     static_cast<curl_off_t>(request.body.size()));
  }
}

void set_limits(CURL* curl, const HttpRequest& request) {
  // At least 1 ms: curl reads 0 as "no time-out".
  const long total_ms = std::max<long>(1, request.timeout.count());
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, total_ms);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                   std::clamp<long>(request.connect_timeout.count(), 1, total_ms));
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);  // any thread may call: no SIGALRM for DNS
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
  curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);
  if (request.cancel != nullptr) {
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, &abort_when_cancelled);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, const_cast<std::atomic<bool>*>(request.cancel));
  }
}

void set_options(CURL* curl, const HttpRequest& request, const CurlList& headers,
                 const CurlList& pins, Reading* reading, char* error) {
  curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
  set_method(curl, request);
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers.list);
  if (pins.list != nullptr) curl_easy_setopt(curl, CURLOPT_RESOLVE, pins.list);
  set_limits(curl, request);
  curl_easy_setopt(curl, CURLOPT_USERAGENT, request.user_agent.c_str());
  if (request.accept_compressed) curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &take_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, reading);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, &take_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, reading);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
}

HttpFailure failure_of(CURLcode rc) {
  switch (rc) {
    case CURLE_OPERATION_TIMEDOUT:
      return HttpFailure::kTimedOut;
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
      return HttpFailure::kNoConnection;
    case CURLE_GOT_NOTHING:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
      return HttpFailure::kDropped;
    case CURLE_ABORTED_BY_CALLBACK:
      return HttpFailure::kCancelled;
    default:
      return HttpFailure::kOther;
  }
}

}  // namespace

std::optional<std::string_view> HttpResponse::header(std::string_view lowercase_name) const {
  for (const HttpHeader& h : headers) {
    if (h.name == lowercase_name) return h.value;
  }
  return std::nullopt;
}

HttpResult http_send(const HttpRequest& request) {
  thread_local ThreadHandle handle;
  CURL* curl = handle.get();
  if (curl == nullptr) {
    const CURLcode started = init_curl_once();
    return HttpError{HttpFailure::kOther,
                     started != CURLE_OK
                         ? std::string("libcurl did not start: ") + curl_easy_strerror(started)
                         : "no HTTP client (curl_easy_init failed)"};
  }
  CurlList headers;
  add_header_lines(request, &headers);
  CurlList pins;
  if (!request.pin.empty()) pins.add(request.pin);
  Reading reading{&request, {}};
  char error[CURL_ERROR_SIZE] = {0};
  set_options(curl, request, headers, pins, &reading, error);
  const CURLcode rc = curl_easy_perform(curl);
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  curl_easy_reset(curl);  // drops pointers to this call's buffers; keeps the connections
  // A body cut short by kKeepFirst ends the transfer with a write error; the answer stands.
  if (rc == CURLE_OK || (rc == CURLE_WRITE_ERROR && reading.response.body_cut)) {
    reading.response.status = static_cast<int>(status);
    return std::move(reading.response);
  }
  if (reading.too_large) {
    return HttpError{HttpFailure::kTooLarge, "the answer's body is larger than " +
                                                 std::to_string(request.max_response_bytes) +
                                                 " bytes"};
  }
  return HttpError{failure_of(rc), error[0] != '\0' ? error : curl_easy_strerror(rc)};
}

}  // namespace opbase
