// UsageRules: how much one signed-in user may ask of the AI ops (docs/configuration.md#ai), per
// project. Read once at start, most specific key first (projects.<id>.ai.<name>, then
// ai.<name>, then the default):
//   rate_limit                 calls per window for each user: "<limit>/<window seconds>" or off;
//                              default 60/60
//   quota.calls_per_day        calls per user per UTC day; default 1000, 0 for none
//   quota.code_points_per_day  content code points per user per UTC day; default 5000000, 0
//                              for none
// A bad value stops the plugin's start with a message naming the key.
//
// Thread-safety: immutable after build(); of() from any thread.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/rate_limiter.hpp"
#include "opbase/status.hpp"

namespace opbase::ai {

// A day's allowance; 0 switches that count off.
struct DailyLimits {
  int64_t calls = 1000;
  int64_t code_points = 5'000'000;
};

struct UsageRules {
  RateRule rate{60, 60};
  DailyLimits daily;
};

class UsageRulesByProject {
 public:
  using ConfigGet = std::function<std::optional<std::string>(std::string_view key)>;

  // `projects`: every project id of the daemon.
  static Result<UsageRulesByProject> build(const std::vector<std::string>& projects,
                                           const ConfigGet& get);

  // The rules of `project` (a project unknown at start gets the daemon-wide ones).
  const UsageRules& of(std::string_view project) const;

 private:
  UsageRules defaults_;
  std::map<std::string, UsageRules, std::less<>> by_project_;
};

}  // namespace opbase::ai
