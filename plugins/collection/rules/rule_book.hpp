// The rules of every collection of every project (docs/api.md#collection-rules): the defaults
// unless an administrator set some, kept by the SDK's StoredSettings, one document per collection
// in a collection users cannot name, so every daemon of a shared store sees a change within
// `storage.settings_reload_s` and the one that made it at once.
// Thread-safety: every method may be called from any thread.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>

#include "opbase/document_store.hpp"
#include "opbase/stored_settings.hpp"
#include "rules/collection_rules.hpp"

namespace opbase::collection {

class RuleBook {
 public:
  // The plugin's collection of rules documents: not a collection name users may give
  // (opbase/collection_name.hpp), so no user op reaches it.
  static constexpr std::string_view kRulesCollection = "$rules";
  // Collections whose rules are kept in memory at most (any valid name may be asked about, by
  // callers without a token too); past it the cache starts again, read back from the store.
  static constexpr std::size_t kCachedCollections = 4096;

  // `anonymous_insert`: the collections whose default create rule lets anyone insert.
  RuleBook(const DocumentStore& store, std::set<std::string> anonymous_insert);

  Result<Rules> of(std::string_view project, std::string_view collection, int64_t now_ms) const;

  // Applies `changes` (an object of any of read, create, update, delete: each an array of
  // entries, or null for the default) and answers the rules after it. VALIDATION_ERROR naming
  // `rules` or `rules.<action>`.
  Result<Rules> change(std::string_view project, std::string_view collection,
                       const nlohmann::json& changes, int64_t now_ms) const;

 private:
  // The settings of one collection's rules (see kCachedCollections).
  std::shared_ptr<const StoredSettings> settings_of(std::string_view collection) const;

  // One collection's stored settings, and its rules as parsed from each project's last
  // snapshot (parsed again only when the snapshot changes).
  struct Entry {
    std::shared_ptr<const StoredSettings> settings;
    std::map<std::string, std::pair<std::shared_ptr<const StoredSettings::Snapshot>, Rules>,
             std::less<>>
        parsed;
  };

  const DocumentStore& store_;
  std::set<std::string> anonymous_insert_;
  mutable std::mutex mutex_;  // guards entries_
  mutable std::map<std::string, Entry, std::less<>> entries_;
};

}  // namespace opbase::collection
