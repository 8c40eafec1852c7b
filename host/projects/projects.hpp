// Projects: the tenants of one daemon. A request's endpoint key (the path segment) selects a
// project; its API key must then match. Each project's data lives in its own storage namespace.
// Keys come from configuration (projects.<id>.endpoint_key / .api_key); the `default` project's
// keys may be generated on first start and kept under storage.path.
// Built at start-up, read-only afterwards: lookups are safe from any thread.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "config/config.hpp"
#include "opbase/status.hpp"

namespace opbase::host {

struct Project {
  std::string id;              // lowercase letters, digits, '_' and '-'; also its storage namespace
  std::string endpoint_key;    // public: it appears in client apps and URLs
  std::string api_key_digest;  // SHA-256 of the API key; the key itself is not kept
};

class Projects {
 public:
  // Reads every projects.<id>.* from `config`. Generates `default` when configured to (see
  // config_defaults) and adds its keys to `config`. Fails naming the project and the key.
  static Result<std::unique_ptr<Projects>> load(Config& config);

  const Project* by_endpoint_key(std::string_view endpoint_key) const;
  // For POST /api with no endpoint key: the project whose API key this is, or nullptr.
  const Project* by_api_key(std::string_view api_key) const;
  // Constant-time check of a presented API key against the project's.
  static bool api_key_matches(const Project& project, std::string_view presented);

  const std::vector<std::unique_ptr<Project>>& all() const { return projects_; }

 private:
  Status add(std::string id, std::string endpoint_key, std::string_view api_key);

  std::vector<std::unique_ptr<Project>> projects_;
  std::unordered_map<std::string, const Project*> by_endpoint_key_;
  std::unordered_map<std::string, const Project*> by_api_key_digest_;
};

// A project id: 1-64 of lowercase letters, digits, '_' and '-' (it also names the project's file).
bool is_valid_project_id(std::string_view id);

// Creates or reads <storage.path>/default-project.properties and layers its keys into config.
// Answers true when the keys were created now or read from that file (not from configuration).
Result<bool> ensure_default_project_keys(Config& config);

}  // namespace opbase::host
