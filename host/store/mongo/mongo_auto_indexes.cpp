// Automatic indexes on MongoDB (see mongo_auto_indexes.hpp).
#include "store/mongo/mongo_auto_indexes.hpp"

#include <algorithm>

#include "log/log.hpp"
#include "opbase/thread_name.hpp"
#include "store/mongo/mongo_client.hpp"
#include "store/mongo/record.hpp"

namespace opbase::host::mongo {
namespace {

constexpr std::string_view kAutoPrefix = "auto_";
constexpr std::string_view kAdminPrefix = "admin_";
// How long a scope's size stands for the documents an unindexed query reads.
constexpr int64_t kScopeSizeTtlMs = 60'000;

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The path an index name of `prefix` stands for: the rest of the name, when it names that path
// (a long path's name is a hash: then the name itself).
std::string path_of(const std::string& name, std::string_view prefix) {
  const std::string rest = name.substr(prefix.size());
  auto path = query::parse_path(rest, store::wire_parse_options());
  return path && index_name(*path, prefix) == name ? rest : name;
}

}  // namespace

AutoIndexer::AutoIndexer(std::shared_ptr<ClientPool> pool, std::string database,
                         AutoIndexPolicy policy, const std::vector<IndexSpec>& declared)
    : pool_(std::move(pool)),
      database_(std::move(database)),
      advisor_(policy),
      declared_specs_(declared) {
  for (const IndexSpec& spec : declared) declared_.insert(spec.path.text);
}

AutoIndexer::~AutoIndexer() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

Status AutoIndexer::start() {
  auto names = Collection(*pool_, database_, kDocuments).index_names();
  if (!names) return names.status();
  {
    std::lock_guard lock(mutex_);
    for (const std::string& name : *names) {
      if (name.starts_with(kAutoPrefix)) {
        last_used_ms_[name] = now_ms();
        paths_[name] = path_of(name, kAutoPrefix);
      } else if (name.starts_with(kAdminPrefix)) {
        admin_names_.insert(name);
        paths_[name] = path_of(name, kAdminPrefix);
      }
    }
  }
  if (advisor_.policy().enabled) thread_ = std::thread([this] { loop(); });
  return Status::ok();
}

nlohmann::json AutoIndexer::list(std::string_view ns, std::string_view collection) const {
  using nlohmann::json;
  json indexes = json::array();
  const auto entry = [](const std::string& field, std::string_view origin, json last_used) {
    return json{{"field", field},      {"origin", origin},      {"state", "ready"},
                {"multikey", nullptr}, {"created_ms", nullptr}, {"last_used_ms", last_used}};
  };
  for (const IndexSpec& spec : declared_specs_) {
    if (spec.ns == ns && spec.collection == collection) {
      indexes.push_back(entry(spec.path.text, "declared", nullptr));
    }
  }
  {
    std::lock_guard lock(mutex_);
    for (const auto& [name, path] : paths_) {
      const auto used = last_used_ms_.find(name);
      if (used != last_used_ms_.end()) {
        indexes.push_back(entry(path, "auto", used->second));
      } else {
        indexes.push_back(entry(path, "admin", nullptr));
      }
    }
  }
  json noticed = advisor_.noticed(ns, collection);
  return json{{"indexes", std::move(indexes)}, {"noticed", std::move(noticed)}};
}

Result<nlohmann::json> AutoIndexer::add(std::string_view ns, std::string_view collection,
                                        const query::FieldPath& path) {
  const auto listed = [&]() -> nlohmann::json {
    const nlohmann::json all = list(ns, collection);
    for (const auto& index : all["indexes"]) {
      if (index["field"] == path.text) return index;
    }
    return nullptr;
  };
  if (nlohmann::json existing = listed(); !existing.is_null()) return existing;
  const BsonDoc command =
      index_command({IndexSpec{std::string(ns), std::string(collection), path}}, kAdminPrefix);
  if (Status s = Collection(*pool_, database_, kDocuments).create_indexes(command.get()); !s) {
    return s;
  }
  const std::string name = index_name(path, kAdminPrefix);
  {
    std::lock_guard lock(mutex_);
    admin_names_.insert(name);
    paths_[name] = path.text;
  }
  return listed();
}

Status AutoIndexer::drop(std::string_view ns, std::string_view collection, std::string_view path) {
  const bool declared =
      std::any_of(declared_specs_.begin(), declared_specs_.end(), [&](const IndexSpec& spec) {
        return spec.ns == ns && spec.collection == collection && spec.path.text == path;
      });
  if (declared) {
    return Status::validation("the index on '" + std::string(path) +
                              "' is declared in datastore.indexes: remove it there");
  }
  std::string name;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [candidate, indexed] : paths_) {
      if (indexed == path) name = candidate;
    }
  }
  if (name.empty()) {
    return Status::validation("there is no index on '" + std::string(path) + "' of '" +
                              std::string(collection) + "'");
  }
  const BsonDoc command = drop_index_command(name);
  if (Status s = Collection(*pool_, database_, kDocuments).database_command(command.get()); !s) {
    return s;
  }
  std::lock_guard lock(mutex_);
  last_used_ms_.erase(name);
  admin_names_.erase(name);
  paths_.erase(name);
  return Status::ok();
}

