// StoredSettings: settings of a plugin that a project's administrators change while the daemon
// runs (docs/plugin-guide.md#settings-administrators-change). The configuration gives every
// setting its value; the project's store keeps only the settings an administrator changed, in
// one document of the plugin's collection `settings`, and those win over the configuration until
// they are set back to null. Every daemon of a shared store sees a change within its reload
// interval (the host's `storage.settings_reload_s`, 60 s unless set); the daemon that made it
// sees it at once.
// Thread-safety: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/document_store.hpp"
#include "opbase/status.hpp"

namespace opbase {

class StoredSettings {
 public:
  struct Snapshot {
    nlohmann::json values;             // every setting: the stored value, else the configuration's
    std::vector<std::string> changed;  // the names whose value is stored, sorted
    // What administrators see: {"settings": values, "changed": [names]}.
    nlohmann::json view() const { return {{"settings", values}, {"changed", changed}}; }
  };
  // Checks a whole set of values before a change is stored (VALIDATION_ERROR naming the field).
  using Check = std::function<Status(const nlohmann::json& values)>;

  // The configuration key of the reload interval, in seconds; the host checks it at start.
  static constexpr std::string_view kReloadKey = "storage.settings_reload_s";

  // The plugin's collection that holds the settings documents unless told otherwise.
  static constexpr std::string_view kCollection = "settings";

  // `key`: the document's `_key`, unique in the whole store (e.g. "settings_file");
  // `configured`: every setting's name and its value from the configuration (an object).
  // `reload_ms`: how often the store is read again; unset, kReloadKey's value. `collection`:
  // where the document is kept (a plugin whose users name its collections picks one they
  // cannot name).
  StoredSettings(const DocumentStore& store, std::string key, nlohmann::json configured,
                 std::optional<int64_t> reload_ms = std::nullopt,
                 std::string collection = std::string(kCollection));

  // The project's settings, read from the store at most once per reload interval.
  Result<std::shared_ptr<const Snapshot>> of(std::string_view project, int64_t now_ms) const;

  // Applies `changes` (an object: a setting's name and its new value, or null to follow the
  // configuration again), after `check` accepted the values they make. A name that is not a
  // setting, or a non-object, is VALIDATION_ERROR. Answers the settings after the change.
  Result<std::shared_ptr<const Snapshot>> change(std::string_view project,
                                                 const nlohmann::json& changes, int64_t now_ms,
                                                 const Check& check) const;

  const nlohmann::json& configured() const { return configured_; }

  // The changes a *.settings.update request carries: its `data`, or VALIDATION_ERROR without one.
  static Result<nlohmann::json> changes_in(const nlohmann::json& body);

 private:
  struct Cached {
    std::shared_ptr<const Snapshot> snapshot;
    int64_t loaded_ms = 0;
  };
  Result<nlohmann::json> stored(std::string_view project) const;  // the changed values alone
  std::shared_ptr<const Snapshot> snapshot_of(const nlohmann::json& stored) const;
  void remember(std::string_view project, std::shared_ptr<const Snapshot> snapshot,
                int64_t now_ms) const;

  const DocumentStore& store_;
  std::string collection_;
  std::string key_;
  nlohmann::json configured_;
  int64_t reload_ms_;
  mutable std::mutex mutex_;  // guards cache_
  mutable std::map<std::string, Cached, std::less<>> cache_;
};

}  // namespace opbase
