// Update fields to a store change (see ops/update_fields.hpp).
#include "ops/update_fields.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "opbase/field_error.hpp"
#include "opbase/query.hpp"
#include "ops/document_rules.hpp"
#include "ops/sharing_fields.hpp"

namespace opbase::collection {
namespace {

using nlohmann::json;

Status bad(std::string message, std::string_view field) {
  return field_error(field, std::move(message));
}

// "@inc(2.5)" → 2.5; nullopt when the text between the parentheses is not one JSON number.
std::optional<json> inc_amount(std::string_view call) {
  const std::string_view inner = call.substr(5, call.size() - 6);
  json amount = json::parse(inner, nullptr, /*allow_exceptions=*/false);
  if (amount.is_discarded() || !amount.is_number()) return std::nullopt;
  return amount;
}

bool overlaps(const std::string& a, const std::string& b) {
  const auto& shorter = a.size() < b.size() ? a : b;
  const auto& longer = a.size() < b.size() ? b : a;
  return longer == shorter || (longer.starts_with(shorter) && longer[shorter.size()] == '.');
}

// Adds one '@' field to the change.
Status add_function(const std::string& key, const json& value, int64_t now_ms,
                    const std::string& path, store::Change* change) {
  if (!value.is_string()) {
    return bad("'" + key + "' must be \"@now()\", \"@inc(n)\" or \"@unset()\"", key);
  }
  const std::string& call = value.get_ref<const std::string&>();
  if (call == "@now()") {
    change->set[path] = iso_time(now_ms);
  } else if (call == "@unset()") {
    change->unset.push_back(path);
  } else if (call.starts_with("@inc(") && call.ends_with(")") && call.size() > 6) {
    auto amount = inc_amount(call);
    if (!amount) return bad("@inc needs one number, as in \"@inc(1)\"", key);
    change->inc[path] = *amount;
  } else {
    return bad("unknown @ function '" + call + "': use @now(), @inc(n) or @unset()", key);
  }
  return Status::ok();
}

// A reserved field: a sharing list set whole or removed, or the owner set.
Status add_reserved(const std::string& key, const json& value, const std::string& name,
                    const ReservedFields& reserved, store::Change* change) {
  if (key.front() == '@') {
    if (value != "@unset()" || name == "_userkey") {
      return bad("'" + key + "' can only be set whole" +
                     std::string(name == "_userkey" ? "" : ", or removed with \"@unset()\""),
                 key);
    }
    change->unset.push_back(name);
    return Status::ok();
  }
  if (name == "_userkey") {
    if (!value.is_string() && !value.is_null())
      return bad("_userkey must be a user key or null", key);
    change->set[name] = value;
    return Status::ok();
  }
  auto list = sharing_list(value, name, reserved.max_sharing_entries);
  if (!list) return list.status();
  change->set[name] = std::move(*list);
  return Status::ok();
}

}  // namespace

Result<store::Change> change_from_fields(const json& fields, int64_t now_ms,
                                         const ReservedFields& reserved) {
  if (!fields.is_object()) return bad("the update must be an object of fields", "data");
  store::Change change;
  std::vector<std::string> paths;
  for (const auto& [key, value] : fields.items()) {
    const bool function = !key.empty() && key.front() == '@';
    const std::string name = function ? key.substr(1) : key;
    const bool sharing = reserved.max_sharing_entries > 0 && is_sharing_field(name);
    const bool owner = reserved.owner && name == "_userkey";
    if (sharing || owner) {
      if (std::find(paths.begin(), paths.end(), name) != paths.end()) {
        return bad("two updates of the same field", key);
      }
      if (Status s = add_reserved(key, value, name, reserved, &change); !s) return s;
      paths.push_back(name);
      continue;
    }
    if (!name.empty() && name.front() == '_') {
      return bad("fields starting with '_' are managed by the system and cannot be changed", key);
    }
    auto path = query::parse_path(name);
    if (!path) return bad("'" + key + "' is not a field name: " + path.status().message(), key);
    for (const std::string& other : paths) {
      if (overlaps(other, path->text)) return bad("two updates of the same field", key);
    }
    paths.push_back(path->text);
    if (function) {
      if (Status s = add_function(key, value, now_ms, path->text, &change); !s) return s;
    } else {
      if (Status s = check_nested_names(value, key); !s) return s;
      change.set[path->text] = value;
    }
  }
  if (paths.empty()) return bad("nothing to update: give at least one field", "data");
  change.set["_modified_at"] = iso_time(now_ms);
  return change;
}

}  // namespace opbase::collection
