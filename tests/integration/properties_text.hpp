// Reading a shipped properties file the way a test needs it: the names of its plugins.enabled.
// Thread-safety: pure functions.
#pragma once

#include <sstream>
#include <string>
#include <vector>

namespace opbase::test {

// The comma-separated plugins.enabled of a properties text, in order; empty when absent.
inline std::vector<std::string> enabled_plugins(const std::string& properties) {
  std::istringstream lines(properties);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("plugins.enabled")) continue;
    std::vector<std::string> names;
    std::stringstream list(line.substr(line.find('=') + 1));
    for (std::string name; std::getline(list, name, ',');) {
      name.erase(0, name.find_first_not_of(' '));
      name.erase(name.find_last_not_of(' ') + 1);
      if (!name.empty()) names.push_back(name);
    }
    return names;
  }
  return {};
}

}  // namespace opbase::test
