// The configured store driver and the stores of the projects (see stores.hpp).
#include "store/stores.hpp"

#include "opbase/collection_name.hpp"
#include "store/mongo/mongo_driver.hpp"
#include "store/sqlite/sqlite_driver.hpp"
#include "store/store_service.hpp"

namespace opbase::host {
namespace {

// The namespace of the collection plugin: datastore indexes are its collections'.
constexpr std::string_view kDatastoreNamespace = "collection";

}  // namespace

Result<std::vector<IndexSpec>> parse_index_list(const std::vector<std::string>& entries) {
  std::vector<IndexSpec> out;
  for (const std::string& entry : entries) {
    const auto dot = entry.find('.');
    const std::string collection = entry.substr(0, dot);
    auto path = dot == std::string::npos ? Result<query::FieldPath>(Status::validation(""))
                                         : query::parse_path(entry.substr(dot + 1));
    if (!collection::check_collection_name(collection) || !path) {
      return Status::validation("datastore.indexes: '" + entry +
                                "' is not <collection>.<field path> (e.g. items.category)");
    }
    out.push_back({std::string(kDatastoreNamespace), collection, std::move(*path)});
  }
  return out;
}

Result<AutoIndexPolicy> parse_auto_index_policy(const Config& config) {
  auto enabled = config.get_bool("datastore.auto_indexes");
  auto after = config.get_int("datastore.auto_indexes.after_queries", 1, 1'000'000);
  auto rows = config.get_int("datastore.auto_indexes.costly_rows", 1, int64_t{1} << 40);
  auto unused = config.get_int("datastore.auto_indexes.drop_unused_after_s", 1, int64_t{1} << 40);
  auto cap = config.get_int("datastore.auto_indexes.max_per_project", 0, 1000);
  for (const Status& s :
       {enabled.status(), after.status(), rows.status(), unused.status(), cap.status()}) {
    if (!s) return s;
  }
  return AutoIndexPolicy{*enabled, static_cast<int>(*after), *rows, *unused,
                         static_cast<int>(*cap)};
}

Result<std::unique_ptr<Stores>> Stores::from(const Config& config) {
  auto indexes = parse_index_list(config.get_list("datastore.indexes"));
  if (!indexes) return indexes.status();
  auto auto_indexes = parse_auto_index_policy(config);
  if (!auto_indexes) return auto_indexes.status();
  // The embedded store's settings are checked whichever driver is chosen: a typo there stops
  // this start, not the later one that switches drivers.
  auto readers = config.get_int("storage.sqlite.readers", 1, 256);
  if (!readers) return readers.status();
  // Read by the plugins' StoredSettings (the SDK); checked here, once, so a bad value stops
  // the start instead of being ignored by each plugin.
  if (auto reload = config.get_int("storage.settings_reload_s", 1, 3600); !reload) {
    return reload.status();
  }
  const std::string sync = config.get_or("storage.sqlite.synchronous", "full");
  if (sync != "full" && sync != "normal") {
    return Status::validation("storage.sqlite.synchronous must be full or normal, not '" + sync +
                              "'");
  }
  const std::string driver = config.get_or("storage.driver", "sqlite");
  if (driver == "sqlite") {
    return std::make_unique<Stores>(std::make_unique<SqliteDriver>(
        SqliteOptions{config.get_or("storage.path", "data"), static_cast<int>(*readers),
                      sync == "full", std::move(*indexes), *auto_indexes}));
  }
  if (driver == "mongodb") {
    return std::make_unique<Stores>(std::make_unique<MongoDriver>(
        MongoOptions{config.get_or("storage.mongodb.uri"),
                     config.get_or("storage.mongodb.database_prefix", "opbase_"),
                     std::move(*indexes), *auto_indexes}));
  }
  return Status::validation("storage.driver must be sqlite or mongodb, not '" + driver + "'");
}

Status Stores::open_all(const std::vector<std::string>& project_ids) {
  for (const std::string& id : project_ids) {
    auto store = driver_->open(id);
    if (!store) {
      return Status(store.status().code(), "the " + std::string(driver_->name()) +
                                               " store of project '" + id +
                                               "' cannot open: " + store.status().message());
    }
    stores_[id] = std::move(*store);
  }
  return Status::ok();
}

ProjectStore* Stores::of(std::string_view project_id) const {
  const auto it = stores_.find(project_id);
  return it == stores_.end() ? nullptr : it->second.get();
}

std::vector<std::string> Stores::project_ids() const {
  std::vector<std::string> ids;
  for (const auto& [id, store] : stores_) ids.push_back(id);
  return ids;
}

Stores::Stores(std::unique_ptr<StoreDriver> driver) : driver_(std::move(driver)) {
  for (const StoreVerb& verb : store_verbs()) {
    call_seconds_.emplace(verb.name, std::make_unique<LatencyHistogram>());
  }
}

void Stores::record_call(std::string_view verb, double seconds) {
  const auto it = call_seconds_.find(verb);
  if (it != call_seconds_.end()) it->second->observe(seconds);
}

std::string Stores::metrics_text() const {
  std::string out;
  for (const auto& [verb, histogram] : call_seconds_) {
    if (histogram->count() == 0) continue;
    if (out.empty()) {
      out += "# HELP opbase_store_call_seconds Time of the plugins' store calls, by service.\n";
      out += "# TYPE opbase_store_call_seconds histogram\n";
    }
    histogram->render(out, "opbase_store_call_seconds", "call=\"" + verb + "\"");
  }
  std::string sizes;
  for (const auto& [id, store] : stores_) {
    if (const auto bytes = store->size_bytes()) {
      sizes += "opbase_store_size_bytes{project=\"" + id + "\"} " + std::to_string(*bytes) + "\n";
    }
  }
  if (sizes.empty()) return out;
  return out +
         "# HELP opbase_store_size_bytes Bytes a project's data takes in the store's files.\n"
         "# TYPE opbase_store_size_bytes gauge\n" +
         sizes;
}

nlohmann::json Stores::readiness(bool* ready) const {
  nlohmann::json projects = nlohmann::json::object();
  for (const auto& [id, store] : stores_) {
    const Status status = store->ping();
    projects[id] = status ? "ok" : status.message();
    if (!status) *ready = false;
  }
  return {{"driver", driver_->name()}, {"projects", projects}};
}

}  // namespace opbase::host
