// CorsPolicy: which web origins may call the API from a browser (server.cors_origins), and the
// CORS headers of the API routes (docs/api.md#browsers-cors).
//
// The API authenticates with keys and tokens in headers, never cookies, so a page from another
// origin gains nothing a script outside a browser does not already have: the default is "*".
// A list of origins ("https://app.example.com, https://admin.example.com") answers only those,
// echoing the request's Origin, with Vary: Origin so caches keep one answer per origin; "off"
// sends no CORS headers at all.
//
//   CorsPolicy cors = *CorsPolicy::from(config);
//   if (cors.is_preflight(head)) return cors.preflight(head, request_id);
//   cors.add_headers(head.field("Origin"), response.headers);
//
// Thread-safety: immutable after from(); any thread.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/config.hpp"
#include "http/request_head.hpp"
#include "opbase/status.hpp"

namespace opbase::host {

class CorsPolicy {
 public:
  using Headers = std::vector<std::pair<std::string, std::string>>;

  // Reads server.cors_origins: "*", "off", or a comma-separated list of origins, each
  // scheme://host[:port] without a path.
  static Result<CorsPolicy> from(const Config& config);
  static CorsPolicy any_origin() { return CorsPolicy(Mode::kAnyOrigin, {}); }

  // An OPTIONS request that asks, with Access-Control-Request-Method, whether it may send one.
  static bool is_preflight(const http::RequestHead& head);

  // The headers that let a page from `origin` read the response (nothing when the request has no
  // Origin or the origin is not allowed), appended to `headers`.
  void add_headers(std::string_view origin, Headers& headers) const;
  // add_headers for a response whose request head is unknown (a refusal before it was parsed):
  // only the "*" policy can answer it.
  void add_headers_without_request(Headers& headers) const;

  // The preflight headers for an allowed origin: allowed methods, request headers, and how long
  // the browser may remember them. Empty when the origin is not allowed.
  Headers preflight_headers(std::string_view origin, std::string_view allowed_methods) const;

  bool allows(std::string_view origin) const;

 private:
  enum class Mode { kOff, kAnyOrigin, kListed };
  CorsPolicy(Mode mode, std::vector<std::string> origins)
      : mode_(mode), origins_(std::move(origins)) {}

  Mode mode_;
  std::vector<std::string> origins_;
};

}  // namespace opbase::host
