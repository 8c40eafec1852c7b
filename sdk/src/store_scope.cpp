// Which documents a store::Scope holds (see store.hpp): the rule each driver's query states in
// its own language, here on one document.
#include <algorithm>

#include "opbase/store.hpp"

namespace opbase::store {
namespace {

using nlohmann::json;

bool names_one_of(const json& value, const std::vector<std::string>& principals) {
  const auto named = [&](const json& v) {
    return v.is_string() && std::find(principals.begin(), principals.end(),
                                      v.get_ref<const std::string&>()) != principals.end();
  };
  if (value.is_array()) return std::any_of(value.begin(), value.end(), named);
  return named(value);
}

}  // namespace

bool in_scope(const Scope& scope, const json& doc) {
  if (scope.every_document()) return true;
  if (scope.owner) {
    const auto owner = doc.find("_userkey");
    if (owner != doc.end() && owner->is_string() &&
        owner->get_ref<const std::string&>() == *scope.owner) {
      return true;
    }
  }
  if (!scope.shares() || !doc.is_object()) return false;
  return std::any_of(scope.lists.begin(), scope.lists.end(), [&](const std::string& list) {
    const auto it = doc.find(list);
    return it != doc.end() && names_one_of(*it, scope.principals);
  });
}

}  // namespace opbase::store
