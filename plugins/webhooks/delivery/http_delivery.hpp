// HttpDelivery: one webhook attempt, a POST sent with the SDK's HTTP client
// (opbase/http_client.hpp). The client keeps one handle per thread, so a delivery thread's
// connections to a receiver are reused from attempt to attempt. Redirects are not followed (a 3xx
// is a failure: the target was checked, its redirect would not be); the connection goes to the
// address the target guard checked (Attempt::resolve_entry, the request's pin). Thread-safety: one
// object per thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "opbase/http_client.hpp"
#include "outbox/outbox.hpp"

namespace opbase::webhooks {

struct Attempt {
  std::string url;
  std::string resolve_entry;  // "host:port:address", or empty
  std::vector<HttpHeader> headers;
  std::string body;
  int64_t timeout_ms = 15'000;
};

class HttpDelivery {
 public:
  // `stopping`, when it turns true, aborts an attempt in flight (the daemon is stopping).
  explicit HttpDelivery(const std::atomic<bool>* stopping) : stopping_(stopping) {}

  // POSTs the attempt. The result's status is the HTTP status, or 0 with `error` saying why no
  // answer came (refused, timed out, ...). `time_ms` is the caller's to fill.
  AttemptResult post(const Attempt& attempt) const;

 private:
  const std::atomic<bool>* stopping_;
};

}  // namespace opbase::webhooks
