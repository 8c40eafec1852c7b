// The rules a route's answer must meet (abi.h, routes), shared by the daemon
// (host/plugin_host/route_stream.cpp) and the SDK's fake host: a status of 100-599, and extra
// headers as "Name: value\r\n" lines, each name an RFC 9110 token the host does not write
// itself, each value free of control characters, so no header can end the head early or
// contradict the framing. Pure functions; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace opbase::answers {

constexpr bool valid_route_status(int status) { return status >= 100 && status <= 599; }

// Why `prefix` cannot be a route of `plugin`, or "" when it can: '/' first and last, 3-64 bytes
// of a-z, 0-9, '_', '-' and '/', no empty segment, its first segment the plugin's name with or
// without a final 's' (so "/files/" for "file"), which also keeps it off the host's own routes.
inline std::string route_prefix_problem(std::string_view plugin, std::string_view prefix) {
  if (prefix.size() < 3 || prefix.size() > 64 || !prefix.starts_with('/') ||
      !prefix.ends_with('/') || prefix.find("//") != std::string_view::npos ||
      prefix.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-/") !=
          std::string_view::npos) {
    return "a prefix is /<segments>/ of lowercase letters, digits, '_' and '-'";
  }
  const std::string_view first = prefix.substr(1, prefix.find('/', 1) - 1);
  if (first != plugin && first != std::string(plugin) + "s") {
    return "its first segment must be the plugin's name (or it with an 's')";
  }
  for (const std::string_view reserved : {"api", "healthz", "readyz", "metrics"}) {
    if (first == reserved) return "the host serves /" + std::string(reserved) + " itself";
  }
  return "";
}

// Why `name` cannot be an endpoint route of `plugin` (/api/{endpoint_key}/<name>), or "" when it
// can: 1-64 of a-z, 0-9 and '_', the plugin's name or it followed by '_' and more.
inline std::string endpoint_route_name_problem(std::string_view plugin, std::string_view name) {
  if (name.empty() || name.size() > 64 ||
      name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string_view::npos) {
    return "an endpoint route's name is 1-64 lowercase letters, digits and '_'";
  }
  if (name != plugin && !name.starts_with(std::string(plugin) + "_")) {
    return "an endpoint route's name is the plugin's name, or starts with it and '_'";
  }
  return "";
}

using HeaderLines = std::vector<std::pair<std::string, std::string>>;

inline std::optional<HeaderLines> route_header_lines(std::string_view text) {
  static constexpr std::string_view kHostWritten[] = {
      "content-length", "content-type",      "connection",  "date",
      "server",         "transfer-encoding", "x-request-id"};
  static constexpr std::string_view kTokenMarks = "!#$%&'*+-.^_`|~";
  HeaderLines headers;
  while (!text.empty()) {
    const size_t end = text.find("\r\n");
    if (end == std::string_view::npos) return std::nullopt;
    const std::string_view line = text.substr(0, end);
    text.remove_prefix(end + 2);
    const size_t colon = line.find(':');
    if (colon == 0 || colon == std::string_view::npos) return std::nullopt;
    std::string name(line.substr(0, colon));
    std::string lower;
    for (const char c : name) {
      const bool token = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                         (c >= '0' && c <= '9') || kTokenMarks.find(c) != std::string_view::npos;
      if (!token) return std::nullopt;
      lower += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    }
    for (const std::string_view written : kHostWritten) {
      if (lower == written) return std::nullopt;
    }
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
      value.remove_prefix(1);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
    for (const char c : value) {
      const auto byte = static_cast<unsigned char>(c);
      if ((byte < 0x20 && c != '\t') || byte == 0x7F) return std::nullopt;
    }
    headers.emplace_back(std::move(name), std::string(value));
  }
  return headers;
}

}  // namespace opbase::answers
