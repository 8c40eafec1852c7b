// Subscription patterns of the event bus, shared by the daemon and the SDK's fake host:
// an exact event type ("user.signedup"), "area.*" for every type under "area.", or "*" for all.
// Pure constexpr functions; thread-safe.
#pragma once

#include <string_view>

namespace opbase::events {

constexpr bool valid_pattern(std::string_view pattern) {
  if (pattern == "*") return true;
  if (pattern.empty() || pattern.size() > 128) return false;
  const auto star = pattern.find('*');
  if (star == std::string_view::npos) return true;
  return pattern.size() > 2 && star == pattern.size() - 1 && pattern[star - 1] == '.';
}

constexpr bool matches(std::string_view pattern, std::string_view type) {
  if (pattern == "*") return true;
  if (pattern.size() >= 2 && pattern.substr(pattern.size() - 2) == ".*") {
    return type.substr(0, pattern.size() - 1) ==
           pattern.substr(0, pattern.size() - 1);  // keeps '.'
  }
  return pattern == type;
}

}  // namespace opbase::events
