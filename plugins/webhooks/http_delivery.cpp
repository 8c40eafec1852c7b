#include "http_delivery.hpp"

#include <curl/curl.h>

#include <chrono>

namespace opbase::webhooks {
namespace {

// The receiver's answer body is not needed: read and dropped, at most 64 KiB of it.
size_t drop_body(char*, size_t size, size_t count, void* seen) {
  auto* total = static_cast<size_t*>(seen);
  *total += size * count;
  return *total > 64 * 1024 ? 0 : size * count;
}

struct CurlList {
  curl_slist* list = nullptr;
  ~CurlList() { curl_slist_free_all(list); }
  void add(const std::string& item) { list = curl_slist_append(list, item.c_str()); }
};

}  // namespace

// Called by curl during a transfer: a non-zero answer aborts it.
static int abort_when_stopping(void* stopping, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  return static_cast<const std::atomic<bool>*>(stopping)->load() ? 1 : 0;
}

HttpDelivery::HttpDelivery(const std::atomic<bool>* stopping)
    : curl_(curl_easy_init()), stopping_(stopping) {}

HttpDelivery::~HttpDelivery() { curl_easy_cleanup(static_cast<CURL*>(curl_)); }

AttemptResult HttpDelivery::post(const Attempt& attempt) {
  AttemptResult result;
  CURL* curl = static_cast<CURL*>(curl_);
  if (curl == nullptr) {
    result.error = "no HTTP client (curl_easy_init failed)";
    return result;
  }
  curl_easy_reset(curl);  // keeps the connection cache, drops the last attempt's options
  CurlList headers;
  for (const std::string& h : attempt.headers) headers.add(h);
  headers.add("Expect:");  // no 100-continue round trip
  CurlList resolve;
  if (!attempt.resolve_entry.empty()) resolve.add(attempt.resolve_entry);
  size_t answered = 0;
  char error[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(curl, CURLOPT_URL, attempt.url.c_str());
  curl_easy_setopt(curl, CURLOPT_POST, 1L);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, attempt.body.data());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(attempt.body.size()));
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers.list);
  if (resolve.list != nullptr) curl_easy_setopt(curl, CURLOPT_RESOLVE, resolve.list);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(attempt.timeout_ms));
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(attempt.timeout_ms));
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_USERAGENT, "opbase-webhooks/1");
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &drop_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &answered);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, &abort_when_stopping);
  curl_easy_setopt(curl, CURLOPT_XFERINFODATA, const_cast<std::atomic<bool>*>(stopping_));
  const auto start = std::chrono::steady_clock::now();
  const CURLcode rc = curl_easy_perform(curl);
  result.latency_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now() - start)
                          .count();
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  result.status = static_cast<int>(status);
  if (rc != CURLE_OK && rc != CURLE_WRITE_ERROR) {
    result.status = 0;
    result.error = error[0] != '\0' ? error : curl_easy_strerror(rc);
  } else if (!result.delivered()) {
    result.error = "answered HTTP " + std::to_string(status);
  }
  return result;
}

}  // namespace opbase::webhooks
