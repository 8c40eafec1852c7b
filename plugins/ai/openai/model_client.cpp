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

std::vector<HttpHeader> ModelClient::headers() const {
  if (settings_.api_key.empty()) return {};
  const bool bearer = settings_.api_key_header.size() == 13 &&
                      strncasecmp(settings_.api_key_header.c_str(), "authorization", 13) == 0;
  return {{settings_.api_key_header, (bearer ? "Bearer " : "") + settings_.api_key}};
}

void ModelClient::log(const std::string& line) const {
  if (log_) log_(redact_secret(line, settings_.api_key));
}

bool ModelClient::retry_wait(const HttpResult& answer, int retry, milliseconds* wait) const {
  *wait = backoff_delay(retry, milliseconds(settings_.retry_base_ms), jitter_draw());
  if (answer) {
    const HttpResponse& response = answer.response();
    if (!is_retryable_status(response.status)) return false;
    if (response.status == 429 && read_error_code(response.body) == "insufficient_quota") {
      return false;
    }
    const std::optional<milliseconds> asked = retry_after_of(response);
    if ((response.status == 429 || response.status == 503) && asked) *wait = *asked;
    return true;
  }
  switch (answer.error().kind) {
    case HttpFailure::kTimedOut:  // the connect time-out; the deadline is checked after
    case HttpFailure::kNoConnection:
    case HttpFailure::kDropped:
      return true;
    case HttpFailure::kTooLarge:
    case HttpFailure::kCancelled:  // not asked for: no cancel flag is given
    case HttpFailure::kOther:
      return false;
  }
  return false;
}

Status ModelClient::failure_of(const HttpResult& answer, std::string_view path, int attempts,
                               Clock::time_point deadline) const {
  const std::string tries =
      attempts > 1 ? " (after " + std::to_string(attempts) + " attempts)" : "";
  if (!answer) return no_answer(answer.error(), path, tries, deadline);
  const std::string_view key = settings_.api_key;
  const HttpResponse& response = answer.response();
  const StatusKind kind = kind_of_status(response.status, read_error_code(response.body));
  std::string message = "the model server answered HTTP " + std::to_string(response.status) +
                        " to " + std::string(path);
  const std::string server = quote_server_text(read_error_message(response.body), key);
  if (!server.empty()) message += ": " + server;
  if (const std::optional<milliseconds> asked = retry_after_of(response)) {
    message += " (it asked to wait " + std::to_string(asked->count()) + " ms)";
  }
  return model_failure(kind.error_type, kind.retry_recommended, message + tries);
}

Status ModelClient::no_answer(const HttpError& error, std::string_view path,
                              const std::string& tries, Clock::time_point deadline) const {
  const std::string said = quote_server_text(error.message, settings_.api_key);
  switch (error.kind) {
    case HttpFailure::kTimedOut:
      if (Clock::now() + milliseconds(5) >= deadline) {
        return model_failure(model_error::kTimeout, true,
                             "the model server did not answer " + std::string(path) + " within " +
                                 seconds_text(settings_.timeout_s) + " (timeout_s)" + tries);
      }
      return model_failure(model_error::kUnreachable, true,
                           "could not connect to the model server within " +
                               seconds_text(settings_.connect_timeout_s) + " (connect_timeout_s)" +
                               tries);
    case HttpFailure::kNoConnection:
      return model_failure(model_error::kUnreachable, true,
                           "could not connect to the model server: " + said + tries);
    case HttpFailure::kDropped:
      return model_failure(
          model_error::kServerError, true,
          "the model server's answer to " + std::string(path) + " broke off: " + said + tries);
    case HttpFailure::kTooLarge:
      return bad_answer("the model server's answer to " + std::string(path) +
                        " is larger than 64 MiB");
    case HttpFailure::kCancelled:
    case HttpFailure::kOther:
      break;
  }
  return model_failure(model_error::kUnreachable, false,
                       "the model server could not be asked: " + said);
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
    HttpResult answer = post_json(request);
    if (answer && answer.response().is_success()) return std::move(answer.response().body);
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
