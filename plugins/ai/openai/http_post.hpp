// One HTTP POST of a JSON body to a model server with libcurl, bounded by a time-out. Each thread
// keeps one curl handle, so calls from a thread reuse its connections (and TLS sessions) to the
// server. No redirects are followed; no signals are used (CURLOPT_NOSIGNAL), so any thread may
// call. The answer body is read up to kMaxAnswerBytes.
//
// Thread-safety: post_json() may be called from any number of threads at once.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace opbase::ai {

inline constexpr size_t kMaxAnswerBytes = 64u << 20;

struct HttpPost {
  std::string url;
  std::vector<std::string> headers;  // "Name: value"; Content-Type: application/json is added
  std::string body;
  std::chrono::milliseconds timeout{60'000};          // the whole attempt
  std::chrono::milliseconds connect_timeout{10'000};  // the connection within it
};

// Why no HTTP answer came.
enum class TransportFailure {
  kNone,          // an answer came (any status)
  kTimedOut,      // the time-out (or the connect time-out) passed
  kNoConnection,  // refused, no such host, TLS handshake failed
  kDropped,       // connected, but the answer broke off or never came
  kTooLarge,      // the answer body passed kMaxAnswerBytes
  kOther,
};

struct HttpAnswer {
  TransportFailure failure = TransportFailure::kNone;
  std::string failure_text;  // curl's words for a failure (no secrets: no headers, no body)
  int status = 0;
  std::string body;
  // Retry-After in seconds (or retry-after-ms, rounded up), when the answer gave a number.
  std::optional<std::chrono::milliseconds> retry_after;
};

HttpAnswer post_json(const HttpPost& post);

}  // namespace opbase::ai
