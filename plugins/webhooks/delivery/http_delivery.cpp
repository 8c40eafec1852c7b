#include "delivery/http_delivery.hpp"

#include <chrono>

namespace opbase::webhooks {
namespace {

// The receiver's answer body is not needed: at most 64 KiB of it is read, then the transfer
// ends and the status stands.
constexpr size_t kMostAnswerBytes = 64 * 1024;

HttpRequest request_of(const Attempt& attempt, const std::atomic<bool>* stopping) {
  HttpRequest request;
  request.method = "POST";
  request.url = attempt.url;
  request.pin = attempt.resolve_entry;
  request.headers = attempt.headers;
  request.body = attempt.body;
  request.timeout = std::chrono::milliseconds(attempt.timeout_ms);
  request.connect_timeout = request.timeout;
  request.max_response_bytes = kMostAnswerBytes;
  request.over_limit = HttpBodyLimit::kKeepFirst;
  request.user_agent = "opbase-webhooks/1";
  request.cancel = stopping;
  return request;
}

}  // namespace

AttemptResult HttpDelivery::post(const Attempt& attempt) const {
  const HttpRequest request = request_of(attempt, stopping_);
  const auto start = std::chrono::steady_clock::now();
  const HttpResult answer = http_send(request);
  AttemptResult result;
  result.latency_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now() - start)
                          .count();
  if (!answer) {
    result.error = answer.error().message;
    return result;
  }
  result.status = answer.response().status;
  if (!result.delivered()) result.error = "answered HTTP " + std::to_string(result.status);
  return result;
}

}  // namespace opbase::webhooks
