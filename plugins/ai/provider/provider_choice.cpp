// The project's choice of AI provider (see provider_choice.hpp).
#include "provider/provider_choice.hpp"

#include <string>

#include "opbase/field_error.hpp"

namespace opbase::ai {
namespace {

using nlohmann::json;

}  // namespace

ProviderChoice::ProviderChoice(const DocumentStore& store, const ProviderRouter& router)
    : router_(router), stored_(store, "settings_ai", {{"provider", nullptr}}) {}

Result<const Provider*> ProviderChoice::choose(std::string_view project, TaskKind kind,
                                               int64_t now_ms) const {
  auto snapshot = stored_.of(project, now_ms);
  if (!snapshot) return snapshot.status();
  const json& name = (*snapshot)->values["provider"];
  if (name.is_string()) {
    // A name this daemon lacks (another daemon of the store has other providers) falls back to
    // the configuration's routes rather than failing every call.
    if (auto chosen = router_.by_name(project, name.get_ref<const std::string&>())) {
      return chosen.get();
    }
  }
  return &router_.choose(project, kind);
}

json ProviderChoice::view_of(const StoredSettings::Snapshot& snapshot) const {
  json view = snapshot.view();
  view["providers"] = router_.names();
  return view;
}

Result<json> ProviderChoice::admin_view(std::string_view project, int64_t now_ms) const {
  auto snapshot = stored_.of(project, now_ms);
  if (!snapshot) return snapshot.status();
  return view_of(**snapshot);
}

Result<json> ProviderChoice::change(std::string_view project, const json& data,
                                    int64_t now_ms) const {
  auto snapshot = stored_.change(project, data, now_ms, [&](const json& values) {
    const json& name = values["provider"];
    if (name.is_null()) return Status::ok();
    if (name.is_string() && router_.by_name(project, name.get_ref<const std::string&>())) {
      return Status::ok();
    }
    std::string known;
    for (const std::string& n : router_.names()) known += (known.empty() ? "" : ", ") + n;
    return field_error("provider", "data.provider must be null or one of: " + known);
  });
  if (!snapshot) return snapshot.status();
  return view_of(**snapshot);
}

}  // namespace opbase::ai
