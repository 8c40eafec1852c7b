#include "openai/http_post.hpp"

#include <algorithm>
#include <charconv>
#include <string_view>

namespace opbase::ai {
namespace {

using std::chrono::milliseconds;

std::optional<int64_t> whole_number(std::string_view text) {
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
  return std::min<int64_t>(value, 86'400'000);
}

}  // namespace

HttpResult post_json(const HttpPost& post) {
  HttpRequest request;
  request.method = "POST";
  request.url = post.url;
  request.headers = {{"Content-Type", "application/json"}, {"Accept", "application/json"}};
  request.headers.insert(request.headers.end(), post.headers.begin(), post.headers.end());
  request.body = post.body;
  request.timeout = post.timeout;
  request.connect_timeout = post.connect_timeout;
  request.max_response_bytes = kMaxAnswerBytes;
  request.over_limit = HttpBodyLimit::kRefuse;
  request.user_agent = "opbase-ai/1";
  request.accept_compressed = true;  // whatever curl can decode
  return http_send(request);
}

std::optional<milliseconds> retry_after_of(const HttpResponse& response) {
  if (const auto ms = response.header("retry-after-ms")) {
    if (auto value = whole_number(*ms)) return milliseconds(*value);
  }
  if (const auto s = response.header("retry-after")) {
    if (auto value = whole_number(*s)) return milliseconds(*value * 1000);
  }
  return std::nullopt;
}

}  // namespace opbase::ai