void AutoIndexer::note(std::string_view ns, std::string_view collection, const store::Scope& scope,
                       store::State state, const query::Match& match,
                       const std::vector<query::SortKey>& sort,
                       std::chrono::steady_clock::time_point started) {
  if (!advisor_.policy().enabled) return;
  // The automatic indexes the query's paths have are used now; the paths without an index are
  // the advisor's to count.
  const int64_t now = now_ms();
  const auto mark_used = [&](const query::FieldPath& path) {
    std::lock_guard lock(mutex_);
    if (auto it = last_used_ms_.find(index_name(path, kAutoPrefix)); it != last_used_ms_.end()) {
      it->second = now;
    }
  };
  for (const query::Condition& c : match) mark_used(c.path);
  if (sort.size() == 1) mark_used(sort.front().path);
  const auto fields = index_candidates(match, sort, [&](const std::string& path) {
    if (declared_.contains(path)) return true;
    std::lock_guard lock(mutex_);
    return std::any_of(paths_.begin(), paths_.end(),
                       [&](const auto& entry) { return entry.second == path; });
  });
  if (fields.empty()) return;
  const int64_t size = scope_size(ns, collection, scope, state);
  const auto elapsed = std::chrono::duration_cast<std::chrono::microseconds>(
      std::chrono::steady_clock::now() - started);
  const auto ripe = advisor_.note(ns, collection, fields, size, elapsed.count());
  if (ripe.empty()) return;
  {
    std::lock_guard lock(mutex_);
    for (const std::string& path : ripe) {
      requested_.emplace_back(std::string(ns), std::string(collection), path);
    }
  }
  wake_.notify_all();
}

int64_t AutoIndexer::scope_size(std::string_view ns, std::string_view collection,
                                const store::Scope& scope, store::State state) {
  std::string key(ns);
  key.append(1, '\0').append(collection).append(1, '\0').append(scope.owner.value_or(""));
  key.append(1, '\0').append(state_value(state));
  for (const std::string& principal : scope.principals) key.append(1, '\0').append(principal);
  const int64_t now = now_ms();
  {
    std::lock_guard lock(mutex_);
    if (auto it = sizes_.find(key);
        it != sizes_.end() && now - it->second.second < kScopeSizeTtlMs) {
      return it->second.first;
    }
  }
  auto filter = selection_filter(ns, collection, scope, state, {});
  if (!filter) return 0;
  auto counted = Collection(*pool_, database_, kDocuments).count(filter->get());
  if (!counted) return 0;  // not worth failing the query that succeeded for
  std::lock_guard lock(mutex_);
  if (sizes_.size() >= 4096) sizes_.clear();
  sizes_[key] = {*counted, now};
  return *counted;
}

void AutoIndexer::create(const std::string& ns, const std::string& collection,
                         const std::string& path) {
  auto parsed = query::parse_path(path, store::wire_parse_options());
  if (!parsed) return;
  const std::string name = index_name(*parsed, kAutoPrefix);
  {
    std::lock_guard lock(mutex_);
    if (last_used_ms_.contains(name)) return;
    if (static_cast<int>(last_used_ms_.size()) >= advisor_.policy().max_per_project) return;
  }
  const BsonDoc command = index_command({IndexSpec{ns, collection, *parsed}}, kAutoPrefix);
  if (Status s = Collection(*pool_, database_, kDocuments).create_indexes(command.get()); !s) {
    log::warn("mongodb", "creating the automatic index " + name + " failed: " + s.message());
    return;
  }
  log::info("mongodb", "created the automatic index " + name + " (" + collection + "." + path +
                           ", namespace " + ns + ")");
  std::lock_guard lock(mutex_);
  last_used_ms_[name] = now_ms();
  paths_[name] = path;
}

void AutoIndexer::drop_unused(int64_t now) {
  const int64_t limit_ms = advisor_.policy().drop_unused_after_s * 1000;
  std::vector<std::string> unused;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [name, used] : last_used_ms_) {
      if (now - used >= limit_ms) unused.push_back(name);
    }
  }
  for (const std::string& name : unused) {
    const BsonDoc command = drop_index_command(name);
    if (Status s = Collection(*pool_, database_, kDocuments).database_command(command.get()); !s) {
      log::warn("mongodb",
                "dropping the unused automatic index " + name + " failed: " + s.message());
      continue;
    }
    log::info("mongodb", "dropped the automatic index " + name + ": unused for " +
                             std::to_string(advisor_.policy().drop_unused_after_s) + " s");
    std::lock_guard lock(mutex_);
    last_used_ms_.erase(name);
    paths_.erase(name);
  }
}

void AutoIndexer::loop() {
  name_this_thread("mongo-index");
  while (true) {
    std::vector<std::tuple<std::string, std::string, std::string>> requested;
    {
      std::unique_lock lock(mutex_);
      wake_.wait_for(lock, std::chrono::seconds(1),
                     [&] { return stopping_ || !requested_.empty(); });
      if (stopping_) return;
      requested.swap(requested_);
    }
    for (const auto& [ns, collection, path] : requested) create(ns, collection, path);
    drop_unused(now_ms());
  }
}

}  // namespace opbase::host::mongo
