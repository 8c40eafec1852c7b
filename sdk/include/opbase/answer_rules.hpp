// The rules an op's answer must meet, shared by the daemon (host/plugins/response.cpp) and the
// SDK's fake host, so a plugin that breaks them fails its unit tests as it would fail in the
// daemon: an error code is 1-64 of A-Z, 0-9 and '_'; details, meta and top-level parts are JSON
// objects; an explicit HTTP status is 400-599. Pure functions; thread-safe.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

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

// One pass of the SAX parser: validates without building a tree.
inline bool is_json_object(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text[first] == '{' && nlohmann::json::accept(text);
}

}  // namespace opbase::answers
