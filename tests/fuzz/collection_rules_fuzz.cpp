// Fuzzes what users and administrators write about access (docs/api.md#collection-rules): any
// bytes, read as JSON, as each action's rule, as a sharing list and as an update's fields with
// the reserved fields allowed. It must never crash; a parsed rule must print back to itself and
// hold only known entries; an accepted list holds distinct strings, no more than its limit; an
// accepted update sets its sharing lists only to such lists; every refusal is a
// VALIDATION_ERROR naming a field.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "ops/sharing_fields.hpp"
#include "ops/update_fields.hpp"
#include "rules/collection_rules.hpp"

namespace {

using namespace opbase::collection;
using nlohmann::json;

constexpr int64_t kMaxEntries = 8;

void require(bool holds) {
  if (!holds) std::abort();
}

void check_refusal(const opbase::Status& status) {
  require(status.code() == "VALIDATION_ERROR");
  require(status.details().is_object() && status.details().contains("field"));
}

void check_list(const json& list) {
  require(list.is_array() && static_cast<int64_t>(list.size()) <= kMaxEntries);
  std::set<std::string> seen;
  for (const json& entry : list) {
    require(entry.is_string() && seen.insert(entry.get<std::string>()).second);
  }
}

void check_rules(const json& value) {
  for (Action action : kActions) {
    auto rule = parse_rule(value, action);
    if (!rule) {
      check_refusal(rule.status());
      continue;
    }
    auto again = parse_rule(rule->to_json(), action);
    require(again && *again == *rule);
    require(!(action == Action::kCreate && (rule->owner || rule->shared)));
    for (const std::string& role : rule->roles) require(valid_role_name(role));
  }
}

void check_update(const json& value) {
  auto change = change_from_fields(value, 1700000000000, {kMaxEntries, true});
  if (!change) {
    check_refusal(change.status());
    return;
  }
  for (std::string_view field : kSharingFields) {
    const auto it = change->set.find(std::string(field));
    if (it != change->set.end()) check_list(*it);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const json value =
      json::parse(reinterpret_cast<const char*>(data), reinterpret_cast<const char*>(data) + size,
                  nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) return 0;
  check_rules(value);
  auto list = sharing_list(value, "_readers", kMaxEntries);
  if (list) {
    check_list(*list);
  } else {
    check_refusal(list.status());
  }
  check_update(value);
  return 0;
}
