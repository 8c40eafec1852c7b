// One HTTP POST of a JSON body to a model server, sent with the SDK's HTTP client
// (opbase/http_client.hpp) and bounded by a time-out. The client keeps one handle per thread, so
// calls from a thread reuse its connections (and TLS sessions) to the server. No redirects are
// followed. The answer body is read up to kMaxAnswerBytes (decoded, when the server compressed
// it); a larger one is HttpFailure::kTooLarge.
//
// Thread-safety: post_json() may be called from any number of threads at once.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "opbase/http_client.hpp"

namespace opbase::ai {

inline constexpr size_t kMaxAnswerBytes = 64u << 20;

struct HttpPost {
  std::string url;
  std::vector<HttpHeader> headers;  // Content-Type and Accept: application/json are added
  std::string body;
  std::chrono::milliseconds timeout{60'000};          // the whole attempt
  std::chrono::milliseconds connect_timeout{10'000};  // the connection within it
};

HttpResult post_json(const HttpPost& post);

// Retry-After in seconds (an HTTP date is ignored), or retry-after-ms (which wins), when the
// answer gave a number (one over 86,400,000 counts as that).
std::optional<std::chrono::milliseconds> retry_after_of(const HttpResponse& response);

}  // namespace opbase::ai
