#include "openai/openai_settings.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace opbase::ai {
namespace {

Status bad(std::string_view key, std::string_view what) {
  return Status::validation(std::string(key) + " " + std::string(what),
                            nlohmann::json{{"key", std::string(key)}});
}

// The whole text as a number, or nothing ("12abc", "", "nan" and "inf" are not numbers).
std::optional<double> number_of(std::string_view text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::optional<int> integer_of(std::string_view text) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// 0.1 as "0.1", 3600 as "3600" (not "3600.0").
std::string shown(double value) {
  if (value == std::floor(value)) return std::to_string(static_cast<int64_t>(value));
  return nlohmann::json(value).dump();
}

// Reads `key` as a number in [low, high] into `out`; an unset or empty key keeps `out`.
Status read_number(const SettingLookup& get, std::string_view key, double low, double high,
                   double* out) {
  const auto text = get(key);
  if (!text || text->empty()) return Status::ok();
  const auto value = number_of(*text);
  if (!value || *value < low || *value > high) {
    return bad(key, "must be a number from " + shown(low) + " to " + shown(high));
  }
  *out = *value;
  return Status::ok();
}

Status read_integer(const SettingLookup& get, std::string_view key, int low, int high, int* out) {
  const auto text = get(key);
  if (!text || text->empty()) return Status::ok();
  const auto value = integer_of(*text);
  if (!value || *value < low || *value > high) {
    return bad(
        key, "must be a whole number from " + std::to_string(low) + " to " + std::to_string(high));
  }
  *out = *value;
  return Status::ok();
}

// The characters of an HTTP header name (RFC 9110 token).
bool is_header_name(std::string_view name) {
  static constexpr std::string_view kSymbols = "!#$%&'*+-.^_`|~";
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           kSymbols.find(c) != std::string_view::npos;
  });
}

// No control characters or spaces: the value goes into a URL or a header line as it is.
bool is_plain(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) {
    const auto b = static_cast<unsigned char>(c);
    return b > 0x20 && b != 0x7f;
  });
}

Status read_url(const SettingLookup& get, OpenAiSettings* s) {
  const auto text = get("base_url");
  if (!text) return Status::ok();
  std::string url = *text;
  while (!url.empty() && url.back() == '/') url.pop_back();
  const bool http = url.starts_with("http://") && url.size() > 7;
  const bool https = url.starts_with("https://") && url.size() > 8;
  if ((!http && !https) || !is_plain(url) || url.find_first_of("?#") != std::string::npos) {
    return bad("base_url", "must be an http:// or https:// URL without query or fragment");
  }
  s->base_url = std::move(url);
  return Status::ok();
}

Status read_texts(const SettingLookup& get, OpenAiSettings* s) {
  if (auto key = get("api_key")) {
    // A header value cannot hold line breaks: one would let the key add headers of its own.
    if (key->find_first_of("\r\n") != std::string::npos) {
      return bad("api_key", "must not hold line breaks");
    }
    s->api_key = *key;
  }
  if (auto header = get("api_key_header"); header && !header->empty()) {
    if (!is_header_name(*header)) return bad("api_key_header", "must be an HTTP header name");
    s->api_key_header = *header;
  }
  if (auto version = get("api_version")) {
    if (!is_plain(*version) || version->find_first_of("&#") != std::string::npos) {
      return bad("api_version", "must not hold spaces, '&' or '#'");
    }
    s->api_version = *version;
  }
  if (auto model = get("chat_model")) s->chat_model = *model;
  if (auto model = get("embedding_model")) s->embedding_model = *model;
  return Status::ok();
}

Status read_numbers(const SettingLookup& get, OpenAiSettings* s) {
  int dimensions = 0;
  if (Status st = read_integer(get, "dimensions", 1, 65'536, &dimensions); !st) return st;
  if (dimensions > 0) s->dimensions = dimensions;
  if (Status st = read_number(get, "timeout_s", 0.1, 3'600, &s->timeout_s); !st) return st;
  if (Status st = read_number(get, "connect_timeout_s", 0.1, 600, &s->connect_timeout_s); !st) {
    return st;
  }
  if (Status st = read_integer(get, "max_retries", 0, 10, &s->max_retries); !st) return st;
  if (Status st = read_integer(get, "max_concurrency", 1, 1'024, &s->max_concurrency); !st) {
    return st;
  }
  double temperature = -1;
  if (Status st = read_number(get, "temperature", 0, 2, &temperature); !st) return st;
  if (temperature >= 0) s->temperature = temperature;
  return read_integer(get, "retry_base_ms", 1, 60'000, &s->retry_base_ms);
}

}  // namespace

Result<OpenAiSettings> from_config(const SettingLookup& get) {
  OpenAiSettings s;
  if (!get) return s;
  if (Status st = read_url(get, &s); !st) return st;
  if (Status st = read_texts(get, &s); !st) return st;
  if (Status st = read_numbers(get, &s); !st) return st;
  return s;
}

}  // namespace opbase::ai
