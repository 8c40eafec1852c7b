#include "limits/usage_rules.hpp"

#include <charconv>

namespace opbase::ai {
namespace {

constexpr int64_t kMaxDaily = 1'000'000'000'000;

Status bad_value(const std::string& key, const std::string& what) {
  return Status::validation(key + " must be " + what, {{"key", key}});
}

Status read_count(const UsageRulesByProject::ConfigGet& get, const std::string& key, int64_t* out) {
  const std::optional<std::string> value = get(key);
  if (!value) return Status::ok();
  int64_t parsed = 0;
  const char* end = value->data() + value->size();
  auto [stop, error] = std::from_chars(value->data(), end, parsed);
  if (error != std::errc() || stop != end || parsed < 0 || parsed > kMaxDaily) {
    return bad_value(key, "an integer from 0 (no quota) to " + std::to_string(kMaxDaily));
  }
  *out = parsed;
  return Status::ok();
}

// The rules under `prefix` ("ai." or "projects.<id>.ai."), starting from `base`.
Result<UsageRules> read_rules(const UsageRulesByProject::ConfigGet& get, const std::string& prefix,
                              UsageRules base) {
  const std::string rate_key = prefix + "rate_limit";
  if (const std::optional<std::string> rate = get(rate_key)) {
    auto rule = RateRule::parse(*rate);
    if (!rule) return bad_value(rate_key, "<limit>/<window seconds> (e.g. 60/60), or off");
    base.rate = *rule;
  }
  if (Status s = read_count(get, prefix + "quota.calls_per_day", &base.daily.calls); !s) return s;
  if (Status s = read_count(get, prefix + "quota.code_points_per_day", &base.daily.code_points);
      !s) {
    return s;
  }
  return base;
}

}  // namespace

Result<UsageRulesByProject> UsageRulesByProject::build(const std::vector<std::string>& projects,
                                                       const ConfigGet& get) {
  UsageRulesByProject rules;
  auto defaults = read_rules(get, "ai.", UsageRules{});
  if (!defaults) return defaults.status();
  rules.defaults_ = *defaults;
  for (const std::string& project : projects) {
    auto own = read_rules(get, "projects." + project + ".ai.", rules.defaults_);
    if (!own) return own.status();
    rules.by_project_.emplace(project, *own);
  }
  return rules;
}

const UsageRules& UsageRulesByProject::of(std::string_view project) const {
  const auto found = by_project_.find(project);
  return found == by_project_.end() ? defaults_ : found->second;
}

}  // namespace opbase::ai
