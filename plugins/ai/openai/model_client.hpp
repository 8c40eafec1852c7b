// ModelClient: POSTs JSON to one OpenAI-compatible server under the settings' rules. A call has
// one deadline (timeout_s) covering the wait for a free slot (max_concurrency), every attempt and
// every wait between attempts. It waits for a slot only until a quarter of its time (at most 1 s)
// is left, since a model needs that much to answer; then it fails as "busy". It retries 429, 500,
// 502, 503, 504 and connection failures up to max_retries times with backoff (retry_backoff.hpp),
// honours Retry-After, and gives up at once when the next wait would pass the deadline. Failures
// come back as PROCESSING_FAILED (model_failure.hpp) whose message says what happened and never
// holds the API key; so do the lines given to the log sink (one per retry).
//
// Thread-safety: post() may be called from any number of threads at once.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <string_view>

#include "opbase/status.hpp"
#include "openai/call_slots.hpp"
#include "openai/http_post.hpp"
#include "openai/openai_settings.hpp"

namespace opbase::ai {

// Receives a line for people (a retry and why); may be called from any thread. Empty: no log.
using ModelLog = std::function<void(std::string_view line)>;

class ModelClient {
 public:
  ModelClient(OpenAiSettings settings, ModelLog log);
  ModelClient(const ModelClient&) = delete;
  ModelClient& operator=(const ModelClient&) = delete;

  // POSTs `body` to base_url + `path` ("/chat/completions"); the body of a 2xx answer.
  Result<std::string> post(std::string_view path, const std::string& body) const;

  const OpenAiSettings& settings() const { return settings_; }

 private:
  using Clock = std::chrono::steady_clock;

  // The time a call keeps back for the model when it waits for a slot.
  std::chrono::milliseconds kept_for_answer() const;
  std::string url_of(std::string_view path) const;
  std::vector<HttpHeader> headers() const;
  // The failure an attempt's answer (or its want of one) is, with `attempts` made so far.
  Status failure_of(const HttpResult& answer, std::string_view path, int attempts,
                    Clock::time_point deadline) const;
  // The failure of an attempt that got no answer; `tries` is failure_of's "(after N attempts)".
  Status no_answer(const HttpError& error, std::string_view path, const std::string& tries,
                   Clock::time_point deadline) const;
  // Whether to try again after `answer`, and the wait before it.
  bool retry_wait(const HttpResult& answer, int retry, std::chrono::milliseconds* wait) const;
  void log(const std::string& line) const;

  const OpenAiSettings settings_;
  const ModelLog log_;
  mutable CallSlots slots_;
};

}  // namespace opbase::ai
