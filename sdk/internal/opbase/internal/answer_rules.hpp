// The rules an op's answer must meet, shared by the daemon (host/plugin_host/response.cpp) and the
// SDK's fake host, so a plugin that breaks them fails its unit tests as it would fail in the
// daemon: an error code is 1-64 of A-Z, 0-9 and '_'; details, meta and top-level parts are JSON
// objects; an explicit HTTP status is 400-599. Pure functions; thread-safe.
#pragma once

#include <string_view>

#include "opbase/json_text.hpp"

namespace opbase::answers {

constexpr bool valid_error_code(std::string_view code) {
  if (code.empty() || code.size() > 64) return false;
  for (char c : code) {
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

constexpr bool valid_http_status(int status) {
  return status == 0 || (status >= 400 && status <= 599);
}

// Every answer part goes through here, so it uses json_text's validator: it accepts exactly what
// nlohmann::json::accept accepts, at a few instructions a byte instead of ~100, allocation-free.
inline bool is_json_object(std::string_view text) { return json_text::is_object(text); }

}  // namespace opbase::answers
