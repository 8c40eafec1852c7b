// A plugin's settings changed by administrators (see stored_settings.hpp).
#include "opbase/stored_settings.hpp"

#include <algorithm>

#include "opbase/field_error.hpp"
#include "opbase/iso_time.hpp"
#include "opbase/store.hpp"
#include "opbase/store_access.hpp"

namespace opbase {
namespace {

using nlohmann::json;

bool is_record_field(const std::string& name) { return !name.empty() && name.front() == '_'; }

// The host refuses to start with a bad value, so the fallback serves only hosts that do not
// check it (the tests' own).
int64_t configured_reload_ms(const Host& host) {
  auto seconds = host.config_int_in(StoredSettings::kReloadKey, 60, 1, 3600);
  return (seconds ? *seconds : 60) * 1000;
}

}  // namespace

StoredSettings::StoredSettings(const DocumentStore& store, std::string key, json configured,
                               std::optional<int64_t> reload_ms, std::string collection)
    : store_(store),
      collection_(std::move(collection)),
      key_(std::move(key)),
      configured_(std::move(configured)),
      reload_ms_(reload_ms ? *reload_ms : configured_reload_ms(store.host())) {}

Result<json> StoredSettings::stored(std::string_view project) const {
  auto found = find_by_key(store_, project, collection_, key_);
  if (!found) return found.status();
  json values = json::object();
  if (!*found) return values;
  for (const auto& [name, value] : (*found)->items()) {
    // A setting a later version dropped is ignored, not an error: the daemon keeps serving.
    if (!is_record_field(name) && configured_.contains(name)) values[name] = value;
  }
  return values;
}

std::shared_ptr<const StoredSettings::Snapshot> StoredSettings::snapshot_of(
    const json& stored) const {
  auto snapshot = std::make_shared<Snapshot>();
  snapshot->values = configured_;
  for (const auto& [name, value] : stored.items()) {
    snapshot->values[name] = value;
    snapshot->changed.push_back(name);
  }
  std::sort(snapshot->changed.begin(), snapshot->changed.end());
  return snapshot;
}

void StoredSettings::remember(std::string_view project, std::shared_ptr<const Snapshot> snapshot,
                              int64_t now_ms) const {
  const std::lock_guard lock(mutex_);
  cache_[std::string(project)] = {std::move(snapshot), now_ms};
}

Result<std::shared_ptr<const StoredSettings::Snapshot>> StoredSettings::of(std::string_view project,
                                                                           int64_t now_ms) const {
  {
    const std::lock_guard lock(mutex_);
    const auto it = cache_.find(project);
    if (it != cache_.end() && now_ms - it->second.loaded_ms < reload_ms_) {
      return it->second.snapshot;
    }
  }
  auto values = stored(project);
  if (!values) return values.status();
  auto snapshot = snapshot_of(*values);
  remember(project, snapshot, now_ms);
  return snapshot;
}

Result<std::shared_ptr<const StoredSettings::Snapshot>> StoredSettings::change(
    std::string_view project, const json& changes, int64_t now_ms, const Check& check) const {
  if (!changes.is_object()) return Status::validation("data must be an object");
  // Checked against the store as it is now, not a cached copy another daemon may have outdated.
  auto values = stored(project);
  if (!values) return values.status();
  store::Change change;
  for (const auto& [name, value] : changes.items()) {
    if (is_record_field(name) || !configured_.contains(name)) {
      return field_error(name, "data." + name + " is not a setting");
    }
    if (value.is_null()) {
      values->erase(name);
      change.unset.push_back(name);
    } else {
      (*values)[name] = value;
      change.set[name] = value;
    }
  }
  auto snapshot = snapshot_of(*values);
  if (Status checked = check(snapshot->values); !checked) return checked;
  change.set["_modified_at"] = iso_time(now_ms);
  json insert = change.set;
  insert.update({{"_key", key_}, {"_userkey", nullptr}, {"_created_at", iso_time(now_ms)}});
  store::UpsertRequest upsert{collection_, store::Scope::everyone(), match_of({{"_key", key_}}),
                              std::move(change), std::move(insert)};
  if (auto done = store_.upsert(project, upsert); !done) return done.status();
  remember(project, snapshot, now_ms);
  return snapshot;
}

Result<json> StoredSettings::changes_in(const json& body) {
  const auto data = body.find("data");
  if (data == body.end()) {
    return field_error("data", "data is required: the settings to change");
  }
  return *data;
}

}  // namespace opbase
