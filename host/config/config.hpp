// Config: the daemon's configuration, one flat map of "dotted.key" → text value, built from
// layers where a later layer wins: built-in defaults → properties file → environment
// (OPBASE_<KEY>, key upper-cased with '.' as '_') → command line (--set key=value).
// Built once at start-up, read-only afterwards: safe to read from any thread.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/status.hpp"

namespace opbase::host {

struct ConfigSources {
  std::optional<std::string> file;         // properties file; nullopt: defaults only
  std::map<std::string, std::string> env;  // the process environment (only OPBASE_* is read)
  std::vector<std::string> sets;           // "key=value" from --set, in order
};

class Config {
 public:
  // Applies every layer. Fails with a message naming the file and line, or the bad --set.
  static Result<Config> load(const ConfigSources& sources);
  // Built-in defaults only, plus `overrides` (tests).
  static Config defaults_with(const std::map<std::string, std::string>& overrides = {});

  std::optional<std::string> get(std::string_view key) const;
  std::string get_or(std::string_view key, std::string_view fallback = "") const;
  // Typed reads fail with VALIDATION_ERROR naming the key and the bad value.
  Result<int64_t> get_int(std::string_view key, int64_t min, int64_t max) const;
  Result<bool> get_bool(std::string_view key) const;
  // Comma-separated list, items trimmed, empty items dropped.
  std::vector<std::string> get_list(std::string_view key) const;

  // The distinct next segments below `prefix`: for "projects." → {"default", "shop"}.
  std::vector<std::string> children(std::string_view prefix) const;
  // Where the value of `key` came from: "default", the file name, "environment", "command line".
  std::string source_of(std::string_view key) const;

  // Adds a layer on top (used for generated project keys, and by tests).
  void set(std::string key, std::string value, std::string source);

  const std::map<std::string, std::string, std::less<>>& values() const { return values_; }

 private:
  std::map<std::string, std::string, std::less<>> values_;
  std::map<std::string, std::string, std::less<>> sources_;
};

// The built-in defaults, one row per key with its meaning; docs/configuration.md mirrors it.
struct ConfigDefault {
  const char* key;
  const char* value;
  const char* meaning;
};
const std::vector<ConfigDefault>& config_defaults();

// The environment variable that sets `key`: "server.max_body_bytes" →
// "OPBASE_SERVER_MAX_BODY_BYTES".
std::string env_name_of(std::string_view key);

}  // namespace opbase::host
