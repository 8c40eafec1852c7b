// The console route's answers (see asset_answer.hpp).
#include "serving/asset_answer.hpp"

namespace opbase::console {
namespace {

constexpr std::string_view kPrefix = "/console/";

// Only the page's own files run, only this daemon is called, nothing frames the page.
constexpr const char* kContentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'";

std::vector<std::pair<std::string, std::string>> security_headers() {
  return {{"Content-Security-Policy", kContentSecurityPolicy},
          {"X-Content-Type-Options", "nosniff"},
          {"X-Frame-Options", "DENY"},
          {"Referrer-Policy", "no-referrer"},
          {"Cross-Origin-Opener-Policy", "same-origin"},
          {"Cross-Origin-Resource-Policy", "same-origin"},
          {"Cache-Control", "no-cache"}};
}

AssetAnswer plain(int status, std::string_view text) {
  return {status, "text/plain; charset=utf-8", text, security_headers()};
}

// Whether `if_none_match` ("\"a\", \"b\"" or "*") names `etag`.
bool names(const std::string& if_none_match, const std::string& etag) {
  if (if_none_match.find('*') != std::string::npos) return true;
  return if_none_match.find(etag) != std::string::npos;
}

}  // namespace

AssetAnswer answer_asset(const AssetFolder& assets, std::string_view method,
                         std::string_view target, const std::optional<std::string>& if_none_match) {
  if (method != "GET") {
    AssetAnswer refused = plain(405, "the console's files are read with GET\n");
    refused.headers.emplace_back("Allow", "GET");
    return refused;
  }
  std::string_view path = target.substr(0, target.find_first_of("?#"));
  if (!path.starts_with(kPrefix)) return plain(404, "no such file\n");
  path.remove_prefix(kPrefix.size());
  const Asset* asset = assets.find(path.empty() ? std::string_view("index.html") : path);
  if (asset == nullptr) return plain(404, "no such file\n");
  AssetAnswer answer{200, asset->content_type, asset->bytes, security_headers()};
  answer.headers.emplace_back("ETag", asset->etag);
  if (if_none_match && names(*if_none_match, asset->etag)) {
    answer.status = 304;
    answer.body = {};
  }
  return answer;
}

}  // namespace opbase::console
