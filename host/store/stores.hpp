// Stores: the configured DocumentStore driver and the opened store of every project. Built at
// start from `storage.*` and `datastore.indexes`; every configured project's store is opened
// before plugins load, so a store that cannot open stops the start with its reason.
// Thread-safety: of() and readiness() may be called from any thread once start() returned.
#pragma once

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "metrics/latency_histogram.hpp"
#include "store/index_advisor.hpp"
#include "store/project_store.hpp"

namespace opbase::host {

class Stores {
 public:
  // The driver of `storage.driver` with its options; VALIDATION_ERROR naming a bad key.
  static Result<std::unique_ptr<Stores>> from(const Config& config);
  // Test seam: any driver.
  explicit Stores(std::unique_ptr<StoreDriver> driver);

  // Opens the stores of these projects.
  Status open_all(const std::vector<std::string>& project_ids);
  // The store of a project (opened at start), or nullptr.
  ProjectStore* of(std::string_view project_id) const;
  // The projects whose stores are open, in id order (the host service `projects.list`).
  std::vector<std::string> project_ids() const;
  std::string_view driver_name() const { return driver_->name(); }

  // One call of a plugin's store service (store.<verb>, store_verbs()) took `seconds`, the
  // driver's and the server's time included.
  void record_call(std::string_view verb, double seconds);

  // The store's part of /metrics (exposition text): the opbase_store_call_seconds histogram of
  // each store service called so far, and the opbase_store_size_bytes gauge of every project
  // whose store knows its size.
  std::string metrics_text() const;

  // {"driver": "sqlite", "projects": {"default": "ok" | "<error>"}}; ready when every one is ok.
  nlohmann::json readiness(bool* ready) const;

 private:
  std::unique_ptr<StoreDriver> driver_;
  std::map<std::string, std::shared_ptr<ProjectStore>, std::less<>> stores_;
  // One per store service, made at construction: the set never changes, so no lock.
  std::map<std::string, std::unique_ptr<LatencyHistogram>, std::less<>> call_seconds_;
};

// `datastore.indexes`: "items.category, orders.total" → the collection plugin's IndexSpecs.
Result<std::vector<IndexSpec>> parse_index_list(const std::vector<std::string>& entries);
// The datastore.auto_indexes.* settings.
Result<AutoIndexPolicy> parse_auto_index_policy(const Config& config);

}  // namespace opbase::host
