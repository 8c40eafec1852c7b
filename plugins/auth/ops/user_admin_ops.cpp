// The administrators' ops on a project's users (docs/api.md#user-administration): list and
// search, one user, roles and disabling, and signing a user out everywhere. A disabled user
// cannot sign in (ops/signin_ops.cpp signed_in) and loses every session at once; so does a user who
// loses a role, whose id tokens would otherwise claim it until they expire.
#include <algorithm>
#include <string>

#include "opbase/admin_paging.hpp"
#include "opbase/field_error.hpp"
#include "opbase/iso_time.hpp"
#include "opbase/store_access.hpp"
#include "ops/auth_service.hpp"
#include "ops/request_fields.hpp"

namespace opbase::auth {
namespace {

using nlohmann::json;

constexpr size_t kMaxRoles = 16;
constexpr size_t kMaxRoleBytes = 32;
// The highest code point: a prefix search matches every text from `prefix` up to this one.
constexpr std::string_view kAfterEverything = "\xf4\x8f\xbf\xbf";

Status refused(std::string_view field, std::string message, std::string_view reason) {
  return field_error(field, std::string(field) + " " + std::move(message), {{"reason", reason}});
}

Status no_such_user() { return refused("_userkey", "names no user of this project", "not_found"); }

bool is_role(const json& role) {
  if (!role.is_string()) return false;
  const std::string& text = role.get_ref<const std::string&>();
  return !text.empty() && text.size() <= kMaxRoleBytes &&
         std::all_of(text.begin(), text.end(), [](char c) {
           return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
         });
}

// The roles of an update: 1-16 distinct roles of a-z 0-9 _ -, always with "user".
Result<json> read_roles(const json& value) {
  if (!value.is_array() || value.empty() || value.size() > kMaxRoles ||
      !std::all_of(value.begin(), value.end(), is_role)) {
    return refused("roles", "must be 1 to 16 roles of a-z, 0-9, '_' and '-'", "type");
  }
  json roles = json::array();
  for (const json& role : value) {
    if (std::find(roles.begin(), roles.end(), role) == roles.end()) roles.push_back(role);
  }
  if (std::find(roles.begin(), roles.end(), "user") == roles.end()) {
    return refused("roles", "must keep the role user", "user_role");
  }
  return roles;
}

// The match of auth.user.list's filters.
Result<json> list_match(const json& body) {
  json match = json::object();
  auto search = optional_string(body, "search", 254);
  if (!search) return search.status();
  if (*search) {
    std::string prefix = **search;
    std::transform(prefix.begin(), prefix.end(), prefix.begin(), [](unsigned char c) {
      return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    });
    match["email_lower:$gte"] = prefix;
    match["email_lower:$lt"] = prefix + std::string(kAfterEverything);
  }
  if (const auto role = body.find("role"); role != body.end() && !role->is_null()) {
    if (!is_role(*role)) return refused("role", "must be a role", "type");
    match["roles"] = *role;
  }
  if (const auto disabled = body.find("disabled"); disabled != body.end() && !disabled->is_null()) {
    if (!disabled->is_boolean()) return refused("disabled", "must be true or false", "type");
    if (disabled->get<bool>()) {
      match["disabled"] = true;
    } else {
      match["disabled:$ne"] = true;
    }
  }
  return match;
}

// A user as administrators see it: the profile, and what only they see.
json admin_view(const json& user, std::string_view project) {
  json view = profile_of(user, project);
  view["_created_at"] = user.value("_created_at", json());
  view["disabled"] = user.value("disabled", false);
  return view;
}

bool lost_a_role(const json& before, const json& after) {
  const json old_roles = before.value("roles", json::array());
  return std::any_of(old_roles.begin(), old_roles.end(), [&](const json& role) {
    return std::find(after.begin(), after.end(), role) == after.end();
  });
}

}  // namespace

Result<Reply> AuthService::list_users(const Request& request) const {
  auto match = list_match(request.body);
  if (!match) return match.status();
  auto paging = AdminPaging::from(request.body);
  if (!paging) return paging.status();
  store::FindRequest find;
  find.collection = "users";
  find.scope = store::Scope::everyone();
  find.match = match_of(*match);
  find.limit = paging->limit;
  find.offset = paging->offset;
  find.with_total = true;
  auto page = store_.find(request.project_id, find);
  if (!page) return page.status();
  json users = json::array();
  for (const json& user : page->documents) users.push_back(admin_view(user, request.project_id));
  return Reply(std::move(users)).with_meta({{"total", page->total}});
}

Result<Reply> AuthService::get_user(const Request& request) const {
  auto key = required_string(request.body, "_userkey", 64);
  if (!key) return key.status();
  auto user = users_.by_key(request.project_id, *key);
  if (!user) return user.status();
  if (!*user) return no_such_user();
  return Reply(admin_view(**user, request.project_id));
}

Result<Reply> AuthService::update_user(const Request& request) const {
  auto key = required_string(request.body, "_userkey", 64);
  if (!key) return key.status();
  const auto data = request.body.find("data");
  if (data == request.body.end() || !data->is_object() || data->empty()) {
    return refused("data", "must be an object with roles or disabled", "type");
  }
  json fields = json::object();
  for (const auto& [field, value] : data->items()) {
    if (field == "roles") {
      auto roles = read_roles(value);
      if (!roles) return roles.status();
      fields["roles"] = std::move(*roles);
    } else if (field == "disabled") {
      if (!value.is_boolean()) return refused("disabled", "must be true or false", "type");
      fields["disabled"] = value;
    } else {
      return refused("data", "may change roles and disabled only", "unknown");
    }
  }
  auto user = users_.by_key(request.project_id, *key);
  if (!user) return user.status();
  if (!*user) return no_such_user();
  // An administrator cannot lock themselves out: another one must do it.
  const bool self = *key == request.user_id;
  const bool drops_admin =
      fields.contains("roles") &&
      std::find(fields["roles"].begin(), fields["roles"].end(), "admin") == fields["roles"].end();
  if (self && (fields.value("disabled", false) || drops_admin)) {
    return refused("_userkey", "cannot disable you or take your admin role", "self");
  }
  const bool ends_sessions = fields.value("disabled", false) ||
                             (fields.contains("roles") && lost_a_role(**user, fields["roles"]));
  auto changed = users_.set(request.project_id, *key, std::move(fields), now_ms());
  if (!changed) return changed.status();
  if (ends_sessions) {
    if (Status ended =
            sessions_.end_all(request.project_id, *key, "changed by an administrator", now_ms());
        !ended) {
      return ended;
    }
  }
  return Reply(admin_view(*changed, request.project_id));
}

Result<Reply> AuthService::sign_out_user(const Request& request) const {
  auto key = required_string(request.body, "_userkey", 64);
  if (!key) return key.status();
  auto user = users_.by_key(request.project_id, *key);
  if (!user) return user.status();
  if (!*user) return no_such_user();
  if (Status ended =
          sessions_.end_all(request.project_id, *key, "signed out by an administrator", now_ms());
      !ended) {
    return ended;
  }
  return Reply(json{{"signed_out", true}});
}

}  // namespace opbase::auth
