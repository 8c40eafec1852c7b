#include "gateway/cors_policy.hpp"

#include <algorithm>
#include <cctype>

namespace opbase::host {
namespace {

// The request headers a page may send: the body's type, the project's API key and the user's
// token, and a request id of its own. Never X-Admin-Key: the server admin key belongs on servers.
constexpr const char* kAllowedRequestHeaders =
    "Content-Type, X-API-KEY, Authorization, X-Request-Id";
// What a page may read besides the simple response headers: the id to quote in a bug report and
// when to try again.
constexpr const char* kExposedHeaders = "X-Request-Id, Retry-After";
// Chromium remembers a preflight for at most two hours; without this it asks before every call.
constexpr const char* kPreflightMaxAgeSeconds = "7200";

std::string lowercase(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

// An origin as browsers send it: scheme://host[:port], nothing after. A trailing '/' is forgiven.
Result<std::string> parse_origin(std::string_view text) {
  std::string origin = lowercase(text);
  if (origin.ends_with('/')) origin.pop_back();
  const auto scheme_end = origin.find("://");
  const bool web_scheme = origin.starts_with("http://") || origin.starts_with("https://");
  if (!web_scheme || origin.size() == scheme_end + 3 ||
      origin.find_first_of("/?#* ", scheme_end + 3) != std::string::npos) {
    return Status::validation("server.cors_origins: '" + std::string(text) +
                              "' is not an origin (scheme://host[:port], no path), '*' or 'off'");
  }
  return origin;
}

}  // namespace

Result<CorsPolicy> CorsPolicy::from(const Config& config) {
  const std::string value(trimmed(config.get_or("server.cors_origins", "*")));
  if (value == "*") return any_origin();
  if (value == "off") return CorsPolicy(Mode::kOff, {});
  std::vector<std::string> origins;
  std::string_view rest = value;
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const std::string_view item = trimmed(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (item.empty()) continue;
    auto origin = parse_origin(item);
    if (!origin) return origin.status();
    origins.push_back(std::move(*origin));
  }
  if (origins.empty()) {
    return Status::validation("server.cors_origins is empty: give '*', 'off' or a list of origins");
  }
  return CorsPolicy(Mode::kListed, std::move(origins));
}

bool CorsPolicy::is_preflight(const http::RequestHead& head) {
  return head.method == "OPTIONS" && !head.field("Access-Control-Request-Method").empty();
}

bool CorsPolicy::allows(std::string_view origin) const {
  switch (mode_) {
    case Mode::kOff:
      return false;
    case Mode::kAnyOrigin:
      return !origin.empty();
    case Mode::kListed:
      return std::find(origins_.begin(), origins_.end(), lowercase(origin)) != origins_.end();
  }
  return false;
}

void CorsPolicy::add_headers(std::string_view origin, Headers& headers) const {
  if (mode_ == Mode::kListed) headers.emplace_back("Vary", "Origin");
  if (!allows(origin)) return;
  headers.emplace_back("Access-Control-Allow-Origin",
                       mode_ == Mode::kAnyOrigin ? std::string("*") : std::string(origin));
  headers.emplace_back("Access-Control-Expose-Headers", kExposedHeaders);
}

void CorsPolicy::add_headers_without_request(Headers& headers) const {
  if (mode_ != Mode::kAnyOrigin) return;
  headers.emplace_back("Access-Control-Allow-Origin", "*");
  headers.emplace_back("Access-Control-Expose-Headers", kExposedHeaders);
}

CorsPolicy::Headers CorsPolicy::preflight_headers(std::string_view origin,
                                                  std::string_view allowed_methods) const {
  Headers headers;
  if (!allows(origin)) return headers;
  add_headers(origin, headers);
  headers.emplace_back("Access-Control-Allow-Methods", std::string(allowed_methods));
  headers.emplace_back("Access-Control-Allow-Headers", kAllowedRequestHeaders);
  headers.emplace_back("Access-Control-Max-Age", kPreflightMaxAgeSeconds);
  return headers;
}

}  // namespace opbase::host
