#include "openai/model_client.hpp"

#include <strings.h>

#include <cstdio>
#include <thread>

#include "openai/answer_readers.hpp"
#include "openai/model_failure.hpp"
#include "openai/retry_backoff.hpp"

namespace opbase::ai {
namespace {

using std::chrono::milliseconds;

milliseconds ms_of(double seconds) { return milliseconds(static_cast<int64_t>(seconds * 1000)); }

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", seconds);
  return text;
}

std::string percent_encoded(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char c : text) {
    const auto b = static_cast<unsigned char>(c);
    if ((b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || c == '-' ||
        c == '.' || c == '_' || c == '~') {
      out += c;
    } else {
      out += '%';
      out += kHex[b >> 4];
      out += kHex[b & 15];
    }
  }
  return out;
}

struct StatusKind {
  std::string_view error_type;
  bool retry_recommended;
};

// What an HTTP status that is not 2xx means for the caller.
StatusKind kind_of_status(int status, std::string_view error_code) {
  if (status == 401 || status == 403) return {model_error::kUnauthorized, false};
  if (status == 404 || status == 405 || status == 501) return {model_error::kUnsupported, false};
  if (status == 408) return {model_error::kTimeout, true};
  // OpenAI's answer to an account out of credit: 429, but waiting does not help.
  if (status == 429) return {model_error::kRateLimited, error_code != "insufficient_quota"};
  if (status >= 500) return {model_error::kServerError, true};
  return {model_error::kBadRequest, false};
}

}  // namespace

milliseconds ModelClient::kept_for_answer() const {
  return std::min(ms_of(settings_.timeout_s) / 4, milliseconds(1'000));
}

ModelClient::ModelClient(OpenAiSettings settings, ModelLog log)
    : settings_(std::move(settings)), log_(std::move(log)), slots_(settings_.max_concurrency) {}

std::string ModelClient::url_of(std::string_view path) const {
  std::string url = settings_.base_url + std::string(path);
  if (!settings_.api_version.empty()) {
    url += "?api-version=" + percent_encoded(settings_.api_version);
  }
  return url;
}

std::vector<std::string> ModelClient::headers() const {
  if (settings_.api_key.empty()) return {};
  const bool bearer = settings_.api_key_header.size() == 13 &&
                      strncasecmp(settings_.api_key_header.c_str(), "authorization", 13) == 0;
  return {settings_.api_key_header + ": " + (bearer ? "Bearer " : "") + settings_.api_key};
}

void ModelClient::log(const std::string& line) const {
  if (log_) log_(redact_secret(line, settings_.api_key));
}

bool ModelClient::retry_wait(const HttpAnswer& answer, int retry, milliseconds* wait) const {
  *wait = backoff_delay(retry, milliseconds(settings_.retry_base_ms), jitter_draw());
  switch (answer.failure) {
    case TransportFailure::kNone:
      if (!is_retryable_status(answer.status)) return false;
      if (answer.status == 429 && read_error_code(answer.body) == "insufficient_quota") {
        return false;
      }
      if ((answer.status == 429 || answer.status == 503) && answer.retry_after) {
        *wait = *answer.retry_after;
      }
      return true;
    case TransportFailure::kTimedOut:  // the connect time-out; the deadline is checked after
    case TransportFailure::kNoConnection:
    case TransportFailure::kDropped:
      return true;
    case TransportFailure::kTooLarge:
    case TransportFailure::kOther:
      return false;
  }
  return false;
}

Status ModelClient::failure_of(const HttpAnswer& answer, std::string_view path, int attempts,
                               Clock::time_point deadline) const {
  const std::string_view key = settings_.api_key;
  const std::string tries =
      attempts > 1 ? " (after " + std::to_string(attempts) + " attempts)" : "";
  const std::string said = quote_server_text(answer.failure_text, key);
  switch (answer.failure) {
    case TransportFailure::kNone:
      break;
    case TransportFailure::kTimedOut:
      if (Clock::now() + milliseconds(5) >= deadline) {
        return model_failure(model_error::kTimeout, true,
                             "the model server did not answer " + std::string(path) + " within " +
                                 seconds_text(settings_.timeout_s) + " (timeout_s)" + tries);
      }
      return model_failure(model_error::kUnreachable, true,
                           "could not connect to the model server within " +
                               seconds_text(settings_.connect_timeout_s) + " (connect_timeout_s)" +
                               tries);
    case TransportFailure::kNoConnection:
      return model_failure(model_error::kUnreachable, true,
                           "could not connect to the model server: " + said + tries);
    case TransportFailure::kDropped:
      return model_failure(
          model_error::kServerError, true,
          "the model server's answer to " + std::string(path) + " broke off: " + said + tries);
    case TransportFailure::kTooLarge:
      return bad_answer("the model server's answer to " + std::string(path) +
                        " is larger than 64 MiB");
    case TransportFailure::kOther:
      return model_failure(model_error::kUnreachable, false,
                           "the model server could not be asked: " + said);
  }
  const StatusKind kind = kind_of_status(answer.status, read_error_code(answer.body));
  std::string message = "the model server answered HTTP " + std::to_string(answer.status) + " to " +
                        std::string(path);
  const std::string server = quote_server_text(read_error_message(answer.body), key);
  if (!server.empty()) message += ": " + server;
  if (answer.retry_after) {
    message += " (it asked to wait " + std::to_string(answer.retry_after->count()) + " ms)";
  }
  return model_failure(kind.error_type, kind.retry_recommended, message + tries);
}

Result<std::string> ModelClient::post(std::string_view path, const std::string& body) const {
  const Clock::time_point start = Clock::now();
  const Clock::time_point deadline = start + ms_of(settings_.timeout_s);
  const CallSlots::Slot slot = slots_.acquire(deadline - kept_for_answer());
  if (!slot) {
    const double waited = std::chrono::duration<double>(Clock::now() - start).count();
    return model_failure(model_error::kBusy, true,
                         "no free slot for a model server call after " + seconds_text(waited) +
                             " of timeout_s " + seconds_text(settings_.timeout_s) + ": " +
                             std::to_string(settings_.max_concurrency) +
                             " calls were in flight (max_concurrency)");
  }
  HttpPost request{url_of(path), headers(), body, {}, ms_of(settings_.connect_timeout_s)};
  for (int attempt = 1;; ++attempt) {
    const auto left = std::chrono::ceil<milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      return model_failure(model_error::kTimeout, true,
                           "the model server did not answer " + std::string(path) + " within " +
                               seconds_text(settings_.timeout_s) + " (timeout_s)");
    }
    request.timeout = left;
    HttpAnswer answer = post_json(request);
    if (answer.failure == TransportFailure::kNone && answer.status >= 200 && answer.status < 300) {
      return std::move(answer.body);
    }
    milliseconds wait{0};
    const bool again = attempt <= settings_.max_retries && retry_wait(answer, attempt, &wait) &&
                       Clock::now() + wait < deadline;
    Status failure = failure_of(answer, path, attempt, deadline);
    if (!again) return failure;
    log("openai: attempt " + std::to_string(attempt) + " failed (" + failure.message() +
        "); trying again in " + std::to_string(wait.count()) + " ms");
    std::this_thread::sleep_for(wait);
  }
}

}  // namespace opbase::ai
