#include "config/config.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>

#include "config/properties_file.hpp"

namespace opbase::host {

std::string env_name_of(std::string_view key) {
  std::string name = "OPBASE_";
  for (char c : key) {
    name += (c == '.' || c == '-') ? '_'
                                   : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return name;
}

Config Config::defaults_with(const std::map<std::string, std::string>& overrides) {
  Config config;
  for (const ConfigDefault& row : config_defaults()) config.set(row.key, row.value, "default");
  for (const auto& [key, value] : overrides) config.set(key, value, "command line");
  return config;
}

Result<Config> Config::load(const ConfigSources& sources) {
  Config config = defaults_with();
  if (sources.file) {
    auto properties = read_properties_file(*sources.file);
    if (!properties) return properties.status();
    for (auto& [key, value] : *properties) config.set(key, value, *sources.file);
  }
  // The environment can set any key the defaults or the file know; unknown OPBASE_* variables
  // are ignored, because the mapping back from a variable name to a dotted key is ambiguous.
  std::vector<std::string> known;
  for (const auto& [key, value] : config.values_) known.push_back(key);
  for (const std::string& key : known) {
    auto it = sources.env.find(env_name_of(key));
    if (it != sources.env.end()) config.set(key, it->second, "environment");
  }
  for (const std::string& assignment : sources.sets) {
    const auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0) {
      return Status::validation("--set takes key=value, got '" + assignment + "'");
    }
    config.set(assignment.substr(0, eq), assignment.substr(eq + 1), "command line");
  }
  return config;
}

void Config::set(std::string key, std::string value, std::string source) {
  sources_[key] = std::move(source);
  values_[std::move(key)] = std::move(value);
}

std::optional<std::string> Config::get(std::string_view key) const {
  auto it = values_.find(key);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::string Config::get_or(std::string_view key, std::string_view fallback) const {
  auto it = values_.find(key);
  return it == values_.end() ? std::string(fallback) : it->second;
}

Result<int64_t> Config::get_int(std::string_view key, int64_t min, int64_t max) const {
  const std::string text = get_or(key);
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || value < min ||
      value > max) {
    return Status::validation("configuration key " + std::string(key) + " (from " + source_of(key) +
                              ") must be an integer from " + std::to_string(min) + " to " +
                              std::to_string(max) + ", not '" + text + "'");
  }
  return value;
}

Result<bool> Config::get_bool(std::string_view key) const {
  const std::string text = get_or(key);
  if (text == "true" || text == "yes" || text == "on" || text == "1") return true;
  if (text == "false" || text == "no" || text == "off" || text == "0") return false;
  return Status::validation("configuration key " + std::string(key) + " (from " + source_of(key) +
                            ") must be true or false, not '" + text + "'");
}

std::vector<std::string> Config::get_list(std::string_view key) const {
  std::vector<std::string> items;
  const std::string text = get_or(key);
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    std::string item = text.substr(start, end - start);
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (!item.empty()) items.push_back(std::move(item));
    start = end + 1;
  }
  return items;
}

std::vector<std::string> Config::children(std::string_view prefix) const {
  std::set<std::string> names;
  for (auto it = values_.lower_bound(prefix); it != values_.end(); ++it) {
    const std::string& key = it->first;
    if (key.compare(0, prefix.size(), prefix) != 0) break;
    const auto rest = key.substr(prefix.size());
    const auto dot = rest.find('.');
    if (dot != std::string::npos && dot > 0) names.insert(rest.substr(0, dot));
  }
  return {names.begin(), names.end()};
}

std::string Config::source_of(std::string_view key) const {
  auto it = sources_.find(key);
  return it == sources_.end() ? "unset" : it->second;
}

}  // namespace opbase::host
